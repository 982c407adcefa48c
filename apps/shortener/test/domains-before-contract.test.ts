// Domains before and after the contract step (docs/adr/0218, 0219): on a database the service
// migrated itself (contract steps deferred) the previous release's global unique index on names
// is still there, so this release must answer a name taken on another domain 409, and the
// previous release's own insert (ON CONFLICT ("name")) must still work. Once the contract step
// runs, the same request succeeds.
import { createPrisma, migrate, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { addDomain } from "../src/domains/domain-registry.ts";
import { newUser, postShort, TEST_PASSWORDS } from "./helpers.ts";

const CONTRACT_STEP = "20261202100000_short_names_per_domain";

let db: TestDatabase;
let prisma: PrismaClient;
let app: ShortenerApp;
let user: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  const started = await migrate(db.directUrl, { contractSteps: false });
  expect(started.deferred[0]).toBe(CONTRACT_STEP);
  prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 3 });
  app = await buildApp({
    config: defaultConfig({ SHORT_BASE_URL: "https://sho.rt" }),
    prisma,
    passwords: TEST_PASSWORDS,
  });
  await app.ready();
  user = await newUser(prisma);
  await addDomain(prisma, "sho.rt", "b.example");
});

afterAll(async () => {
  await app?.close();
  await prisma?.$disconnect();
  await db?.drop();
});

it("keeps names unique across domains until the contract step, answering 409 as for any taken name", async () => {
  expect((await postShort(app, user, { url: "https://example.com/x", name: "x" })).statusCode).toBe(201);
  const taken = await postShort(app, user, { url: "https://example.com/x", name: "x", domain: "b.example" });
  expect(taken.statusCode).toBe(409);
  expect(taken.json().error).toBe('name "x" is already taken on b.example');
  const bulk = await app.inject({
    method: "POST",
    url: "/api/shorts/bulk",
    headers: user.headers,
    payload: {
      shorts: [
        { url: "https://example.com/1", name: "pair", domain: "b.example" },
        { url: "https://example.com/2", name: "pair" },
        { url: "https://example.com/3", domain: "b.example" },
      ],
    },
  });
  // One of the two items asking for "pair" has it (inserts go in name order, then domain).
  const statuses = bulk.json().results.map((r: { status: number }) => r.status);
  expect([statuses[0], statuses[1]].sort()).toEqual([201, 409]);
  expect(statuses[2]).toBe(201);
  // Shorts on other domains work in full: the redirect, a move back to the default domain.
  const y = await postShort(app, user, { url: "https://example.com/y", name: "y", domain: "b.example" });
  expect(y.json().shorturl).toBe("https://b.example/y");
  expect((await app.inject({ url: "/y", headers: { host: "b.example" } })).statusCode).toBe(302);
  const moved = await app.inject({
    method: "PATCH",
    url: `/api/shorts/${y.json().id}`,
    headers: user.headers,
    payload: { domain: "sho.rt" },
  });
  expect(moved.json().shorturl).toBe("https://sho.rt/y");
  expect((await app.inject({ url: "/y", headers: { host: "sho.rt" } })).statusCode).toBe(302);
});

it("still takes the previous release's insert, which names the global index", async () => {
  const inserted = await prisma.$executeRaw`
    INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url")
    VALUES (gen_random_uuid(), ${user.id}::uuid, 'old-release', 'https://example.com/old')
    ON CONFLICT ("name") DO NOTHING`;
  expect(inserted).toBe(1);
  expect((await app.inject({ url: "/old-release", headers: { host: "sho.rt" } })).statusCode).toBe(302);
});

it("lets a name live on two domains once the contract step has run", async () => {
  const contracted = await migrate(db.directUrl);
  expect(contracted.applied[0]).toBe(CONTRACT_STEP);
  const onB = await postShort(app, user, { url: "https://example.com/bx", name: "x", domain: "b.example" });
  expect(onB.statusCode).toBe(201);
  expect((await app.inject({ url: "/x", headers: { host: "b.example" } })).headers.location).toBe(
    "https://example.com/bx",
  );
  expect((await app.inject({ url: "/x", headers: { host: "sho.rt" } })).headers.location).toBe(
    "https://example.com/x",
  );
});
