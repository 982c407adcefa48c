// Imports links from another shortener's export (docs/shortener.md, "Importing from another
// shortener"; docs/adr/0224-0226). The parsers (one file per format) yield links; this stores
// them in batches: each batch's shorts in one transaction through the shorts service's own
// createMany (the API's rules: names, reserved names, per-domain uniqueness) with a record per
// link of where it came from, so a second run of the same file creates nothing and a later
// export adds only what is new. Visits one by one go through the visit log (their aggregates
// exact, as for any visit), into their month's partition; totals and visits older than the
// retention go to the short's imported history.
import { type PrismaClient, poolOf } from "@app/db";
import { NewShort } from "@app/schemas/shortener";
import type { DomainRef } from "../default-domain.ts";
import { HttpError } from "../errors.ts";
import type { ShortsService, ShortToCreate } from "../shorts/shorts.service.ts";
import type { VisitLog } from "../visits/visit-log.ts";
import type { VisitMaintenance } from "../visits/visit-maintenance.ts";
import {
  type ImportSource,
  isProblem,
  type SourceLine,
  type SourceLink,
  type SourceVisit,
} from "./source-link.ts";

/** Links per transaction: one createMany, one INSERT of their records. */
const BATCH = 2000;
/** Visits handed to the visit log before waiting for them: one of its batches. */
const VISIT_CHUNK = 1000;
const MAX_TITLE = 512;
const DAY = 86_400_000;

export interface ImportTarget {
  userId: string;
  domain: DomainRef;
  source: ImportSource;
}

export interface ImportServices {
  prisma: PrismaClient;
  shorts: ShortsService;
  visitLog: VisitLog;
  maintenance: VisitMaintenance;
  /** VISIT_RETENTION_DAYS: visits older than their month's partition would live are history. */
  retentionDays: number | undefined;
}

export interface ImportReport {
  /** A line that failed, as it fails (the rest goes on). */
  problem?(place: string, reason: string): void;
  /** Lines read so far. */
  progress?(lines: number): void;
}

export interface ImportSummary {
  created: number;
  skipped: number;
  failed: number;
  /** Visits stored one by one, at their original time. */
  visits: number;
  /** Added to the shorts' imported history (totals, and visits past the retention). */
  historyVisits: number;
}

interface Checked {
  link: SourceLink;
  short: ShortToCreate;
}

export class Importer {
  private readonly summary: ImportSummary = {
    created: 0,
    skipped: 0,
    failed: 0,
    visits: 0,
    historyVisits: 0,
  };
  /** Keys met in this file: a repeat is the same link (skipped). */
  private readonly seen = new Set<string>();
  private lines = 0;
  /** Stores this run's visits, its visitors hashed under a salt of its own. */
  private readonly recordVisit: ReturnType<VisitLog["importRun"]>;
  /** Visits without an address so far: each is a visitor of its own. */
  private anonymousVisits = 0;

  constructor(
    private readonly services: ImportServices,
    private readonly target: ImportTarget,
    private readonly report: ImportReport = {},
  ) {
    this.recordVisit = services.visitLog.importRun();
  }

  async run(lines: AsyncIterable<SourceLine>): Promise<ImportSummary> {
    // The records of an earlier run counted, so a later export's lookups plan on real numbers.
    await this.services.prisma.$executeRaw`ANALYZE "shortener"."short_imports"`;
    let batch: Checked[] = [];
    // One batch is stored while the next is read and checked.
    let storing: Promise<void> = Promise.resolve();
    for await (const line of lines) {
      this.lines++;
      // Checked as read: what fails before the database is reported in the file's order.
      const checked = isProblem(line) ? line.error : this.check(line);
      if (typeof checked === "string") this.fail(line.place, checked);
      else if (this.seen.has(checked.link.key)) this.summary.skipped++;
      else {
        this.seen.add(checked.link.key);
        batch.push(checked);
        if (batch.length >= BATCH) {
          await storing;
          storing = this.store(batch);
          // Not yet awaited: a failure is caught here and thrown by the next await.
          storing.catch(() => undefined);
          batch = [];
        }
      }
      if (this.lines % 1000 === 0) this.report.progress?.(this.lines);
    }
    await storing;
    if (batch.length > 0) await this.store(batch);
    // The batches committed without waiting for their WAL flush; a commit that waits for it
    // flushes theirs too, so the summary below only counts what is durable.
    await this.services.prisma.$transaction([this.services.prisma.$executeRaw`SELECT txid_current()`]);
    this.report.progress?.(this.lines);
    return this.summary;
  }

  private fail(place: string, reason: string) {
    this.summary.failed++;
    this.report.problem?.(place, reason);
  }

  /** A link as POST /shorts would take it, or why it would refuse it. */
  private check(link: SourceLink): Checked | string {
    const parsed = NewShort.safeParse({
      url: link.url,
      ...(link.name !== undefined ? { name: link.name } : {}),
      // Sources allow what a tag here does not: "Summer Sale" is kept as summer-sale.
      tags: link.tags.map((tag) => tag.toLowerCase().replace(/\s+/g, "-")),
      ...(link.forwardQuery ? { forwardQuery: true } : {}),
      ...(link.crawlable ? { crawlable: true } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return issue ? `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}` : "refused";
    }
    const { password: _password, domain: _domain, findIfExists: _find, ...short } = parsed.data;
    return {
      link,
      short: {
        ...short,
        passwordHash: null,
        domain: this.target.domain,
        createdAt: link.createdAt,
        title: link.title?.slice(0, MAX_TITLE),
      },
    };
  }

  private async store(checked: Checked[]): Promise<void> {
    const { prisma, shorts } = this.services;
    const { userId, domain, source } = this.target;
    // The short of each link, created now or by an earlier run.
    const shortOf = new Map<string, string>();
    await prisma.$transaction(
      async (tx) => {
        // One import of a source into a domain at a time per user: two runs of one file at once
        // cannot both create a link (the second waits, then finds the first's records).
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`import:${userId}:${domain.id}:${source}`}, 0))`;
        // Each batch commits without waiting for its WAL flush: a crash loses at most the last
        // batches, which the next run of the file imports (the records commit with their shorts).
        await tx.$executeRaw`SET LOCAL synchronous_commit = off`;
        // One index lookup per key (LATERAL), however many records the user has: the table grows
        // during a run faster than its statistics, and a join planned on them could scan it all.
        const known = await tx.$queryRaw<{ key: string; shortId: string; total: bigint }[]>`
          SELECT k."key", x."short_id" AS "shortId", x."visits_total" AS "total"
            FROM unnest(${checked.map((c) => c.link.key)}::text[]) AS k("key")
            CROSS JOIN LATERAL (
              SELECT i."short_id", i."visits_total" FROM "shortener"."short_imports" i
               WHERE i."user_id" = ${userId}::uuid AND i."domain_id" = ${domain.id}::uuid
                 AND i."source" = ${source} AND i."source_key" = k."key"
            ) AS x`;
        const totalOf = new Map<string, number>();
        for (const { key, shortId, total } of known) {
          shortOf.set(key, shortId);
          totalOf.set(key, Number(total));
        }
        const fresh = checked.filter((c) => !shortOf.has(c.link.key));
        this.summary.skipped += checked.length - fresh.length;
        const results = await shorts.createMany(
          userId,
          fresh.map((c) => c.short),
          tx as unknown as PrismaClient,
        );
        const made: { key: string; shortId: string; total: number }[] = [];
        results.forEach((result, i) => {
          const { link } = fresh[i]!;
          if (result instanceof HttpError) this.fail(link.place, result.message);
          else made.push({ key: link.key, shortId: result.id, total: link.visitTotal ?? 0 });
        });
        this.summary.created += made.length;
        for (const { key, shortId } of made) shortOf.set(key, shortId);
        if (made.length > 0) {
          // With its total, if it has one: a new link's whole total is history (below).
          await tx.$executeRaw`
            INSERT INTO "shortener"."short_imports" ("user_id", "domain_id", "source", "source_key", "short_id",
              "visits_total")
            SELECT ${userId}::uuid, ${domain.id}::uuid, ${source}, k, s, t
              FROM unnest(${made.map((m) => m.key)}::text[], ${made.map((m) => m.shortId)}::uuid[],
                ${made.map((m) => m.total)}::int8[]) AS i(k, s, t)`;
        }
        // Totals: what the source counts beyond the total last imported of the link (none for a
        // new one) is added to the short's history, and the new total kept.
        const grown = checked.flatMap(({ link }) => {
          const shortId = shortOf.get(link.key);
          const before = totalOf.get(link.key) ?? 0;
          return shortId !== undefined && link.visitTotal !== undefined && link.visitTotal > before
            ? [
                {
                  shortId,
                  total: link.visitTotal,
                  delta: link.visitTotal - before,
                  known: totalOf.has(link.key),
                },
              ]
            : [];
        });
        const regrown = grown.filter((g) => g.known);
        if (grown.length > 0) {
          // Each row by an index on its id: joined on the (user, domain, source) prefix, a
          // planner whose statistics lag the run's inserts could scan every record per row.
          if (regrown.length > 0) {
            await tx.$executeRaw`
              UPDATE "shortener"."short_imports" i SET "visits_total" = d."total"
                FROM unnest(${regrown.map((g) => g.shortId)}::uuid[], ${regrown.map((g) => g.total)}::int8[])
                  AS d("short_id", "total")
               WHERE i."short_id" = d."short_id" AND i."user_id" = ${userId}::uuid
                 AND i."domain_id" = ${domain.id}::uuid AND i."source" = ${source}`;
          }
          await tx.$executeRaw`
            UPDATE "shortener"."shorts" s SET "imported_visits" = s."imported_visits" + d."delta"
              FROM unnest(${grown.map((g) => g.shortId)}::uuid[], ${grown.map((g) => g.delta)}::int8[])
                AS d("short_id", "delta")
             WHERE s."id" = d."short_id"`;
          this.summary.historyVisits += grown.reduce((sum, g) => sum + g.delta, 0);
        }
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    const withVisits = checked.filter((c) => c.link.visits !== undefined && shortOf.has(c.link.key));
    if (withVisits.length > 0) {
      await this.storeVisits(
        withVisits.map((c) => ({
          key: c.link.key,
          shortId: shortOf.get(c.link.key)!,
          visits: c.link.visits!,
        })),
      );
    }
  }

  /**
   * Visits one by one, after the last one an earlier run imported of each short (the later of
   * its record's mark and its newest imported row: the rows commit apart from the mark). Those
   * older than the retention would be dropped with their month at once: they are history.
   */
  private async storeVisits(links: { key: string; shortId: string; visits: SourceVisit[] }[]): Promise<void> {
    const { prisma, maintenance, retentionDays } = this.services;
    const pool = poolOf(prisma);
    const ids = links.map((l) => l.shortId);
    const { rows: marks } = await pool.query<{ short_id: string; through: Date | null }>(
      `SELECT i."short_id", greatest(max(i."visits_through"), (
          SELECT max(l."created_at") FROM "shortener"."short_logs" l WHERE l."short_id" = i."short_id" AND l."imported"
        )) AS "through"
         FROM "shortener"."short_imports" i WHERE i."short_id" = ANY($1::uuid[]) GROUP BY i."short_id"`,
      [ids],
    );
    const through = new Map(marks.map((m) => [m.short_id, m.through?.getTime() ?? Number.NEGATIVE_INFINITY]));
    const now = Date.now();
    // A month's partition is dropped once its end is the retention past (visit-maintenance.ts):
    // visits of a month that ended before then would go at once.
    const keptFrom =
      retentionDays === undefined ? Number.NEGATIVE_INFINITY : monthStartOf(now - retentionDays * DAY);
    const history = new Map<string, { count: number; last: number }>();
    const stored: { shortId: string; visit: SourceVisit }[] = [];
    for (const { shortId, visits } of links) {
      const after = through.get(shortId) ?? Number.NEGATIVE_INFINITY;
      for (const visit of visits) {
        const at = visit.at.getTime();
        if (at <= after || at > now) continue;
        if (at < keptFrom) {
          const h = history.get(shortId) ?? { count: 0, last: at };
          h.count++;
          h.last = Math.max(h.last, at);
          history.set(shortId, h);
        } else stored.push({ shortId, visit });
      }
    }
    if (history.size > 0) {
      const entries = [...history.entries()];
      // The history and its mark in one statement: a second run counts none of them again.
      await pool.query(
        `WITH given AS (
           SELECT * FROM unnest($1::uuid[], $2::int8[], $3::timestamptz[]) AS g("short_id", "count", "last")
         ), marked AS (
           UPDATE "shortener"."short_imports" i SET "visits_through" = greatest(i."visits_through", g."last")
             FROM given g WHERE i."short_id" = g."short_id"
         )
         UPDATE "shortener"."shorts" s SET "imported_visits" = s."imported_visits" + g."count"
           FROM given g WHERE s."id" = g."short_id"`,
        [
          entries.map(([id]) => id),
          entries.map(([, h]) => h.count),
          entries.map(([, h]) => new Date(h.last)),
        ],
      );
      this.summary.historyVisits += entries.reduce((sum, [, h]) => sum + h.count, 0);
    }
    if (stored.length === 0) return;
    await maintenance.coverMonths(stored.map((s) => s.visit.at));
    // Oldest first, a chunk at a time: what is stored of a short is always its oldest visits, so
    // the newest stored row is a true mark if a run stops half-way.
    stored.sort((a, b) => a.visit.at.getTime() - b.visit.at.getTime());
    // Each visitor once per short and UTC day, on its first visit (docs/adr/0243): told apart by
    // address and user agent, as a live visit's, when the source gives the address; a visit
    // without one is a visitor of its own. A link's visits are all in this call, so are all of
    // its visitors' first visits.
    const counted = new Set<string>();
    const visitors = stored.map(({ shortId, visit }) => {
      if (visit.ipAddress === "") return `#${++this.anonymousVisits}`;
      const text = `${visit.ipAddress}\n${visit.userAgent}`;
      const key = `${shortId} ${visit.at.toISOString().slice(0, 10)} ${text}`;
      if (counted.has(key)) return undefined;
      counted.add(key);
      return text;
    });
    for (let i = 0; i < stored.length; i += VISIT_CHUNK) {
      const chunk = stored.slice(i, i + VISIT_CHUNK);
      const results = await Promise.allSettled(
        chunk.map(({ shortId, visit }, j) => this.recordVisit({ shortId, ...visit }, visitors[i + j])),
      );
      for (const result of results) {
        if (result.status === "fulfilled") this.summary.visits++;
        else if ((result.reason as Error)?.name !== "ShortGone") throw result.reason;
      }
    }
    const last = new Map<string, Date>();
    for (const { shortId, visit } of stored) last.set(shortId, visit.at);
    await pool.query(
      `UPDATE "shortener"."short_imports" i SET "visits_through" = greatest(i."visits_through", g."last")
         FROM unnest($1::uuid[], $2::timestamptz[]) AS g("short_id", "last") WHERE i."short_id" = g."short_id"`,
      [[...last.keys()], [...last.values()]],
    );
  }
}

/** The start of the month `time` is in (UTC), in milliseconds. */
function monthStartOf(time: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}
