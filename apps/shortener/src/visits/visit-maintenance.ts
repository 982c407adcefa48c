// Keeping the visit table in shape, in the background of every instance (they coordinate
// through the database, so any number may run):
// - monthly partitions of short_logs are created ahead (this month and the next two, UTC),
//   each split in MONTH_PIECES tables by its short ids;
// - with VISIT_RETENTION_DAYS, a partition whose whole month is older than that is detached
//   and dropped a piece at a time (the hourly aggregates stay, so statistics still answer for
//   that time);
// - a deleted short's visits and aggregates are removed in chunks (deleted_shorts), so the
//   DELETE that removed the short answered at once;
// - the daily aggregates of each day that is over are rolled up from the hourly ones (visit-rollup.ts);
// - the ids of stored visit batches over an hour old are removed (visit-log.ts's `once`, docs/adr/0279).
import { inTransaction, isLockTimeout, type PrismaClient, poolOf, uuidv7Floor } from "@app/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { forgetOldSalts } from "./visit-enrichment.ts";
import { addDayToTotals, rollUpDay } from "./visit-rollup.ts";

// Any constant: one instance at a time manages partitions.
const PARTITION_LOCK_KEY = 72_797_101;
const MONTHS_AHEAD = 2;
/**
 * The tables a month's partition is split into, by a hash of the short id (docs/adr/0202): a
 * month is dropped one of them at a time, so the commits of redirects never wait behind the
 * whole month's files at once, and a short's visits of a month are all in one of them (its log,
 * its export and its deletion read one table a month).
 */
export const MONTH_PIECES = 16;
/**
 * The pause after dropping a piece of a month, before the next: four times as long as that DROP
 * took, and a second at least. On a disk that discards freed blocks online, a DROP slows every
 * commit while it lasts (the factor keeps that to a fifth of the time), and holds up the request
 * in flight on each connection, however short it is: a pause of a second keeps those to a few in
 * a thousand of the requests in between, at any load (docs/adr/0205).
 */
export function dropPause(dropMs: number): number {
  return Math.max(4 * dropMs, 1_000);
}
/** Rows removed per statement: short transactions, so redirects never wait long on them. */
export const SWEEP_CHUNK = 10_000;
/**
 * How long the ids of stored visit batches are kept (visit-log.ts's `once`): a batch is sent
 * again within DATABASE_WAIT_MS of its first sending (two minutes at most), so an hour is ample.
 */
export const VISIT_BATCH_IDS_KEPT_MS = 3_600_000;
/**
 * Tables holding a deleted short's rows, emptied in this order (the queue row goes last), each
 * with its per-user aggregate: what a chunk removes is subtracted from the short's user's rows
 * in the same statement, so an account's statistics always equal its stored visits.
 */
const SWEPT: { table: string; keys: string; user?: { table: string; keys: string[]; sums: string[] } }[] = [
  { table: "short_logs", keys: `"short_id", "id", "created_at"` },
  { table: "visit_day_visitors", keys: `"short_id", "day", "visitor"` },
  {
    table: "visit_day_values",
    keys: `"short_id", "day", "dimension", "value"`,
    user: { table: "visit_user_day_values", keys: ["day", "dimension", "value"], sums: ["visits", "humans"] },
  },
  {
    table: "visit_value_totals",
    keys: `"short_id", "dimension", "value"`,
    user: { table: "visit_user_value_totals", keys: ["dimension", "value"], sums: ["visits", "humans"] },
  },
  {
    table: "visit_hour_values",
    keys: `"short_id", "hour", "dimension", "value"`,
    user: {
      table: "visit_user_hour_values",
      keys: ["hour", "dimension", "value"],
      sums: ["visits", "humans"],
    },
  },
  {
    table: "visit_hours",
    keys: `"short_id", "hour"`,
    user: { table: "visit_user_hours", keys: ["hour"], sums: ["visits", "humans", "visitors"] },
  },
];

/** One chunk of `swept`'s rows of short $1 deleted, and subtracted from user $2's aggregate. */
function sweepStatement({ table, keys, user }: (typeof SWEPT)[number]): string {
  const gone = `DELETE FROM "shortener"."${table}" WHERE (${keys}) IN (
      SELECT ${keys} FROM "shortener"."${table}" WHERE "short_id" = $1::uuid LIMIT ${SWEEP_CHUNK})`;
  if (!user) return `WITH gone AS (${gone} RETURNING 1) SELECT count(*)::int AS "removed" FROM gone`;
  const match = user.keys.map((key) => `u."${key}" = g."${key}"`).join(" AND ");
  const set = user.sums.map((sum) => `"${sum}" = u."${sum}" - g."${sum}"`).join(", ");
  const returned = [...user.keys, ...user.sums].map((column) => `"${column}"`).join(", ");
  // The rows keyed by user and short (top shorts) go with the hours.
  const shortRows =
    table === "visit_hours"
      ? `, short_hours AS (
           DELETE FROM "shortener"."visit_user_short_hours" u USING gone g
           WHERE u."user_id" = $2::uuid AND u."hour" = g."hour" AND u."short_id" = $1::uuid
         ), short_days AS (
           DELETE FROM "shortener"."visit_user_short_days" u
           WHERE u."user_id" = $2::uuid AND u."short_id" = $1::uuid
             AND u."day" IN (SELECT ("hour" AT TIME ZONE 'UTC')::date FROM gone)
         ), short_totals AS (
           -- All at once: a deleted short is left out of every read of them (deleted_shorts).
           DELETE FROM "shortener"."visit_user_short_totals" u WHERE u."user_id" = $2::uuid AND u."short_id" = $1::uuid
         )`
      : "";
  return `WITH gone AS (${gone} RETURNING ${returned}), subtracted AS (
      UPDATE "shortener"."${user.table}" u SET ${set} FROM gone g WHERE u."user_id" = $2::uuid AND ${match}
    )${shortRows}
    SELECT count(*)::int AS "removed" FROM gone`;
}
// Each with the parameters it uses (PostgreSQL refuses a value a statement leaves unused).
const SWEEP_STATEMENTS = SWEPT.map((swept) => ({
  text: sweepStatement(swept),
  withUser: swept.user !== undefined,
}));

export interface Partition {
  name: string;
  /** Inclusive lower bound; null for none (MINVALUE). */
  from: Date | null;
  /** Exclusive upper bound; null for none (MAXVALUE). */
  until: Date | null;
  /** A DETACH … CONCURRENTLY of it was interrupted (the process died in it): only FINALIZE goes on. */
  detachPending: boolean;
}

export interface VisitMaintenanceOptions {
  /** Partitions whose month ended more than this many days ago are dropped; undefined: keep all. */
  retentionDays?: number | undefined;
  /** How often partitions are checked (default hourly). */
  intervalMs?: number;
  /** How often the deletion queue is looked at when idle (default 5 s). */
  sweepIntervalMs?: number;
  /** How soon a roll-up that gave up waiting for a lock (a long transaction) tries again (default 1 min). */
  rollUpRetryMs?: number;
  /** How long a roll-up waits for its locks before it gives way (default 2 s; visit-rollup.ts). */
  rollUpLockTimeoutMs?: number;
  /**
   * The pause between the pieces of a month being dropped, from how long the last piece took
   * (default dropPause; tests that drop many small months pause for none).
   */
  dropPause?: (dropMs: number) => number;
  log?: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

const monthStart = (date: Date, plus = 0) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + plus, 1));
const partitionName = (month: Date) =>
  `short_logs_${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, "0")}`;

/**
 * The statements that create month `month`'s partition (UTC; any instant in it) and its
 * MONTH_PIECES pieces, to be run in one transaction. The month is made apart and then attached:
 * `CREATE TABLE … PARTITION OF short_logs` would lock short_logs against every visit batch until
 * commit, for as long as the 17 tables take to create (70-85 ms measured); ATTACH takes a lock
 * that inserts pass (SHARE UPDATE EXCLUSIVE), and gives the month and its pieces the key index.
 * Returns the partition's name with them.
 */
export function monthPartition(month: Date): { name: string; statements: string[] } {
  const from = monthStart(month);
  const name = partitionName(from);
  const pieces = Array.from(
    { length: MONTH_PIECES },
    (_, remainder) =>
      `CREATE TABLE "shortener"."${name}_${String(remainder).padStart(2, "0")}"
       PARTITION OF "shortener"."${name}" FOR VALUES WITH (MODULUS ${MONTH_PIECES}, REMAINDER ${remainder})`,
  );
  return {
    name,
    statements: [
      `CREATE TABLE "shortener"."${name}" (LIKE "shortener"."short_logs" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
       PARTITION BY HASH ("short_id")`,
      ...pieces,
      `ALTER TABLE "shortener"."short_logs" ATTACH PARTITION "shortener"."${name}"
       FOR VALUES FROM ('${from.toISOString()}') TO ('${monthStart(from, 1).toISOString()}')`,
    ],
  };
}

/** Where a month of visits is on its way out of short_logs. */
type MonthState = "attached" | "detaching" | "detached" | "gone";

/** The comment that marks a month of visits as past the retention, to be dropped. */
const DROPPING = "visits past VISIT_RETENTION_DAYS: being dropped";

export class VisitMaintenance {
  private readonly pool: ReturnType<typeof poolOf>;
  private timers: NodeJS.Timeout[] = [];
  private rollUpRetry: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  /** Scheduled runs in progress (partitions, roll-ups): stop() lets them finish. */
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  /** Pauses between a month's pieces in progress: stop() ends them (the next run finishes the month). */
  private readonly pauses = new Set<() => void>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: VisitMaintenanceOptions = {},
  ) {
    this.pool = poolOf(prisma);
  }

  /**
   * The database's clock: every instance agrees on which months and days are due, whatever its
   * own clock says (one far ahead would drop the month being written, or close today early).
   */
  private async databaseNow(): Promise<Date> {
    const { rows } = await this.pool.query<{ now: Date }>(`SELECT now() AS "now"`);
    return rows[0]!.now;
  }

  /** The partitions of short_logs, by upper bound (read on `on`, e.g. inside its transaction). */
  async partitions(on: Pick<ReturnType<typeof poolOf>, "query"> = this.pool): Promise<Partition[]> {
    const { rows } = await on.query<Partition>(
      `SELECT c.relname AS "name",
         (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS "from",
         (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS "until",
         i.inhdetachpending AS "detachPending"
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = '"shortener"."short_logs"'::regclass ORDER BY 3 NULLS LAST`,
    );
    return rows;
  }

  /**
   * Creates a partition for each month from this one through MONTHS_AHEAD months after it that no
   * partition covers yet, and drops those past the retention. Returns what it did, for the log.
   */
  async maintainPartitions(at?: Date): Promise<{ created: string[]; dropped: string[] }> {
    const now = at ?? (await this.databaseNow());
    const created: string[] = [];
    await inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [PARTITION_LOCK_KEY]);
      // On the locked transaction's own connection: a second one from the pool, while another
      // instance waits for the lock, can deadlock a small pool (PgBouncer's default_pool_size).
      const existing = await this.partitions(client);
      const covered = (month: Date) =>
        existing.some((p) => (p.from === null || p.from <= month) && (p.until === null || month < p.until));
      for (
        let month = monthStart(now);
        month <= monthStart(now, MONTHS_AHEAD);
        month = monthStart(month, 1)
      ) {
        if (covered(month)) continue;
        const { name, statements } = monthPartition(month);
        for (const statement of statements) await client.query(statement);
        created.push(name);
      }
    });
    // Visitors of days before yesterday can no longer come back the same day: their rows go,
    // and so do those days' salts.
    const today = now.toISOString().slice(0, 10);
    for (let removed = SWEEP_CHUNK; removed === SWEEP_CHUNK; ) {
      const result = await this.pool.query(
        `DELETE FROM "shortener"."visit_day_visitors" WHERE ("short_id", "day", "visitor") IN (
           SELECT "short_id", "day", "visitor" FROM "shortener"."visit_day_visitors"
           WHERE "day" < $1::date - 1 LIMIT ${SWEEP_CHUNK})`,
        [today],
      );
      removed = result.rowCount ?? 0;
    }
    await forgetOldSalts(this.prisma, today);
    // Batch ids are UUIDv7s, time first: those made over an hour ago are the start of the key.
    const kept = uuidv7Floor(now.getTime() - VISIT_BATCH_IDS_KEPT_MS);
    for (let removed = SWEEP_CHUNK; removed === SWEEP_CHUNK; ) {
      const result = await this.pool.query(
        `DELETE FROM "shortener"."visit_batches" WHERE ("batch_id", "short_id") IN (
           SELECT "batch_id", "short_id" FROM "shortener"."visit_batches"
           WHERE "batch_id" < $1::uuid LIMIT ${SWEEP_CHUNK})`,
        [kept],
      );
      removed = result.rowCount ?? 0;
    }
    // Orphan visit flushes' ids (docs/adr/0288), kept as long.
    for (let removed = SWEEP_CHUNK; removed === SWEEP_CHUNK; ) {
      const result = await this.pool.query(
        `DELETE FROM "shortener"."orphan_visit_batches" WHERE "id" IN (
           SELECT "id" FROM "shortener"."orphan_visit_batches" WHERE "id" < $1::uuid LIMIT ${SWEEP_CHUNK})`,
        [kept],
      );
      removed = result.rowCount ?? 0;
    }
    const dropped: string[] = [];
    const { retentionDays } = this.options;
    if (retentionDays !== undefined) {
      // Months this service detached and did not get to drop (its process died in between, or
      // it stopped between two pieces).
      const { rows: leftovers } = await this.pool.query<{ name: string }>(
        `SELECT c.relname AS "name" FROM pg_class c
         WHERE c.relnamespace = 'shortener'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND obj_description(c.oid, 'pg_class') = $1`,
        [DROPPING],
      );
      // A stopped run starts no further month (stop() waits for the run to end).
      for (const { name } of leftovers) {
        if (this.stopped) break;
        if (await this.dropOnce(name, ["gone"], () => this.dropDetached(name))) dropped.push(name);
      }
      const cutoff = now.getTime() - retentionDays * 86_400_000;
      for (const partition of await this.partitions()) {
        if (this.stopped) break;
        if (partition.until === null || partition.until.getTime() > cutoff) continue;
        if (await this.dropMonth(partition)) dropped.push(partition.name);
      }
    }
    return { created, dropped };
  }

  /**
   * Creates the partition of each month of `months` (instants in them) that none covers yet, as
   * maintainPartitions does ahead of time: for visits of past months an import stores (docs/adr/0226).
   * Returns the partitions created.
   */
  async coverMonths(months: Iterable<Date>): Promise<string[]> {
    const wanted = [...new Map([...months].map((m) => [monthStart(m).getTime(), monthStart(m)])).values()];
    const created: string[] = [];
    if (wanted.length === 0) return created;
    await inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [PARTITION_LOCK_KEY]);
      const existing = await this.partitions(client);
      for (const month of wanted) {
        if (
          existing.some((p) => (p.from === null || p.from <= month) && (p.until === null || month < p.until))
        )
          continue;
        const { name, statements } = monthPartition(month);
        for (const statement of statements) await client.query(statement);
        created.push(name);
      }
    });
    return created;
  }

  /**
   * Detaches `partition` (a month) from short_logs and drops it: true once it is gone; false when
   * another instance is dropping it, or this one stopped before it was done (the next run
   * finishes it).
   */
  dropMonth(partition: Pick<Partition, "name" | "detachPending">): Promise<boolean> {
    const { name } = partition;
    return this.dropOnce(name, ["gone", "detaching", "detached"], async () => {
      // Marked first, so that a detached month is still known for one to drop if the process
      // dies before its DROP; the mark does not hold back the inserts.
      await this.pool.query(`COMMENT ON TABLE "shortener"."${name}" IS '${DROPPING}'`);
      // CONCURRENTLY: redirects keep inserting while it detaches (it runs outside a
      // transaction). One interrupted half-way (its process died) can only be finished, and is.
      await this.pool.query(
        `ALTER TABLE "shortener"."short_logs" DETACH PARTITION "shortener"."${name}" ${partition.detachPending ? "FINALIZE" : "CONCURRENTLY"}`,
      );
      return this.dropDetached(name);
    });
  }

  /**
   * Drops month `name`, detached from short_logs: its pieces one at a time, each followed by a
   * pause (dropPause), then the month's own table (a month from before the pieces, like
   * the legacy partition, is that table alone). Another instance may be dropping the same
   * pieces: IF EXISTS. Stopping leaves the rest to the next run (the month is marked): false.
   */
  private async dropDetached(name: string): Promise<boolean> {
    const { rows: pieces } = await this.pool.query<{ name: string }>(
      `SELECT c.relname AS "name" FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = ('"shortener".' || quote_ident($1))::regclass ORDER BY 1`,
      [name],
    );
    const pauseAfter = this.options.dropPause ?? dropPause;
    for (const [index, piece] of pieces.entries()) {
      if (this.stopped) return false;
      const started = performance.now();
      await this.pool.query(`DROP TABLE IF EXISTS "shortener"."${piece.name}"`);
      const pause = pauseAfter(performance.now() - started);
      if (pause > 0 && index < pieces.length - 1) await this.pause(pause);
    }
    await this.pool.query(`DROP TABLE "shortener"."${name}"`);
    return true;
  }

  /** Waits `ms`, or until stop(): none when stop() came first (during the DROP before it). */
  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.pauses.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.pauses.add(end);
    });
  }

  /**
   * Runs the steps that drop month `name`: what they return (true once they dropped it).
   * Another instance may be dropping the same month (both found it due): a step then fails on
   * what the other did first (a DETACH of a partition already detaching, a DROP of a table
   * already gone). When the month is
   * then in one of the states `others` (what the other instance leaves: gone, detaching, or
   * detached and marked), that one finishes it, or the next run does: false. Otherwise the
   * failure is this instance's own, and is thrown.
   */
  private async dropOnce(
    name: string,
    others: MonthState[],
    steps: () => Promise<boolean>,
  ): Promise<boolean> {
    try {
      return await steps();
    } catch (error) {
      const { rows } = await this.pool.query<{ state: MonthState }>(
        `SELECT CASE WHEN c.oid IS NULL THEN 'gone' WHEN i.inhrelid IS NULL THEN 'detached'
           WHEN i.inhdetachpending THEN 'detaching' ELSE 'attached' END AS "state"
         FROM (SELECT 1) AS one
         LEFT JOIN pg_class c ON c.relnamespace = 'shortener'::regnamespace AND c.relname = $1
         LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = '"shortener"."short_logs"'::regclass`,
        [name],
      );
      if (others.includes(rows[0]!.state)) return false;
      throw error;
    }
  }

  /** Rolls up every day old enough, one transaction a day (visit-rollup.ts); returns the days. */
  async rollUp(at?: Date): Promise<string[]> {
    const today = (at ?? (await this.databaseNow())).toISOString().slice(0, 10);
    const days: string[] = [];
    const { rollUpLockTimeoutMs } = this.options;
    for (
      let day = await rollUpDay(this.pool, today, rollUpLockTimeoutMs);
      day !== undefined && !this.stopped;
    ) {
      days.push(day);
      day = await rollUpDay(this.pool, today, rollUpLockTimeoutMs);
    }
    // Then the days rolled up, into the totals (also those an earlier run left behind).
    while (!this.stopped && (await addDayToTotals(this.pool, rollUpLockTimeoutMs)) !== undefined) {}
    return days;
  }

  /**
   * Removes one chunk of a deleted short's rows; when nothing is left of it, its queue row.
   * Returns the rows removed (0: the queue is empty or another instance holds its head).
   */
  sweepChunk(): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ short_id: string; user_id: string }>(
        `SELECT "short_id", "user_id" FROM "shortener"."deleted_shorts" ORDER BY "deleted_at"
         LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const queued = rows[0];
      if (!queued) return 0;
      const shortId = queued.short_id;
      let removed = 0;
      for (const { text, withUser } of SWEEP_STATEMENTS) {
        const values = withUser ? [shortId, queued.user_id] : [shortId];
        const result = await client.query<{ removed: number }>(text, values);
        removed += result.rows[0]!.removed;
        if (removed > 0) break;
      }
      if (removed === 0) {
        await client.query(`DELETE FROM "shortener"."deleted_shorts" WHERE "short_id" = $1`, [shortId]);
        removed = 1;
      }
      return removed;
    });
  }

  /**
   * Deletes a live short's visits now, with their aggregates (the sweep's statements, run to the
   * end in one transaction), and restarts its visit limit's count: Shlink's DELETE of a short
   * URL's visits. The caller folds the pending sums first (VisitLog.settle); the short's row is
   * locked, which holds off visits being stored, and the sums still pending for it are of
   * visits whose rows go too. Returns how many visits were deleted.
   */
  async deleteVisitsOf(shortId: string, userId: string): Promise<number> {
    // A fold of the short's pending sums can take its locks in the other order: PostgreSQL
    // then aborts one of the two, and this one, rolled back whole, runs again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deleteVisitsOnce(shortId, userId);
      } catch (error) {
        if (attempt >= 3 || (error as { code?: string }).code !== "40P01") throw error;
      }
    }
  }

  private deleteVisitsOnce(shortId: string, userId: string): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      const locked = await client.query(`SELECT 1 FROM "shortener"."shorts" WHERE "id" = $1 FOR UPDATE`, [
        shortId,
      ]);
      if (locked.rowCount === 0) return 0;
      await client.query(`DELETE FROM "shortener"."visit_pending_sums" WHERE "short_id" = $1`, [shortId]);
      let visits = 0;
      for (const [index, { text, withUser }] of SWEEP_STATEMENTS.entries()) {
        const values = withUser ? [shortId, userId] : [shortId];
        for (let removed = -1; removed !== 0; ) {
          removed = (await client.query<{ removed: number }>(text, values)).rows[0]!.removed;
          // The first table swept is short_logs: its rows are the visits.
          if (index === 0) visits += removed;
        }
      }
      await client.query(`UPDATE "shortener"."shorts" SET "counted_visits" = 0 WHERE "id" = $1`, [shortId]);
      return visits;
    });
  }

  /** Sweeps until the queue is empty; concurrent calls share one run. */
  sweep(): Promise<number> {
    this.sweeping ??= (async () => {
      let total = 0;
      for (let removed = 1; removed > 0 && !this.stopped; ) {
        removed = await this.sweepChunk();
        total += removed;
      }
      return total;
    })().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  start(): void {
    const { intervalMs = 3_600_000, sweepIntervalMs = 5_000, rollUpRetryMs = 60_000, log } = this.options;
    const rollUp = (): Promise<void> =>
      this.track(() =>
        this.rollUp().then(
          (days) => {
            if (days.length > 0) log?.info({ days }, "daily visit aggregates rolled up");
          },
          (err: unknown) => {
            if (!isLockTimeout(err)) {
              log?.error({ err }, "daily visit aggregates: roll-up failed; retrying later");
              return;
            }
            // A transaction held the daily tables past the roll-up's lock timeout: the roll-up
            // gave way to it (visit-rollup.ts), and comes back soon rather than in an hour.
            log?.warn(
              { retryInMs: rollUpRetryMs },
              "daily visit aggregates: the daily tables were busy; rolling up again soon",
            );
            clearTimeout(this.rollUpRetry);
            this.rollUpRetry = setTimeout(rollUp, rollUpRetryMs);
            this.rollUpRetry.unref();
          },
        ),
      );
    const partitions = () =>
      this.track(() =>
        this.maintainPartitions().then(
          ({ dropped }) => {
            if (dropped.length > 0)
              log?.info({ dropped }, "visit partitions past VISIT_RETENTION_DAYS dropped");
          },
          (err: unknown) => log?.error({ err }, "visit partitions: maintenance failed; retrying later"),
        ),
      ).then(rollUp);
    const sweep = () =>
      this.sweep().then(
        // A roll-up waits for the deletion queue to empty: it goes as soon as it has.
        (removed) => {
          if (removed > 0) void rollUp();
        },
        (err: unknown) => log?.error({ err }, "deleted shorts: removing their visits failed; retrying later"),
      );
    void partitions();
    void sweep();
    this.timers = [setInterval(partitions, intervalMs), setInterval(sweep, sweepIntervalMs)];
    for (const timer of this.timers) timer.unref();
  }

  /**
   * A scheduled run, unless the maintenance is stopping; stop() waits for it. `work` reports its
   * own failures, so the run never rejects.
   */
  private track(work: () => Promise<void>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const run = work().finally(() => this.running.delete(run));
    this.running.add(run);
    return run;
  }

  /**
   * Stops the timers, and waits for a sweep in progress to finish its chunk and for a partition
   * run or a roll-up in progress to finish its transaction (a roll-up starts no further day; a
   * month being dropped stops between two pieces, its pause cut short: a DROP that took seconds
   * on a slow disk is followed by four times as long).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const end of this.pauses) end();
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.rollUpRetry);
    await Promise.all([this.sweeping?.catch(() => {}), ...this.running]);
  }
}

async function visitMaintenancePlugin(
  app: FastifyInstance,
  options: Omit<VisitMaintenanceOptions, "log">,
): Promise<void> {
  const maintenance = new VisitMaintenance(app.prisma, { ...options, log: app.log });
  app.decorate("visitMaintenance", maintenance);
  app.addHook("onReady", () => {
    maintenance.start();
  });
  app.addHook("onClose", () => maintenance.stop());
}

export default fp(visitMaintenancePlugin, {
  name: "visit-maintenance",
  fastify: "5.x",
  decorators: { fastify: ["prisma"] },
});
