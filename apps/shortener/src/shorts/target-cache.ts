// The redirect's (domain, name) → target cache: a ChangeNotifiedCache (@app/db) on the channel
// that a short's deletion (shorts.service.ts) and a change of anything the redirect reads (domain,
// target, name, window, limit, expired URL, password, redirect rules, forwardQuery: the shorts_notify_changed trigger) notify
// with the short's old key (targetKey, the database's short_cache_key). A cached target is right until then, and every instance hears of it at
// commit (the editing instance drops the entry itself before answering); entries also expire
// after `ttlMs`, and nothing is served while the listening connection is down. Misses are not
// cached: a new short redirects at once. Even a stale hit cannot answer 302 for a deleted short:
// its visit row is refused first (404); nor store a visit past a limit set meanwhile: the
// batched statement refuses limited shorts, whose visits are counted one by one (visits/visit-log.ts).
import { ChangeNotifiedCache, type PrismaClient } from "@app/db";
import { DEFAULT_DOMAIN_ID } from "../default-domain.ts";
import type { CompiledRules } from "./redirect-rules.ts";

// Named before shorts could be edited; kept, so instances of an earlier release hear of edits too.
export const SHORT_DELETED_CHANNEL = "shortener_short_deleted";

/**
 * A short's cache key, as "shortener"."short_cache_key" computes it for notifications: the bare
 * name on the default domain (the key before domains existed, so instances of the previous
 * release and this one hear each other), "<domain id>/<name>" on any other.
 */
export const targetKey = (domainId: string, name: string) =>
  domainId === DEFAULT_DOMAIN_ID ? name : `${domainId}/${name}`;

export interface Target {
  id: string;
  url: string;
  /**
   * What a short with a window, a visit limit or a password must check first; absent for every
   * other short, whose redirect stays the plain lookup and group-committed visit it always was.
   */
  rules?: TargetRules;
  /**
   * The short's redirect rules (redirect-rules.ts), which pick the URL once `rules` let the visit
   * through; absent when it has none.
   */
  redirectRules?: CompiledRules;
  /** The visit's query string goes to the target (forward-query.ts); absent: off. */
  forwardQuery?: true;
}

/** A short's lifecycle as the redirect reads it: in the cache entry, so checking it costs nothing. */
export interface TargetRules {
  /** Epoch milliseconds; null: no bound. */
  validFrom: number | null;
  validUntil: number | null;
  maxVisits: number | null;
  expiredUrl: string | null;
  passwordHash: string | null;
  /**
   * Set once the limit refused a visit: the count only grows, so later visits are answered as
   * expired without the database until an edit of the limit drops this entry.
   */
  limitReached?: boolean;
}

export type TargetCache = ChangeNotifiedCache<Target>;

export interface TargetCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  retryMs?: number;
  onChange?: (payload: string) => void;
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
