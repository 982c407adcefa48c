// A streaming read replica (issue 21, docs/adr/0178): a primary and a replica of the test's own
// (initdb, pg_basebackup -R), both services reading their lag-tolerant routes there. Where each
// read ran is counted on the replica itself (pg_stat_statements) and by app.reads.
import { createPrisma, migrate, type PrismaClient } from "@app/db";
import { buildApp as buildScheduling, type SchedulingApp } from "@app/scheduling";
import { buildApp as buildShortener, type ShortenerApp } from "@app/shortener";
import { defaultConfig } from "@app/shortener/config";
import { createUser as createShortenerUser } from "@app/shortener/credentials";
import { withDatabase } from "@app/testing/database";
import {
  missingServers,
  type ReplicatedPostgres,
  sql,
  startReplicatedPostgres,
} from "@app/testing/postgres-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser as createSchedulingUser, testConfig, withKey } from "../apps/scheduling/test/helpers.ts";

const missing = missingServers({ replica: true });

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(missing)(`a streaming read replica${missing ? ` (${missing})` : ""}`, () => {
  let servers: ReplicatedPostgres;
  let primaryUrl: string;
  let replicaUrl: string;
  let prisma: PrismaClient[];
  let shorteners: ShortenerApp[];
  let scheduling: SchedulingApp;
  let headers: { authorization: string };
  let apiKey: string;

  /** Statements the replica ran whose text mentions `table`. */
  const replicaCalls = async (table: string) => {
    const [row] = await sql<{ calls: string }>(
      replicaUrl,
      "SELECT coalesce(sum(calls), 0)::text AS calls FROM pg_stat_statements WHERE query LIKE $1",
      [`%${table}%`],
    );
    return Number(row!.calls);
  };
  /** Until every app would read from the replica (it has replayed their last writes). */
  const replicaInUse = () =>
    waitFor("the replica to be in use", () =>
      [...shorteners, scheduling].every((app) => app.reads.client() === app.reads.replica),
    );

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    await sql(servers.primaryUrl, "CREATE DATABASE app");
    primaryUrl = withDatabase(servers.primaryUrl, "app");
    replicaUrl = withDatabase(servers.replicaUrl, "app");
    await migrate(primaryUrl);
    await sql(primaryUrl, "CREATE EXTENSION pg_stat_statements");
    await servers.caughtUp();
    // A lag bound far longer than the test: only the write fences keep reads fresh while paused.
    const replica = { DATABASE_REPLICA_URL: replicaUrl, REPLICA_MAX_LAG_MS: 60_000 };
    prisma = [0, 1, 2].map(() => createPrisma(primaryUrl, { poolMax: 4 }));
    shorteners = await Promise.all(
      [0, 1].map((i) => buildShortener({ config: defaultConfig({ ...replica }), prisma: prisma[i]! })),
    );
    scheduling = await buildScheduling({ config: testConfig(replica), prisma: prisma[2]! });
    await Promise.all([...shorteners, scheduling].map((app) => app.ready()));
    const user = await createShortenerUser(prisma[0]!, "replica@example.com");
    headers = { authorization: `Bearer ${user.token}` };
    ({ apiKey } = await createSchedulingUser(prisma[2]!));
  });
  afterAll(async () => {
    await Promise.all([...(shorteners ?? []), scheduling].map((app) => app?.close()));
    await Promise.all((prisma ?? []).map((client) => client.$disconnect()));
    await servers?.stop();
  });

  it("serves redirects' lookups, statistics and scheduling's lists and reads from the replica while it keeps up", async () => {
    const [a] = shorteners as [ShortenerApp];
    const short = (
      await a.inject({
        method: "POST",
        url: "/api/shorts",
        headers,
        payload: { url: "https://example.com/r", name: "rep" },
      })
    ).json();
    const type = (
      await scheduling.inject({
        method: "POST",
        url: withKey("/v1/event-types", apiKey),
        payload: { title: "Replica", slug: `replica-${process.pid}`, length: 30 },
      })
    ).json().event_type;
    await replicaInUse();
    const before = {
      shorts: await replicaCalls('"shortener"."shorts"'),
      hours: await replicaCalls("visit_hours"),
      eventTypes: await replicaCalls(`"scheduling"."event_types"`),
      counts: a.reads.counts.replica + scheduling.reads.counts.replica,
    };
    expect((await a.inject({ method: "HEAD", url: "/rep" })).headers.location).toBe("https://example.com/r");
    for (let i = 0; i < 3; i++) {
      expect((await a.inject({ url: `/api/shorts/${short.id}/stats`, headers })).statusCode).toBe(200);
      expect((await scheduling.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode).toBe(200);
      const one = await scheduling.inject({ url: withKey(`/v1/event-types/${type.id}`, apiKey) });
      expect(one.json().event_type.title).toBe("Replica");
    }
    expect(await replicaCalls('"shortener"."shorts"')).toBeGreaterThan(before.shorts);
    expect(await replicaCalls("visit_hours")).toBeGreaterThanOrEqual(before.hours + 3);
    expect(await replicaCalls(`"scheduling"."event_types"`)).toBeGreaterThanOrEqual(before.eventTypes + 6);
    expect(a.reads.counts.replica + scheduling.reads.counts.replica).toBeGreaterThanOrEqual(
      before.counts + 10,
    );
  });

  it("reads nothing stale after a write, an edit or a delete while the replica's replay is paused", async () => {
    const [a, b] = shorteners as [ShortenerApp, ShortenerApp];
    const created = await a.inject({
      method: "POST",
      url: "/api/shorts",
      headers,
      payload: { url: "https://example.com/old", name: "paused" },
    });
    const id = created.json().id as string;
    const type = (
      await scheduling.inject({
        method: "POST",
        url: withKey("/v1/event-types", apiKey),
        payload: { title: "Before", slug: `paused-${process.pid}`, length: 30 },
      })
    ).json().event_type;
    await replicaInUse();
    // Both instances cache the old target, read from the replica.
    for (const app of [a, b])
      expect((await app.inject({ method: "HEAD", url: "/paused" })).headers.location).toBe(
        "https://example.com/old",
      );

    await servers.pauseReplay();
    try {
      // An edit on A: A (its own write) and B (the change notification) both answer the new target.
      const edit = await a.inject({
        method: "PATCH",
        url: `/api/shorts/${id}`,
        headers,
        payload: { url: "https://example.com/new" },
      });
      expect(edit.statusCode).toBe(200);
      expect((await a.inject({ method: "HEAD", url: "/paused" })).headers.location).toBe(
        "https://example.com/new",
      );
      await waitFor("B to hear of the edit", async () => {
        const location = (await b.inject({ method: "HEAD", url: "/paused" })).headers.location;
        expect(location).not.toBe(undefined);
        return location === "https://example.com/new";
      });
      // B must not refill its cache from the paused replica: still new, again and again.
      for (let i = 0; i < 5; i++)
        expect((await b.inject({ method: "HEAD", url: "/paused" })).headers.location).toBe(
          "https://example.com/new",
        );
      expect(b.reads.client()).toBe(b.reads.primary);

      // Scheduling: an edit read back at once, then a delete gone from the read and the list.
      const patched = await scheduling.inject({
        method: "PATCH",
        url: withKey(`/v1/event-types/${type.id}`, apiKey),
        payload: { title: "After" },
      });
      expect(patched.statusCode).toBe(200);
      const read = await scheduling.inject({ url: withKey(`/v1/event-types/${type.id}`, apiKey) });
      expect(read.json().event_type.title).toBe("After");
      const listed = await scheduling.inject({ url: withKey("/v1/event-types", apiKey) });
      expect(listed.json().event_types.find((t: { id: number }) => t.id === type.id).title).toBe("After");
      const removed = await scheduling.inject({
        method: "DELETE",
        url: withKey(`/v1/event-types/${type.id}`, apiKey),
      });
      expect(removed.statusCode).toBe(200);
      expect(
        (await scheduling.inject({ url: withKey(`/v1/event-types/${type.id}`, apiKey) })).statusCode,
      ).toBe(404);
      const after = await scheduling.inject({ url: withKey("/v1/event-types", apiKey) });
      expect(after.json().event_types.map((t: { id: number }) => t.id)).not.toContain(type.id);

      // The short deleted on B: gone on both, though the replica still has it.
      expect((await b.inject({ method: "DELETE", url: `/api/shorts/${id}`, headers })).statusCode).toBe(204);
      for (const app of [a, b]) {
        await waitFor(
          "the delete to reach both",
          async () => (await app.inject({ method: "HEAD", url: "/paused" })).statusCode === 404,
        );
        expect((await app.inject({ url: "/paused" })).statusCode).toBe(404);
      }
      expect(await sql(replicaUrl, "SELECT 1 FROM shortener.shorts WHERE name = 'paused'")).toHaveLength(1);
    } finally {
      await servers.resumeReplay();
    }
    await replicaInUse();
  });

  it("stops reading from a replica that falls behind by more than REPLICA_MAX_LAG_MS, and from one that is down", async () => {
    const prismaTight = createPrisma(primaryUrl, { poolMax: 2 });
    const tight = await buildShortener({
      config: defaultConfig({ DATABASE_REPLICA_URL: replicaUrl, REPLICA_MAX_LAG_MS: 300 }),
      prisma: prismaTight,
    });
    try {
      await tight.ready();
      await waitFor("the replica to be in use", () => tight.reads.client() === tight.reads.replica);
      await servers.pauseReplay();
      try {
        // Writes elsewhere move the primary on; no write of this instance fences it.
        await sql(primaryUrl, "CREATE TABLE public.lag_marker (x int)");
        await waitFor("the lag to pass the bound", () => tight.reads.client() === tight.reads.primary, 5_000);
      } finally {
        await servers.resumeReplay();
      }
      await waitFor("the replica to be in use again", () => tight.reads.client() === tight.reads.replica);
    } finally {
      await tight.close();
      await prismaTight.$disconnect();
    }

    const [a] = shorteners as [ShortenerApp];
    const short = (
      await a.inject({
        method: "POST",
        url: "/api/shorts",
        headers,
        payload: { url: "https://example.com/d", name: "down" },
      })
    ).json();
    await replicaInUse();
    await servers.stopReplica();
    try {
      // At once, before any check has noticed: the failed replica reads run again on the primary.
      expect((await a.inject({ url: "/down" })).statusCode).toBe(302);
      expect((await a.inject({ url: `/api/shorts/${short.id}/stats`, headers })).json().totals.visits).toBe(
        1,
      );
      expect((await scheduling.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) {
        expect((await a.inject({ url: `/api/shorts/${short.id}/stats`, headers })).statusCode).toBe(200);
        expect((await scheduling.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode).toBe(200);
      }
      expect(a.reads.client()).toBe(a.reads.primary);
    } finally {
      await servers.startReplica();
    }
    await replicaInUse();
  });
});
