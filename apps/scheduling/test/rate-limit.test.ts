import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, inject, it } from "vitest";
import { issueApiKey } from "../src/api-keys.ts";
import { buildApp } from "../src/app.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const MAX = 3;
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
      const app = await buildApp({ config: { ...t.config, REDIS_URL: redisUrl }, prisma: t.prisma });
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
