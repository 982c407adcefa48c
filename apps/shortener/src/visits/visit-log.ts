import { isTransactionConflict, type PrismaClient, poolOf } from "@app/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { plainArray, textArray, timeArray } from "./array-literals.ts";
import { type VisitLogObserver, visitLogMetrics } from "./metrics.ts";
import { aggregateBatch, BatchSums } from "./visit-aggregates.ts";
import { type Enrichment, VisitEnricher, type VisitIpMode, VisitorSalts } from "./visit-enrichment.ts";
import { ROLLUP_AGE_DAYS } from "./visit-rollup.ts";

export interface Visit {
  shortId: string;
  ipAddress: string;
  userAgent: string;
  referer: string;
  /** When the redirect was asked for; default: when `record()` is called. */
  at?: Date;
  /** Stored by an import (imports/importer.ts), at its original time; default false. */
  imported?: boolean;
}

/** The short was deleted between the redirect's lookup and the write of its visit. */
export class ShortGone extends Error {
  override name = "ShortGone";
}

interface Pending {
  visit: Visit & { at: Date };
  /** Derived when the visit joins the queue, while the batch before it commits. */
  enriched: Enrichment | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Visits waiting to be written together, and their sums so far. */
interface Batch {
  pending: Pending[];
  /** Summed as each visit joined; undefined once one joined without its enrichment. */
  sums: BatchSums | undefined;
}

export interface VisitLogOptions {
  /** Most rows in one INSERT. */
  maxBatch?: number;
  /**
   * INSERTs in flight at once (each holds one pooled connection while it commits). One is
   * fastest here: while it commits, the next batch gathers every visit that arrives, so each
   * commit carries the most rows (measured: 1 → 22k, 2 → 19.5k, 4 → 16k redirects/s; docs/performance.md).
   */
  concurrency?: number;
  observer?: VisitLogObserver;
  /** What the rows keep of the visitor's address (VISIT_IP); default "full". */
  ipMode?: VisitIpMode;
}

/**
 * Durable visit logging with group commit. `record()` resolves once the visit's row is
 * committed, so a redirect is only sent after its log row is stored. Visits that arrive
 * while an INSERT is in flight wait and go out together in the next multi-row INSERT:
 * an idle service writes each visit at once, a busy one writes few large batches
 * instead of one round trip per visit (cut so that the batches stay even: nextBatch). Each
 * batch is enriched (visit-enrichment.ts) and stored with its hourly aggregates in one
 * statement: the aggregates never disagree with the rows.
 * See docs/adr (the visit log's group commit; visit analytics).
 */
export class VisitLog {
  /** Batches waiting to be written, oldest first; visits join the last one. */
  private readonly batches: Batch[] = [];
  private queued = 0;
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];
  /**
   * Writes outside the batches' slots: recordCounted() visits, and batches that gave their slot
   * up to wait for a roll-up (write). drain() waits for them too.
   */
  private readonly outside = new Set<Promise<void>>();
  /**
   * Batches with a visit of a past day, written outside the slots one after another: they wait
   * on the same daily rows anyway, and each would hold a pooled connection meanwhile (unbounded,
   * a burst of them took every connection, and visits failed for want of one). `pastDays`: the
   * last one's write; `pastDayNext`: the one waiting for it, which later such visits join.
   */
  private pastDays: Promise<unknown> = Promise.resolve();
  private pastDayNext: { pending: Pending[]; statement: Statement; written: Promise<void> } | undefined;
  private inFlightVisits = 0;
  /** Visits whose rows are committed, since start. */
  written = 0;
  /** `written` when the service began to stop (for the stop line); undefined until then. */
  writtenAtStop: number | undefined;

  /** Visits stored since the service began to stop: those it drained. */
  get storedWhileStopping(): number {
    return this.writtenAtStop === undefined ? 0 : this.written - this.writtenAtStop;
  }
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly observer: VisitLogObserver | undefined;
  private readonly pool: ReturnType<typeof poolOf>;
  private readonly enricher: VisitEnricher;
  private readonly salts: VisitorSalts;

  constructor(
    prisma: PrismaClient,
    { maxBatch = 1000, concurrency = 1, observer, ipMode = "full" }: VisitLogOptions = {},
  ) {
    // The write path is one statement per batch on the driver itself: Prisma's createMany
    // costs more per row than the INSERT does (docs/performance.md).
    this.pool = poolOf(prisma);
    this.maxBatch = maxBatch;
    this.concurrency = concurrency;
    this.observer = observer;
    this.enricher = new VisitEnricher(ipMode);
    this.salts = new VisitorSalts(prisma);
  }

  /** Visits waiting for their row, queued or being written. */
  get depth(): number {
    return this.queued + this.inFlightVisits;
  }

  record(visit: Visit): Promise<void> {
    const at = visit.at ?? new Date();
    // Enriched now, while the batch in flight commits, so sending the next batch only sums and
    // serializes it; the day's salt is in memory after its first batch (else: at send time).
    const salt = this.salts.cached(at);
    const enriched = salt ? this.enricher.enrich(visit, salt) : undefined;
    return new Promise((resolve, reject) => {
      let batch = this.batches.at(-1);
      if (batch === undefined || batch.pending.length >= this.maxBatch) {
        batch = { pending: [], sums: new BatchSums() };
        this.batches.push(batch);
      }
      const { shortId, ipAddress, userAgent, referer, imported } = visit;
      batch.pending.push({
        visit: { shortId, ipAddress, userAgent, referer, at, imported },
        enriched,
        resolve,
        reject,
      });
      this.queued++;
      if (enriched === undefined) batch.sums = undefined;
      else batch.sums?.add(shortId, at, enriched);
      this.pump();
    });
  }

  /**
   * A visit of a short with a visit limit, outside the batches: its own statement stores it only
   * if it takes the short's count to at most its limit (COUNTED_VISIT), so the limit is exact
   * whatever the concurrency or the number of instances. Rejects with ShortGone when the visit
   * was not stored: the limit is reached, was removed meanwhile, or the short is gone.
   */
  recordCounted(visit: Visit): Promise<void> {
    const at = visit.at ?? new Date();
    const salt = this.salts.cached(at);
    const enriched = salt ? this.enricher.enrich(visit, salt) : undefined;
    const stored = new Promise<void>((resolve, reject) => {
      void this.write([{ visit: { ...visit, at }, enriched, resolve, reject }], undefined, COUNTED);
    });
    return this.trackOutside(stored);
  }

  /**
   * Writes a batch with a visit of a past day outside the slots, after the one before it: it joins
   * the batch waiting for that one, if there is one of its statement with room.
   */
  private writePastDay(batch: Pending[], sums: BatchSums | undefined, statement: Statement, attempt: number) {
    const next = this.pastDayNext;
    if (
      next?.statement === statement &&
      attempt === 0 &&
      next.pending.length + batch.length <= this.maxBatch
    ) {
      next.pending.push(...batch);
      return next.written;
    }
    const gathering = { pending: [...batch], statement, written: Promise.resolve() };
    this.pastDayNext = gathering;
    gathering.written = this.trackOutside(
      this.pastDays.then(() => {
        if (this.pastDayNext === gathering) this.pastDayNext = undefined;
        // Summed again if others joined it.
        const joined = gathering.pending.length > batch.length;
        return this.write(gathering.pending, joined ? undefined : sums, statement, undefined, attempt);
      }),
    );
    this.pastDays = gathering.written.catch(() => undefined);
    return gathering.written;
  }

  private trackOutside(write: Promise<void>): Promise<void> {
    this.outside.add(write);
    const forget = () => this.outside.delete(write);
    write.then(forget, forget);
    return write;
  }

  /** Resolves when every visit recorded so far is written (or has failed). */
  async drain(): Promise<void> {
    for (;;) {
      await Promise.allSettled([...this.outside]);
      if (this.inFlight > 0 || this.queued > 0) {
        await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      } else if (this.outside.size === 0) {
        return;
      }
    }
  }

  /** Sends batches while fewer than `concurrency` are in flight; `committed`: the batch just stored. */
  private pump(committed = 0): void {
    while (this.inFlight < this.concurrency && this.batches.length > 0) {
      const { pending, sums } = this.nextBatch(committed);
      this.queued -= pending.length;
      this.inFlight++;
      this.inFlightVisits += pending.length;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.inFlightVisits -= pending.length;
        this.pump(pending.length);
      };
      void this.write(pending, sums, BATCHED, release).finally(() => {
        release();
        if (this.inFlight === 0 && this.queued === 0) {
          for (const wake of this.idleWaiters.splice(0)) wake();
        }
      });
    }
  }

  /**
   * The batch to send once one of `committed` visits is stored. Under steady load the clients form
   * two cohorts: one waits on the statement while the server answers the other and reads its next
   * requests. Left alone, cohorts of 63 and 1 persist (measured at 64 connections): the database
   * idles while the server answers 63, then the server while the database stores them. A batch
   * larger than the one just stored goes out up to half of both, its rest first in the next:
   * the cohorts even out within two batches, each waiting at most one batch longer.
   */
  private nextBatch(committed: number): Batch {
    const batch = this.batches.shift()!;
    const share = Math.ceil((batch.pending.length + committed) / 2);
    if (committed === 0 || batch.pending.length <= share) return batch;
    const rest = batch.pending.splice(share);
    this.batches.unshift({ pending: rest, sums: sumsOf(rest) });
    return { pending: batch.pending, sums: sumsOf(batch.pending) };
  }

  /**
   * Writes `batch` in one statement. `release`, once it is stored: the next batch goes out before
   * this one's redirects are answered, so the database works on it meanwhile.
   */
  private async write(
    batch: Pending[],
    sums: BatchSums | undefined,
    statement = BATCHED,
    release?: () => void,
    /** Times this visit was written again after PostgreSQL aborted its statement. */
    attempt = 0,
  ): Promise<void> {
    const started = performance.now();
    const visits = batch.map((p) => p.visit);
    // A batch of today's visits (the usual one) leaves out the daily rows' writes: today is
    // not rolled up yet (visit-rollup.ts). If its first day is closed after all (clocks apart,
    // or the roll-up of the day has begun), its statement refuses, nothing is stored, and the
    // batch goes again with them.
    const variant = RECENT_VARIANTS.get(statement);
    const firstDay = variant === undefined ? undefined : earliestDay(visits);
    const recent = firstDay !== undefined && firstDay >= utcDay(Date.now() - ROLLUP_AGE_DAYS * DAY + DAY);
    if (variant !== undefined && !recent && release !== undefined) {
      // Its daily rows wait while their day is rolled up (seconds, once a day): the batch gives
      // its slot up, so that the batches of today's visits behind it go on meanwhile.
      release();
      return this.writePastDay(batch, sums, statement, attempt);
    }
    const chosen = recent ? variant! : statement;
    try {
      // From memory without an await, so the batch goes out before the redirects of the one
      // before it are answered (their continuations wait in the microtask queue).
      const salt = this.salts.cached() ?? (await this.salts.today()).salt;
      const rows = batch.map((p) => (p.enriched ??= this.enricher.enrich(p.visit, salt)));
      // Summed as the visits joined, unless one came before the day's salt was in memory.
      const { totals, values, dayValues, visitors } =
        sums?.sorted() ??
        aggregateBatch(rows.map((row, i) => ({ ...row, shortId: visits[i]!.shortId, at: visits[i]!.at })));
      const shortIds = visits.map((v) => v.shortId);
      // One statement, committed on its own (autocommit): the rows and their aggregates are
      // durable together when it returns.
      // Named: prepared once per connection, so each batch skips parsing and planning the
      // statement (measured: 1.06 vs 1.45 ms for a batch of 64).
      const stored = await this.pool.query<{ short_id: string }>({
        ...chosen,
        values: [
          plainArray([...new Set(shortIds)]),
          plainArray(shortIds),
          textArray(rows.map((r) => r.ipAddress)),
          textArray(visits.map((v) => v.userAgent)),
          textArray(visits.map((v) => v.referer)),
          plainArray(rows.map((r) => r.isBot)),
          textArray(rows.map((r) => r.browser)),
          textArray(rows.map((r) => r.os)),
          textArray(rows.map((r) => r.device)),
          textArray(rows.map((r) => r.country)),
          textArray(rows.map((r) => r.referrerHost)),
          plainArray(rows.map((r) => r.visitor)),
          timeArray(visits.map((v) => v.at)),
          plainArray(totals.shortId),
          timeArray(totals.hour),
          plainArray(totals.visits),
          plainArray(totals.humans),
          plainArray(values.shortId),
          timeArray(values.hour),
          textArray(values.dimension),
          textArray(values.value),
          plainArray(values.visits),
          plainArray(values.humans),
          plainArray(visitors.shortId),
          plainArray(visitors.day),
          plainArray(visitors.visitor),
          timeArray(visitors.hour),
          ...(recent
            ? [firstDay]
            : [
                plainArray(dayValues.shortId),
                plainArray(dayValues.day),
                textArray(dayValues.dimension),
                textArray(dayValues.value),
                plainArray(dayValues.visits),
                plainArray(dayValues.humans),
              ]),
          plainArray(visits.map((v) => v.imported === true)),
        ],
      });
      release?.();
      const kept = new Set(stored.rows.map((row) => row.short_id));
      const written = batch.filter((p) => kept.has(p.visit.shortId));
      this.written += written.length;
      this.observer?.batchCommitted(written.length, (performance.now() - started) / 1000);
      for (const p of batch) {
        if (kept.has(p.visit.shortId)) p.resolve();
        else p.reject(new ShortGone());
      }
    } catch (error) {
      const withDailyRows = REFUSED.get(chosen);
      if (withDailyRows !== undefined && (error as { code?: unknown }).code === ROLLED_UP) {
        // As a batch with a visit of a past day, above.
        release?.();
        return this.writePastDay(batch, sums, withDailyRows, attempt);
      }
      this.observer?.batchFailed?.(batch.length);
      if (batch.length === 1) {
        // Aborted to break a deadlock (a migration's locks, or another instance's batch on the
        // same aggregate rows): nothing was stored, and once the other side goes on it succeeds.
        if (isTransactionConflict(error) && attempt < CONFLICT_RETRIES) {
          return this.write(batch, undefined, statement, undefined, attempt + 1);
        }
        batch[0]!.reject(error);
        return;
      }
      // One bad row must not fail its neighbours, and an aborted batch's visits go again: each alone.
      await Promise.all(batch.map((p) => this.write([p], undefined, statement)));
    }
  }
}

/** The sums of visits that joined a batch; undefined if one joined without its enrichment. */
function sumsOf(pending: Pending[]): BatchSums | undefined {
  const sums = new BatchSums();
  for (const { visit, enriched } of pending) {
    if (enriched === undefined) return undefined;
    sums.add(visit.shortId, visit.at, enriched);
  }
  return sums;
}

/**
 * The batch's rows and the aggregates the app summed from them (visit-aggregates.ts), per short
 * and per user (an account's statistics), for the shorts that still exist: those are locked
 * against deletion until this commits (what a foreign key would do), so a short deleted
 * meanwhile gets no visit and its redirect a 404. A short with a visit limit is left out (its
 * visits are counted one by one: COUNTED_VISIT). Returns the shorts whose visits were stored.
 */
const INSERT_VISITS = `WITH live AS MATERIALIZED (
  SELECT "id", "user_id" FROM "shortener"."shorts" WHERE "id" = ANY($1::uuid[]) AND "max_visits" IS NULL
  ORDER BY "id" FOR KEY SHARE
), rolled AS (
  -- The last day rolled up into daily rows (visit-rollup.ts, which locks the daily tables while
  -- it rolls, so this statement sees the day it rolled once it may write).
  SELECT "rolled_through", "totals_through" FROM "shortener"."visit_rollup"
), hashed AS (
  -- The first day whose visits keep their visitor hash: the visitor rows of days before
  -- yesterday are gone (visit-maintenance.ts), so a visit of such a day (stored by an instance
  -- whose clock is days behind) could not be told apart from its day's visitors (docs/adr/0204).
  SELECT (now() AT TIME ZONE 'UTC')::date - 1 AS "since"
), visits AS (
  INSERT INTO "shortener"."short_logs"
    ("short_id", "ip_address", "user_agent", "referer", "is_bot", "browser", "os", "device", "country",
     "referrer_host", "visitor", "created_at", "imported")
  SELECT v."short_id", v."ip", v."agent", v."referer", v."bot", v."browser", v."os", v."device", v."country", v."host",
    CASE WHEN v."at" >= (SELECT "since" FROM hashed)::timestamp AT TIME ZONE 'UTC' THEN v."visitor" END, v."at",
    v."imported"
  FROM unnest($2::uuid[], $3::varchar[], $4::varchar[], $5::varchar[], $6::bool[], $7::varchar[],
    $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::int8[], $13::timestamptz[], $34::bool[])
    AS v("short_id", "ip", "agent", "referer", "bot", "browser", "os", "device", "country", "host", "visitor", "at",
      "imported")
  WHERE v."short_id" IN (SELECT "id" FROM live)
), first_visits AS (
  -- A visitor counts once per short and day, in the hour of its first visit: the insert that
  -- wins counts it; a batch with an earlier visit of it, stored after a later one (two
  -- instances at an hour's turn), moves it to that hour (previous_hour: the hour it leaves).
  INSERT INTO "shortener"."visit_day_visitors" AS v ("short_id", "day", "visitor", "hour")
  SELECT * FROM unnest($24::uuid[], $25::date[], $26::int8[], $27::timestamptz[]) AS a("short_id", "day")
  WHERE a."short_id" IN (SELECT "id" FROM live) AND a."day" >= (SELECT "since" FROM hashed)
  ON CONFLICT ("short_id", "day", "visitor")
  DO UPDATE SET "hour" = excluded."hour", "previous_hour" = v."hour" WHERE v."hour" > excluded."hour"
  RETURNING "short_id", "hour", "previous_hour"
), new_visitors AS (
  SELECT "short_id", "hour", sum("visitors")::int AS "visitors" FROM (
    SELECT "short_id", "hour", 1 AS "visitors" FROM first_visits
    UNION ALL
    SELECT "short_id", "previous_hour", -1 FROM first_visits WHERE "previous_hour" IS NOT NULL
  ) AS c GROUP BY 1, 2
), short_totals AS (
  -- The batch's sums per short and hour, with the short's user (for the per-user aggregates),
  -- and the hours a visitor moved from (no visits, one visitor less).
  SELECT l."user_id", "short_id", "hour", coalesce(a."visits", 0) AS "visits", coalesce(a."humans", 0) AS "humans",
    coalesce(n."visitors", 0) AS "visitors"
  FROM unnest($14::uuid[], $15::timestamptz[], $16::int[], $17::int[]) AS a("short_id", "hour", "visits", "humans")
  FULL JOIN new_visitors n USING ("short_id", "hour")
  JOIN live l ON l."id" = "short_id"
), totals AS (
  INSERT INTO "shortener"."visit_hours" AS t ("short_id", "hour", "visits", "humans", "visitors")
  SELECT "short_id", "hour", "visits", "humans", "visitors" FROM short_totals ORDER BY 1, 2
  ON CONFLICT ("short_id", "hour") DO UPDATE SET "visits" = t."visits" + excluded."visits",
    "humans" = t."humans" + excluded."humans", "visitors" = t."visitors" + excluded."visitors"
), dimension_values AS (
  INSERT INTO "shortener"."visit_hour_values" AS d ("short_id", "hour", "dimension", "value", "visits", "humans")
  SELECT * FROM unnest($18::uuid[], $19::timestamptz[], $20::varchar[], $21::varchar[], $22::int[], $23::int[])
    AS a("short_id")
  WHERE a."short_id" IN (SELECT "id" FROM live)
  ON CONFLICT ("short_id", "hour", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
), day_values AS (
  -- Daily rows only for a day already rolled up (a late visit): the others come from the hours.
  INSERT INTO "shortener"."visit_day_values" AS d ("short_id", "day", "dimension", "value", "visits", "humans")
  SELECT * FROM unnest($28::uuid[], $29::date[], $30::varchar[], $31::varchar[], $32::int[], $33::int[])
    AS a("short_id", "day")
  WHERE a."short_id" IN (SELECT "id" FROM live) AND a."day" <= (SELECT "rolled_through" FROM rolled)
  ON CONFLICT ("short_id", "day", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
), user_totals AS (
  -- The same sums per user (an account's statistics), each group in key order.
  INSERT INTO "shortener"."visit_user_hours" AS t ("user_id", "hour", "visits", "humans", "visitors")
  SELECT "user_id", "hour", sum("visits"), sum("humans"), sum("visitors") FROM short_totals
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("user_id", "hour") DO UPDATE SET "visits" = t."visits" + excluded."visits",
    "humans" = t."humans" + excluded."humans", "visitors" = t."visitors" + excluded."visitors"
), user_short_hours AS (
  INSERT INTO "shortener"."visit_user_short_hours" AS t ("user_id", "hour", "short_id", "visits", "humans")
  SELECT "user_id", "hour", "short_id", "visits", "humans" FROM short_totals ORDER BY 1, 2, 3
  ON CONFLICT ("user_id", "hour", "short_id") DO UPDATE SET "visits" = t."visits" + excluded."visits",
    "humans" = t."humans" + excluded."humans"
), user_short_days AS (
  INSERT INTO "shortener"."visit_user_short_days" AS t ("user_id", "day", "short_id", "visits", "humans")
  SELECT "user_id", ("hour" AT TIME ZONE 'UTC')::date, "short_id", sum("visits"), sum("humans") FROM short_totals
  WHERE "hour" < (SELECT "rolled_through" + 1 FROM rolled)::timestamp AT TIME ZONE 'UTC'
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("user_id", "day", "short_id") DO UPDATE SET "visits" = t."visits" + excluded."visits",
    "humans" = t."humans" + excluded."humans"
), user_short_totals AS (
  -- A late visit of a day in the totals (docs/adr/0187): added to them too.
  INSERT INTO "shortener"."visit_user_short_totals" AS t ("user_id", "short_id", "visits", "humans")
  SELECT "user_id", "short_id", sum("visits"), sum("humans") FROM short_totals
  WHERE "hour" < (SELECT "totals_through" + 1 FROM rolled)::timestamp AT TIME ZONE 'UTC'
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("user_id", "short_id") DO UPDATE SET "visits" = t."visits" + excluded."visits",
    "humans" = t."humans" + excluded."humans"
), user_hour_values AS (
  INSERT INTO "shortener"."visit_user_hour_values" AS d ("user_id", "hour", "dimension", "value", "visits", "humans")
  SELECT l."user_id", a."hour", a."dimension", a."value", sum(a."visits"), sum(a."humans")
  FROM unnest($18::uuid[], $19::timestamptz[], $20::varchar[], $21::varchar[], $22::int[], $23::int[])
    AS a("short_id", "hour", "dimension", "value", "visits", "humans")
  JOIN live l ON l."id" = a."short_id"
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("user_id", "hour", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
), value_totals AS (
  -- The same per value (docs/adr/0188).
  INSERT INTO "shortener"."visit_value_totals" AS d ("short_id", "dimension", "value", "visits", "humans")
  SELECT a."short_id", a."dimension", a."value", sum(a."visits"), sum(a."humans")
  FROM unnest($28::uuid[], $29::date[], $30::varchar[], $31::varchar[], $32::int[], $33::int[])
    AS a("short_id", "day", "dimension", "value", "visits", "humans")
  WHERE a."short_id" IN (SELECT "id" FROM live) AND a."day" <= (SELECT "totals_through" FROM rolled)
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("short_id", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
), user_value_totals AS (
  INSERT INTO "shortener"."visit_user_value_totals" AS d ("user_id", "dimension", "value", "visits", "humans")
  SELECT l."user_id", a."dimension", a."value", sum(a."visits"), sum(a."humans")
  FROM unnest($28::uuid[], $29::date[], $30::varchar[], $31::varchar[], $32::int[], $33::int[])
    AS a("short_id", "day", "dimension", "value", "visits", "humans")
  JOIN live l ON l."id" = a."short_id"
  WHERE a."day" <= (SELECT "totals_through" FROM rolled)
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("user_id", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
), user_day_values AS (
  INSERT INTO "shortener"."visit_user_day_values" AS d ("user_id", "day", "dimension", "value", "visits", "humans")
  SELECT l."user_id", a."day", a."dimension", a."value", sum(a."visits"), sum(a."humans")
  FROM unnest($28::uuid[], $29::date[], $30::varchar[], $31::varchar[], $32::int[], $33::int[])
    AS a("short_id", "day", "dimension", "value", "visits", "humans")
  JOIN live l ON l."id" = a."short_id"
  WHERE a."day" <= (SELECT "rolled_through" FROM rolled)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("user_id", "day", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
)
SELECT "id" AS "short_id" FROM live`;

const BATCHED = { name: "insert_visits", text: INSERT_VISITS };

/** The SQLSTATE of `visits_not_rolled_up` (migrations 20261128000000, 20261130000000). */
const ROLLED_UP = "VR001";

const DAY = 86_400_000;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);
/** The UTC day (YYYY-MM-DD) of the batch's earliest visit. */
function earliestDay(visits: { at: Date }[]): string {
  let first = Number.POSITIVE_INFINITY;
  for (const visit of visits) first = Math.min(first, visit.at.getTime());
  return utcDay(first);
}

/** How many times one visit is written again after deadlocks or serialization failures. */
const CONFLICT_RETRIES = 3;

/**
 * INSERT_VISITS for one visit of a limited short: `live` is the short only if its count, raised
 * by one in this statement, stays within its limit. The UPDATE's row lock queues concurrent
 * visits of the short and each sees the count the previous one committed, so at most max_visits
 * visits are ever stored, and the count and the stored rows (with their aggregates) commit
 * together. It also locks the short against deletion, as FOR KEY SHARE does in the batch.
 */
const BATCHED_LIVE = /^WITH live AS MATERIALIZED \([\s\S]*?FOR KEY SHARE\n\)/;
if (!BATCHED_LIVE.test(INSERT_VISITS))
  throw new Error("visit-log: INSERT_VISITS no longer starts with `live`");
const COUNTED = {
  name: "insert_counted_visit",
  text: INSERT_VISITS.replace(
    BATCHED_LIVE,
    `WITH live AS MATERIALIZED (
  UPDATE "shortener"."shorts" SET "counted_visits" = "counted_visits" + 1
  WHERE "id" = ANY($1::uuid[]) AND "counted_visits" < "max_visits"
  RETURNING "id", "user_id"
)`,
  ),
};

type Statement = { name: string; text: string };

/**
 * `statement` for visits of days not rolled up: without the writes of the daily rows and the
 * totals (six of its aggregate writes; docs/adr/0185, 0187, 0188), so it takes no lock on the
 * daily tables and goes on while the roll-up holds them (docs/adr/0189). `live` refuses with
 * ROLLED_UP if the batch's first day ($28) is closed: rolled up, or being rolled up.
 */
function recentOf(statement: Statement, name: string, liveCondition: string): Statement {
  const text = [
    "rolled",
    "day_values",
    "user_short_days",
    "user_short_totals",
    "value_totals",
    "user_value_totals",
    "user_day_values",
  ].reduce((sql, cte) => {
    const block = new RegExp(`\\), ${cte} AS \\([\\s\\S]*?(?=\\n\\), |\\n\\)\\nSELECT)`);
    if (!block.test(sql)) throw new Error(`visit-log: ${statement.name} has no ${cte}`);
    return sql.replace(block, "");
  }, statement.text);
  if (!text.includes(liveCondition)) throw new Error(`visit-log: ${statement.name} has no ${liveCondition}`);
  return {
    name,
    // Its daily rows' six parameters ($28-$33) gone, $28 is the first day: the last one moves up.
    text: text
      .replace(liveCondition, `${liveCondition} AND "shortener"."visits_not_rolled_up"($28::date)`)
      .replace("$34::bool[]", "$29::bool[]"),
  };
}

const RECENT = recentOf(BATCHED, "insert_recent_visits", `AND "max_visits" IS NULL`);
const COUNTED_RECENT = recentOf(
  COUNTED,
  "insert_recent_counted_visit",
  `AND "counted_visits" < "max_visits"`,
);
/** Each statement's variant for a batch of today's visits. */
const RECENT_VARIANTS = new Map<Statement, Statement>([
  [BATCHED, RECENT],
  [COUNTED, COUNTED_RECENT],
]);
/** What stores a batch that a variant refused: its statement, as it is (a copy: no variant). */
const REFUSED = new Map<Statement, Statement>([
  [RECENT, { ...BATCHED }],
  [COUNTED_RECENT, { ...COUNTED }],
]);

/**
 * The app's `visitLog`, with its metrics; as the service stops, in-flight requests finish first
 * (their visits join the queue), then the queue is drained before the pool closes.
 */
async function visitLogPlugin(app: FastifyInstance, { ipMode }: { ipMode: VisitIpMode }): Promise<void> {
  const visitLog: VisitLog = new VisitLog(app.prisma, {
    observer: visitLogMetrics(app.metrics, () => visitLog.depth),
    ipMode,
  });
  app.decorate("visitLog", visitLog);
  app.addHook("preClose", (done) => {
    visitLog.writtenAtStop = visitLog.written;
    done();
  });
  app.addHook("onClose", () => visitLog.drain());
}

export default fp(visitLogPlugin, {
  name: "visit-log",
  fastify: "5.x",
  decorators: { fastify: ["prisma", "metrics"] },
});
