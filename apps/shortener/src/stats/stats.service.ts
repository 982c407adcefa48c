// Visit statistics, read from the hourly aggregates only (never a scan of the visits): totals,
// a timeseries in the caller's time zone, top values of each dimension, and for a user's whole
// account the top shorts. The aggregates are written by the statement that stores each batch
// of visits (visits/visit-log.ts), so every figure equals a GROUP BY over the stored visits.
import { randomBytes } from "node:crypto";
import { isForeignKeyViolation, Prisma, type PrismaClient, poolOf, type ReplicaReads } from "@app/db";
import type { DeclaredRefusal } from "@app/schemas/refusals";
import {
  type ShortStats,
  STATS_TOKEN_PATTERN,
  type StatsInterval,
  type StatsLink,
  type StatsQuery,
  type UserStats,
} from "@app/schemas/shortener";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hashToken } from "../credentials.ts";
import { BadRequest, NotFound } from "../errors.ts";
import { ROLLED_END, ROLLED_THROUGH, TOTALS_END, TOTALS_THROUGH } from "../visits/visit-rollup.ts";

const HOUR = 3_600_000;
const DEFAULT_RANGE = 30 * 24 * HOUR;
/** The most buckets one timeseries may have: counted by the statement that makes them. */
export const MAX_BUCKETS = 1000;
/**
 * More UTC hours than a bucket of each interval can hold (a zone's clock has once been set back
 * a whole day, in Alaska in 1867): a range of over MAX_BUCKETS of these is refused unread.
 */
const MOST_HOURS: Record<StatsInterval, number> = { hour: 1, day: 49, week: 193, month: 769 };
/**
 * The instants a range may span: each bucket's local start and label then lie in years 1 to
 * 9999 in every zone (PostgreSQL has no year 0, and ISO 8601's years have four digits).
 */
const EARLIEST = Date.parse("0001-01-02T00:00:00Z");
const LATEST = Date.parse("9999-12-31T00:00:00Z");
const DIMENSIONS = {
  referrer: "referrers",
  country: "countries",
  browser: "browsers",
  os: "os",
  device: "devices",
  // A short's only, each of them (at most 11): the per-user aggregates leave it out.
  rule: "rules",
};
const TOP = 10;
/**
 * Past this many candidates, top shorts reads every short's daily rows in one scan rather than
 * each candidate's through the index (measured: ~40 µs a candidate against ~0.5 µs a row).
 */
export const TOP_SHORTS_CANDIDATES = 500;

/** A short's figures come from its own aggregates. */
const SHORT_TABLES = {
  $hours: `"shortener"."visit_hours"`,
  $hourValues: `"shortener"."visit_hour_values"`,
  $dayValues: `"shortener"."visit_day_values"`,
  $valueTotals: `"shortener"."visit_value_totals"`,
  $firstDailyDay: `(SELECT min("day") FROM "shortener"."visit_day_values" WHERE "short_id" = :whom::uuid)`,
};

/**
 * An account's from the per-user ones, less what is left of its deleted shorts' rows: the sweep
 * subtracts from the per-user rows in the statement that deletes the short's, so within one
 * statement's snapshot the difference is exactly the account's live shorts, from the moment
 * of the DELETE on.
 */
const USER_TABLES = {
  $hours: userTable("hours", `"hour", "visits", "humans", "visitors"`),
  $hourValues: userTable("hour_values", `"hour", "dimension", "value", "visits", "humans"`),
  $dayValues: userTable("day_values", `"day", "dimension", "value", "visits", "humans"`),
  $valueTotals: userTable("value_totals", `"dimension", "value", "visits", "humans"`),
  $firstDailyDay: `(SELECT min("day") FROM "shortener"."visit_user_day_values" WHERE "user_id" = :whom::uuid)`,
};

function userTable(suffix: string, columns: string): string {
  const negated = columns
    .replace(/"(visits|humans|visitors)"/g, `-s."$1"`)
    .replace(/"(hour|day|dimension|value)"/g, `s."$1"`);
  return `(SELECT "user_id", ${columns} FROM "shortener"."visit_user_${suffix}"
    UNION ALL
    SELECT d."user_id", ${negated} FROM "shortener"."visit_${suffix}" s
    JOIN "shortener"."deleted_shorts" d ON d."short_id" = s."short_id") AS "aggregates"`;
}

/**
 * Whose visits: one short, every short of one user, or every short of one user on one domain
 * (null: an unknown domain, no short).
 */
type Scope = { shortId: string } | { userId: string } | { userId: string; domainId: string | null };

/** A user's shorts on one domain: each from its own aggregates, summed (a visitor counts once per short and day either way). */
const SHORTS_ON_DOMAIN = `"short_id" IN (SELECT "id" FROM "shortener"."shorts" WHERE "user_id" = :whom::uuid AND "domain_id" = :domain::uuid)`;
const DOMAIN_TABLES = {
  ...SHORT_TABLES,
  $firstDailyDay: `(SELECT min("day") FROM "shortener"."visit_day_values" WHERE ${SHORTS_ON_DOMAIN})`,
};

export interface Range {
  from: Date;
  to: Date;
  /** The whole UTC days inside the range: [dayStart, dayEnd), empty when dayStart = dayEnd. */
  dayStart: Date;
  dayEnd: Date;
  interval: StatsInterval;
  timezone: string;
}

const DAY = 24 * HOUR;
/** From an hour's start to its last instant. */
export const LAST_INSTANT = `interval '1 hour' - interval '1 microsecond'`;

/** What a statistics query refuses beyond the document's schemas (docs/adr/0214): rules relating its parameters and the clock. */
export const STATS_RANGE_REFUSALS: readonly DeclaredRefusal[] = [
  {
    status: 400,
    answer: "from must be before to",
    rule: "the range starts before it ends (to defaults to now)",
  },
  {
    status: 400,
    answer: "the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z",
    rule: "the range, rounded to whole hours, lies in the years the buckets can name",
  },
  {
    status: 400,
    answer: `the range holds more than ${MAX_BUCKETS} … buckets`,
    rule: `the range holds at most ${MAX_BUCKETS} buckets of the interval (hour, day, week or month)`,
  },
];

/** `from` down and `to` up to whole hours; the range checked against the bucket limit. */
export function statsRange(query: StatsQuery, now = new Date()): Range {
  const to = new Date(Math.ceil((query.to ? Date.parse(query.to) : now.getTime()) / HOUR) * HOUR);
  const from = new Date(
    query.from ? Math.floor(Date.parse(query.from) / HOUR) * HOUR : to.getTime() - DEFAULT_RANGE,
  );
  if (from.getTime() >= to.getTime()) throw new BadRequest("from must be before to");
  if (from.getTime() < EARLIEST || to.getTime() > LATEST) {
    throw new BadRequest("the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z");
  }
  const hours = (to.getTime() - from.getTime()) / HOUR;
  if (hours > MAX_BUCKETS * MOST_HOURS[query.interval]) throw tooManyBuckets(query.interval);
  // No whole day inside (a range within one day): both at `to`, so the hours cover it all.
  const dayStart = Math.min(Math.ceil(from.getTime() / DAY) * DAY, to.getTime());
  const dayEnd = Math.max(dayStart, Math.floor(to.getTime() / DAY) * DAY);
  return {
    from,
    to,
    dayStart: new Date(dayStart),
    dayEnd: new Date(dayEnd),
    interval: query.interval,
    timezone: query.timezone,
  };
}

export function tooManyBuckets(interval: StatsInterval): BadRequest {
  return new BadRequest(`the range holds more than ${MAX_BUCKETS} ${interval} buckets`);
}

/** `2026-03-29T00:00:00` local and its instant → `2026-03-29T00:00:00+01:00`. */
export function withOffset(local: string, instant: Date): string {
  const minutes = Math.round((Date.parse(`${local}Z`) - instant.getTime()) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export class StatsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly shortBaseUrl: string,
    /** Where the figures are read (a replica within its lag bound); default: the primary. */
    private readonly reads?: ReplicaReads,
    /** The most candidates top shorts sums one short at a time (see topShorts). */
    private readonly topShortsCandidates = TOP_SHORTS_CANDIDATES,
    /** Folds the visits' pending sums in: called before the aggregates are read (docs/adr/0234). */
    private readonly settleVisits: () => Promise<void> = async () => {},
  ) {}

  /**
   * A new public link to the short's statistics page, replacing any earlier one (which stops
   * working at once). The token is shown only in this answer; its SHA-256 is stored.
   */
  async createLink(shortId: string): Promise<StatsLink> {
    const token = randomBytes(24).toString("base64url");
    const row = await this.prisma.statsLink
      .upsert({
        where: { shortId },
        create: { shortId, tokenHash: hashToken(token) },
        update: { tokenHash: hashToken(token), createdAt: new Date() },
      })
      .catch((error: unknown) => {
        // The short was deleted since the caller found it.
        throw isForeignKeyViolation(error) ? new NotFound() : error;
      });
    return { url: `${this.shortBaseUrl}/stats/${token}`, createdAt: row.createdAt.toISOString() };
  }

  /** Revokes the short's link; 404 when it has none. */
  async deleteLink(shortId: string): Promise<void> {
    const { count } = await this.prisma.statsLink.deleteMany({ where: { shortId } });
    if (count === 0) throw new NotFound();
  }

  /** The short a link's token opens (404 for any other value: unknown, revoked, malformed). */
  async shortOfLink(token: string): Promise<{ id: string; name: string }> {
    if (!STATS_TOKEN_PATTERN.test(token)) throw new NotFound();
    const link = await this.prisma.statsLink.findUnique({
      where: { tokenHash: hashToken(token) },
      select: { short: { select: { id: true, name: true } } },
    });
    if (!link) throw new NotFound();
    return link.short;
  }

  async forShort(shortId: string, query: StatsQuery): Promise<ShortStats> {
    const range = statsRange(query);
    await this.settleVisits();
    return this.stats({ shortId }, range);
  }

  /** The user's statistics; with `domain`, of their shorts on that domain (null: an unknown one). */
  async forUser(userId: string, query: StatsQuery, domain?: { id: string | null }): Promise<UserStats> {
    const range = statsRange(query);
    const scope = domain === undefined ? { userId } : { userId, domainId: domain.id };
    await this.settleVisits();
    const [stats, shorts] = await Promise.all([this.stats(scope, range), this.topShorts(scope, range)]);
    return { ...stats, shorts };
  }

  private async stats(scope: Scope, range: Range): Promise<ShortStats> {
    const [totals, timeseries, top, importedVisits] = await Promise.all([
      this.query<{ visits: string; humans: string; visitors: string }>(
        scope,
        range,
        `SELECT coalesce(sum("visits"), 0)::int8 AS "visits", coalesce(sum("humans"), 0)::int8 AS "humans",
           coalesce(sum("visitors"), 0)::int8 AS "visitors"
         FROM $hours WHERE $scope AND "hour" >= :from AND "hour" < :to`,
      ),
      this.timeseries(scope, range),
      this.query<{ dimension: keyof typeof DIMENSIONS; value: string; visits: string; humans: string }>(
        scope,
        range,
        // Whole UTC days rolled up from the daily rows, the hours around them from the hourly.
        `WITH choice AS (
           -- The totals less the days outside the range, when those are fewer than the days
           -- inside: from the first daily row to the range, and from the range to the last
           -- day in the totals (docs/adr/0188).
           SELECT coalesce(greatest(:firstDay::date - $firstDailyDay, 0)
             + greatest(${TOTALS_THROUGH} - :endDay::date + 1, 0) < :endDay::date - :firstDay::date, false)
             AS "from_totals"
         )
         SELECT "dimension", "value", "visits", "humans" FROM (
           SELECT "dimension", "value", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans",
             row_number() OVER (PARTITION BY "dimension" ORDER BY sum("visits") DESC, "value") AS "rank"
           FROM (
             -- The rows summed first as integers (fast), the totals' bigints added to the sums.
             SELECT "dimension", "value", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans" FROM (
               -- (Each branch's condition is checked once: only the branches chosen run.)
               SELECT "dimension", "value", $ifRolled("visits"), $ifRolled("humans") FROM $dayValues
               WHERE NOT $fromTotals AND $scope AND "day" >= :firstDay::date AND "day" < :endDay::date
               UNION ALL
               -- (The totals' days are those through totals_through: the hourly rows follow them.)
               SELECT "dimension", "value", ${inTotals(`-"visits"`)} AS "visits", ${inTotals(`-"humans"`)} AS "humans"
               FROM $dayValues
               WHERE $fromTotals AND $scope AND ("day" < :firstDay::date OR "day" >= :endDay::date)
               UNION ALL
               SELECT "dimension", "value", "visits", "humans" FROM $hourValues
               WHERE $scope AND (("hour" >= :from AND "hour" < :dayStart)
                 OR ("hour" >= CASE WHEN $fromTotals THEN $totalsEnd ELSE $daysEnd END AND "hour" < :to))
             ) AS rows GROUP BY 1, 2
             UNION ALL
             SELECT "dimension", "value", "visits", "humans" FROM $valueTotals WHERE $fromTotals AND $scope
           ) AS v
           -- A deleted short's visits leave an account's values as they are swept: none left, none shown.
           GROUP BY 1, 2 HAVING sum("visits") > 0
         ) AS ranked WHERE "rank" <= ${TOP} OR "dimension" = 'rule' ORDER BY "dimension", "rank"`,
      ),
      this.importedVisits(scope),
    ]);
    const visits = Number(totals[0]!.visits);
    const humans = Number(totals[0]!.humans);
    const lists = Object.fromEntries(Object.values(DIMENSIONS).map((name) => [name, [] as TopValue[]]));
    const ofShort = "shortId" in scope;
    for (const row of top) {
      // Summed over several shorts (a domain's), a rule's number means nothing.
      if (row.dimension === "rule" && !ofShort) continue;
      lists[DIMENSIONS[row.dimension]]!.push({
        value: row.value,
        visits: Number(row.visits),
        humans: Number(row.humans),
      });
    }
    return {
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      interval: range.interval,
      timezone: range.timezone,
      totals: { visits, humans, bots: visits - humans, uniqueVisitors: Number(totals[0]!.visitors) },
      timeseries,
      referrers: lists.referrers!,
      countries: lists.countries!,
      browsers: lists.browsers!,
      os: lists.os!,
      devices: lists.devices!,
      ...(ofShort ? { rules: lists.rules! } : {}),
      // Only when there is some: statistics without imports answer as before they existed.
      ...(importedVisits > 0 ? { importedVisits } : {}),
    };
  }

  /**
   * The imported history of the scope's shorts (docs/adr/0225): totals a source gave without the
   * visits themselves, with no time to place them in a range, so shown whatever the range.
   */
  private async importedVisits(scope: Scope): Promise<number> {
    const where =
      "shortId" in scope
        ? Prisma.sql`"id" = ${scope.shortId}::uuid`
        : "domainId" in scope
          ? Prisma.sql`"user_id" = ${scope.userId}::uuid AND "domain_id" = ${scope.domainId}::uuid`
          : Prisma.sql`"user_id" = ${scope.userId}::uuid`;
    const [row] = await this.prisma.$queryRaw<{ visits: bigint | null }[]>`
      SELECT sum("imported_visits")::int8 AS "visits" FROM "shortener"."shorts" WHERE ${where}`;
    return Number(row?.visits ?? 0);
  }

  /**
   * Every bucket of the range, empty ones too. Hours are UTC hours, labelled in the zone; days,
   * weeks and months run from local midnight (so a DST day has 23 or 25 hours) and hold the
   * aggregated UTC hours from the one their local start falls in (in a zone whose offset is not
   * whole hours, midnight falls within an hour): an hour's bucket is that of its last instant.
   * One row more than the limit is asked for, to tell a range that holds too many.
   */
  private async timeseries(scope: Scope, range: Range): Promise<ShortStats["timeseries"]> {
    const sql =
      range.interval === "hour"
        ? `WITH sums AS (
             SELECT "hour" AS "instant", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans"
             FROM $hours WHERE $scope AND "hour" >= :from AND "hour" < :to GROUP BY 1
           )
           SELECT to_char(b."instant" AT TIME ZONE :zone, 'YYYY-MM-DD"T"HH24:MI:SS') AS "local", b."instant",
             coalesce(s."visits", 0) AS "visits", coalesce(s."humans", 0) AS "humans"
           FROM generate_series(:from::timestamptz, :to::timestamptz - interval '1 hour', interval '1 hour') AS b("instant")
           LEFT JOIN sums s USING ("instant") ORDER BY b."instant"`
        : `WITH sums AS (
             SELECT date_trunc(:interval, ("hour" + ${LAST_INSTANT}) AT TIME ZONE :zone) AS "local",
               sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans"
             FROM $hours WHERE $scope AND "hour" >= :from AND "hour" < :to GROUP BY 1
           )
           SELECT to_char(b."local", 'YYYY-MM-DD"T"HH24:MI:SS') AS "local", b."local" AT TIME ZONE :zone AS "instant",
             coalesce(s."visits", 0) AS "visits", coalesce(s."humans", 0) AS "humans"
           FROM generate_series(
             date_trunc(:interval, (:from::timestamptz + ${LAST_INSTANT}) AT TIME ZONE :zone),
             (:to::timestamptz - interval '1 microsecond') AT TIME ZONE :zone,
             ('1 ' || :interval)::interval
           ) AS b("local")
           LEFT JOIN sums s USING ("local") ORDER BY b."local" LIMIT ${MAX_BUCKETS + 1}`;
    const rows = await this.query<{ local: string; instant: Date; visits: string; humans: string }>(
      scope,
      range,
      sql,
    );
    if (rows.length > MAX_BUCKETS) throw tooManyBuckets(range.interval);
    return rows.map((row) => ({
      start: withOffset(row.local, row.instant),
      visits: Number(row.visits),
      humans: Number(row.humans),
    }));
  }

  /**
   * The account's most visited shorts in the range. Summing the range for every short reads
   * each one's daily rows (111,000 for 10,000 shorts over 30 days: most of the request's time),
   * so the shorts' visits of all time bound the sums first (one row a short: docs/adr/0187):
   * the range's sums of the TOP shorts with the most visits of all time give a tenth place,
   * and a short whose visits of all time rank below it cannot rank above it. Only the shorts
   * left (the candidates) have their range summed, one short at a time; when there are more
   * than `topShortsCandidates`, every short's rows are read at once, as a single scan.
   * One statement: the bounds and the sums are read in one snapshot, so the list is exact.
   */
  private topShorts(
    scope: { userId: string } | { userId: string; domainId: string | null },
    range: Range,
  ): Promise<UserStats["shorts"]> {
    return this.query<{ id: string; name: string; host: string | null; visits: string; humans: string }>(
      scope,
      range,
      `WITH bounds AS MATERIALIZED (
         -- Each live short's visits of all time: the days rolled up, and the hours after them.
         -- (Joined, not summed as one list: a sum of the totals' int8 would be a numeric one.)
         SELECT * FROM (
           SELECT "short_id", coalesce(t."visits", 0) + coalesce(h."visits", 0) AS "bound"
           FROM (SELECT "short_id", "visits" FROM "shortener"."visit_user_short_totals" WHERE $scope) AS t
           FULL JOIN (
             SELECT "short_id", sum("visits") AS "visits" FROM "shortener"."visit_user_short_hours"
             WHERE $scope AND "hour" >= ${TOTALS_END} GROUP BY 1
           ) AS h USING ("short_id")
         ) AS b
         WHERE "bound" > 0 AND NOT EXISTS (SELECT FROM "shortener"."deleted_shorts" d WHERE d."short_id" = b."short_id")
       ), leaders AS (
         SELECT array_agg("short_id") AS "ids" FROM (
           SELECT "short_id" FROM bounds ORDER BY "bound" DESC, "short_id" LIMIT ${TOP}) AS l
       ), tenth AS (
         SELECT "short_id", "visits" FROM (${rangeSumsOf("leaders")}) AS v
         WHERE "visits" > 0 ORDER BY 2 DESC, 1 OFFSET ${TOP - 1} LIMIT 1
       ), candidates AS (
         -- All the shorts with a visit when fewer than TOP of the leaders have one in the range.
         SELECT array_agg("short_id") AS "ids" FROM bounds b WHERE NOT EXISTS (
           SELECT FROM tenth t WHERE b."bound" < t."visits" OR (b."bound" = t."visits" AND b."short_id" > t."short_id"))
       ), few AS (
         SELECT coalesce(cardinality("ids"), 0) <= ${this.topShortsCandidates} AS "few" FROM candidates
       )
       SELECT s."id", s."name", d."host", t."visits", t."humans" FROM (
         -- A few candidates: each one's sums. (Each branch's condition is checked once, before
         -- it reads a row: PostgreSQL runs only the branch that holds.)
         (SELECT * FROM (${rangeSumsOf("candidates")}) AS c WHERE (SELECT "few" FROM few) AND "visits" > 0)
         UNION ALL
         -- Many: every short's rows, whole UTC days from the daily ones, the rest from the hourly.
         (SELECT "short_id", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans" FROM (
           SELECT "short_id", $ifRolled("visits"), $ifRolled("humans") FROM "shortener"."visit_user_short_days"
           WHERE $scope AND "day" >= :firstDay::date AND "day" < :endDay::date
           UNION ALL
           SELECT "short_id", "visits", "humans" FROM "shortener"."visit_user_short_hours"
           WHERE $scope AND (("hour" >= :from AND "hour" < :dayStart) OR ("hour" >= $daysEnd AND "hour" < :to))
         ) AS v
         WHERE NOT (SELECT "few" FROM few)
         -- A deleted short's rows wait for the sweep; it is no longer the account's. Checked per
         -- short once its rows are summed (one probe a short, not one a row).
         GROUP BY 1 HAVING sum("visits") > 0
           AND NOT EXISTS (SELECT FROM "shortener"."deleted_shorts" d WHERE d."short_id" = v."short_id"))
         ORDER BY 2 DESC, 1 LIMIT ${TOP}
       ) AS t JOIN "shortener"."shorts" s ON s."id" = t."short_id"
       JOIN "shortener"."domains" d ON d."id" = s."domain_id" ORDER BY t."visits" DESC, s."id"`,
    ).then((rows) =>
      rows.map((row) => ({
        id: row.id,
        name: row.name,
        ...(row.host !== null ? { domain: row.host } : {}),
        visits: Number(row.visits),
        humans: Number(row.humans),
      })),
    );
  }

  /**
   * Runs `sql` with `$scope` (whose visits) and named values: :from, :to, :interval, :zone. Each
   * name used becomes a numbered parameter (PostgreSQL refuses parameters a statement leaves unused).
   */
  private async query<T>(scope: Scope, range: Range, sql: string): Promise<T[]> {
    const ofShort = "shortId" in scope;
    const ofDomain = "domainId" in scope;
    const where = ofShort
      ? `"short_id" = :whom::uuid`
      : ofDomain
        ? SHORTS_ON_DOMAIN
        : `"user_id" = :whom::uuid`;
    const tables = ofShort ? SHORT_TABLES : ofDomain ? DOMAIN_TABLES : USER_TABLES;
    const values: Record<string, unknown> = {
      from: range.from,
      to: range.to,
      dayStart: range.dayStart,
      dayEnd: range.dayEnd,
      // The same whole days as dates: a date parameter is compared as it is, where converting
      // a timestamptz parameter in SQL would be done again for every row a scan filters
      // (measured: half of top shorts' time for a user's 10,000 shorts).
      firstDay: range.dayStart.toISOString().slice(0, 10),
      endDay: range.dayEnd.toISOString().slice(0, 10),
      interval: range.interval,
      zone: range.timezone,
      whom: "shortId" in scope ? scope.shortId : scope.userId,
      domain: "domainId" in scope ? scope.domainId : null,
    };
    const used: string[] = [];
    const text = sql
      .replaceAll("$scope", where)
      // A daily row counts if its day is rolled up (one written before by an older build may be
      // partial until then). Zeroed rather than filtered: a filter on the watermark, unknown
      // when planning, makes the planner expect a third of the rows and read 100,000 daily
      // rows through the index one by one (an account's 30 days: 220 against 75 ms).
      .replace(/\$ifRolled\("(\w+)"\)/g, `CASE WHEN "day" <= ${ROLLED_THROUGH} THEN "$1" ELSE 0 END AS "$1"`)
      // The daily rows end at the range's last whole day or after the last day rolled up,
      // whichever comes first (never before the first whole day): the hourly rows from there.
      .replaceAll("$daysEnd", `GREATEST(:dayStart, LEAST(:dayEnd, ${ROLLED_END}))`)
      .replaceAll("$totalsEnd", `GREATEST(:dayStart, LEAST(:dayEnd, ${TOTALS_END}))`)
      .replaceAll("$fromTotals", `(SELECT "from_totals" FROM choice)`)
      .replace(
        /\$(hours|hourValues|dayValues|valueTotals|firstDailyDay)\b/g,
        (table) => tables[table as keyof typeof tables],
      )
      .replace(
        /(?<!:):(from|to|dayStart|dayEnd|firstDay|endDay|interval|zone|whom|domain)\b/g,
        (_, name: string) => {
          if (!used.includes(name)) used.push(name);
          return `$${used.indexOf(name) + 1}`;
        },
      );
    // Unnamed: planned for this request's values. A prepared statement's generic plan (from
    // its sixth run on) guesses how many rows a short or an account has, and guesses low: it
    // reads 100,000 daily rows through the index one by one. Measured on `pnpm bench`'s data:
    // top shorts of 10,000 shorts 80-125 ms generic, 35-41 ms planned each time; a short's top
    // values over 365 days 35 ms against 16 ms. Planning costs about a millisecond.
    const run = (db: PrismaClient) => poolOf(db).query({ text, values: used.map((key) => values[key]) });
    const result = await (this.reads ? this.reads.read(run) : run(this.prisma));
    return result.rows as T[];
  }
}

/**
 * The range's sums of each short in the array of ids of CTE `shorts` (the user's), read one
 * short at a time through the indexes: whole UTC days from the daily rows, the hours around
 * them from the short's own hourly rows (for a live short, the same as the per-user ones), one
 * range per branch. An array and a lateral sum, so that the plan is one whatever the planner
 * guesses: it cannot know the array's length and takes 10 (a guess of a thousand candidates
 * once made it compile the statement: 97 ms of JIT for 0.4 ms of work), and a lateral sum
 * cannot be turned into a scan of every short's rows.
 */
function rangeSumsOf(shorts: string): string {
  return `SELECT c."short_id", r."visits", r."humans" FROM unnest((SELECT "ids" FROM ${shorts})) AS c("short_id")
    CROSS JOIN LATERAL (
      SELECT coalesce(sum("visits"), 0)::int8 AS "visits", coalesce(sum("humans"), 0)::int8 AS "humans" FROM (
        SELECT $ifRolled("visits"), $ifRolled("humans") FROM "shortener"."visit_user_short_days"
        WHERE "user_id" = :whom::uuid AND "short_id" = c."short_id" AND "day" >= :firstDay::date AND "day" < :endDay::date
        UNION ALL
        SELECT "visits", "humans" FROM "shortener"."visit_hours"
        WHERE "short_id" = c."short_id" AND "hour" >= :from AND "hour" < :dayStart
        UNION ALL
        SELECT "visits", "humans" FROM "shortener"."visit_hours"
        WHERE "short_id" = c."short_id" AND "hour" >= $daysEnd AND "hour" < :to
      ) AS rows
    ) AS r`;
}

/** `value` if the row's day is in the totals, else 0. */
function inTotals(value: string): string {
  return `CASE WHEN "day" <= ${TOTALS_THROUGH} THEN ${value} ELSE 0 END`;
}

interface TopValue {
  value: string;
  visits: number;
  humans: number;
}

async function statsPlugin(app: FastifyInstance, { shortBaseUrl }: { shortBaseUrl: string }): Promise<void> {
  app.decorate(
    "stats",
    new StatsService(app.prisma, shortBaseUrl, app.reads, TOP_SHORTS_CANDIDATES, () => app.visitLog.settle()),
  );
}

export default fp(statsPlugin, {
  name: "stats",
  fastify: "5.x",
  decorators: { fastify: ["prisma", "reads", "visitLog"] },
});
