// Reading orphan visits (docs/adr/0227): a domain's totals per kind, a timeseries and its top
// values, from the hourly aggregates the orphan counter writes (visits/orphan-visits.ts), in the
// statistics' range rules (stats.service.ts). The API reads one domain the caller may use; the
// operator's CLI reads every domain and the unknown hosts' bucket.
import { type PrismaClient, poolOf } from "@app/db";
import { ORPHAN_VALUES_PER_HOUR, type OrphanVisits } from "@app/schemas/shortener";
import { DEFAULT_DOMAIN_ID } from "../default-domain.ts";
import { type OrphanKind, UNKNOWN_HOST_ID } from "../visits/orphan-visits.ts";
import { LAST_INSTANT, MAX_BUCKETS, type Range, tooManyBuckets, withOffset } from "./stats.service.ts";

type TopValue = OrphanVisits["names"][number];

/** One bucket's orphan visits, with the unknown hosts' figures besides the API's. */
export interface OrphanFigures extends Omit<OrphanVisits, "domain" | "kinds"> {
  kinds: OrphanVisits["kinds"] & { unknownHost: number };
  /** The hosts asked for (the unknown hosts' bucket only). */
  hosts: TopValue[];
}

const KIND_FIELDS: Record<OrphanKind, keyof OrphanFigures["kinds"]> = {
  name: "unknownName",
  root: "root",
  host: "unknownHost",
};
const LISTS = {
  name: "names",
  host: "hosts",
  referrer: "referrers",
  country: "countries",
  browser: "browsers",
  os: "os",
  device: "devices",
} as const;
const TOP = 10;

/** The figures of `domainId` (a domain's id, or UNKNOWN_HOST_ID) over `range`. */
export async function readOrphanVisits(
  prisma: PrismaClient,
  domainId: string,
  range: Range,
): Promise<OrphanFigures> {
  const pool = poolOf(prisma);
  const scope = [domainId, range.from, range.to];
  const [kinds, top, timeseries] = await Promise.all([
    pool.query<{ kind: OrphanKind; visits: string; humans: string }>(
      `SELECT "kind", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans"
       FROM "shortener"."orphan_visit_hours" WHERE "domain_id" = $1 AND "hour" >= $2 AND "hour" < $3 GROUP BY 1`,
      scope,
    ),
    pool.query<{ dimension: keyof typeof LISTS; value: string; visits: string; humans: string }>(
      `SELECT "dimension", "value", "visits", "humans" FROM (
         SELECT "dimension", "value", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans",
           row_number() OVER (PARTITION BY "dimension" ORDER BY sum("visits") DESC, "value") AS "rank"
         FROM "shortener"."orphan_visit_hour_values"
         WHERE "domain_id" = $1 AND "hour" >= $2 AND "hour" < $3 GROUP BY 1, 2
       ) AS ranked
       WHERE "rank" <= CASE WHEN "dimension" IN ('name', 'host') THEN $4::int ELSE ${TOP} END
       ORDER BY "dimension", "rank"`,
      [...scope, ORPHAN_VALUES_PER_HOUR],
    ),
    timeseriesOf(pool, scope, range),
  ]);
  const figures: OrphanFigures = {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    interval: range.interval,
    timezone: range.timezone,
    totals: { visits: 0, humans: 0, bots: 0 },
    kinds: { unknownName: 0, root: 0, unknownHost: 0 },
    timeseries,
    names: [],
    hosts: [],
    referrers: [],
    countries: [],
    browsers: [],
    os: [],
    devices: [],
  };
  for (const row of kinds.rows) {
    const visits = Number(row.visits);
    const humans = Number(row.humans);
    figures.kinds[KIND_FIELDS[row.kind]] += visits;
    figures.totals.visits += visits;
    figures.totals.humans += humans;
  }
  figures.totals.bots = figures.totals.visits - figures.totals.humans;
  for (const row of top.rows) {
    figures[LISTS[row.dimension]].push({
      value: row.value,
      visits: Number(row.visits),
      humans: Number(row.humans),
    });
  }
  return figures;
}

/** Every bucket of the range, empty ones too, as a short's statistics have them (stats.service.ts). */
async function timeseriesOf(
  pool: ReturnType<typeof poolOf>,
  scope: unknown[],
  range: Range,
): Promise<OrphanVisits["timeseries"]> {
  const hours = `"shortener"."orphan_visit_hours" WHERE "domain_id" = $1 AND "hour" >= $2 AND "hour" < $3`;
  const { rows } =
    range.interval === "hour"
      ? await pool.query<{ local: string; instant: Date; visits: string; humans: string }>(
          `WITH sums AS (
             SELECT "hour" AS "instant", sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans"
             FROM ${hours} GROUP BY 1
           )
           SELECT to_char(b."instant" AT TIME ZONE $4, 'YYYY-MM-DD"T"HH24:MI:SS') AS "local", b."instant",
             coalesce(s."visits", 0) AS "visits", coalesce(s."humans", 0) AS "humans"
           FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 hour', interval '1 hour') AS b("instant")
           LEFT JOIN sums s USING ("instant") ORDER BY b."instant" LIMIT ${MAX_BUCKETS + 1}`,
          [...scope, range.timezone],
        )
      : await pool.query<{ local: string; instant: Date; visits: string; humans: string }>(
          `WITH sums AS (
             SELECT date_trunc($5, ("hour" + ${LAST_INSTANT}) AT TIME ZONE $4) AS "local",
               sum("visits")::int8 AS "visits", sum("humans")::int8 AS "humans"
             FROM ${hours} GROUP BY 1
           )
           SELECT to_char(b."local", 'YYYY-MM-DD"T"HH24:MI:SS') AS "local", b."local" AT TIME ZONE $4 AS "instant",
             coalesce(s."visits", 0) AS "visits", coalesce(s."humans", 0) AS "humans"
           FROM generate_series(
             date_trunc($5, ($2::timestamptz + ${LAST_INSTANT}) AT TIME ZONE $4),
             ($3::timestamptz - interval '1 microsecond') AT TIME ZONE $4,
             ('1 ' || $5)::interval
           ) AS b("local")
           LEFT JOIN sums s USING ("local") ORDER BY b."local" LIMIT ${MAX_BUCKETS + 1}`,
          [...scope, range.timezone, range.interval],
        );
  if (rows.length > MAX_BUCKETS) throw tooManyBuckets(range.interval);
  return rows.map((row) => ({
    start: withOffset(row.local, row.instant),
    visits: Number(row.visits),
    humans: Number(row.humans),
  }));
}

/** The operator's view (CLI): one domain's, or every domain's and the unknown hosts'. */
export interface DomainOrphanFigures extends Omit<OrphanFigures, "timeseries" | "interval" | "timezone"> {
  /** The domain's host; null: requests whose Host named no domain. */
  domain: string | null;
}

/**
 * The figures of the domain `host` (null when there is none of that name), or with no host of
 * every domain (the default first, then by host) and then of the unknown hosts.
 */
export async function orphanVisitsByDomain(
  prisma: PrismaClient,
  defaultHost: string,
  range: Range,
  host?: string,
): Promise<DomainOrphanFigures[] | null> {
  const rows = await prisma.shortDomain.findMany({
    select: { id: true, host: true },
    orderBy: { host: { sort: "asc", nulls: "first" } },
  });
  const targets: { domain: string | null; id: string }[] = rows
    .filter((row) => row.id === DEFAULT_DOMAIN_ID || row.host !== defaultHost)
    .map((row) => ({ domain: row.id === DEFAULT_DOMAIN_ID ? defaultHost : row.host!, id: row.id }));
  const chosen =
    host === undefined
      ? [...targets, { domain: null, id: UNKNOWN_HOST_ID }]
      : targets.filter((target) => target.domain === host);
  if (chosen.length === 0) return null;
  return Promise.all(
    chosen.map(async ({ domain, id }) => {
      const {
        timeseries: _series,
        interval: _interval,
        timezone: _zone,
        ...figures
      } = await readOrphanVisits(prisma, id, range);
      return { domain, ...figures };
    }),
  );
}
