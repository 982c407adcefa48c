import { randomBytes } from "node:crypto";
import {
  inTransaction,
  isDatabaseUnavailable,
  isTransactionConflict,
  type PrismaClient,
  poolOf,
  uuidv7,
  waitMsOf,
} from "@app/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { nullableTextArray, plainArray, textArray, timeArray } from "./array-literals.ts";
import { type VisitLogObserver, visitLogMetrics } from "./metrics.ts";
import {
  aggregateBatch,
  type BatchAggregates,
  BatchSums,
  PendingMerge,
  type PendingSums,
  pendingPerShort,
} from "./visit-aggregates.ts";
import {
  type Enrichment,
  VisitEnricher,
  type VisitIpMode,
  VisitorSalts,
  visitorHash,
} from "./visit-enrichment.ts";
import { ROLLUP_AGE_DAYS } from "./visit-rollup.ts";

export interface Visit {
  shortId: string;
  ipAddress: string;
  userAgent: string;
  referer: string;
  /** When the redirect was asked for; default: when `record()` is called. */
  at?: Date;
  /**
   * The redirect rule that sent it (1 is the first); null: the short's url, chosen by none of
   * its rules; absent: the short has no rules (not counted by rule).
   */
  rule?: number | null;
  /** Stored by an import (imports/importer.ts), at its original time; default false. */
  imported?: boolean;
  /** The URL visited, query included, and where the visit was sent; absent: not kept (null). */
  visitedUrl?: string;
  redirectUrl?: string;
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
  /**
   * How long after a batch of today's visits is stored its aggregates are folded in (the fold
   * gathers every batch stored meanwhile into one statement); default 50 ms.
   */
  foldDelayMs?: number;
  /** How often pending sums any instance left behind are looked for; default 5 s. */
  foldSweepMs?: number;
  /**
   * How long a batch whose outcome is unknown (its connection lost) is sent again, after the
   * first time at once; default: the client's DATABASE_WAIT_MS (waitMsOf).
   */
  waitMs?: number;
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
  /** Public for the redirect rules, which read the same memoised user agents and countries. */
  readonly enricher: VisitEnricher;
  private readonly salts: VisitorSalts;
  private readonly foldDelayMs: number;
  private readonly foldSweepMs: number;
  /** The fold running now, if any: one at a time per instance. */
  private folding: Promise<void> | undefined;
  private foldTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Set by stop(): no fold is scheduled any more. */
  private stopped = false;
  private readonly waitMs: number;

  constructor(
    prisma: PrismaClient,
    {
      maxBatch = 1000,
      concurrency = 1,
      observer,
      ipMode = "full",
      foldDelayMs = 50,
      foldSweepMs = 5_000,
      waitMs = waitMsOf(prisma),
    }: VisitLogOptions = {},
  ) {
    // The write path is one statement per batch on the driver itself: Prisma's createMany
    // costs more per row than the INSERT does (docs/performance.md).
    this.pool = poolOf(prisma);
    this.maxBatch = maxBatch;
    this.concurrency = concurrency;
    this.observer = observer;
    this.enricher = new VisitEnricher(ipMode);
    this.salts = new VisitorSalts(prisma);
    this.foldDelayMs = foldDelayMs;
    this.foldSweepMs = foldSweepMs;
    this.waitMs = waitMs;
  }

  /** Starts the sweep for pending sums that an instance stopped without folding (at start, then every foldSweepMs). */
  start(): void {
    const sweep = () => {
      this.foldSoon(0);
      this.sweepTimer = setTimeout(sweep, this.foldSweepMs).unref();
    };
    sweep();
  }

  /**
   * The aggregates of every visit stored before this call, folded in (docs/adr/0234): what a
   * reader of the aggregate tables calls first, so the figures it reads equal the stored rows.
   * Folds what is pending, waiting for the folds of other instances that hold some of it.
   */
  async settle(): Promise<void> {
    const { rows } = await this.pool.query<{ last: string | null }>({
      name: "pending_visit_sums_last",
      text: `SELECT max("id")::text AS "last" FROM "shortener"."visit_pending_sums"`,
    });
    const last = rows[0]?.last;
    if (last == null) return;
    while ((await this.foldOnce({ upTo: last })) > 0) {
      // Until nothing up to `last` is left: a claim can come back empty while others fold.
    }
  }

  /** Folds pending sums `foldDelayMs` from now (unless a fold is due or running). */
  private foldSoon(delay = this.foldDelayMs): void {
    if (this.stopped || this.foldTimer !== undefined) return;
    this.foldTimer = setTimeout(() => {
      this.foldTimer = undefined;
      if (this.folding) {
        // Running: the batches stored meanwhile are folded after it.
        void this.folding.finally(() => this.foldSoon());
        return;
      }
      this.folding = this.foldAll()
        .catch((error: unknown) => this.observer?.foldFailed?.(error))
        .finally(() => {
          this.folding = undefined;
        });
    }, delay);
    this.foldTimer.unref();
  }

  /** Folds what no other fold holds, FOLD_LIMIT rows at a time, until none is left. */
  private async foldAll(): Promise<void> {
    while (!this.stopped && (await this.foldOnce({})) === FOLD_LIMIT) {
      // A full claim: more may be pending.
    }
  }

  /**
   * One fold: claims up to FOLD_LIMIT pending rows (those another fold holds are skipped, or
   * with `upTo`, waited for: they are gone once it commits), adds them up and writes their
   * aggregates, deleting the rows in the same transaction: each batch's aggregates are added
   * exactly once. Returns how many rows it folded.
   */
  private async foldOnce({ upTo }: { upTo?: string }, attempt = 0, withDailyRows = false): Promise<number> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const claimed = await client.query<{ short_id: string; id: string; sums: PendingSums }>(
          upTo === undefined
            ? { ...CLAIM_PENDING, values: [FOLD_LIMIT] }
            : { ...CLAIM_PENDING_UP_TO, values: [FOLD_LIMIT, upTo] },
        );
        if (claimed.rows.length === 0) return 0;
        const merge = new PendingMerge();
        for (const row of claimed.rows) merge.add(row.short_id, row.sums);
        const aggregates = merge.sorted();
        const firstDay = aggregates.totals.hour.reduce(
          (first, hour) => (first === undefined || hour < first ? hour : first),
          undefined as Date | undefined,
        );
        const statement = withDailyRows ? FOLD : FOLD_RECENT;
        const all: unknown[] = [];
        all[PARAMS.shortIds] = plainArray([...new Set(claimed.rows.map((row) => row.short_id))]);
        aggregateParams(
          all,
          aggregates,
          withDailyRows ? undefined : utcDay((firstDay ?? new Date()).getTime()),
        );
        all[PARAMS.claimedShortIds] = plainArray(claimed.rows.map((row) => row.short_id));
        all[PARAMS.claimedIds] = plainArray(claimed.rows.map((row) => row.id));
        await client.query({
          name: statement.name,
          text: statement.text,
          values: statement.params.map((i) => all[i]),
        });
        return claimed.rows.length;
      });
    } catch (error) {
      // A day of these sums was closed (rolled up) since they were stored: folded with their
      // daily rows, as a late visit is.
      if ((error as { code?: unknown }).code === ROLLED_UP && !withDailyRows) {
        return this.foldOnce({ upTo }, attempt, true);
      }
      if (isTransactionConflict(error) && attempt < CONFLICT_RETRIES) {
        return this.foldOnce({ upTo }, attempt + 1, withDailyRows);
      }
      throw error;
    }
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
      const { shortId, ipAddress, userAgent, referer, rule, imported, visitedUrl, redirectUrl } = visit;
      batch.pending.push({
        visit: { shortId, ipAddress, userAgent, referer, at, rule, imported, visitedUrl, redirectUrl },
        enriched,
        resolve,
        reject,
      });
      this.queued++;
      if (enriched === undefined) batch.sums = undefined;
      else batch.sums?.add(shortId, at, enriched, rule);
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
   * Stores the visits of one import run (imports/importer.ts), each as any visit is (enriched, with
   * its aggregates, at its original time) and marked imported, outside the slots after one
   * another, as visits of past days are. Its visitors are hashed under a salt of the run's own,
   * kept nowhere (docs/adr/0243). `visitor`: the text that tells the visit's visitor apart in the
   * run, given on its first visit of the short and UTC day only; undefined: the visit counts no
   * visitor. Rejects with ShortGone when the visit was not stored (the short is gone).
   */
  importRun(): (visit: Visit & { at: Date }, visitor: string | undefined) => Promise<void> {
    const salt = randomBytes(32);
    return (visit, visitor) => {
      const { shortId, ipAddress, userAgent, referer, at, visitedUrl } = visit;
      const enriched = this.enricher.describe(visit) as Enrichment;
      enriched.visitor = visitor === undefined ? null : visitorHash(salt, visitor);
      return new Promise<void>((resolve, reject) => {
        // The URL visited, when the source kept it (Shlink's visitedUrl); where it was sent, never.
        const pending = { shortId, ipAddress, userAgent, referer, at, imported: true, visitedUrl };
        void this.writePastDay([{ visit: pending, enriched, resolve, reject }], undefined, IMPORTED, 0);
      });
    };
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

  /**
   * Stops folding: the visits recorded so far are written (drain) and what is pending is
   * folded, unless the database is gone (then the next instance, or reader, folds it).
   */
  async stop(): Promise<void> {
    await this.drain();
    this.stopped = true;
    clearTimeout(this.foldTimer);
    clearTimeout(this.sweepTimer);
    this.foldTimer = undefined;
    await this.folding;
    await this.settle().catch((error: unknown) => this.observer?.foldFailed?.(error));
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
   * Sends a statement that stores its batch once (`once`), and sends it again while its outcome
   * is unknown: its connection was lost (the commit may have been made or not: a leader that died,
   * a connection cut), or a copy of it still in flight committed first. Again at once, then after
   * pauses until `waitMs` have passed (a failover's election): a copy finds what an earlier one
   * stored and stores only the rest, so each visit has one row (docs/adr/0279).
   */
  private async send(statement: Statement, values: unknown[]) {
    const deadline = performance.now() + this.waitMs;
    for (let resent = 0; ; resent++) {
      try {
        return await this.pool.query<{ short_id: string }>({
          name: statement.name,
          text: statement.text,
          values,
        });
      } catch (error) {
        const left = deadline - performance.now();
        if (!(isDatabaseUnavailable(error) || isBatchTaken(error)) || (resent > 0 && left <= 0)) throw error;
        if (resent > 0) {
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(RESEND_PAUSE_MS * 2 ** (resent - 1), 1_000, left)),
          );
        }
      }
    }
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
        aggregateBatch(
          rows.map((row, i) => ({
            ...row,
            shortId: visits[i]!.shortId,
            at: visits[i]!.at,
            rule: visits[i]!.rule,
          })),
        );
      const shortIds = visits.map((v) => v.shortId);
      // One statement, committed on its own (autocommit): the rows and their aggregates are
      // durable together when it returns.
      // Named: prepared once per connection, so each batch skips parsing and planning the
      // statement (measured: 1.06 vs 1.45 ms for a batch of 64).
      // Each value at its parameter's number in INSERT_VISITS (PARAMS); each statement sends
      // the ones it uses (compacted).
      const all: unknown[] = [];
      all[PARAMS.shortIds] = plainArray([...new Set(shortIds)]);
      all[2] = plainArray(shortIds);
      all[3] = textArray(rows.map((r) => r.ipAddress));
      all[4] = textArray(visits.map((v) => v.userAgent));
      all[5] = textArray(visits.map((v) => v.referer));
      all[6] = plainArray(rows.map((r) => r.isBot));
      all[7] = textArray(rows.map((r) => r.browser));
      all[8] = textArray(rows.map((r) => r.os));
      all[9] = textArray(rows.map((r) => r.device));
      all[10] = textArray(rows.map((r) => r.country));
      all[11] = textArray(rows.map((r) => r.referrerHost));
      all[12] = plainArray(rows.map((r) => r.visitor ?? "NULL"));
      all[13] = timeArray(visits.map((v) => v.at));
      all[PARAMS.rules] = plainArray(visits.map((v) => v.rule ?? "NULL"));
      all[PARAMS.imported] = plainArray(visits.map((v) => v.imported === true));
      all[PARAMS.visitedUrls] = nullableTextArray(visits.map((v) => v.visitedUrl));
      all[PARAMS.redirectUrls] = nullableTextArray(visits.map((v) => v.redirectUrl));
      const aggregates = { totals, values, dayValues, visitors };
      if (chosen === PENDING) {
        // Today's visits (the usual batch): their aggregates are stored beside them, per short,
        // and folded in after the redirects are answered (docs/adr/0234).
        const pending = pendingPerShort(aggregates);
        all[PARAMS.pendingShortIds] = plainArray(pending.shortIds);
        all[PARAMS.pendingSums] = textArray(pending.sums);
      } else {
        aggregateParams(all, aggregates, recent ? firstDay! : undefined);
      }
      // The batch's identity (docs/adr/0279): sent again with it, it stores nothing twice.
      all[PARAMS.batchId] = uuidv7();
      const stored = await this.send(
        chosen,
        chosen.params.map((i) => all[i]),
      );
      release?.();
      if (chosen === PENDING) this.foldSoon();
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
      if (isDatabaseUnavailable(error)) {
        // Its outcome is still unknown after DATABASE_WAIT_MS (send): not sent again in pieces,
        // which would store what it may have stored (each piece is a batch of its own). A 503.
        for (const p of batch) p.reject(error);
        return;
      }
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

/** The first pause before a batch whose outcome is unknown is sent a third time; doubled up to a second. */
const RESEND_PAUSE_MS = 50;

/** A copy of the batch committed first, while this one waited on its rows' keys (once). */
function isBatchTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === "23505" && constraint === "visit_batches_pkey";
}

/** The sums of visits that joined a batch; undefined if one joined without its enrichment. */
function sumsOf(pending: Pending[]): BatchSums | undefined {
  const sums = new BatchSums();
  for (const { visit, enriched } of pending) {
    if (enriched === undefined) return undefined;
    sums.add(visit.shortId, visit.at, enriched, visit.rule);
  }
  return sums;
}

/** Parameter numbers the statements share beyond INSERT_VISITS's own $1-$33. */
const PARAMS = {
  shortIds: 1,
  /** The rows' redirect rules (null: the short's url). */
  rules: 34,
  /** Whether each row was stored by an import. */
  imported: 39,
  /** Each row's visited and redirect URLs (null: not kept). */
  visitedUrls: 40,
  redirectUrls: 41,
  /** PENDING: the shorts of the batch, and each one's sums as JSON. */
  pendingShortIds: 35,
  pendingSums: 36,
  /** The fold: the pending rows it claimed (short id, id). */
  claimedShortIds: 37,
  claimedIds: 38,
  /** The batch's id (once). */
  batchId: 42,
} as const;

/**
 * INSERT_VISITS's aggregate parameters ($14-$33) into `all`; `firstDay` given: a statement for
 * days not rolled up (recentOf), whose $28 is that day and which has no daily rows.
 */
function aggregateParams(
  all: unknown[],
  { totals, values, dayValues, visitors }: BatchAggregates,
  firstDay: string | undefined,
): void {
  all[14] = plainArray(totals.shortId);
  all[15] = timeArray(totals.hour);
  all[16] = plainArray(totals.visits);
  all[17] = plainArray(totals.humans);
  all[18] = plainArray(values.shortId);
  all[19] = timeArray(values.hour);
  all[20] = textArray(values.dimension);
  all[21] = textArray(values.value);
  all[22] = plainArray(values.visits);
  all[23] = plainArray(values.humans);
  all[24] = plainArray(visitors.shortId);
  all[25] = plainArray(visitors.day);
  all[26] = plainArray(visitors.visitor);
  all[27] = timeArray(visitors.hour);
  if (firstDay !== undefined) {
    all[28] = firstDay;
    return;
  }
  all[28] = plainArray(dayValues.shortId);
  all[29] = plainArray(dayValues.day);
  all[30] = textArray(dayValues.dimension);
  all[31] = textArray(dayValues.value);
  all[32] = plainArray(dayValues.visits);
  all[33] = plainArray(dayValues.humans);
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
     "referrer_host", "visitor", "created_at", "rule", "imported", "visited_url", "redirect_url")
  SELECT v."short_id", v."ip", v."agent", v."referer", v."bot", v."browser", v."os", v."device", v."country", v."host",
    CASE WHEN v."at" >= (SELECT "since" FROM hashed)::timestamp AT TIME ZONE 'UTC' THEN v."visitor" END, v."at", v."rule",
    v."imported", v."visited_url", v."redirect_url"
  FROM unnest($2::uuid[], $3::varchar[], $4::varchar[], $5::varchar[], $6::bool[], $7::varchar[],
    $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::int8[], $13::timestamptz[], $34::int2[],
    $39::bool[], $40::varchar[], $41::varchar[])
    AS v("short_id", "ip", "agent", "referer", "bot", "browser", "os", "device", "country", "host", "visitor", "at",
      "rule", "imported", "visited_url", "redirect_url")
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
  WHERE a."dimension" <> 'rule' -- a rule's number means nothing across shorts
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
  WHERE a."day" <= (SELECT "totals_through" FROM rolled) AND a."dimension" <> 'rule'
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("user_id", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
), user_day_values AS (
  INSERT INTO "shortener"."visit_user_day_values" AS d ("user_id", "day", "dimension", "value", "visits", "humans")
  SELECT l."user_id", a."day", a."dimension", a."value", sum(a."visits"), sum(a."humans")
  FROM unnest($28::uuid[], $29::date[], $30::varchar[], $31::varchar[], $32::int[], $33::int[])
    AS a("short_id", "day", "dimension", "value", "visits", "humans")
  JOIN live l ON l."id" = a."short_id"
  WHERE a."day" <= (SELECT "rolled_through" FROM rolled) AND a."dimension" <> 'rule'
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("user_id", "day", "dimension", "value")
  DO UPDATE SET "visits" = d."visits" + excluded."visits", "humans" = d."humans" + excluded."humans"
)
SELECT "id" AS "short_id" FROM live`;

/**
 * `text` (a statement that stores visits: `live` first, whose shorts it returns last) made to
 * store each short's visits of a batch once, however many times it is sent (docs/adr/0279): the
 * batch carries an id the service chose ($42), and each short whose visits it stores gets a row
 * (batch id, short id) in the same commit. Sent again after a lost answer, it finds the shorts
 * already stored (`done`), stores only the others' visits, and returns both. A copy still in
 * flight on the server is waited for on the key: when that one commits, this one fails with a
 * unique violation of visit_batches_pkey (isBatchTaken) and is sent again.
 */
function once(text: string): string {
  const head = "WITH live AS MATERIALIZED (\n";
  const ofBatch = `"id" = ANY($1::uuid[])`;
  const tail = `\n)\nSELECT "id" AS "short_id" FROM live`;
  if (
    !text.startsWith(head) ||
    !text.endsWith(tail) ||
    !text.slice(0, text.indexOf("\n), ")).includes(ofBatch)
  ) {
    throw new Error("visit-log: a statement to store once has no `live` of $1 first, or does not return it");
  }
  const body = text
    .slice(head.length, -tail.length)
    .replace(ofBatch, `${ofBatch} AND "id" NOT IN (SELECT "id" FROM done)`);
  return `WITH done AS MATERIALIZED (
  SELECT "short_id" AS "id" FROM "shortener"."visit_batches" WHERE "batch_id" = $42::uuid AND "short_id" = ANY($1::uuid[])
), live AS MATERIALIZED (
${body}
), batch AS (
  INSERT INTO "shortener"."visit_batches" ("batch_id", "short_id") SELECT $42::uuid, "id" FROM live ORDER BY "id"
)
SELECT "id" AS "short_id" FROM live
UNION ALL
SELECT "id" FROM done`;
}

const BATCHED = compacted("insert_visits", once(INSERT_VISITS));

/**
 * INSERT_VISITS for an import run's visits (importRun): each row keeps the visitor its run gave
 * it, and each such visitor counts, whatever the visit's day. A run gives a visitor of a short
 * and day on one row only, hashed under a salt of the run's own: no other row, stored before or
 * after, can be the same visitor, so the visitor rows the maintenance deletes (docs/adr/0204)
 * are never needed to tell one apart (docs/adr/0243).
 */
const HASHED_SINCE = `SELECT (now() AT TIME ZONE 'UTC')::date - 1 AS "since"`;
if (!INSERT_VISITS.includes(HASHED_SINCE)) throw new Error("visit-log: INSERT_VISITS has no hashed day");
const IMPORTED = compacted(
  "insert_imported_visits",
  once(INSERT_VISITS.replace(HASHED_SINCE, `SELECT '-infinity'::date AS "since"`)),
);

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
const COUNTED_TEXT = INSERT_VISITS.replace(
  BATCHED_LIVE,
  `WITH live AS MATERIALIZED (
  UPDATE "shortener"."shorts" SET "counted_visits" = "counted_visits" + 1
  WHERE "id" = ANY($1::uuid[]) AND "counted_visits" < "max_visits"
  RETURNING "id", "user_id"
)`,
);
const COUNTED = compacted("insert_counted_visit", once(COUNTED_TEXT));

/**
 * A statement as sent: its parameters renumbered $1, $2, … (PostgreSQL wants a type for each
 * number up to the highest); `params`: the PARAMS number each one had.
 */
type Statement = { name: string; text: string; params: number[] };

/** `text` (with parameters numbered as in PARAMS) as a Statement. */
function compacted(name: string, text: string): Statement {
  const used = [...new Set([...text.matchAll(/\$(\d+)::/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  return {
    name,
    text: text.replace(/\$(\d+)::/g, (_, n: string) => `$${used.indexOf(Number(n)) + 1}::`),
    params: used,
  };
}

/**
 * `statement` for visits of days not rolled up: without the writes of the daily rows and the
 * totals (six of its aggregate writes; docs/adr/0185, 0187, 0188), so it takes no lock on the
 * daily tables and goes on while the roll-up holds them (docs/adr/0189). `live` refuses with
 * ROLLED_UP if the batch's first day ($28) is closed: rolled up, or being rolled up.
 */
function recentOf(
  statement: { name: string; text: string },
  name: string,
  liveCondition: string,
  /** What is done to the result before it is compacted: `once` for a statement that stores visits. */
  finish: (text: string) => string = (text) => text,
): Statement {
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
  return compacted(
    name,
    finish(text.replace(liveCondition, `${liveCondition} AND "shortener"."visits_not_rolled_up"($28::date)`)),
  );
}

const COUNTED_RECENT = recentOf(
  { name: COUNTED.name, text: COUNTED_TEXT },
  "insert_recent_counted_visit",
  `AND "counted_visits" < "max_visits"`,
  once,
);

/** INSERT_VISITS up to its rows: the statements below keep them and say what comes after. */
const ROWS_END = "\n), first_visits AS (";
if (!INSERT_VISITS.includes(ROWS_END)) throw new Error("visit-log: INSERT_VISITS has no first_visits");

/**
 * A batch of today's visits: its rows, and its aggregates per short as they are (the sums the
 * app made, as JSON: visit-aggregates.ts's PendingSums), in one statement, committed on its own.
 * It writes no aggregate row, so it takes no lock another batch waits for: two go at once, and
 * each one's commit is a plain insert's (docs/adr/0234). The fold adds the sums in later.
 */
const PENDING = compacted(
  "insert_visits_pending",
  once(`${INSERT_VISITS.slice(0, INSERT_VISITS.indexOf(ROWS_END))}
), pending AS (
  INSERT INTO "shortener"."visit_pending_sums" ("short_id", "sums")
  SELECT * FROM unnest($35::uuid[], $36::json[]) AS p("short_id", "sums")
  WHERE p."short_id" IN (SELECT "id" FROM live)
)
SELECT "id" AS "short_id" FROM live`),
);

/**
 * The fold: INSERT_VISITS's aggregate writes for pending sums added up ($1, $14-$33 as there),
 * deleting the pending rows they came from ($37, $38: short ids and ids) in the same statement.
 * `live` takes every short still there, a limited one too (its visits were stored before the
 * limit was set); a short deleted since has its sums dropped with its rows.
 */
const FOLD_TEXT = INSERT_VISITS.replace(
  BATCHED_LIVE,
  `WITH live AS MATERIALIZED (
  SELECT "id", "user_id" FROM "shortener"."shorts" WHERE "id" = ANY($1::uuid[]) AND true
  ORDER BY "id" FOR KEY SHARE
)`,
)
  .replace(/\n\), visits AS \([\s\S]*?(?=\n\), first_visits AS \()/, "")
  .replace(
    /\n\)\nSELECT "id" AS "short_id" FROM live$/,
    `
), claimed AS (
  DELETE FROM "shortener"."visit_pending_sums"
  WHERE ("short_id", "id") IN (SELECT * FROM unnest($37::uuid[], $38::int8[]))
)
SELECT "id" AS "short_id" FROM live`,
  );
if (FOLD_TEXT.includes("short_logs") || !FOLD_TEXT.includes("claimed AS")) {
  throw new Error("visit-log: the fold could not be made from INSERT_VISITS");
}
const FOLD = compacted("fold_visit_sums", FOLD_TEXT);
const FOLD_RECENT = recentOf(
  { name: "fold_visit_sums", text: FOLD_TEXT },
  "fold_recent_visit_sums",
  `= ANY($1::uuid[]) AND true`,
);

/** Most pending rows one fold adds up. */
const FOLD_LIMIT = 1000;

/** Pending rows no other fold holds, in key order (as every fold locks them). */
const CLAIM_PENDING = {
  name: "claim_visit_sums",
  text: `SELECT "short_id", "id"::text AS "id", "sums" FROM "shortener"."visit_pending_sums"
  ORDER BY "short_id", "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
};
/** Pending rows up to an id, waiting for those another fold holds. */
const CLAIM_PENDING_UP_TO = {
  name: "claim_visit_sums_up_to",
  text: `SELECT "short_id", "id"::text AS "id", "sums" FROM "shortener"."visit_pending_sums"
  WHERE "id" <= $2::int8 ORDER BY "short_id", "id" LIMIT $1 FOR UPDATE`,
};

/** Each statement's variant for a batch of today's visits. */
const RECENT_VARIANTS = new Map<Statement, Statement>([
  [BATCHED, PENDING],
  [COUNTED, COUNTED_RECENT],
]);
/** What stores a batch that a variant refused: its statement, as it is (a copy: no variant). */
const REFUSED = new Map<Statement, Statement>([[COUNTED_RECENT, { ...COUNTED }]]);

/**
 * The app's `visitLog`, with its metrics; as the service stops, in-flight requests finish first
 * (their visits join the queue), then the queue is drained before the pool closes.
 */
async function visitLogPlugin(app: FastifyInstance, { ipMode }: { ipMode: VisitIpMode }): Promise<void> {
  const visitLog: VisitLog = new VisitLog(app.prisma, {
    observer: {
      ...visitLogMetrics(app.metrics, () => visitLog.depth),
      foldFailed: (err) =>
        app.log.warn({ err }, "visit sums: fold failed; they stay pending for the next one"),
    },
    ipMode,
  });
  app.decorate("visitLog", visitLog);
  app.addHook("preClose", (done) => {
    visitLog.writtenAtStop = visitLog.written;
    done();
  });
  app.addHook("onReady", () => visitLog.start());
  app.addHook("onClose", () => visitLog.stop());
}

export default fp(visitLogPlugin, {
  name: "visit-log",
  fastify: "5.x",
  decorators: { fastify: ["prisma", "metrics"] },
});
