// Both services behind PgBouncer in transaction pooling mode (issue 21, docs/adr/0175): a
// PgBouncer of the test's own in front of the test server, the apps' queries through it and
// their sessions (LISTEN, the migrations' advisory lock) on the direct URL. Debian's PgBouncer
// (1.18) keeps no prepared statements across transactions, which the first test shows.
import { createPrisma, openDatabase, type PrismaClient, readMigrations } from "@app/db";
import { buildApp as buildScheduling, type SchedulingApp } from "@app/scheduling";
import { buildApp as buildShortener, type ShortenerApp } from "@app/shortener";
import { defaultConfig } from "@app/shortener/config";
import { createUser as createShortenerUser } from "@app/shortener/credentials";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { missingServers, type PgBouncer, startPgBouncer } from "@app/testing/postgres-servers";
import { SOON } from "@app/testing/timing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { at, futureMonday, makeHost } from "../apps/scheduling/test/booking-helpers.ts";
import { createUser as createSchedulingUser, testConfig, withKey } from "../apps/scheduling/test/helpers.ts";

const missing = missingServers({ pgbouncer: true });

/** A client of `url` through `bouncer`, its sessions on the direct `url`. */
const pooledClient = (bouncer: PgBouncer, url: string, poolMax = 5): PrismaClient =>
  createPrisma(bouncer.via(url), { poolMax, directUrl: url });

describe.skipIf(missing)(`PgBouncer in transaction mode${missing ? ` (${missing})` : ""}`, () => {
  let db: TestDatabase;
  let bouncer: PgBouncer;
  const target = () => {
    const url = new URL(db.directUrl);
    return {
      host: url.hostname,
      port: Number(url.port || 5432),
      password: decodeURIComponent(url.password) || undefined,
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // Two server connections per database: consecutive transactions of one client hop between them.
    bouncer = await startPgBouncer(target(), { poolSize: 2 });
  });
  afterAll(async () => {
    await bouncer?.stop();
    await db?.drop();
  });

  it("does not keep a named statement for its client: why the services run unnamed ones behind it", async () => {
    const single = await startPgBouncer(target(), { poolSize: 1 });
    const [a, b] = [0, 1].map(() => new pg.Client({ connectionString: single.via(db.directUrl) }));
    try {
      await Promise.all([a!.connect(), b!.connect()]);
      await a!.query({ name: "probe", text: "SELECT 1" });
      // Another client, the same server connection: the first client's statement is there.
      await expect(b!.query({ name: "probe", text: "SELECT 2" })).rejects.toThrow(/already exists/);
      const unnamed = await Promise.all([
        a!.query("SELECT $1::int AS n", [1]),
        b!.query("SELECT $1::int AS n", [2]),
      ]);
      expect(unnamed.map((r) => r.rows[0].n)).toEqual([1, 2]);
    } finally {
      await Promise.all([a!.end(), b!.end()]);
      await single.stop();
    }
  });

  describe("the shortener, two instances", () => {
    let prisma: PrismaClient[];
    let apps: ShortenerApp[];
    beforeAll(async () => {
      prisma = [pooledClient(bouncer, db.directUrl), pooledClient(bouncer, db.directUrl)];
      const config = defaultConfig({ SHORT_BASE_URL: "https://sho.rt" });
      apps = await Promise.all(prisma.map((client) => buildShortener({ config, prisma: client })));
      await Promise.all(apps.map((app) => app.ready()));
    });
    afterAll(async () => {
      await Promise.all((apps ?? []).map((app) => app.close()));
      await Promise.all((prisma ?? []).map((client) => client.$disconnect()));
    });

    it("creates, lists, redirects (in parallel), counts the visits and hears an edit made on the other instance", async () => {
      const [a, b] = apps as [ShortenerApp, ShortenerApp];
      const user = await createShortenerUser(prisma[0]!, `bouncer-${process.pid}@example.com`);
      const headers = { authorization: `Bearer ${user.token}` };
      const created = await a.inject({
        method: "POST",
        url: "/api/shorts",
        headers,
        payload: { url: "https://example.com/first", name: "via-bouncer" },
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().id as string;
      const list = await b.inject({ url: "/api/shorts", headers });
      expect(list.json().map((s: { id: string }) => s.id)).toEqual([id]);

      // 40 visits at once over both instances: every statement (the visit log's included) runs
      // on whichever server connection the pooler hands out.
      const visits = await Promise.all(
        Array.from({ length: 40 }, (_, i) => apps[i % 2]!.inject({ url: "/via-bouncer" })),
      );
      expect(visits.map((r) => r.statusCode)).toEqual(Array(40).fill(302));
      expect(new Set(visits.map((r) => r.headers.location))).toEqual(new Set(["https://example.com/first"]));
      for (const app of apps) {
        const stats = await app.inject({ url: `/api/shorts/${id}/stats`, headers });
        expect(stats.statusCode).toBe(200);
        expect(stats.json().totals.visits).toBe(40);
      }

      // B has the target cached (its visits above); A's edit reaches it through LISTEN on the direct URL (through
      // the pooler in transaction mode, a LISTEN would not outlive its transaction).
      const edited = await a.inject({
        method: "PATCH",
        url: `/api/shorts/${id}`,
        headers,
        payload: { url: "https://example.com/second" },
      });
      expect(edited.statusCode).toBe(200);
      // The cache's TTL is a minute, so only the notification can drop it within the wait.
      await vi.waitFor(
        async () =>
          expect((await b.inject({ method: "HEAD", url: "/via-bouncer" })).headers.location).toBe(
            "https://example.com/second",
          ),
        SOON,
      );

      const deleted = await b.inject({ method: "DELETE", url: `/api/shorts/${id}`, headers });
      expect(deleted.statusCode).toBe(204);
      expect((await a.inject({ url: "/via-bouncer" })).statusCode).toBe(404);
    });
  });

  it("migrates an empty database once from three instances starting at once (the lock on the direct URL)", async () => {
    const empty = await createTestDatabase({ empty: true });
    try {
      const applied: string[] = [];
      const databases = await Promise.all(
        [0, 1, 2].map(() =>
          openDatabase({
            databaseUrl: bouncer.via(empty.directUrl),
            directUrl: empty.directUrl,
            dataDir: ".data",
            log: (line) => {
              if (line.startsWith("applied migration "))
                applied.push(line.slice("applied migration ".length));
            },
          }),
        ),
      );
      expect(databases.map((d) => d.url)).toEqual(Array(3).fill(bouncer.via(empty.directUrl)));
      expect(applied).toEqual((await readMigrations()).map((m) => m.name));
    } finally {
      await empty.drop();
    }
  });

  describe("scheduling", () => {
    let prisma: PrismaClient;
    let app: SchedulingApp;
    beforeAll(async () => {
      prisma = pooledClient(bouncer, db.directUrl);
      app = await buildScheduling({ config: testConfig(), prisma });
      await app.listen({ port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      await app?.close();
      await prisma?.$disconnect();
    });

    it("books a slot once among parallel requests (advisory transaction lock), and once per Idempotency-Key", async () => {
      const host = await createSchedulingUser(prisma);
      const eventType = await makeHost(prisma, host.user.id);
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const book = (start: Date, key?: string) =>
        fetch(`${base}${withKey("/v1/bookings", host.apiKey)}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
          body: JSON.stringify({
            eventTypeId: eventType.id,
            start: start.toISOString(),
            timeZone: "UTC",
            language: "en",
            metadata: {},
            responses: { name: "Pat Pooled", email: "pat@example.com" },
          }),
        }).then(async (r) => ({ status: r.status, body: await r.text() }));

      const race = await Promise.all(Array.from({ length: 8 }, () => book(at(futureMonday(3), 60))));
      expect(race.filter((r) => r.status === 201)).toHaveLength(1);
      expect(race.filter((r) => r.status === 400)).toHaveLength(7);

      const key = `bouncer-${process.pid}-${Date.now()}`;
      const retries = await Promise.all(Array.from({ length: 8 }, () => book(at(futureMonday(3), 120), key)));
      expect(retries.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(new Set(retries.map((r) => r.body)).size).toBe(1);

      const list = (await fetch(`${base}${withKey("/v1/bookings", host.apiKey)}`).then((r) => r.json())) as {
        bookings: unknown[];
      };
      expect(list.bookings).toHaveLength(2);
      expect(await prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(2);
    });
  });
});
