// Reads that may go to a streaming replica (docs/adr/0178, 0179): the one mechanism both services
// use to choose, per read, between the replica and the primary.
//
// How far behind the replica is: every `checkIntervalMs` the primary's WAL write position is
// sampled (pg_current_wal_lsn(), after every commit that returned: a commit is flushed first),
// then the replica's replay position (pg_last_wal_replay_lsn()). The newest sample the replica has
// replayed says "the replica holds everything the primary had committed when this sample was
// taken": its time bounds the lag, and it is right on an idle primary too (nothing new to replay:
// the latest sample is replayed), where now() - pg_last_xact_replay_timestamp() grows for ever.
//
// A read goes to the replica only when that sample is
// - at most `maxLagMs` old (else the replica is behind, down, or not answering the checks), and
// - newer than this instance's last write fence (`wrote()`): a write this instance made, or a
//   change another instance notified (the redirect cache's invalidation), is then on the replica,
//   so nothing this instance reads afterwards can undo it.
// A replica read that fails because the replica went away is retried once on the primary.

import { createPrisma, isPooled, poolOf } from "./client.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";

export interface ReplicaReadsOptions {
  /** The streaming replica of the primary's database; none: every read goes to the primary. */
  replicaUrl?: string | undefined;
  /** Reads go to the replica only while it is at most this far behind (REPLICA_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the positions are compared; default a quarter of maxLagMs, within 10-250 ms. */
  checkIntervalMs?: number;
  /** The replica stopped answering or fell behind: once per episode, not at every check. */
  onOutage?: (reason: string) => void;
  /** The replica is usable again after an outage. */
  onRecovery?: () => void;
}

interface Sample {
  /** Position in the fence sequence: compared with `fence`. */
  seq: number;
  at: number;
  lsn: bigint;
}

/** `16/B374D848` → 0x16B374D848. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

export class ReplicaReads {
  /** The replica's own client, when one is configured (closed by `stop`). */
  readonly replica: PrismaClient | undefined;
  /** Reads run on each side since start, for metrics and tests. */
  readonly counts = { replica: 0, primary: 0 };
  private readonly maxLagMs: number;
  private readonly checkIntervalMs: number;
  private seq = 0;
  private fence = 0;
  /** The newest sample the replica is known to have replayed. */
  private replayed: Sample | undefined;
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private outage = false;

  constructor(
    readonly primary: PrismaClient,
    private readonly options: ReplicaReadsOptions,
  ) {
    this.maxLagMs = options.maxLagMs;
    this.checkIntervalMs =
      options.checkIntervalMs ?? Math.min(250, Math.max(10, Math.floor(options.maxLagMs / 4)));
    // The replica's statements follow the primary's: behind a pooler too when it is.
    this.replica =
      options.replicaUrl === undefined
        ? undefined
        : createPrisma(options.replicaUrl, {
            poolMax: poolOf(primary).options.max,
            // A replica behind a pooler cannot be told apart; one without a pooler loses only plan reuse.
            pooled: isPooled(primary),
          });
  }

  /**
   * A write was committed (or another instance's change was notified): reads from now on must
   * see it, so the replica is used again only once it has replayed a sample taken after this.
   */
  wrote(): void {
    this.fence = ++this.seq;
  }

  /** The client a read that tolerates the bounded lag runs on now. */
  client(): PrismaClient {
    const replayed = this.replayed;
    if (
      this.replica &&
      replayed !== undefined &&
      replayed.seq > this.fence &&
      Date.now() - replayed.at <= this.maxLagMs
    ) {
      return this.replica;
    }
    return this.primary;
  }

  /**
   * Runs a read on `client()`; when the replica fails it as unreachable, the replica is taken out
   * of use until a check finds it again, and the read runs on the primary.
   */
  async read<T>(task: (db: PrismaClient) => Promise<T>): Promise<T> {
    const db = this.client();
    if (db === this.primary) {
      this.counts.primary++;
      return task(db);
    }
    this.counts.replica++;
    try {
      return await task(db);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.lost(`a read failed: ${(error as Error).message}`);
      this.counts.primary++;
      return task(this.primary);
    }
  }

  /** Starts checking the replica's position (nothing to do without a replica). */
  async start(): Promise<void> {
    if (!this.replica || this.running) return;
    this.running = true;
    await this.check();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.replayed = undefined;
    await this.replica?.$disconnect();
  }

  private lost(reason: string): void {
    this.replayed = undefined;
    this.samples = [];
    if (!this.outage) {
      this.outage = true;
      this.options.onOutage?.(reason);
    }
  }

  private async check(): Promise<void> {
    try {
      const sample: Sample = { seq: ++this.seq, at: Date.now(), lsn: 0n };
      const primary = await poolOf(this.primary).query<{ lsn: string }>(
        "SELECT pg_current_wal_lsn()::text AS lsn",
      );
      sample.lsn = parseLsn(primary.rows[0]!.lsn);
      this.samples.push(sample);
      const replica = await poolOf(this.replica!).query<{ lsn: string | null }>(
        "SELECT pg_last_wal_replay_lsn()::text AS lsn",
      );
      const text = replica.rows[0]?.lsn;
      // NULL: not a standby (promoted, or the wrong URL): its data may have diverged.
      if (text === null || text === undefined) {
        this.lost("DATABASE_REPLICA_URL is not a standby in recovery");
      } else {
        const replay = parseLsn(text);
        // Samples are taken in order and their positions never go back: keep the newest replayed.
        while (this.samples.length > 0 && this.samples[0]!.lsn <= replay)
          this.replayed = this.samples.shift();
        if (this.replayed && Date.now() - this.replayed.at <= this.maxLagMs) {
          if (this.outage) {
            this.outage = false;
            this.options.onRecovery?.();
          }
        } else if (!this.outage && this.replayed !== undefined) {
          this.outage = true;
          this.options.onOutage?.(`the replica is more than ${this.maxLagMs} ms behind`);
        }
      }
    } catch (error) {
      this.lost(`the position check failed: ${(error as Error).message}`);
    } finally {
      // Samples the replica will never be compared against again are bounded by the lag window.
      const horizon = Date.now() - this.maxLagMs - this.checkIntervalMs;
      while (this.samples.length > 1 && this.samples[0]!.at < horizon && this.samples[1]!.at < horizon)
        this.samples.shift();
      if (this.running) this.timer = setTimeout(() => void this.check(), this.checkIntervalMs).unref();
    }
  }
}
