// The redirect's target cache across instances: a short deleted or edited on one instance stops
// redirecting (or redirects elsewhere) on every other one (HEAD shows it: it answers from the
// cache without a visit row).
import { createPrisma, dedicatedConnection, type PrismaClient } from "@app/db";
import { adminQuery, createTestDatabase, type TestDatabase } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, expect, inject, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { DEFAULT_DOMAIN_ID } from "../src/default-domain.ts";
import { ShortsService } from "../src/shorts/shorts.service.ts";
import { newUser, postShort, TEST_PASSWORDS } from "./helpers.ts";

let db: TestDatabase;
const prismas: PrismaClient[] = [];
let a: ShortenerApp;
let b: ShortenerApp;

beforeAll(async () => {
  db = await createTestDatabase();
  const apps = await Promise.all(
    [0, 1].map(async () => {
      const prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 3 });
      prismas.push(prisma);
      const app = await buildApp({ config: defaultConfig(), prisma });
      await app.ready();
      return app;
    }),
  );
  [a, b] = [apps[0]!, apps[1]!];
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all(prismas.map((p) => p.$disconnect()));
  await db?.drop();
});

it("stops redirecting on the other instance once a DELETE has returned (within 1 s)", async () => {
  const user = await newUser(prismas[0]!);
  const created = (await postShort(a, user, { url: "https://example.com/cached", name: "cached" })).json();
  // B learns the target (and caches it).
  expect((await b.inject({ url: "/cached" })).statusCode).toBe(302);
  expect((await b.inject({ method: "HEAD", url: "/cached" })).statusCode).toBe(302);

  const deleted = await a.inject({
    method: "DELETE",
    url: `/api/shorts/${created.id}`,
    headers: user.headers,
  });
  expect(deleted.statusCode).toBe(204);
  // A GET can never answer 302 for a deleted short: its visit row is refused.
  expect((await b.inject({ url: "/cached" })).statusCode).toBe(404);
  // HEAD writes no row, so only the cache decides: the notification must have emptied it.
  await vi.waitFor(
    async () => expect((await b.inject({ method: "HEAD", url: "/cached" })).statusCode).toBe(404),
    SOON,
  );
});

it("follows an edit made on the other instance once notified: a new target, and a rename", async () => {
  const user = await newUser(prismas[0]!);
  const created = (await postShort(a, user, { url: "https://example.com/v1", name: "edited" })).json();
  const location = async (app: ShortenerApp, name: string) => {
    const res = await app.inject({ method: "HEAD", url: `/${name}` });
    return res.statusCode === 302 ? res.headers.location : res.statusCode;
  };
  // B caches the target; HEAD writes no visit, so only the cache answers it.
  expect((await b.inject({ url: "/edited" })).statusCode).toBe(302);
  expect(await location(b, "edited")).toBe("https://example.com/v1");

  const edit = (body: object) =>
    a.inject({ method: "PATCH", url: `/api/shorts/${created.id}`, headers: user.headers, payload: body });
  expect((await edit({ url: "https://example.com/v2" })).statusCode).toBe(200);
  // A, which made the edit, follows it before answering; B as soon as the notification arrives.
  expect(await location(a, "edited")).toBe("https://example.com/v2");
  await vi.waitFor(async () => expect(await location(b, "edited")).toBe("https://example.com/v2"), SOON);

  expect((await edit({ name: "edited-again" })).statusCode).toBe(200);
  expect(await location(a, "edited")).toBe(404);
  await vi.waitFor(async () => expect(await location(b, "edited")).toBe(404), SOON);
  expect(await location(b, "edited-again")).toBe("https://example.com/v2");
  // A GET (with its visit) follows too, and the visit counts for the short.
  expect((await b.inject({ url: "/edited-again" })).headers.location).toBe("https://example.com/v2");
  const read = await a.inject({ url: `/api/shorts/${created.id}`, headers: user.headers });
  expect(read.json()).toMatchObject({ name: "edited-again", url: "https://example.com/v2", visits: 2 });
});

it("leaves tags-only edits out of the channel (nothing the redirect reads changed)", async () => {
  const user = await newUser(prismas[0]!);
  const created = (await postShort(a, user, { url: "https://example.com/tagged", name: "tagged" })).json();
  const listener = dedicatedConnection(prismas[0]!);
  await listener.connect();
  const heard: string[] = [];
  listener.on("notification", ({ payload }) => heard.push(payload ?? ""));
  await listener.query("LISTEN shortener_short_deleted");
  const edit = (body: object) =>
    a.inject({ method: "PATCH", url: `/api/shorts/${created.id}`, headers: user.headers, payload: body });
  await edit({ tags: ["x"] });
  await edit({});
  await edit({ url: "https://example.com/tagged" }); // the same target: nothing changed
  await edit({ url: "https://example.com/retargeted" });
  await vi.waitFor(() => expect(heard).toEqual(["tagged"]), SOON);
  await listener.end();
});

it("serves nothing from the cache while its listening connection is down, and listens again", async () => {
  const user = await newUser(prismas[0]!);
  await postShort(a, user, { url: "https://example.com/relisten", name: "relisten" });
  expect((await b.inject({ method: "HEAD", url: "/relisten" })).statusCode).toBe(302);
  // Both instances lose their LISTEN connections; a short then vanishes without any notification.
  // Only this file's database: other files' instances listen on the same server meanwhile.
  await adminQuery(
    inject("databaseServerUrl"),
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = '${new URL(db.directUrl).pathname.slice(1)}' AND query LIKE 'LISTEN shortener_short_deleted%'`,
  );
  await prismas[0]!.short.deleteMany({ where: { name: "relisten" } });
  await vi.waitFor(
    async () => expect((await b.inject({ method: "HEAD", url: "/relisten" })).statusCode).toBe(404),
    SOON,
  );
  // Listening again, it caches again.
  await postShort(a, user, { url: "https://example.com/again", name: "again" });
  await vi.waitFor(async () => {
    expect((await b.inject({ method: "HEAD", url: "/again" })).statusCode).toBe(302);
    const rows = await prismas[0]!.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN shortener_short_deleted%'`;
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(2);
  }, SOON);
});

it("sends visits that miss the cache together to the database once", async () => {
  const user = await newUser(prismas[0]!);
  await postShort(a, user, { url: "https://example.com/together", name: "together" });
  // The service's own queries, counted on their way to the real database.
  const real = prismas[0]!;
  let lookups = 0;
  const counted = {
    short: {
      findUnique: (...args: Parameters<PrismaClient["short"]["findUnique"]>) => {
        lookups++;
        return real.short.findUnique(...args);
      },
    },
  } as unknown as PrismaClient;
  const shorts = new ShortsService(counted, {
    shortBaseUrl: "http://s.test",
    reservedNames: [],
    passwords: TEST_PASSWORDS,
  });

  const targets = await Promise.all(
    Array.from({ length: 50 }, () => shorts.findTarget(DEFAULT_DOMAIN_ID, "together")),
  );
  expect(new Set(targets.map((t) => t?.url))).toEqual(new Set(["https://example.com/together"]));
  expect(lookups).toBe(1);
  // Once answered, the next miss asks again (no cache here: a deleted short is seen at once).
  await real.short.deleteMany({ where: { name: "together" } });
  expect(await shorts.findTarget(DEFAULT_DOMAIN_ID, "together")).toBeNull();
  expect(lookups).toBe(2);
});
