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

import type { PrismaClient } from "./generated/prisma/client.ts";
import { NotificationListener } from "./notification-listener.ts";

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
  private readonly listener: NotificationListener;

  constructor(
    prisma: PrismaClient,
    private readonly options: ChangeNotifiedCacheOptions<Value>,
  ) {
    this.listener = new NotificationListener(prisma, {
      channel: options.channel,
      retryMs: options.retryMs,
      onNotification: (payload) => this.forget(payload),
      onLost: () => {
        this.generationCount++;
        this.entries.clear();
      },
      onOutage: options.onOutage,
      onRecovery: options.onRecovery,
    });
  }

  /** Whether entries are served now (the listening connection is up). */
  get isListening(): boolean {
    return this.listener.isListening;
  }

  get(key: string): Value | undefined {
    if (!this.isListening) return undefined;
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
    if (!this.isListening || readAt !== this.generationCount) return;
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
    await this.listener.start();
  }

  async stop(): Promise<void> {
    await this.listener.stop();
    this.entries.clear();
  }
}
