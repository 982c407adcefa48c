// The statistics rows of `pnpm bench` (issue 18): the stats API reads only the hourly and daily
// aggregates the visit log keeps, so a short's visit count is set by writing those aggregates
// as 10 M visits would leave them (with the same number of rows per hour and value), not by
// inserting 10 M raw rows the API never reads. Measured over HTTP against the real shortener.
import type { PrismaClient } from "@app/db";
import { createUser } from "@app/shortener/credentials";

/** Dimensions and how many distinct values each has per hour in the fixture. */
const DIMENSIONS: [string, number][] = [
  ["referrer", 20],
  ["country", 25],
  ["browser", 8],
  ["os", 6],
  ["device", 4],
];

export interface StatsFixture {
  token: string;
  /** The short with `visits` visits over `days` days. */
  shortId: string;
  /** How many shorts the token's user owns (the big one included). */
  shorts: number;
}

/**
 * One user with one short holding the aggregates of `visits` visits spread evenly over the last
 * `days` days (every hour, every value of every dimension), and `shorts - 1` smaller shorts,
 * each visited 4 times an hour in 24 different hours of the last 30 days.
 */
export async function seedStatsFixture(
  prisma: PrismaClient,
  { visits, days, shorts }: { visits: number; days: number; shorts: number },
): Promise<StatsFixture> {
  const stamp = Date.now();
  const user = await createUser(prisma, `bench-stats-${stamp}@example.com`);
  const big = await prisma.short.create({
    data: { userId: user.id, name: `stats${stamp}`, url: "https://example.com/" },
  });
  const hours = days * 24;
  const base = Math.floor(visits / hours);
  const extra = visits - base * hours;
  await prisma.$executeRawUnsafe(
    `INSERT INTO "shortener"."visit_hours" ("short_id", "hour", "visits", "humans", "visitors")
     SELECT $1::uuid, date_trunc('hour', now()) - i * interval '1 hour', v, v * 8 / 10, v * 3 / 10
     FROM (SELECT i, CASE WHEN i < ${extra} THEN ${base + 1} ELSE ${base} END AS v
           FROM generate_series(0, ${hours - 1}) AS i) AS x`,
    big.id,
  );
  for (const [dimension, count] of DIMENSIONS) {
    // Value j of n gets a share falling with j; value 0 takes what rounding left, so each
    // dimension's values add up to the hour's visits.
    const weight = (count * (count + 1)) / 2;
    await prisma.$executeRawUnsafe(
      `WITH shares AS (
         SELECT h."hour", j, CASE WHEN j > 0 THEN h."visits" * (${count} - j) / ${weight} END AS share, h."visits"
         FROM "shortener"."visit_hours" h, generate_series(0, ${count - 1}) AS j WHERE h."short_id" = $1::uuid
       ), filled AS (
         SELECT "hour", j, coalesce(share, "visits" - sum(share) OVER (PARTITION BY "hour")) AS share FROM shares
       )
       INSERT INTO "shortener"."visit_hour_values" ("short_id", "hour", "dimension", "value", "visits", "humans")
       SELECT $1::uuid, "hour", '${dimension}', '${dimension}-' || j, share, share * 8 / 10 FROM filled`,
      big.id,
    );
  }
  await prisma.$executeRawUnsafe(
    `INSERT INTO "shortener"."visit_day_values" ("short_id", "day", "dimension", "value", "visits", "humans")
     SELECT "short_id", ("hour" AT TIME ZONE 'UTC')::date, "dimension", "value", sum("visits"), sum("humans")
     FROM "shortener"."visit_hour_values" WHERE "short_id" = $1::uuid GROUP BY 1, 2, 3, 4`,
    big.id,
  );
  // The smaller shorts, 1,000 per statement (one statement for 10,000 would pass the
  // statement timeout).
  for (let first = 1; first < shorts; first += 1_000) {
    const last = Math.min(shorts - 1, first + 999);
    await prisma.$executeRawUnsafe(
      `WITH small AS (
         INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url")
         SELECT gen_random_uuid(), $1::uuid, 's${stamp}-' || s, 'https://example.com/' || s
         FROM generate_series(${first}, ${last}) AS s
         RETURNING "id", split_part("name", '-', 2)::int AS s
       ), visited AS (
         SELECT "id", s, k, date_trunc('hour', now()) - ((s * 37 + k * 131) % 720) * interval '1 hour' AS "hour"
         FROM small, generate_series(0, 23) AS k
       ), totals AS (
         INSERT INTO "shortener"."visit_hours" ("short_id", "hour", "visits", "humans", "visitors")
         SELECT "id", "hour", 4, 3, 2 FROM visited
       ), hourly AS (
         INSERT INTO "shortener"."visit_hour_values" ("short_id", "hour", "dimension", "value", "visits", "humans")
         SELECT "id", "hour", d, d || '-' || ((s + k) % 50), 3, 2 FROM visited,
           unnest(ARRAY['referrer', 'country', 'browser', 'os', 'device']) AS d
         UNION ALL
         SELECT "id", "hour", d, d || '-' || ((s + k + 1) % 50), 1, 1 FROM visited,
           unnest(ARRAY['referrer', 'country', 'browser', 'os', 'device']) AS d
         RETURNING "short_id", "hour", "dimension", "value", "visits", "humans"
       )
       INSERT INTO "shortener"."visit_day_values" ("short_id", "day", "dimension", "value", "visits", "humans")
       SELECT "short_id", ("hour" AT TIME ZONE 'UTC')::date, "dimension", "value", sum("visits"), sum("humans")
       FROM hourly GROUP BY 1, 2, 3, 4`,
      user.id,
    );
  }
  // The per-user aggregates the visit log writes with the per-short ones (an account's stats).
  const mine = `JOIN "shortener"."shorts" s ON s."id" = a."short_id" WHERE s."user_id" = $1::uuid`;
  for (const sql of [
    `INSERT INTO "shortener"."visit_user_hours" SELECT s."user_id", a."hour", sum(a."visits"), sum(a."humans"),
       sum(a."visitors") FROM "shortener"."visit_hours" a ${mine} GROUP BY 1, 2`,
    `INSERT INTO "shortener"."visit_user_hour_values" SELECT s."user_id", a."hour", a."dimension", a."value",
       sum(a."visits"), sum(a."humans") FROM "shortener"."visit_hour_values" a ${mine} GROUP BY 1, 2, 3, 4`,
    `INSERT INTO "shortener"."visit_user_day_values" SELECT s."user_id", a."day", a."dimension", a."value",
       sum(a."visits"), sum(a."humans") FROM "shortener"."visit_day_values" a ${mine} GROUP BY 1, 2, 3, 4`,
    // In time order, as the visit log writes them (an hour's rows of every short together).
    `INSERT INTO "shortener"."visit_user_short_hours" SELECT s."user_id", a."hour", a."short_id", a."visits",
       a."humans" FROM "shortener"."visit_hours" a ${mine} ORDER BY a."hour"`,
    `INSERT INTO "shortener"."visit_user_short_days" SELECT s."user_id", (a."hour" AT TIME ZONE 'UTC')::date,
       a."short_id", sum(a."visits"), sum(a."humans") FROM "shortener"."visit_hours" a ${mine} GROUP BY 1, 2, 3`,
    // The days rolled up, summed per short (docs/adr/0187) and per value (0188).
    `INSERT INTO "shortener"."visit_user_short_totals" SELECT "user_id", "short_id", sum("visits"), sum("humans")
       FROM "shortener"."visit_user_short_days"
       WHERE "user_id" = $1::uuid AND "day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup") GROUP BY 1, 2`,
    `INSERT INTO "shortener"."visit_value_totals" SELECT a."short_id", a."dimension", a."value", sum(a."visits"),
       sum(a."humans") FROM "shortener"."visit_day_values" a ${mine}
       AND a."day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup") GROUP BY 1, 2, 3`,
    `INSERT INTO "shortener"."visit_user_value_totals" SELECT "user_id", "dimension", "value", sum("visits"),
       sum("humans") FROM "shortener"."visit_user_day_values"
       WHERE "user_id" = $1::uuid AND "day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup") GROUP BY 1, 2, 3`,
  ]) {
    await prisma.$executeRawUnsafe(sql, user.id);
  }
  for (const table of [
    "visit_hours",
    "visit_hour_values",
    "visit_day_values",
    "visit_user_hours",
    "visit_user_hour_values",
    "visit_user_day_values",
    "visit_user_short_hours",
    "visit_user_short_days",
    "visit_user_short_totals",
    "visit_value_totals",
    "visit_user_value_totals",
  ]) {
    await prisma.$executeRawUnsafe(`VACUUM ANALYZE "shortener"."${table}"`);
  }
  return { token: user.token, shortId: big.id, shorts };
}
