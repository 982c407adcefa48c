// The daily aggregates, rolled up from the hourly ones once a UTC day is over, instead
// of being written by every batch of visits (three of its nine aggregate writes; docs/adr/0185).
// `visit_rollup.rolled_through` is the last day rolled up: statistics read the daily rows
// through it and the hourly rows after it, in one snapshot, so every figure stays exact. A
// visit of a day already rolled up (a late one) has its daily rows written by its batch.
import { inTransaction, type poolOf } from "@app/db";

/** The last UTC day with daily rows, as SQL read in the statement's own snapshot. */
export const ROLLED_THROUGH = `(SELECT "rolled_through" FROM "shortener"."visit_rollup")`;
/** The instant after that day: the hourly rows count from here. */
export const ROLLED_END = `(SELECT ("rolled_through" + 1)::timestamp AT TIME ZONE 'UTC' FROM "shortener"."visit_rollup")`;
/**
 * The last UTC day in the totals of every day rolled up (docs/adr/0187, 0188): `rolled_through`,
 * or the day before it while a day rolled up waits to be added (addDayToTotals).
 */
export const TOTALS_THROUGH = `(SELECT "totals_through" FROM "shortener"."visit_rollup")`;
/** The instant after that day: next to the totals, the hourly rows count from here. */
export const TOTALS_END = `(SELECT ("totals_through" + 1)::timestamp AT TIME ZONE 'UTC' FROM "shortener"."visit_rollup")`;

/** Days this many days old (UTC) or older are rolled up: yesterday, at the first run after midnight. */
export const ROLLUP_AGE_DAYS = 1;

const DAY_RANGE = `"hour" >= $1::date::timestamp AT TIME ZONE 'UTC' AND "hour" < ($1::date + 1)::timestamp AT TIME ZONE 'UTC'`;

/** Each daily table from its hourly one, for day $1: what the rows of the day's hours sum to. */
const ROLLUPS = [
  dayOfHours("visit_day_values", "visit_hour_values", ["short_id", "dimension", "value"], "set"),
  dayOfHours("visit_user_day_values", "visit_user_hour_values", ["user_id", "dimension", "value"], "set"),
  dayOfHours("visit_user_short_days", "visit_user_short_hours", ["user_id", "short_id"], "set"),
];

/** Each table of totals, for day $1: the day's hours added (the totals hold every day before it). */
const TOTALS = [
  dayOfHours("visit_value_totals", "visit_hour_values", ["short_id", "dimension", "value"], "add"),
  dayOfHours("visit_user_value_totals", "visit_user_hour_values", ["user_id", "dimension", "value"], "add"),
  dayOfHours("visit_user_short_totals", "visit_user_short_hours", ["user_id", "short_id"], "add"),
];

/**
 * Day $1's rows of `hourly` summed by `keys` into `table`: "set" as a daily table's rows of the
 * day (an older build may have written them partial), or "add"ed to a table of totals.
 */
function dayOfHours(table: string, hourly: string, keys: string[], how: "set" | "add"): string {
  const columns = keys.map((key) => `"${key}"`).join(", ");
  const [day, dayValue, sums] =
    how === "set"
      ? [`, "day"`, ", $1::date", `"visits" = excluded."visits", "humans" = excluded."humans"`]
      : ["", "", `"visits" = t."visits" + excluded."visits", "humans" = t."humans" + excluded."humans"`];
  return `INSERT INTO "shortener"."${table}" AS t (${columns}${day}, "visits", "humans")
    SELECT ${columns}${dayValue}, sum("visits"), sum("humans")
    FROM "shortener"."${hourly}" WHERE ${DAY_RANGE} GROUP BY ${columns} ORDER BY ${columns}
    ON CONFLICT (${columns}${day}) DO UPDATE SET ${sums}`;
}

type Pool = ReturnType<typeof poolOf>;

/** What the batches of visits write, besides the hourly rows, when a visit is of a day rolled up. */
const DAILY_TABLES = ["visit_day_values", "visit_user_day_values", "visit_user_short_days"];
/** The hourly tables that a day is rolled up from, in the order a batch's statement names them. */
const HOURLY_TABLES = ["visit_hour_values", "visit_user_short_hours", "visit_user_hour_values"];

/** The next day to roll up, if it is old enough and no deleted short's rows wait for the sweep. */
const DUE_WHERE = `"rolled_through" + 1 <= $1::date - ${ROLLUP_AGE_DAYS}
    AND NOT EXISTS (SELECT FROM "shortener"."deleted_shorts")`;
const DUE = `SELECT FROM "shortener"."visit_rollup" WHERE ${DUE_WHERE}`;
/** That day, closed to the batches of recent visits (visit-log.ts's RECENT statements refuse it). */
const CLOSE = `UPDATE "shortener"."visit_rollup" SET "closed_through" = greatest("closed_through", "rolled_through" + 1)
  WHERE ${DUE_WHERE}`;
/** The day, once closed. */
const CLOSED_DUE = `SELECT to_char("rolled_through" + 1, 'YYYY-MM-DD') AS "day" FROM "shortener"."visit_rollup"
  WHERE ${DUE_WHERE} AND "closed_through" > "rolled_through"`;

/**
 * Rolls up the day after the last one rolled, if it is ROLLUP_AGE_DAYS old on `today` (UTC,
 * YYYY-MM-DD) and no deleted short's rows wait for the sweep. Returns the day, or undefined.
 *
 * First the day is closed: a short transaction locks the hourly tables IN SHARE MODE, so it
 * waits for the batches in flight, and marks the day closed (`closed_through`). A batch of
 * recent visits (visit-log.ts) that starts after it sees the mark: one with a visit of the day
 * is refused and stored again by the statement that writes daily rows. The batches of today's
 * visits go on while the day is rolled up, and no hourly row of the day is written by them
 * (docs/adr/0189).
 *
 * Then the day is rolled up in a transaction that locks the daily tables and the deletion queue
 * IN SHARE MODE (dayStep): what else can write the day's hours waits until it commits, then sees
 * the new `rolled_through`. That is a batch with a visit of the day (it writes its daily rows
 * itself), a sweep's chunk or a short's deletion. With no deleted short left to sweep, the
 * per-user hourly rows are exactly the sums of their live shorts', and so are the daily rows
 * made from them.
 */
export async function rollUpDay(
  pool: Pool,
  today: string,
  lockTimeoutMs = LOCK_TIMEOUT_MS,
): Promise<string | undefined> {
  // Most calls find nothing to do: they ask first, without holding the writers back.
  if ((await pool.query(DUE, [today])).rows.length === 0) return undefined;
  await inTransaction(pool, async (client) => {
    await client.query(lockTimeout(lockTimeoutMs));
    await client.query(`LOCK TABLE ${qualified(HOURLY_TABLES)} IN SHARE MODE`);
    await client.query(CLOSE, [today]);
  });
  return dayStep(pool, {
    due: { text: CLOSED_DUE, values: [today] },
    statements: ROLLUPS,
    watermark: "rolled_through",
    lockTimeoutMs,
  });
}

/** The next day rolled up to add to the totals, if no deleted short's rows wait for the sweep. */
const TOTALS_DUE = `SELECT to_char("totals_through" + 1, 'YYYY-MM-DD') AS "day" FROM "shortener"."visit_rollup"
  WHERE "totals_through" < "rolled_through" AND NOT EXISTS (SELECT FROM "shortener"."deleted_shorts")`;

/**
 * Adds the day after `totals_through` to the totals, once it is rolled up. Returns the day, or
 * undefined. A step of its own, after the roll-up's, in a transaction like it (dayStep): the
 * batches of today's visits go on while it writes (at 80,000 values a day, the totals' upserts
 * took as long as the daily rows'). What else could change the day's hours waits, then sees the
 * new `totals_through`: a batch with a late visit of the day (it writes the daily rows too), a
 * sweep's chunk, or a short's deletion.
 */
export async function addDayToTotals(
  pool: Pool,
  lockTimeoutMs = LOCK_TIMEOUT_MS,
): Promise<string | undefined> {
  if ((await pool.query(TOTALS_DUE)).rows.length === 0) return undefined;
  return dayStep(pool, {
    due: { text: TOTALS_DUE, values: [] },
    statements: TOTALS,
    watermark: "totals_through",
    lockTimeoutMs,
  });
}

// Rather give up and come back than hold visits back while waiting behind a long writer.
export const LOCK_TIMEOUT_MS = 2_000;
const lockTimeout = (ms: number) => `SET LOCAL lock_timeout = ${Math.max(1, Math.trunc(ms))}`;
const qualified = (tables: string[]) => tables.map((table) => `"shortener"."${table}"`).join(", ");

/**
 * One day's step, if `due` names a day: in a transaction that first locks the daily tables and
 * the deletion queue IN SHARE MODE, runs `statements` for the day and moves `watermark` to it.
 * Returns the day, or undefined.
 */
function dayStep(
  pool: Pool,
  step: {
    due: { text: string; values: string[] };
    statements: string[];
    watermark: string;
    lockTimeoutMs: number;
  },
): Promise<string | undefined> {
  return inTransaction(pool, async (client) => {
    await client.query(lockTimeout(step.lockTimeoutMs));
    await client.query(`LOCK TABLE ${qualified([...DAILY_TABLES, "deleted_shorts"])} IN SHARE MODE`);
    const { rows } = await client.query<{ day: string }>(step.due);
    const day = rows[0]?.day;
    if (day !== undefined) {
      for (const sql of step.statements) await client.query(sql, [day]);
      await client.query(`UPDATE "shortener"."visit_rollup" SET "${step.watermark}" = $1::date`, [day]);
    }
    return day;
  });
}
