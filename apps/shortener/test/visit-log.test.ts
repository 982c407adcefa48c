// The visit log's group commit under steady load: how the visits of many clients are cut into
// batches, each stored with its aggregates.
import { createPrisma } from "@app/db";
import { describe, expect, it } from "vitest";
import { VisitLog } from "../src/visits/visit-log.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

describe("the visit log's batches", () => {
  it("even out the clients' two cohorts (1 and 63 become 32 and 32) and store every visit once", async () => {
    const user = await newUser(ctx.prisma);
    const created = await postShort(ctx.app, user, { url: "https://example.com/" });
    const shortId = (created.json() as { id: string }).id;
    const sizes: number[] = [];
    const log = new VisitLog(ctx.prisma, { observer: { batchCommitted: (size) => sizes.push(size) } });
    // 64 clients, each visiting again as soon as its visit is stored, as a load generator's
    // connections do. The first visit goes out alone and the other 63 gather while it is
    // stored: cohorts of 1 and 63, which alternated for good before.
    const CLIENTS = 64;
    const ROUNDS = 12;
    const client = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        await log.record({ shortId, ipAddress: "203.0.113.7", userAgent: "probe/1.0", referer: "" });
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    await log.drain();
    await log.settle();

    const total = CLIENTS * ROUNDS;
    expect(sizes[0]).toBe(1);
    // From the second batch on, two cohorts of 32; the last batch is what is left.
    expect(sizes.slice(1, -1)).toEqual(Array(sizes.length - 2).fill(32));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(total);
    const [stored] = await ctx.prisma.$queryRaw<{ rows: number; hours: number }[]>`
      SELECT (SELECT count(*)::int FROM "shortener"."short_logs" WHERE "short_id" = ${shortId}::uuid) AS "rows",
             (SELECT sum("visits")::int FROM "shortener"."visit_hours" WHERE "short_id" = ${shortId}::uuid) AS "hours"`;
    expect(stored).toEqual({ rows: total, hours: total });
  });

  // A batch with a visit of a past day leaves its slot and is written outside it (ADR 0192).
  // Those were not limited: under a burst each took a pooled connection, all waited on each
  // other's daily rows, and visits failed for want of a connection (3,000 visits of yesterday:
  // 2,280 refused with 'timeout exceeded when trying to connect').
  it("stores a burst of visits of a past day one batch after another, each visit once", async () => {
    const user = await newUser(ctx.prisma);
    const created = await postShort(ctx.app, user, { url: "https://example.com/" });
    const shortId = (created.json() as { id: string }).id;
    // Two connections, a wait for one of at most five seconds (a loaded machine's batch may hold
    // one for a second; batches waiting on each other's rows held them until the wait ran out).
    const prisma = createPrisma(ctx.db.url, {
      directUrl: ctx.db.directUrl,
      poolMax: 2,
      connectTimeoutMs: 5_000,
    });
    try {
      const log = new VisitLog(prisma);
      const yesterday = new Date(Date.now() - 86_400_000);
      const CLIENTS = 200;
      const ROUNDS = 5;
      const client = async (i: number) => {
        for (let round = 0; round < ROUNDS; round++) {
          await log.record({
            shortId,
            ipAddress: `203.0.113.${i % 250}`,
            userAgent: "probe/1.0",
            referer: "",
            at: yesterday,
          });
        }
      };
      const outcomes = await Promise.allSettled(Array.from({ length: CLIENTS }, (_, i) => client(i)));
      await log.drain();
      await log.settle();
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
      const [stored] = await ctx.prisma.$queryRaw<{ rows: number; hours: number }[]>`
        SELECT (SELECT count(*)::int FROM "shortener"."short_logs" WHERE "short_id" = ${shortId}::uuid) AS "rows",
               (SELECT sum("visits")::int FROM "shortener"."visit_hours" WHERE "short_id" = ${shortId}::uuid) AS "hours"`;
      expect(stored).toEqual({ rows: CLIENTS * ROUNDS, hours: CLIENTS * ROUNDS });
    } finally {
      await prisma.$disconnect();
    }
  });
});
