// Operating the service: health and readiness, request ids, the service name in every log
// line, and a database (or Redis) that goes away and comes back.
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import { serveMetrics } from "@app/server/metrics";
import {
  adminQuery,
  createTestDatabase,
  metricValue,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
} from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp, testConfig, withKey } from "./helpers.ts";

describe("health, readiness and request ids", () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const t = setupApp({}, { logger: { stream } });

  it("answers /health and /ready without an apiKey, outside the rate limit", async () => {
    const health = await t.app.inject({ url: "/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    expect(health.headers["x-ratelimit-limit"]).toBeUndefined();
    const ready = await t.app.inject({ url: "/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready", database: "leader" });
  });

  it("gives every request a unique id, echoes it, and honours a sane incoming x-request-id", async () => {
    const a = await t.app.inject({ url: "/health" });
    const b = await t.app.inject({ url: "/health" });
    expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    const mine = await t.app.inject({ url: "/health", headers: { "x-request-id": "trace-42.abc" } });
    expect(mine.headers["x-request-id"]).toBe("trace-42.abc");
    for (const hostile of ["a b", "x".repeat(500), "<script>", "id\u0000"]) {
      const res = await t.app.inject({ url: "/health", headers: { "x-request-id": hostile } });
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("writes the service name and the request id on every log line", async () => {
    await t.app.inject({ url: "/health", headers: { "x-request-id": "log-line-id" } });
    const parsed = lines.map((line) => JSON.parse(line) as { service?: string; reqId?: string });
    expect(parsed.length).toBeGreaterThan(0);
    for (const line of parsed) expect(line.service).toBe("scheduling");
    expect(parsed.some((line) => line.reqId === "log-line-id")).toBe(true);
  });
});

describe("a database that goes away and comes back", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let prisma: PrismaClient;
  let app: SchedulingApp;
  let apiKey: string;
  let userId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    const direct = createPrisma(database.url, { poolMax: 1, directUrl: database.directUrl });
    ({
      apiKey,
      user: { id: userId },
    } = await createUser(direct));
    await direct.$disconnect();
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    prisma = createPrisma(proxy.via(database.url), {
      poolMax: 2,
      connectTimeoutMs: 1_000,
      // DATABASE_WAIT_MS: while it is down, a request waits this long before its 503.
      waitMs: 1_000,
      // Unnamed statements, as behind a pooler (the test PgBouncer of .ci/run's PgBouncer step, when
      // there is one): each carries its text, which the proxy's cuts look for.
      pooled: true,
    });
    // Booking e-mails are written (into the outbox, in the booking's transaction); no server
    // takes them, and none needs to.
    app = await buildApp({
      config: testConfig({ SMTP_URL: "smtp://127.0.0.1:9", MAIL_FROM: "Bookings <bookings@example.com>" }),
      prisma,
    });
  });
  afterAll(async () => {
    await app?.close();
    await prisma?.$disconnect();
    await proxy?.close();
    await database?.drop();
  });

  it("answers 503 in the API's error shape while it is down, then recovers by itself", async () => {
    expect((await app.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode).toBe(200);

    // The pool's backends are killed: a request fails at most with 503, and the pool recovers.
    await adminQuery(
      inject("databaseServerUrl"),
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${new URL(database.url).pathname.slice(1)}' AND pid <> pg_backend_pid()`,
    );
    expect([200, 503]).toContain((await app.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode);
    await vi.waitFor(async () => {
      expect((await app.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode).toBe(200);
    }, SOON);

    // Then the database stops accepting connections altogether.
    await proxy.down();
    const down = await app.inject({ url: withKey("/v1/event-types", apiKey) });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: expect.stringContaining("database") });
    expect(down.headers["retry-after"]).toBe("5");
    // Ready while its requests wait for a leader (DATABASE_WAIT_MS), then not.
    const waiting = await app.inject({ url: "/ready" });
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json()).toEqual({ status: "ready", database: "no leader" });
    await vi.waitFor(async () => {
      const notReady = await app.inject({ url: "/ready" });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toEqual({ message: "database unreachable" });
    }, SOON);
    expect((await app.inject({ url: "/health" })).statusCode).toBe(200);

    await proxy.up();
    await vi.waitFor(
      async () => {
        expect((await app.inject({ url: withKey("/v1/event-types", apiKey) })).statusCode).toBe(200);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect((await app.inject({ url: "/ready" })).statusCode).toBe(200);
  });

  // A leader that dies after a booking's commit and before its answer (issue 49): the outcome is
  // unknown, so the answer is 503, never a success nor a guess; the client's retry with its
  // Idempotency-Key finds the booking its first request made, and nothing was written twice.
  it("answers 503 when a booking's commit is lost, and its Idempotency-Key retry finds that booking: one booking, one set of e-mails, one calendar write", async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    const eventType = await makeHost(prisma, userId);
    // Bookings of the event type are written into a connected calendar (the calendar outbox,
    // written in the booking's transaction). No server takes them here; the rows are what counts.
    const credential = await prisma.credential.create({
      data: {
        type: "caldav_calendar",
        appId: "caldav-calendar",
        userId,
        url: "http://127.0.0.1:9/dav/",
        secret: "not-opened-here",
        keyId: "none",
      },
    });
    await prisma.destinationCalendar.create({
      data: {
        integration: "caldav_calendar",
        externalId: "http://127.0.0.1:9/dav/lou/work/",
        eventTypeId: eventType.id,
        credentialId: credential.id,
      },
    });
    const book = (minutes: number, key: string) =>
      app.inject({
        method: "POST",
        url: withKey("/v1/bookings", apiKey),
        headers: { "idempotency-key": key },
        payload: {
          eventTypeId: eventType.id,
          start: at(futureMonday(), minutes).toISOString(),
          timeZone: "UTC",
          language: "en",
          metadata: {},
          responses: { name: "Lou Lost", email: "lou@example.com" },
        },
      });
    const key = `lost-${process.pid}-${Date.now()}`;
    // The connection that claims the key is cut after the server answered its COMMIT.
    const cut = proxy.cutAfterAnswer([`INSERT INTO "scheduling"."idempotency_keys"`], "COMMIT");
    const lost = await book(60, key);
    await cut;
    expect(lost.statusCode, lost.body).toBe(503);
    expect(lost.headers["retry-after"]).toBeDefined();
    const retried = await book(60, key);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.headers["idempotent-replayed"]).toBe("true");
    const uid = retried.json<{ uid: string }>().uid;
    const again = await book(90, `other-${key}`);
    expect(again.statusCode, again.body).toBe(201);
    const mailOf = async (bookingUid: string) => {
      const [row] = await prisma.$queryRaw<{ requested: number; rendered: number }[]>`
        SELECT (SELECT coalesce(sum("messages"), 0)::int FROM "scheduling"."mail_requests" WHERE "booking_uid" = ${bookingUid}) AS "requested",
               (SELECT count(*)::int FROM "scheduling"."mail_outbox" WHERE "booking_uid" = ${bookingUid}) AS "rendered"`;
      return row!.requested + row!.rendered;
    };
    expect(await prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(2);
    // As many e-mails as a booking made without a cut.
    expect(await mailOf(uid)).toBe(await mailOf(again.json<{ uid: string }>().uid));
    expect(await mailOf(uid)).toBeGreaterThan(0);
    // And one calendar write each, the lost one's under its booking's UID.
    const writes = await prisma.calendarWrite.findMany({
      where: { icalUid: { in: [uid, again.json<{ uid: string }>().uid] } },
      select: { icalUid: true, op: true },
    });
    expect(writes.sort((a, b) => (a.icalUid === uid ? -1 : b.icalUid === uid ? 1 : 0))).toEqual([
      { icalUid: uid, op: "put" },
      { icalUid: again.json<{ uid: string }>().uid, op: "put" },
    ]);
  });

  it("runs a booking again whose connection was lost before its COMMIT was sent: 201, booked once", async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    const eventType = await makeHost(prisma, userId);
    // Cut after the answer to the key's claim: the transaction is lost with its connection.
    const cut = proxy.cutAfterAnswer([`INSERT INTO "scheduling"."idempotency_keys"`]);
    const booked = await app.inject({
      method: "POST",
      url: withKey("/v1/bookings", apiKey),
      headers: { "idempotency-key": `before-commit-${process.pid}-${Date.now()}` },
      payload: {
        eventTypeId: eventType.id,
        start: at(futureMonday(), 120).toISOString(),
        timeZone: "UTC",
        language: "en",
        metadata: {},
        responses: { name: "Ada Again", email: "ada@example.com" },
      },
    });
    await cut;
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.headers["idempotent-replayed"]).toBeUndefined();
    expect(await prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(1);
  });

  // The bound is the test's timeout: without the probe's own limit, /ready would wait for the
  // pool's query timeout (31 s).
  it("is not ready while the database is frozen: /ready answers 503 without waiting for it", {
    timeout: 25_000,
  }, async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    proxy.freeze();
    try {
      // Past DATABASE_WAIT_MS (1 s here) of probes that found no leader.
      await vi.waitFor(async () => {
        const frozen = await app.inject({ url: "/ready" });
        expect(frozen.statusCode).toBe(503);
        expect(frozen.json()).toEqual({ message: "database unreachable" });
      }, SOON);
    } finally {
      proxy.thaw();
    }
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
  });
});

describe.skipIf(!inject("redisUrl"))("readiness with Redis", () => {
  let proxy: TcpProxy;
  let app: SchedulingApp;
  const t = setupApp();

  beforeAll(async () => {
    const redis = new URL(inject("redisUrl"));
    proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    app = await buildApp({
      // Pings must answer in time on a busy machine (25 ms in service); "unreachable" is refused at once.
      config: testConfig({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_TIMEOUT_MS: 1_000 }),
      prisma: t.prisma,
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  it("is not ready while Redis is unreachable, and ready again when it is back", async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    await proxy.down();
    const down = await app.inject({ url: "/ready" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: "Redis unreachable" });
    await proxy.up();
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), {
      timeout: 10_000,
      interval: 200,
    });
  });
});

describe.skipIf(!inject("redisUrl"))(
  "readiness with Redis, at the counters' own 25 ms command timeout",
  () => {
    let proxy: TcpProxy;
    let app: SchedulingApp;
    const t = setupApp();

    beforeAll(async () => {
      const redis = new URL(inject("redisUrl"));
      proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
      app = await buildApp({
        config: testConfig({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_TIMEOUT_MS: 25 }),
        prisma: t.prisma,
      });
    });
    afterAll(async () => {
      await app?.close();
      await proxy?.close();
    });

    it("stays ready while this process is starved of CPU (its timers run before it reads Redis's answers)", async () => {
      // Each turn of the event loop takes 40 ms: a 25 ms command timeout fires before the answer
      // is read. Three pings under it failed in a row, and the instance was reported unready.
      const hog = setInterval(() => {
        const until = Date.now() + 40;
        while (Date.now() < until);
      }, 0);
      try {
        const answers = [];
        for (let i = 0; i < 3; i++) answers.push((await app.inject({ url: "/ready" })).statusCode);
        expect(answers).toEqual([200, 200, 200]);
      } finally {
        clearInterval(hog);
      }
    });

    it("is not ready while Redis is frozen (its connection open, no answer), and ready once it answers", async () => {
      await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
      proxy.freeze();
      try {
        const frozen = await app.inject({ url: "/ready" });
        expect(frozen.statusCode).toBe(503);
        expect(frozen.json()).toEqual({ message: "Redis unreachable" });
      } finally {
        proxy.thaw();
      }
      await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    });
  },
);

describe("metrics", () => {
  const t = setupApp({ RATE_LIMIT_MAX: 2 });

  it("serves request, rate-limit and pool metrics in Prometheus text on their own listener", async () => {
    const { apiKey } = await createUser(t.prisma);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await t.app.inject({ url: withKey("/v1/teams", apiKey) })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    const server = await serveMetrics(t.app.metrics, 0, "127.0.0.1");
    try {
      const { port } = server.address() as AddressInfo;
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const get = metricValue.bind(null, text);
      const teams = { route: "/api/v1/teams", method: "GET", status_code: "200", service: "scheduling" };
      expect(get("http_request_duration_seconds_count", teams)).toBe(2);
      expect(get("rate_limit_rejections_total")).toBe(1);
      expect(get("db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    } finally {
      server.close();
    }
  });
});
