import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { startTcpProxy, type TcpProxy } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";
import { issueApiKey } from "../src/credentials.ts";
import { createUser, REDIS_PREFIX, setupApp, withKey } from "./helpers.ts";

const MAX = 3;

/** Counters of earlier runs (user ids repeat: every run has a fresh database) must not count here. */
async function clearCounters(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const keys = await redis.keys(`${REDIS_PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
const t = setupApp(
  { RATE_LIMIT_MAX: MAX, RATE_LIMIT_WINDOW_MS: 60_000 },
  {
    routes: (app) => {
      app.get("/test/ping", async () => ({ ok: true }));
      app.post("/test/ping", async () => ({ ok: true }));
    },
  },
);

const ping = (apiKey: string) => t.app.inject({ url: withKey("/test/ping", apiKey) });

describe("rate limit", () => {
  it("sends the X-RateLimit headers on every authenticated response", async () => {
    const { apiKey } = await createUser(t.prisma);
    const response = await ping(apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-ratelimit-limit"]).toBe(String(MAX));
    expect(response.headers["x-ratelimit-remaining"]).toBe(String(MAX - 1));
    expect(Number(response.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
  });

  it("answers 429 {message} with Retry-After once the budget is spent", async () => {
    const { apiKey } = await createUser(t.prisma);
    for (let i = 0; i < MAX; i++) expect((await ping(apiKey)).statusCode).toBe(200);
    const limited = await ping(apiKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: "Rate limit exceeded" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["x-ratelimit-remaining"]).toBe("0");
  });

  it("counts per user: two keys of one user share a budget, another user has their own", async () => {
    const { user, apiKey: first } = await createUser(t.prisma);
    const { apiKey: second } = await issueApiKey(t.prisma, { userId: user.id, prefix: "cal_" });
    const { apiKey: someoneElse } = await createUser(t.prisma);

    expect((await ping(first)).statusCode).toBe(200);
    expect((await ping(second)).statusCode).toBe(200);
    expect((await ping(first)).statusCode).toBe(200);
    expect((await ping(second)).statusCode).toBe(429);
    expect((await ping(someoneElse)).statusCode).toBe(200);
  });

  it("spends budget on requests with a malformed body too", async () => {
    const { apiKey } = await createUser(t.prisma);
    const bad = await t.app.inject({
      method: "POST",
      url: withKey("/test/ping", apiKey),
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers["x-ratelimit-remaining"]).toBe(String(MAX - 1));
  });

  it("counts a request answered 405 as any other and gives it the headers, up to 429; without a key it is 401", async () => {
    const { apiKey } = await createUser(t.prisma);
    const refused = () => t.app.inject({ method: "PUT", url: withKey("/api/v1/me", apiKey) });
    for (let spent = 1; spent <= MAX; spent++) {
      const response = await refused();
      expect(response.statusCode).toBe(405);
      expect(response.headers["x-ratelimit-limit"]).toBe(String(MAX));
      expect(response.headers["x-ratelimit-remaining"]).toBe(String(MAX - spent));
    }
    const limited = await refused();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: "Rate limit exceeded" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // One budget: the method the path offers is refused as well now.
    expect((await t.app.inject({ url: withKey("/api/v1/me", apiKey) })).statusCode).toBe(429);
    const anonymous = await t.app.inject({ method: "PUT", url: "/api/v1/me" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["x-ratelimit-limit"]).toBeUndefined();
  });

  it("neither counts nor limits requests without a caller", async () => {
    for (let i = 0; i < MAX + 2; i++) {
      const home = await t.app.inject({ url: "/" });
      expect(home.statusCode).toBe(200);
      expect(home.headers["x-ratelimit-limit"]).toBeUndefined();
      const refused = await t.app.inject({ url: "/test/ping?apiKey=cal_unknown" });
      expect(refused.statusCode).toBe(401);
    }
  });
});

describe("rate limit shared through Redis", () => {
  const redisUrl = inject("redisUrl");

  it.skipIf(!redisUrl)(
    "gives two app instances on one Redis one budget per user (needs TEST_REDIS_URL)",
    async () => {
      // A key prefix of its own, so parallel or earlier runs never share counters with this one.
      const keyPrefix = `test-${process.pid}-${randomBytes(4).toString("hex")}:`;
      const clients = [new Redis(redisUrl, { keyPrefix }), new Redis(redisUrl, { keyPrefix })];
      const apps = await Promise.all(
        clients.map(async (redis) => {
          const app = await buildApp({ config: t.config, prisma: t.prisma, redis });
          app.get("/test/ping", async () => ({ ok: true }));
          return app;
        }),
      );
      try {
        const [a, b] = apps as [(typeof apps)[number], (typeof apps)[number]];
        const { apiKey } = await createUser(t.prisma);
        const url = withKey("/test/ping", apiKey);
        expect((await a.inject({ url })).statusCode).toBe(200);
        expect((await b.inject({ url })).statusCode).toBe(200);
        const third = await a.inject({ url });
        expect(third.statusCode).toBe(200);
        expect(third.headers["x-ratelimit-remaining"]).toBe("0");
        const limited = await b.inject({ url });
        expect(limited.statusCode).toBe(429);
        expect(limited.json()).toEqual({ message: "Rate limit exceeded" });
      } finally {
        await Promise.all(apps.map((app) => app.close()));
        const keys = await clients[0]!.keys(`${keyPrefix}*`);
        if (keys.length > 0) await clients[0]!.del(...keys.map((key) => key.slice(keyPrefix.length)));
        await Promise.all(clients.map((client) => client.quit()));
      }
    },
  );

  it.skipIf(!redisUrl)(
    "opens its own client for REDIS_URL and closes it with the app (needs TEST_REDIS_URL)",
    async () => {
      await clearCounters(redisUrl);
      // The request must be counted: a busy machine can stall past the 25 ms of service.
      const config = { ...t.config, REDIS_URL: redisUrl, REDIS_TIMEOUT_MS: 5_000 };
      const app = await buildApp({ config, prisma: t.prisma });
      app.get("/test/ping", async () => ({ ok: true }));
      try {
        const { apiKey } = await createUser(t.prisma);
        const response = await app.inject({ url: withKey("/test/ping", apiKey) });
        expect(response.statusCode).toBe(200);
        expect(response.headers["x-ratelimit-limit"]).toBe(String(MAX));
      } finally {
        await app.close();
      }
    },
  );
});

describe.skipIf(!inject("redisUrl"))("a Redis that fails (needs TEST_REDIS_URL)", () => {
  const lines: string[] = [];
  let proxy: TcpProxy;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    await clearCounters(inject("redisUrl"));
    const redis = new URL(inject("redisUrl"));
    proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({
      // Long enough that Redis, once back, answers in time on a busy machine (25 ms in service).
      config: { ...t.config, REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_TIMEOUT_MS: 200 },
      prisma: t.prisma,
      logger: { stream },
    });
    app.get("/test/ping", async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
  });

  it("lets requests through at once while Redis is frozen or down, logs the outage once, and counts again after", async () => {
    // A fresh user per phase, so that counted requests never reach the budget of 3.
    const ping = async (apiKey: string) => app.inject({ url: withKey("/test/ping", apiKey) });
    const counted = async () => {
      const { apiKey } = await createUser(t.prisma);
      return (await ping(apiKey)).headers["x-ratelimit-limit"];
    };
    await vi.waitFor(async () => expect(await counted()).toBe(String(MAX)), SOON);

    // Frozen (a SIGSTOPped Redis): the command times out after a few ms and the request
    // passes uncounted; the test's own timeout is the bound here, not a measured figure.
    proxy.freeze();
    const frozen = await createUser(t.prisma);
    for (let i = 0; i < 5; i++) expect((await ping(frozen.apiKey)).statusCode).toBe(200);
    proxy.thaw();

    // Down: no offline queue, so requests do not wait for a reconnect.
    await proxy.down();
    const down = await createUser(t.prisma);
    for (let i = 0; i < 20; i++) expect((await ping(down.apiKey)).statusCode).toBe(200);
    // One line for the outage, however many reconnect attempts and requests fail meanwhile.
    const outages = () => lines.filter((line) => line.includes("rate-limit Redis unavailable")).length;
    await vi.waitFor(() => expect(outages()).toBe(1), SOON);
    await new Promise((r) => setTimeout(r, 1_200));
    for (let i = 0; i < 20; i++) expect((await ping(down.apiKey)).statusCode).toBe(200);
    expect(outages()).toBe(1);

    await proxy.up();
    await vi.waitFor(
      () => expect(lines.some((line) => line.includes("rate-limit Redis available again"))).toBe(true),
      SOON,
    );
    // Counting again: a fourth request within the window is refused. (A fresh user per try: a
    // command this loaded process stalls past its 200 ms passes uncounted, as designed.)
    await vi.waitFor(async () => {
      const after = await createUser(t.prisma);
      const statuses: number[] = [];
      for (let i = 0; i <= MAX; i++) statuses.push((await ping(after.apiKey)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    }, SOON);
  });
});
