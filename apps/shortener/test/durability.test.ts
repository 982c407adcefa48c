// The database's connections are killed during a burst of visits: every 302 sent has its
// row, a visit that could not be stored is answered 5xx, never 302, and the statistics (read
// from the aggregates) equal what the stored rows say.
import type { AddressInfo } from "node:net";
import { createPrisma } from "@app/db";
import { adminQuery } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import pg from "pg";
import { expect, inject, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { newUser, setupShortener, visit } from "./helpers.ts";

const ctx = setupShortener();

it("stores a row for every 302 while pg_terminate_backend kills the pool mid-burst", async () => {
  const user = await newUser(ctx.prisma);
  const short = await ctx.prisma.short.create({
    data: { userId: user.id, name: "burst", url: "https://example.com/" },
  });
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = ctx.app.server.address() as AddressInfo;
  const database = new URL(ctx.db.url).pathname.slice(1);

  const statuses: number[] = [];
  const deadline = Date.now() + 2_500;
  const worker = async () => {
    while (Date.now() < deadline) statuses.push(await visit(port, "/burst"));
  };
  const killer = (async () => {
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 400));
      // Each backend waited for until it is gone (up to 5 s): a pooled connection whose backend
      // was still exiting once failed the checks below, under the whole suite's load.
      await adminQuery(
        inject("databaseServerUrl"),
        `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`,
      );
    }
  })();
  await Promise.all([...Array.from({ length: 16 }, worker), killer]);

  const answered302 = statuses.filter((s) => s === 302).length;
  expect(answered302).toBeGreaterThan(0);
  // Anything else is a server error the client may retry, never a silent loss.
  expect(statuses.filter((s) => s !== 302 && (s < 500 || s >= 600))).toEqual([]);
  expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(answered302);

  const stats = await ctx.app.inject({
    url: `/api/shorts/${short.id}/stats?interval=hour`,
    headers: user.headers,
  });
  expect(stats.statusCode).toBe(200);
  const [rows] = await ctx.prisma.$queryRaw<{ visits: bigint; humans: bigint; visitors: bigint }[]>`
    SELECT count(*) AS visits, count(*) FILTER (WHERE NOT "is_bot") AS humans,
      count(DISTINCT ("visitor", date_trunc('day', "created_at" AT TIME ZONE 'UTC'))) AS visitors
    FROM "shortener"."short_logs" WHERE "short_id" = ${short.id}::uuid`;
  expect(stats.json().totals).toEqual({
    visits: answered302,
    humans: Number(rows!.humans),
    bots: answered302 - Number(rows!.humans),
    uniqueVisitors: Number(rows!.visitors),
  });
  const series = stats.json().timeseries as { visits: number }[];
  expect(series.reduce((sum, bucket) => sum + bucket.visits, 0)).toBe(answered302);
  // The account's figures (per-user aggregates, written by the same statements) agree too.
  const account = await ctx.app.inject({ url: "/api/stats", headers: user.headers });
  expect(account.json().totals).toEqual(stats.json().totals);
  expect(account.json().shorts).toMatchObject([{ id: short.id, visits: answered302 }]);
});

it("writes again a visit whose statement PostgreSQL aborted to break a deadlock (a migration's locks)", async () => {
  const user = await newUser(ctx.prisma);
  const short = await ctx.prisma.short.create({
    data: { userId: user.id, name: "deadlocked", url: "https://example.com/" },
  });
  // PostgreSQL looks for a deadlock once, deadlock_timeout after a statement starts to wait, and
  // aborts the statement that looks. The visit's sessions look after 3 s (1 s by default, which
  // a busy machine could spend before the test closes the cycle) and the migration's after a
  // minute: the visit's statement is the one aborted.
  const url = new URL(ctx.db.url);
  url.searchParams.set("options", "-c deadlock_timeout=3s");
  const prisma = createPrisma(url.toString(), { directUrl: ctx.db.directUrl, poolMax: 2 });
  const app = await buildApp({ config: ctx.config, prisma, logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const migration = new pg.Client({ connectionString: ctx.db.directUrl });
  try {
    expect(await visit(port, "/deadlocked")).toBe(302);

    // What 20261125010000_visit_partitions does: the visit table first, then (dropping its foreign
    // key) the shorts table, each ACCESS EXCLUSIVE. A visit's statement holds a lock on shorts and
    // waits for the visit table, so the two wait for each other and PostgreSQL aborts the visit's.
    await migration.connect();
    await migration.query(`SET deadlock_timeout = '60s'`);
    await migration.query(`BEGIN; LOCK TABLE "shortener"."short_logs" IN ACCESS EXCLUSIVE MODE`);
    const answered = visit(port, "/deadlocked");
    await vi.waitFor(async () => {
      const { rows } = await migration.query(
        `SELECT count(*)::int AS "waiting" FROM pg_locks WHERE NOT granted AND relation = '"shortener"."short_logs"'::regclass`,
      );
      expect(rows[0].waiting).toBe(1);
    }, SOON);
    const failedBefore = await failedBatches(app);
    await migration.query(`LOCK TABLE "shortener"."shorts" IN ACCESS EXCLUSIVE MODE`);
    await migration.query("COMMIT");
    expect(await answered).toBe(302);
    // It did deadlock (so this test proves the retry), and the retry stored the visit once.
    expect(await failedBatches(app)).toBeGreaterThan(failedBefore);
    expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(2);
  } finally {
    await migration.end();
    await app.close();
    await prisma.$disconnect();
  }
});

/** Batches the visit log saw fail, from its metrics. */
async function failedBatches(app: ShortenerApp): Promise<number> {
  const text = await app.metrics.getSingleMetricAsString("visit_log_batch_size");
  const line = text
    .split("\n")
    .find((l) => l.startsWith("visit_log_batch_size_count") && l.includes('outcome="failed"'));
  return line ? Number(line.split(" ").at(-1)) : 0;
}
