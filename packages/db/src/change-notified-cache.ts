// A cache that every instance keeps right through PostgreSQL LISTEN/NOTIFY: the writer sends a
// notification in the changing transaction (delivered at commit), and every instance listening
// on the channel drops what it names. Used by the shortener's redirect targets and scheduling's
// tenant directory.
//
// - Entries are served only while the listening connection is up. When it drops, the cache is
//   cleared and not filled (every lookup goes to the database) until LISTEN is back, retried
//   every `retryMs`; an outage is reported once (`onOutage`), and its end once (`onRecovery`).
// - Every entry also expires after `ttlMs`: a bound even if a notification were lost.
// - A lookup that started before a notification does not fill the cache with what it read
//   (`generation()` before the read, passed to `set`).
// - At most `maxEntries`, oldest first out. Misses are never cached.

import { dedicatedConnection } from "./client.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";

export interface ChangeNotifiedCacheOptions<Value> {
  /** The NOTIFY channel; its payload names what changed. */
  channel: string;
  ttlMs: number;
  maxEntries: number;
  /** Delay before listening again after the connection failed. */
  retryMs?: number;
  /**
   * Which entries a notification drops. Default: the entry whose key is the payload. Otherwise
   * every entry this says yes to (the tenant directory's keys are key hashes, its payloads tenant ids).
   */
  matches?: (payload: string, key: string, value: Value) => boolean;
  /**
   * Told of every change dropped (a notification, or `forget` by the writer), e.g. to fence
   * replica reads (ReplicaReads.wrote) so that no refill comes from a replica without the change.
   */
  onChange?: (payload: string) => void;
  /** The listening connection failed: called once per outage, not at every retry. */
  onOutage?: (error: unknown) => void;
  /** Listening again after an outage: called once. */
  onRecovery?: () => void;
}

export class ChangeNotifiedCache<Value> {
  private readonly entries = new Map<string, { value: Value; expires: number }>();
  private generationCount = 0;
  private listening = false;
  private failing = false;
  private stopped = false;
  private connection: ReturnType<typeof dedicatedConnection> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly retryMs: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: ChangeNotifiedCacheOptions<Value>,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel))
      throw new Error(`not a channel name: ${options.channel}`);
    this.retryMs = options.retryMs ?? 1_000;
  }

  /** Whether entries are served now (the listening connection is up). */
  get isListening(): boolean {
    return this.listening;
  }

  get(key: string): Value | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Take before reading the database; `set` ignores a read that a notification overtook. */
  generation(): number {
    return this.generationCount;
  }

  set(key: string, value: Value, readAt: number = this.generationCount): void {
    if (!this.listening || readAt !== this.generationCount) return;
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: Date.now() + this.options.ttlMs });
  }

  /**
   * Drops what `payload` names, as its notification does: for the writer's own instance, which
   * must not serve the old value until its notification comes back.
   */
  forget(payload: string): void {
    this.generationCount++;
    this.options.onChange?.(payload);
    const { matches } = this.options;
    if (!matches) {
      this.entries.delete(payload);
      return;
    }
    for (const [key, entry] of this.entries) if (matches(payload, key, entry.value)) this.entries.delete(key);
  }

  /** Connects the listening connection; entries are served only while it is up. */
  async start(): Promise<void> {
    this.stopped = false;
    const connection = dedicatedConnection(this.prisma);
    this.connection = connection;
    const lost = (error?: unknown) => {
      if (this.connection !== connection) return;
      this.listening = false;
      this.generationCount++;
      this.entries.clear();
      this.connection = undefined;
      void connection.end().catch(() => {});
      if (!this.failing) {
        this.failing = true;
        this.options.onOutage?.(error ?? new Error("the listening connection ended"));
      }
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), this.retryMs).unref();
    };
    connection.on("error", lost);
    connection.on("end", () => lost());
    connection.on("notification", ({ payload }) => {
      if (payload !== undefined) this.forget(payload);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${this.options.channel}`);
      // The connection may have failed (and another attempt begun) while LISTEN was in flight.
      if (this.connection === connection && !this.stopped) {
        this.listening = true;
        if (this.failing) {
          this.failing = false;
          this.options.onRecovery?.();
        }
      }
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
