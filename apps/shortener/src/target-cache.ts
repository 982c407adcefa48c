// The redirect's name → target cache: a ChangeNotifiedCache (@app/db) on the channel the short
// deletion trigger notifies. Shorts never change, they are only created and deleted, so a
// cached target is right until its short is deleted, which every instance hears of at commit;
// entries also expire after `ttlMs`, and nothing is served while the listening connection is
// down. Misses are not cached: a new short redirects at once. Even a stale hit cannot answer 302
// for a deleted short: the visit row must be stored first, and its foreign key refuses it (404).
import { ChangeNotifiedCache, type PrismaClient } from "@app/db";

export const SHORT_DELETED_CHANNEL = "shortener_short_deleted";

export interface Target {
  id: string;
  url: string;
}

export type TargetCache = ChangeNotifiedCache<Target>;

export interface TargetCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  retryMs?: number;
  onOutage?: (error: unknown) => void;
  onRecovery?: () => void;
}

export function createTargetCache(
  prisma: PrismaClient,
  { ttlMs = 60_000, maxEntries = 100_000, ...rest }: TargetCacheOptions = {},
): TargetCache {
  return new ChangeNotifiedCache<Target>(prisma, {
    channel: SHORT_DELETED_CHANNEL,
    ttlMs,
    maxEntries,
    ...rest,
  });
}
