import { createHash } from "node:crypto";
import { poolOf } from "@app/db";
import { SOON } from "@app/testing/timing";
import { describe, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";
import { revokeApiKey } from "../src/credentials.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

// A key in use is trusted for authCacheMs after it is revoked (AUTH_CACHE_MS in the service):
// short here, so the tests of what follows wait a moment, not the service's 5 s.
const AUTH_CACHE_MS = 250;
const t = setupApp(
  {},
  {
    authCacheMs: AUTH_CACHE_MS,
    routes: (app) => {
      app.get("/test/whoami", async (request) => request.auth);
    },
  },
);

const whoami = (apiKey?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "GET",
    url: apiKey === undefined ? "/test/whoami" : withKey("/test/whoami", apiKey),
    headers,
  });

async function insertKey(data: { userId?: number | null; expiresAt?: Date | null; secret?: string }) {
  const secret = data.secret ?? createHash("sha256").update(String(Math.random())).digest("hex").slice(0, 32);
  const record = await t.prisma.apiKey.create({
    data: {
      userId: data.userId ?? null,
      expiresAt: data.expiresAt ?? null,
      hashedKey: createHash("sha256").update(secret).digest("hex"),
    },
  });
  return { apiKey: `cal_${secret}`, record };
}

describe("apiKey authentication", () => {
  it("accepts a valid key and tells the route who is calling", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    const response = await whoami(apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: user.id, isAdmin: false, apiKeyId: expect.any(String) });
  });

  it("marks an ADMIN user as admin", async () => {
    const { user, apiKey } = await createUser(t.prisma, { admin: true });
    expect((await whoami(apiKey)).json()).toMatchObject({ userId: user.id, isAdmin: true });
  });

  it("answers 401 'No apiKey provided' without a key or with an empty one", async () => {
    for (const response of [await whoami(), await whoami("")]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "No apiKey provided" });
    }
  });

  it("answers 401 'not valid' for an unknown key, the bare prefix and a repeated parameter", async () => {
    const { apiKey } = await createUser(t.prisma);
    const repeated = await t.app.inject({
      method: "GET",
      url: `/test/whoami?apiKey=${apiKey}&apiKey=${apiKey}`,
    });
    for (const response of [
      await whoami("cal_0123456789abcdef0123456789abcdef"),
      await whoami("cal_"),
      repeated,
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "Your API key is not valid." });
    }
  });

  it("strips only a leading prefix (v1 stripped it anywhere in the key)", async () => {
    const { user } = await createUser(t.prisma);
    await insertKey({ userId: user.id, secret: "abcdef0123456789" });
    expect((await whoami("cal_abcdef0123456789")).statusCode).toBe(200);
    // Without a prefix there is nothing to strip: the whole key is the secret, as in v1.
    expect((await whoami("abcdef0123456789")).statusCode).toBe(200);
    const inTheMiddle = await whoami("abcdef01cal_23456789");
    expect(inTheMiddle.statusCode).toBe(401);
    expect(inTheMiddle.json()).toEqual({ message: "Your API key is not valid." });
  });

  it("answers 401 'expired' for a key that expired a second ago, and accepts one expiring in a minute", async () => {
    const { user } = await createUser(t.prisma);
    const expired = await insertKey({ userId: user.id, expiresAt: new Date(Date.now() - 1_000) });
    const response = await whoami(expired.apiKey);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "This API key is expired." });

    const valid = await insertKey({ userId: user.id, expiresAt: new Date(Date.now() + 60_000) });
    expect((await whoami(valid.apiKey)).statusCode).toBe(200);
  });

  it("answers 401 for a revoked key", async () => {
    const { apiKey } = await createUser(t.prisma);
    expect((await whoami(apiKey)).statusCode).toBe(200);
    expect(await revokeApiKey(t.prisma, apiKey, "cal_")).toBe(true);
    // A key already in use is trusted for at most AUTH_CACHE_MS more (auth.ts).
    await vi.waitFor(
      async () => {
        const response = await whoami(apiKey);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: "Your API key is not valid." });
      },
      { timeout: AUTH_CACHE_MS + SOON.timeout, interval: 250 },
    );
  });

  it("refuses a key in use within AUTH_CACHE_MS once its user is locked", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    expect((await whoami(apiKey)).statusCode).toBe(200);
    await t.prisma.user.update({ where: { id: user.id }, data: { locked: true } });
    await vi.waitFor(async () => expect((await whoami(apiKey)).statusCode).toBe(403), {
      timeout: AUTH_CACHE_MS + SOON.timeout,
      interval: 250,
    });
  });

  it("answers 401 for a key that belongs to no user", async () => {
    const { apiKey } = await insertKey({ userId: null });
    const response = await whoami(apiKey);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "No user found for this API key." });
  });

  it("answers 403 for a locked user", async () => {
    const { apiKey } = await createUser(t.prisma, { locked: true });
    const response = await whoami(apiKey);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: "You are not authorized to perform this request." });
  });

  it("takes the key from Authorization: Bearer or x-api-key too (docs/adr/0149)", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    for (const headers of [
      { authorization: `Bearer ${apiKey}` } as Record<string, string>,
      { authorization: `bearer  ${apiKey}` },
      { "x-api-key": apiKey },
      // The same key in several places is one key.
      { authorization: `Bearer ${apiKey}`, "x-api-key": apiKey },
    ]) {
      const response = await whoami(undefined, headers);
      expect(response.statusCode, JSON.stringify(Object.keys(headers))).toBe(200);
      expect(response.json()).toMatchObject({ userId: user.id });
    }
    expect((await whoami(apiKey, { "x-api-key": apiKey })).statusCode).toBe(200);
    // A real route, as public callers of /v1/me send it.
    const me = await t.app.inject({ url: "/v1/me", headers: { authorization: `Bearer ${apiKey}` } });
    expect(me.json()).toMatchObject({ user: { id: user.id } });
  });

  it("answers 401 for two different keys in one request, whichever places carry them", async () => {
    const first = await createUser(t.prisma);
    const second = await createUser(t.prisma);
    for (const [query, headers] of [
      [first.apiKey, { "x-api-key": second.apiKey }],
      [first.apiKey, { authorization: `Bearer ${second.apiKey}` }],
      [undefined, { authorization: `Bearer ${first.apiKey}`, "x-api-key": second.apiKey }],
      [first.apiKey, { authorization: "Bearer cal_unknown" }],
    ] as const) {
      const response = await whoami(query, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: "Two different API keys in one request: send one, in apiKey, x-api-key or Authorization",
      });
    }
  });

  it("ignores other Authorization schemes and empty headers; a wrong header key is 'not valid'", async () => {
    const { apiKey } = await createUser(t.prisma);
    const basic = await whoami(undefined, {
      authorization: `Basic ${Buffer.from("a:b").toString("base64")}`,
    });
    expect(basic.json()).toEqual({ message: "No apiKey provided" });
    expect((await whoami(undefined, { "x-api-key": "", authorization: "Bearer " })).json()).toEqual({
      message: "No apiKey provided",
    });
    expect((await whoami(apiKey, { authorization: "Basic x" })).statusCode).toBe(200);
    for (const headers of [{ "x-api-key": `${apiKey}0` }, { authorization: "Bearer cal_0" }] as Record<
      string,
      string
    >[]) {
      const response = await whoami(undefined, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "Your API key is not valid." });
    }
  });

  it("requires a key on routes under /api/v1 and answers unknown routes 404 with or without one", async () => {
    const { apiKey } = await createUser(t.prisma);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/nowhere" })).json()).toEqual({
      message: "Not found",
    });
    const withKeyResponse = await t.app.inject({ method: "GET", url: withKey("/api/v1/nowhere", apiKey) });
    expect(withKeyResponse.statusCode).toBe(404);
    expect(withKeyResponse.json()).toEqual({ message: "Not found" });
  });
});

/**
 * Counts the reads of API keys on the client's pool; while `hold` is set, each read waits for
 * it first (a slow database, as the request would see it). `last`: the latest read's result.
 */
function keyReads(prisma: typeof t.prisma) {
  const pool = poolOf(prisma);
  const query = pool.query.bind(pool) as unknown as (...args: unknown[]) => Promise<unknown>;
  const reads = {
    count: 0,
    hold: undefined as Promise<void> | undefined,
    last: undefined as Promise<unknown> | undefined,
    restore: () => spy.mockRestore(),
  };
  const spy = vi.spyOn(pool, "query").mockImplementation(((...args: unknown[]) => {
    if ((args[0] as { name?: string } | undefined)?.name !== "auth-find-key") return query(...args);
    reads.count++;
    const hold = reads.hold;
    reads.last = (async () => {
      await hold;
      return query(...args);
    })();
    return reads.last;
  }) as unknown as typeof pool.query);
  return reads;
}

describe("the key cache (docs/adr/0257)", () => {
  const at = (iso: string) => new Date(iso);

  it("reads a key once for the requests that miss it together", async () => {
    const { apiKey } = await createUser(t.prisma);
    const app = await buildApp({ config: t.config, prisma: t.prisma, authCacheMs: 60_000 });
    app.get("/test/whoami", async (request) => request.auth);
    const reads = keyReads(t.prisma);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => app.inject({ url: withKey("/test/whoami", apiKey) })),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
      expect(reads.count).toBe(1);
    } finally {
      reads.restore();
      await app.close();
    }
  });

  it("reads a key in use again before its entry expires, and no request waits for that read", async () => {
    const { apiKey } = await createUser(t.prisma);
    vi.useFakeTimers({ toFake: ["Date"] });
    const app = await buildApp({ config: t.config, prisma: t.prisma, authCacheMs: 60_000 });
    app.get("/test/whoami", async (request) => request.auth);
    const reads = keyReads(t.prisma);
    const status = async () => (await app.inject({ url: withKey("/test/whoami", apiKey) })).statusCode;
    try {
      vi.setSystemTime(at("2031-01-01T00:00:00Z"));
      expect(await status()).toBe(200);
      vi.setSystemTime(at("2031-01-01T00:00:20Z"));
      expect(await status()).toBe(200);
      expect(reads.count).toBe(1);

      // Past half its time, the entry answers while one read renews it, however long that read takes.
      let release = () => {};
      reads.hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      vi.setSystemTime(at("2031-01-01T00:00:40Z"));
      expect(await status()).toBe(200);
      vi.setSystemTime(at("2031-01-01T00:00:41Z"));
      expect(await status()).toBe(200);
      expect(reads.count).toBe(2);
      reads.hold = undefined;
      release();
      await reads.last;
      await new Promise((resolve) => setImmediate(resolve));

      // Renewed: trusted for 60 s from its read (00:00:40), so past the first entry's end
      // (00:01:00) it still answers after a revocation, and no longer after its own end.
      expect(await revokeApiKey(t.prisma, apiKey, "cal_")).toBe(true);
      vi.setSystemTime(at("2031-01-01T00:01:30Z"));
      expect(await status()).toBe(200);
      vi.setSystemTime(at("2031-01-01T00:01:41Z"));
      expect(await status()).toBe(401);
    } finally {
      vi.useRealTimers();
      reads.restore();
      await app.close();
    }
  });
});

describe("lastUsedAt", () => {
  const at = (iso: string) => new Date(iso);
  const lastUsedAt = async (id: string) =>
    (await t.prisma.apiKey.findUniqueOrThrow({ where: { id }, select: { lastUsedAt: true } })).lastUsedAt;

  it("is written at most once a minute per key, and never awaited by the request", async () => {
    const { apiKey } = await createUser(t.prisma);
    const keyId = (await whoami(apiKey)).json().apiKeyId as string;
    await vi.waitFor(async () => expect(await lastUsedAt(keyId)).not.toBeNull(), SOON);

    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // A fresh instance each time: closing it waits for its pending writes, so what the
      // database holds afterwards is all it wrote.
      const first = await buildApp({ config: t.config, prisma: t.prisma });
      first.get("/test/whoami", async (request) => request.auth);
      vi.setSystemTime(at("2031-01-01T00:00:00Z"));
      expect((await first.inject({ url: withKey("/test/whoami", apiKey) })).statusCode).toBe(200);
      vi.setSystemTime(at("2031-01-01T00:00:30Z"));
      expect((await first.inject({ url: withKey("/test/whoami", apiKey) })).statusCode).toBe(200);
      await first.close();
      expect(await lastUsedAt(keyId)).toEqual(at("2031-01-01T00:00:00Z"));

      // Another instance knows nothing in memory, but sees the stored time.
      const second = await buildApp({ config: t.config, prisma: t.prisma });
      second.get("/test/whoami", async (request) => request.auth);
      vi.setSystemTime(at("2031-01-01T00:00:45Z"));
      expect((await second.inject({ url: withKey("/test/whoami", apiKey) })).statusCode).toBe(200);
      vi.setSystemTime(at("2031-01-01T00:01:01Z"));
      expect((await second.inject({ url: withKey("/test/whoami", apiKey) })).statusCode).toBe(200);
      await second.close();
      expect(await lastUsedAt(keyId)).toEqual(at("2031-01-01T00:01:01Z"));
    } finally {
      vi.useRealTimers();
    }
  });
});
