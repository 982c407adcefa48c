// Password-protected shorts (issue 20): the password is stored only as a scrypt hash and never
// returned or logged (the file's secret scan holds every password it sets); the redirect answers a
// form, a right password posted back answers the 302 and stores the visit, a wrong one the form
// again (401); attempts are limited per short and client address, in Redis across instances.
import { createPrisma, type PrismaClient } from "@app/db";
import { secretScan, startTcpProxy, type TcpProxy } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { AttemptsHere, PASSWORD_ATTEMPTS } from "../src/shorts/password-attempts.ts";
import { PRODUCTION_COST } from "../src/shorts/password-hash.ts";
import { newUser, postShort, setupShortener, TEST_PASSWORDS } from "./helpers.ts";

const ctx = setupShortener();

type User = Awaited<ReturnType<typeof newUser>>;
const FORM = { "content-type": "application/x-www-form-urlencoded" };
let passwords = 0;

/** A password this file sets: the secret scan fails the file if any log line or answer holds it. */
function secret(): string {
  const password = `pw-${++passwords}-${process.pid}-correct horse`;
  secretScan.remember(password);
  return password;
}

async function create(user: User, payload: object) {
  const res = await postShort(ctx.app, user, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Record<string, unknown> & { id: string; name: string };
}

const post = (
  name: string,
  body: string,
  headers: Record<string, string> = {},
  app: ShortenerApp = ctx.app,
) => app.inject({ method: "POST", url: `/${name}`, headers: { ...FORM, ...headers }, payload: body });
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const visits = (shortId: string) => ctx.prisma.shortLog.findMany({ where: { shortId } });

describe("a short's password", () => {
  it("is hashed by the service at N = 2^15, r = 8, p = 1 (tests hash at a cheaper cost)", async () => {
    expect(PRODUCTION_COST).toEqual({ logN: 15, r: 8, p: 1 });
    // An app built as the service builds it: no hasher given.
    const app = await buildApp({ config: ctx.config, prisma: ctx.prisma });
    try {
      const user = await newUser(ctx.prisma);
      const password = secret();
      const res = await postShort(app, user, { url: "https://example.com/costly", password });
      expect(res.statusCode, res.body).toBe(201);
      const row = await ctx.prisma.short.findUniqueOrThrow({ where: { id: res.json().id } });
      expect(row.passwordHash).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      // A hash of either cost verifies wherever it is checked: the cost is written in it.
      expect(await TEST_PASSWORDS.verify(password, row.passwordHash!)).toBe(true);
      expect(await app.passwords.verify(password, await TEST_PASSWORDS.hash(password))).toBe(true);
    } finally {
      await app.close();
    }
  });

  it("is stored as a salted scrypt hash, never returned: the Short says hasPassword", async () => {
    const user = await newUser(ctx.prisma);
    const password = secret();
    const short = await create(user, { url: "https://example.com/secret", password });
    expect(short.hasPassword).toBe(true);
    expect(short).not.toHaveProperty("password");
    const other = await create(user, { url: "https://example.com/secret2", password });
    const rows = await ctx.prisma.short.findMany({ where: { id: { in: [short.id, other.id] } } });
    for (const row of rows) {
      expect(row.passwordHash).toMatch(/^scrypt\$10\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(row.passwordHash).not.toContain(password);
    }
    // Salted: the same password, two hashes.
    expect(rows[0]!.passwordHash).not.toBe(rows[1]!.passwordHash);
    const read = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: user.headers });
    expect(read.json()).toEqual(short);
  });

  it("makes the redirect answer a small form: no script, strict CSP, readable on a phone; no visit", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/form", password: secret() });
    const res = await ctx.app.inject({
      url: `/${short.name}`,
      headers: { referer: "https://news.example/x?a=1&b=<2>" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(res.body).toContain('<form method="post">');
    expect(res.body).toContain('type="password"');
    expect(res.body).not.toContain("<script");
    // The Referer rides along in the form, escaped.
    expect(res.body).toContain('name="referer" value="https://news.example/x?a=1&#38;b=&#60;2&#62;"');
    const head = await ctx.app.inject({ method: "HEAD", url: `/${short.name}` });
    expect([head.statusCode, head.body]).toEqual([200, ""]);
    expect(await visits(short.id)).toEqual([]);
  });

  it("posted right answers the 302 and stores the visit (with the form's referer); wrong, 401 and the form", async () => {
    const user = await newUser(ctx.prisma);
    const password = secret();
    const short = await create(user, { url: "https://example.com/unlocked", password });
    const wrong = await post(short.name, formBody({ password: "not it", referer: "https://news.example/" }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(wrong.body).toContain("Wrong password. Try again.");
    expect(wrong.body).toContain('<form method="post">');
    expect(wrong.body).toContain('value="https://news.example/"');
    const empty = await post(short.name, formBody({ password: "" }));
    expect([empty.statusCode, empty.body.includes("Enter the password.")]).toEqual([401, true]);
    expect(await visits(short.id)).toEqual([]);

    const right = await post(short.name, formBody({ password, referer: "https://news.example/" }), {
      "user-agent": "Mozilla/5.0 (phone)",
    });
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe("https://example.com/unlocked");
    expect(right.headers["cache-control"]).toBe("private, no-cache");
    const stored = await visits(short.id);
    expect(stored.map((v) => [v.referer, v.userAgent])).toEqual([
      ["https://news.example/", "Mozilla/5.0 (phone)"],
    ]);
    // JSON works too (curl, scripts).
    const json = await ctx.app.inject({ method: "POST", url: `/${short.name}`, payload: { password } });
    expect([json.statusCode, json.headers.location]).toEqual([302, "https://example.com/unlocked"]);
    expect(await visits(short.id)).toHaveLength(2);
  });

  it("is changed and removed by PATCH (null): the redirect follows at once", async () => {
    const user = await newUser(ctx.prisma);
    const [first, second] = [secret(), secret()];
    const short = await create(user, { url: "https://example.com/rotated", password: first });
    expect((await ctx.app.inject({ url: `/${short.name}` })).statusCode).toBe(200);
    const changed = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      headers: user.headers,
      payload: { password: second },
    });
    expect(changed.json().hasPassword).toBe(true);
    expect((await post(short.name, formBody({ password: first }))).statusCode).toBe(401);
    expect((await post(short.name, formBody({ password: second }))).statusCode).toBe(302);
    const removed = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      headers: user.headers,
      payload: { password: null },
    });
    expect(removed.json()).not.toHaveProperty("hasPassword");
    const open = await ctx.app.inject({ url: `/${short.name}` });
    expect([open.statusCode, open.headers.location]).toEqual([302, "https://example.com/rotated"]);
    expect(await visits(short.id)).toHaveLength(2);
  });

  it("is not asked for once the short is expired: past its limit or window, as any expired short", async () => {
    const user = await newUser(ctx.prisma);
    const password = secret();
    const limited = await create(user, { url: "https://example.com/once", password, maxVisits: 1 });
    expect((await post(limited.name, formBody({ password }))).statusCode).toBe(302);
    expect((await ctx.app.inject({ url: `/${limited.name}` })).statusCode).toBe(404);
    expect((await post(limited.name, formBody({ password }))).statusCode).toBe(404);
    const ended = await create(user, {
      url: "https://example.com/ended",
      password,
      validUntil: "2020-01-01T00:00:00Z",
      expiredUrl: "https://example.com/sorry",
    });
    const res = await ctx.app.inject({ url: `/${ended.name}` });
    expect([res.statusCode, res.headers.location]).toEqual([302, "https://example.com/sorry"]);
    expect(await visits(ended.id)).toEqual([]);
  });

  it("refuses bad input with a clear 4xx and stores nothing", async () => {
    const user = await newUser(ctx.prisma);
    const tooLong = await postShort(ctx.app, user, {
      url: "https://example.com/x",
      password: "x".repeat(129),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toContain("password must be at most 128 characters");
    const short = await create(user, { url: "https://example.com/bad-posts", password: secret() });
    const text = await post(short.name, "password=x", { "content-type": "text/plain" });
    expect(text.statusCode).toBe(415);
    const huge = await post(short.name, formBody({ password: "x".repeat(5000) }));
    expect(huge.statusCode).toBe(413);
    const unknown = await post("no-such-short", formBody({ password: "x" }));
    expect([unknown.statusCode, unknown.body]).toEqual([404, "Not Found"]);
    expect(await visits(short.id)).toEqual([]);
  });
});

describe("password attempts", () => {
  it(`are limited to ${PASSWORD_ATTEMPTS.max} per short and address: then 429 with the form and Retry-After`, async () => {
    const user = await newUser(ctx.prisma);
    const password = secret();
    const short = await create(user, { url: "https://example.com/guarded", password });
    const other = await create(user, { url: "https://example.com/guarded2", password });
    const from = (ip: string, name = short.name, guess = "guess") =>
      ctx.app.inject({
        method: "POST",
        url: `/${name}`,
        headers: FORM,
        payload: formBody({ password: guess }),
        remoteAddress: ip,
      });
    // In parallel: the budget is spent atomically, not read then written.
    const first = await Promise.all(
      Array.from({ length: PASSWORD_ATTEMPTS.max + 5 }, () => from("192.0.2.7")),
    );
    expect(first.map((r) => r.statusCode).sort()).toEqual([
      ...Array(PASSWORD_ATTEMPTS.max).fill(401),
      ...Array(5).fill(429),
    ]);
    const refused = first.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(5);
    const retryAfter = Number(refused[0]!.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(PASSWORD_ATTEMPTS.windowMs / 1000);
    expect(refused[0]!.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(refused[0]!.body).toContain("Too many attempts. Try again in 10 minutes.");
    expect(refused[0]!.body).toContain('<form method="post">');
    // The right password does not get through either, until the window ends.
    expect((await from("192.0.2.7", short.name, password)).statusCode).toBe(429);
    // Another address, or another short, has its own budget; IPv6 counts by /64.
    expect((await from("192.0.2.8", short.name, password)).statusCode).toBe(302);
    expect((await from("192.0.2.7", other.name, password)).statusCode).toBe(302);
    for (let i = 0; i < PASSWORD_ATTEMPTS.max; i++) await from(`2001:db8:1:2::${i + 1}`);
    expect((await from("2001:db8:1:2:ffff::1", short.name, password)).statusCode).toBe(429);
    expect((await from("2001:db8:1:3::1", short.name, password)).statusCode).toBe(302);
    expect(await visits(short.id)).toHaveLength(2);
  });
});

describe.skipIf(!inject("redisUrl"))("password attempts across instances (needs TEST_REDIS_URL)", () => {
  const apps: ShortenerApp[] = [];
  let prisma: PrismaClient;
  beforeAll(async () => {
    prisma = createPrisma(ctx.db.url, { directUrl: ctx.db.directUrl, poolMax: 2 });
    for (let i = 0; i < 2; i++) {
      // Redis must answer every attempt here: a busy machine can stall a test for more than the
      // 25 ms commands get in service, and an attempt that times out is counted here alone.
      const config = defaultConfig({ REDIS_URL: inject("redisUrl"), REDIS_TIMEOUT_MS: 5_000 });
      const app = await buildApp({ config, prisma, passwords: TEST_PASSWORDS });
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await prisma?.$disconnect();
  });

  it("share one budget through Redis", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/shared", password: secret() });
    const answers: number[] = [];
    for (let i = 0; i < PASSWORD_ATTEMPTS.max + 2; i++) {
      const res = await post(short.name, formBody({ password: "guess" }), {}, apps[i % 2]!);
      answers.push(res.statusCode);
    }
    expect(answers).toEqual([...Array(PASSWORD_ATTEMPTS.max).fill(401), 429, 429]);
  });
});

describe.skipIf(!inject("redisUrl"))(
  "password attempts while Redis does not answer (needs TEST_REDIS_URL)",
  () => {
    const apps: ShortenerApp[] = [];
    const logs: string[] = [];
    let prisma: PrismaClient;
    let proxy: TcpProxy;
    beforeAll(async () => {
      const redis = new URL(inject("redisUrl")!);
      proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
      prisma = createPrisma(ctx.db.url, { directUrl: ctx.db.directUrl, poolMax: 2 });
      const stream = { write: (line: string) => void logs.push(line) };
      for (let i = 0; i < 2; i++) {
        // Long enough that Redis, once thawed, answers in time on a busy machine.
        const config = defaultConfig({ REDIS_URL: proxy.via(inject("redisUrl")!), REDIS_TIMEOUT_MS: 200 });
        const app = await buildApp({
          config,
          prisma,
          logger: { level: "info", stream },
          passwords: TEST_PASSWORDS,
        });
        await app.ready();
        apps.push(app);
      }
    });
    afterAll(async () => {
      proxy?.thaw();
      await Promise.all(apps.map((app) => app.close()));
      await prisma?.$disconnect();
      await proxy?.close();
    });

    // A command past REDIS_TIMEOUT_MS (25 ms by default: a burst of attempts on a busy host is enough) used
    // to let the attempt through uncounted, so a burst got several times the budget.
    it("counts them in each instance: a burst gets the budget per instance, not an unlimited one", async () => {
      const user = await newUser(ctx.prisma);
      const short = await create(user, { url: "https://example.com/frozen", password: secret() });
      proxy.freeze();
      for (const app of apps) {
        const burst = await Promise.all(
          Array.from({ length: PASSWORD_ATTEMPTS.max + 5 }, () =>
            post(short.name, formBody({ password: "guess" }), {}, app),
          ),
        );
        expect(burst.map((answer) => answer.statusCode).sort()).toEqual([
          ...Array(PASSWORD_ATTEMPTS.max).fill(401),
          ...Array(5).fill(429),
        ]);
      }
      const warnings = (text: string) => logs.filter((line) => line.includes(text)).length;
      expect(warnings("Redis did not answer; counted in this instance only")).toBe(2);

      proxy.thaw();
      // Shared again: one budget across both instances. (A new short per try: an attempt this
      // loaded process stalls past the 200 ms is counted by its instance alone, as designed.)
      await vi.waitFor(async () => {
        const next = await create(user, { url: "https://example.com/thawed", password: secret() });
        const answers: number[] = [];
        for (let i = 0; i < PASSWORD_ATTEMPTS.max + 2; i++) {
          answers.push((await post(next.name, formBody({ password: "guess" }), {}, apps[i % 2]!)).statusCode);
        }
        expect(answers).toEqual([...Array(PASSWORD_ATTEMPTS.max).fill(401), 429, 429]);
      }, SOON);
      expect(warnings("password attempts are counted in Redis again")).toBeGreaterThanOrEqual(2);
    });
  },
);

describe("an instance's own count of attempts", () => {
  it("spends a fixed window per key, and keeps at most its number of keys, the oldest going first", () => {
    const here = new AttemptsHere(2, 1_000, 3);
    expect([0, 10, 20].map((now) => here.spend("a", now).allowed)).toEqual([true, true, false]);
    expect(here.spend("a", 500).retryAfterSeconds).toBe(1);
    // The window ends 1 s after its first attempt.
    expect(here.spend("a", 1_000).allowed).toBe(true);
    for (const key of ["b", "c", "d"]) here.spend(key, 1_100);
    // "a" (the oldest window) made way for "d": it starts afresh.
    expect([here.spend("a", 1_200).allowed, here.spend("a", 1_200).allowed]).toEqual([true, true]);
    expect(here.spend("d", 1_200).allowed).toBe(true);
    expect(here.spend("d", 1_200).allowed).toBe(false);
  });
});
