// Operating the service: request ids, the service name in every log line, and a database
// that goes away and comes back.
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import { serveMetrics } from "@app/server/metrics";
import {
  createTestDatabase,
  metricValue,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
} from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

describe("request ids and log lines", () => {
  const lines: string[] = [];
  let database: TestDatabase;
  let prisma: PrismaClient;
  let app: ShortenerApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = createPrisma(database.url, { poolMax: 2, directUrl: database.directUrl });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ config: defaultConfig(), prisma, logger: { stream } });
  });
  afterAll(async () => {
    await app?.close();
    await prisma?.$disconnect();
    await database?.drop();
  });

  it("gives every request a unique id, echoes it, and honours a sane incoming x-request-id", async () => {
    const a = await app.inject({ url: "/health" });
    const b = await app.inject({ url: "/nope-not-a-short" });
    expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    const mine = await app.inject({ url: "/health", headers: { "x-request-id": "trace-42.abc" } });
    expect(mine.headers["x-request-id"]).toBe("trace-42.abc");
    for (const hostile of ["a b", "x".repeat(500), "<script>"]) {
      const res = await app.inject({ url: "/health", headers: { "x-request-id": hostile } });
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("writes the service name on every log line", async () => {
    await app.inject({ url: "/health", headers: { "x-request-id": "log-line-id" } });
    const parsed = lines.map((line) => JSON.parse(line) as { service?: string; reqId?: string });
    expect(parsed.length).toBeGreaterThan(0);
    for (const line of parsed) expect(line.service).toBe("shortener");
    expect(parsed.some((line) => line.reqId === "log-line-id")).toBe(true);
  });
});

describe("a database that goes away and comes back", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let prisma: PrismaClient;
  let app: ShortenerApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    prisma = createPrisma(proxy.via(database.url), {
      poolMax: 2,
      connectTimeoutMs: 1_000,
      // Through the proxy to the test PgBouncer when there is one (.ci/run's PgBouncer step).
      pooled: database.url !== database.directUrl,
    });
    app = await buildApp({ config: defaultConfig(), prisma });
  });
  afterAll(async () => {
    await app?.close();
    await prisma?.$disconnect();
    await proxy?.close();
    await database?.drop();
  });

  it("answers 503 in the service's error shape while it is down, then recovers by itself", async () => {
    const user = await newUser(prisma);
    const created = await postShort(app, user, { url: "https://example.com/", name: "db-outage" });
    expect(created.statusCode).toBe(201);

    await proxy.down();
    const api = await app.inject({ url: "/api/shorts", headers: user.headers });
    expect(api.statusCode).toBe(503);
    expect(api.json()).toEqual({ status: "Service Unavailable", error: expect.stringContaining("database") });
    expect((await app.inject({ url: "/db-outage" })).statusCode).toBe(503);
    const notReady = await app.inject({ url: "/ready" });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({ status: "Service Unavailable", error: "database unreachable" });

    await proxy.up();
    await vi.waitFor(async () => expect((await app.inject({ url: "/db-outage" })).statusCode).toBe(302), {
      timeout: 10_000,
      interval: 200,
    });
    expect((await app.inject({ url: "/ready" })).statusCode).toBe(200);
    expect(await prisma.shortLog.count()).toBe(1);
  });

  // A leader that dies after a commit and before its answer (issue 49): the visit log sends the
  // batch again, on a new connection, with the same id, and the copy finds it stored (docs/adr/0279).
  it("stores each visit once when the answer to its batch's commit is lost, alone or among others", async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    const user = await newUser(prisma);
    const created = await postShort(app, user, { url: "https://example.com/", name: "lost-answer" });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    // Every statement that stores a batch: by its name (prepared) or its text (behind PgBouncer).
    const batch = ["insert_visits", `INSERT INTO "shortener"."visit_batches"`];
    const alone = proxy.cutAfterAnswer(batch);
    expect((await app.inject({ url: "/lost-answer" })).statusCode).toBe(302);
    await alone;
    const among = proxy.cutAfterAnswer(batch);
    const answers = await Promise.all(Array.from({ length: 40 }, () => app.inject({ url: "/lost-answer" })));
    await among;
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 302));
    await app.visitLog.settle();
    const [stored] = await prisma.$queryRaw<{ rows: number; counted: number }[]>`
      SELECT (SELECT count(*)::int FROM "shortener"."short_logs" WHERE "short_id" = ${id}::uuid) AS "rows",
             (SELECT coalesce(sum("visits"), 0)::int FROM "shortener"."visit_hours" WHERE "short_id" = ${id}::uuid) AS "counted"`;
    expect(stored).toEqual({ rows: 41, counted: 41 });
    // The batch ids are kept an hour: the maintenance two hours on leaves none.
    expect(await prisma.visitBatch.count()).toBeGreaterThan(0);
    await app.visitMaintenance.maintainPartitions(new Date(Date.now() + 2 * 3_600_000));
    expect(await prisma.visitBatch.count()).toBe(0);
  });

  // The bound is the test's timeout: without the probe's own limit, /ready waited for the
  // pool's query timeout (31 s).
  it("is not ready while the database is frozen: /ready answers 503 without waiting for it", {
    timeout: 25_000,
  }, async () => {
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
    proxy.freeze();
    try {
      const frozen = await app.inject({ url: "/ready" });
      expect(frozen.statusCode).toBe(503);
      expect(frozen.json()).toEqual({ status: "Service Unavailable", error: "database unreachable" });
    } finally {
      proxy.thaw();
    }
    await vi.waitFor(async () => expect((await app.inject({ url: "/ready" })).statusCode).toBe(200), SOON);
  });
});

describe("metrics", () => {
  const ctx = setupShortener();

  it("serves request, visit-log and pool metrics in Prometheus text on their own listener", async () => {
    const user = await newUser(ctx.prisma);
    expect(
      (await postShort(ctx.app, user, { url: "https://example.com/", name: "metered" })).statusCode,
    ).toBe(201);
    for (let i = 0; i < 3; i++) expect((await ctx.app.inject({ url: "/metered" })).statusCode).toBe(302);
    const server = await serveMetrics(ctx.app.metrics, 0, "127.0.0.1");
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      const get = metricValue.bind(null, text);
      const redirects = { route: "/:name", method: "GET", status_code: "302", service: "shortener" };
      expect(get("http_request_duration_seconds_count", redirects)).toBe(3);
      expect(get("http_request_duration_seconds_count", { route: "/api/shorts", status_code: "201" })).toBe(
        1,
      );
      expect(get("visit_log_batch_size_sum", { outcome: "committed" })).toBe(3);
      expect(get("visit_log_commit_seconds_count")).toBeGreaterThanOrEqual(1);
      expect(get("visit_log_queue_depth")).toBe(0);
      expect(get("db_pool_connections", { state: "max" })).toBe(5);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
      // As on the service's own port: HEAD follows GET, other methods are 405 with Allow.
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "HEAD" })).status).toBe(200);
      for (const method of ["POST", "DELETE", "OPTIONS"]) {
        const refused = await fetch(`http://127.0.0.1:${port}/metrics`, { method });
        expect(refused.status, method).toBe(405);
        expect(refused.headers.get("allow")).toBe("GET");
      }
    } finally {
      server.close();
    }
  });
});

describe("bodiless requests with Content-Type: application/json", () => {
  const ctx = setupShortener();

  it("are answered as if the header were absent (axios sends it on every call); a create still needs its body", async () => {
    const user = await newUser(ctx.prisma);
    const created = await postShort(ctx.app, user, { url: "https://example.com/" });
    const json = { ...user.headers, "content-type": "application/json" };
    const list = await ctx.app.inject({ url: "/api/shorts", headers: json });
    expect(list.statusCode).toBe(200);
    const deleted = await ctx.app.inject({
      method: "DELETE",
      url: `/api/shorts/${created.json().id}`,
      headers: json,
    });
    expect(deleted.statusCode).toBe(204);
    const empty = await ctx.app.inject({ method: "POST", url: "/api/shorts", headers: json });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ status: "Bad Request", error: expect.stringContaining("body") });
  });
});

describe("numbers in queries", () => {
  const ctx = setupShortener();

  it.each(["limit=1e2", "offset=0x10", "offset=", "limit= 5", "limit=5.0", "offset=-1"])(
    "refuses %s with 400 instead of coercing it",
    async (query) => {
      const user = await newUser(ctx.prisma);
      const response = await ctx.app.inject({ url: `/api/shorts?${query}`, headers: user.headers });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toContain("decimal digits");
    },
  );
});
