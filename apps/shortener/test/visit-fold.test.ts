// The fold (docs/adr/0234): a batch of today's visits stores its rows and its sums per short,
// and the sums reach the aggregate tables after the redirects are answered. Whatever is still
// pending when the figures are read (a fold not run yet, or an instance gone before it ran) is
// folded by the reader first, and a limit set meanwhile counts it: every figure equals the rows.
import { createPrisma } from "@app/db";
import { beforeAll, describe, expect, it } from "vitest";
import { VisitLog } from "../src/visits/visit-log.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();
// The app's own log folds nothing by itself here either (its visits wait for a reader), so a
// sweep cannot fold what a test expects to find pending.
beforeAll(() => ctx.app.visitLog.stop());

/** A visit log that never folds by itself: an instance stopped (or killed) before its fold ran. */
const neverFolding = () => new VisitLog(ctx.prisma, { foldDelayMs: 3_600_000, foldSweepMs: 3_600_000 });

async function shortWithVisits(count: number, log: VisitLog) {
  const user = await newUser(ctx.prisma);
  const created = await postShort(ctx.app, user, { url: "https://example.com/" });
  const short = created.json() as { id: string; name: string };
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      log.record({
        shortId: short.id,
        ipAddress: `198.51.100.${i % 200}`,
        userAgent: "probe/1.0",
        referer: "",
      }),
    ),
  );
  await log.drain();
  return { user, short };
}

async function stored(shortId: string) {
  const [row] = await ctx.prisma.$queryRaw<{ rows: number; hours: number | null; pending: number }[]>`
    SELECT (SELECT count(*)::int FROM "shortener"."short_logs" WHERE "short_id" = ${shortId}::uuid) AS "rows",
           (SELECT sum("visits")::int FROM "shortener"."visit_hours" WHERE "short_id" = ${shortId}::uuid) AS "hours",
           (SELECT count(*)::int FROM "shortener"."visit_pending_sums" WHERE "short_id" = ${shortId}::uuid) AS "pending"`;
  return row!;
}

describe("the visits' pending sums", () => {
  it("are stored with the rows, and folded by the reader of the figures when no fold ran", async () => {
    const { user, short } = await shortWithVisits(120, neverFolding());
    const before = await stored(short.id);
    expect(before.rows).toBe(120);
    expect(before.hours).toBeNull();
    expect(before.pending).toBeGreaterThan(0);

    const stats = await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: user.headers });
    expect(stats.statusCode, stats.body).toBe(200);
    expect((stats.json() as { totals: { visits: number } }).totals.visits).toBe(120);
    const listed = await ctx.app.inject({ url: "/api/shorts", headers: user.headers });
    expect((listed.json() as { visits: number }[])[0]!.visits).toBe(120);
    expect(await stored(short.id)).toEqual({ rows: 120, hours: 120, pending: 0 });
  });

  it("are folded by another instance's sweep, once, however many instances sweep at once", async () => {
    const { short } = await shortWithVisits(90, neverFolding());
    expect((await stored(short.id)).pending).toBeGreaterThan(0);
    const sweepers = Array.from(
      { length: 3 },
      () =>
        new VisitLog(createPrisma(ctx.db.url, { directUrl: ctx.db.directUrl, poolMax: 2 }), {
          foldSweepMs: 20,
        }),
    );
    for (const sweeper of sweepers) sweeper.start();
    try {
      await expect.poll(async () => (await stored(short.id)).pending, { timeout: 10_000 }).toBe(0);
    } finally {
      await Promise.all(sweepers.map((sweeper) => sweeper.stop()));
    }
    expect(await stored(short.id)).toEqual({ rows: 90, hours: 90, pending: 0 });
  });

  it("are counted by a visit limit set while they wait", async () => {
    const { user, short } = await shortWithVisits(40, neverFolding());
    expect((await stored(short.id)).pending).toBeGreaterThan(0);
    const edited = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      headers: user.headers,
      payload: { maxVisits: 45 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [{ counted }] = (await ctx.prisma.$queryRaw<{ counted: number }[]>`
      SELECT "counted_visits" AS "counted" FROM "shortener"."shorts" WHERE "id" = ${short.id}::uuid`) as [
      { counted: number },
    ];
    expect(counted).toBe(40);
  });

  it("of a short deleted before its fold are dropped with it", async () => {
    const { user, short } = await shortWithVisits(30, neverFolding());
    const deleted = await ctx.app.inject({
      method: "DELETE",
      url: `/api/shorts/${short.id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(204);
    await ctx.app.visitLog.settle();
    const row = await stored(short.id);
    expect(row.pending).toBe(0);
    expect(row.hours).toBeNull();
  });

  it("equal the rows under parallel redirects through the app while readers fold", async () => {
    const user = await newUser(ctx.prisma);
    const created = await postShort(ctx.app, user, { url: "https://example.com/" });
    const short = created.json() as { id: string; name: string };
    const readers = Array.from({ length: 10 }, () =>
      ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: user.headers }),
    );
    const visits = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        ctx.app.inject({ url: `/${short.name}`, headers: { "user-agent": `agent/${i % 7}` } }),
      ),
    );
    expect(visits.every((visit) => visit.statusCode === 302)).toBe(true);
    expect((await Promise.all(readers)).every((read) => read.statusCode === 200)).toBe(true);
    const stats = await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: user.headers });
    expect((stats.json() as { totals: { visits: number } }).totals.visits).toBe(300);
    expect(await stored(short.id)).toEqual({ rows: 300, hours: 300, pending: 0 });
  });
});
