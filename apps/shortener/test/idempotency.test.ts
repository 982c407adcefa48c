// Idempotency-Key on POST /api/shorts and /api/shorts/bulk (issue 20, docs/adr/0160): a retried
// request creates nothing more and answers the first answer again; keys are per user and kept in
// the database, so they hold across instances and restarts.
import { createPrisma, type PrismaClient, type PrismaOptions } from "@app/db";
import { PRUNED_PER_CLAIM } from "@app/server/idempotency";
import { secretScan } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import type { PasswordHasher } from "../src/shorts/password-hash.ts";
import { newUser, setupShortener, TEST_PASSWORDS } from "./helpers.ts";

// The test's hasher, with a gate a test may close: the hashes then wait for the test, which
// sees where each request is while it hashes (below). Open, it is the hash itself.
const hashing = { gate: undefined as Promise<void> | undefined, pending: 0 };
const gatedPasswords: PasswordHasher = {
  async hash(password) {
    hashing.pending++;
    try {
      await hashing.gate;
      return await TEST_PASSWORDS.hash(password);
    } finally {
      hashing.pending--;
    }
  },
  verify: (password, stored) => TEST_PASSWORDS.verify(password, stored),
};

const ctx = setupShortener();

type User = Awaited<ReturnType<typeof newUser>>;

let keys = 0;
const newKey = () => `key-${process.pid}-${++keys}-${Math.random().toString(36).slice(2)}`;
let names = 0;
const newName = (label: string) => `${label}-${process.pid}-${++names}`;

function post(user: User, path: "" | "/bulk", body: unknown, key?: string, app: ShortenerApp = ctx.app) {
  return app.inject({
    method: "POST",
    url: `/api/shorts${path}`,
    headers: {
      ...user.headers,
      "content-type": "application/json",
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    payload: JSON.stringify(body),
  });
}

const shortsOf = (user: User) => ctx.prisma.short.count({ where: { userId: user.id } });
const keyRows = () => ctx.prisma.shortIdempotencyKey.count();

/** Another instance of the service on the file's database, as a second process would run it. */
async function instance(database: PrismaOptions = {}): Promise<{ app: ShortenerApp; prisma: PrismaClient }> {
  const prisma = createPrisma(ctx.db.url, { directUrl: ctx.db.directUrl, poolMax: 5, ...database });
  const app = await buildApp({
    config: ctx.config,
    prisma,
    logger: { level: "trace", stream: secretScan.logStream },
    passwords: gatedPasswords,
  });
  secretScan.watch(app);
  await app.ready();
  return { app, prisma };
}

/** A URL of `app` served over real HTTP (the app listens on a free port until closed). */
async function httpBase(app: ShortenerApp): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

function postOverHttp(base: string, user: User, body: unknown, key: string) {
  return fetch(`${base}/api/shorts`, {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  }).then(async (response) => ({
    status: response.status,
    location: response.headers.get("location"),
    body: await response.text(),
  }));
}

describe("POST /api/shorts with Idempotency-Key", () => {
  it("answers a repeat with the first answer, byte for byte, and creates nothing more", async () => {
    const user = await newUser(ctx.prisma);
    const key = newKey();
    const first = await post(user, "", { url: "https://example.com/once" }, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    // The same request in another spelling: keys in another order, the URL before normalization.
    const again = await post(user, "", { url: "HTTPS://EXAMPLE.com/once" }, key);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.location).toBe(`/api/shorts/${first.json().id}`);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await shortsOf(user)).toBe(1);
  });

  it("answers 422 for the same key with another body, in the seed's error shape, and changes nothing", async () => {
    const user = await newUser(ctx.prisma);
    const key = newKey();
    expect((await post(user, "", { url: "https://example.com/a" }, key)).statusCode).toBe(201);
    const before = await ctx.prisma.short.findMany({ orderBy: { id: "asc" } });
    const rows = await keyRows();
    for (const [path, body] of [
      ["", { url: "https://example.com/b" }],
      ["", { url: "https://example.com/a", name: newName("other") }],
      // The same key on the other operation is another request too.
      ["/bulk", { shorts: [{ url: "https://example.com/a" }] }],
    ] as const) {
      const res = await post(user, path, body, key);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        status: "Unprocessable Entity",
        error:
          "This Idempotency-Key was already used with a different request within the last 24 hours; " +
          "send a new key for a new request",
      });
    }
    expect(await ctx.prisma.short.findMany({ orderBy: { id: "asc" } })).toEqual(before);
    expect(await keyRows()).toBe(rows);
  });

  it("keeps keys per user: another user's same key creates their own short", async () => {
    const [alice, bob] = await Promise.all([newUser(ctx.prisma), newUser(ctx.prisma)]);
    const key = newKey();
    const body = { url: "https://example.com/shared-key" };
    const a = await post(alice, "", body, key);
    const b = await post(bob, "", body, key);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).not.toBe(b.json().id);
    expect(b.headers["idempotent-replayed"]).toBeUndefined();
    expect([await shortsOf(alice), await shortsOf(bob)]).toEqual([1, 1]);
  });

  it("keeps no error: a retry after a refused request runs again", async () => {
    const [user, holder] = await Promise.all([newUser(ctx.prisma), newUser(ctx.prisma)]);
    const name = newName("held");
    const held = await post(holder, "", { url: "https://example.com/held", name });
    const key = newKey();
    expect((await post(user, "", { url: "https://example.com/mine", name }, key)).statusCode).toBe(409);
    await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${held.json().id}`, headers: holder.headers });
    const retry = await post(user, "", { url: "https://example.com/mine", name }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("refuses a malformed key with 400 and creates nothing", async () => {
    const user = await newUser(ctx.prisma);
    for (const key of ["", "x".repeat(256), "caf\u00e9"]) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/shorts",
        headers: { ...user.headers, "idempotency-key": key },
        payload: { url: "https://example.com/malformed" },
      });
      expect(res.statusCode, key).toBe(400);
      expect(res.json().error).toMatch(/^Invalid headers: idempotency-key: /);
    }
    expect(await shortsOf(user)).toBe(0);
  });

  it("forgets a key after 24 hours: it creates again, and expired keys are pruned by later claims", async () => {
    const user = await newUser(ctx.prisma);
    const key = newKey();
    const body = { url: "https://example.com/expiring" };
    const first = await post(user, "", body, key);
    // Other expired keys: more than one claim prunes, so two claims are needed for them all.
    const stale = await newUser(ctx.prisma);
    await ctx.prisma.shortIdempotencyKey.createMany({
      data: Array.from({ length: PRUNED_PER_CLAIM + 5 }, (_, i) => ({
        userId: stale.id,
        key: `stale-${i}`,
        requestHash: "0".repeat(64),
        status: 201,
        response: "{}",
      })),
    });
    await ctx.prisma.$executeRaw`
      UPDATE "shortener"."idempotency_keys" SET "created_at" = now() - interval '24 hours 1 second'
       WHERE "user_id" IN (${user.id}::uuid, ${stale.id}::uuid)`;
    const later = await post(user, "", body, key);
    expect(later.statusCode).toBe(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(later.json().id).not.toBe(first.json().id);
    expect(await shortsOf(user)).toBe(2);
    // At most PRUNED_PER_CLAIM per claim (the taken-over key may or may not have been among them).
    const staleLeft = () => ctx.prisma.shortIdempotencyKey.count({ where: { userId: stale.id } });
    expect(await staleLeft()).toBeGreaterThanOrEqual(5);
    expect(await staleLeft()).toBeLessThanOrEqual(6);
    expect((await post(user, "", { url: "https://example.com/next" }, newKey())).statusCode).toBe(201);
    expect(await staleLeft()).toBe(0);
    // The key taken over is fresh again: a repeat now replays the second short.
    expect((await post(user, "", body, key)).body).toBe(later.body);
  });

  it("creates exactly one short for 20 parallel requests with one key over HTTP; all 20 get the same answer", async () => {
    const user = await newUser(ctx.prisma);
    const key = newKey();
    const base = await httpBase(ctx.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        postOverHttp(base, user, { url: "https://example.com/parallel" }, key),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.location)).size).toBe(1);
    const [row] = await ctx.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS "count" FROM "shortener"."shorts" WHERE "user_id" = ${user.id}::uuid`;
    expect(row?.count).toBe(1);
  });

  describe("across instances and restarts", () => {
    const opened: { app: ShortenerApp; prisma: PrismaClient }[] = [];
    afterAll(async () => {
      for (const { app, prisma } of opened) {
        await app.close();
        await prisma.$disconnect();
      }
    });

    it("creates once for 10 + 10 parallel requests with one key, half to each of two instances", async () => {
      const second = await instance();
      opened.push(second);
      const user = await newUser(ctx.prisma);
      const key = newKey();
      const bases = [await httpBase(ctx.app), await httpBase(second.app)];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          postOverHttp(bases[i % 2]!, user, { url: "https://example.com/two-instances" }, key),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
      expect(await shortsOf(user)).toBe(1);
    });

    it("replays after a restart: a new instance on the same database answers the first answer", async () => {
      const user = await newUser(ctx.prisma);
      const key = newKey();
      const body = { shorts: [{ url: "https://example.com/restart", name: newName("restart") }] };
      const before = await instance();
      const first = await post(user, "/bulk", body, key, before.app);
      expect(first.statusCode).toBe(200);
      await before.app.close();
      await before.prisma.$disconnect();
      const after = await instance();
      opened.push(after);
      const again = await post(user, "/bulk", body, key, after.app);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(await shortsOf(user)).toBe(1);
    });
  });
});

describe("a keyed create holds a database connection only to write", () => {
  // A password is hashed slowly on purpose (scrypt, about a tenth of a second). Hashed inside
  // the key's transaction, it held a pooled connection meanwhile: under a burst, requests
  // waiting for one gave up and answered 503 "database unavailable".
  it("hashes passwords before the key's transaction: with one connection, 20 parallel requests hash at once", async () => {
    const user = await newUser(ctx.prisma);
    // Waiting for the one connection may take long on a loaded machine: bounded by the test's limit, not a clock of its own.
    const single = await instance({ poolMax: 1, connectTimeoutMs: 110_000 });
    let open = () => {};
    hashing.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    try {
      const sending = Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const short = { url: `https://example.com/${i}`, password: "open sesame" };
          return i % 2 === 0
            ? post(user, "", short, newKey(), single.app)
            : post(user, "/bulk", { shorts: [short] }, newKey(), single.app);
        }),
      );
      // All 20 hash at the same time. Hashed inside the key's transaction (as before), one
      // request held the one connection while the other 19 waited for it to begin theirs.
      await vi.waitFor(() => expect(hashing.pending).toBe(20), SOON);
      open();
      const answers = await sending;
      expect(answers.map((answer) => answer.statusCode)).toEqual(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 201 : 200)),
      );
      expect(await shortsOf(user)).toBe(20);
    } finally {
      open();
      hashing.gate = undefined;
      await single.app.close();
      await single.prisma.$disconnect();
    }
  });
});

describe("POST /api/shorts/bulk with Idempotency-Key", () => {
  it("replays the whole answer, refused items included, and creates nothing more", async () => {
    const user = await newUser(ctx.prisma);
    const key = newKey();
    const name = newName("bulk-key");
    const body = {
      shorts: [
        { url: "https://example.com/1" },
        { url: "https://example.com/2", name },
        { url: "https://example.com/3", name: "docs" },
        { url: "https://example.com/4", name },
      ],
    };
    const first = await post(user, "/bulk", body, key);
    expect(first.statusCode).toBe(200);
    expect(first.json().results.map((r: { status: number }) => r.status)).toEqual([201, 201, 400, 409]);
    const again = await post(user, "/bulk", body, key);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await shortsOf(user)).toBe(2);
    const other = await post(user, "/bulk", { shorts: body.shorts.slice(0, 3) }, key);
    expect(other.statusCode).toBe(422);
    expect(await shortsOf(user)).toBe(2);
  });

  it("creates one set for 20 parallel bulk requests with one key", async () => {
    const user = await newUser(ctx.prisma);
    const key = newKey();
    const body = { shorts: Array.from({ length: 50 }, (_, i) => ({ url: `https://example.com/p${i}` })) };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(user, "/bulk", body, key)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await shortsOf(user)).toBe(50);
  });

  it("is documented on both operations, with the 422", async () => {
    const document = (await ctx.app.inject({ url: "/docs" })).json();
    for (const path of ["/api/shorts", "/api/shorts/bulk"]) {
      const operation = document.paths[path].post;
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ in: "header", name: "idempotency-key", required: false }),
      );
      expect(operation.responses["422"]).toBeDefined();
    }
  });
});
