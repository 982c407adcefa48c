// The redirect's name → target cache. Shorts never change, they are only created and deleted,
// so a cached target is right until its short is deleted; every instance hears of a deletion
// through PostgreSQL LISTEN/NOTIFY (sent in the deleting transaction, delivered at commit) and
// drops the entry. While the listening connection is down nothing is served from the cache
// (it is cleared, and refilled once listening again), and every entry also expires after
// `ttlMs`, a bound even if a notification were lost. Misses are not cached: a new short
// redirects at once. Even a stale hit cannot answer 302 for a deleted short: the visit row
// must be stored first, and its foreign key refuses a deleted short (404).
import { dedicatedConnection, type PrismaClient } from "@app/db";

export const SHORT_DELETED_CHANNEL = "shortener_short_deleted";

export interface Target {
  id: string;
  url: string;
}

export interface TargetCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  /** Delay before listening again after the connection failed. */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

export class TargetCache {
  private readonly entries = new Map<string, { target: Target; expires: number }>();
  private listening = false;
  private stopped = false;
  private connection: ReturnType<typeof dedicatedConnection> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly retryMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly prisma: PrismaClient,
    { ttlMs = 60_000, maxEntries = 100_000, retryMs = 1_000, onError = () => {} }: TargetCacheOptions = {},
  ) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.retryMs = retryMs;
    this.onError = onError;
  }

  get(name: string): Target | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(name);
      return undefined;
    }
    return entry.target;
  }

  set(name: string, target: Target): void {
    if (!this.listening) return;
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(name, { target, expires: Date.now() + this.ttlMs });
  }

  /** Connects the listening connection; the cache serves only while it is up. */
  async start(): Promise<void> {
    this.stopped = false;
    const connection = dedicatedConnection(this.prisma);
    this.connection = connection;
    const lost = (error?: unknown) => {
      if (this.connection !== connection) return;
      this.listening = false;
      this.entries.clear();
      this.connection = undefined;
      void connection.end().catch(() => {});
      if (error) this.onError(error);
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), this.retryMs).unref();
    };
    connection.on("error", lost);
    connection.on("end", () => lost());
    connection.on("notification", ({ payload }) => {
      if (payload !== undefined) this.entries.delete(payload);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${SHORT_DELETED_CHANNEL}`);
      this.listening = true;
    } catch (error) {
      lost(error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.listening = false;
    this.entries.clear();
    const connection = this.connection;
    this.connection = undefined;
    await connection?.end().catch(() => {});
  }
}
