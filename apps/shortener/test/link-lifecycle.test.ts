// A short's lifecycle (issue 20): its validity window, its visit limit and the URL it redirects
// to once expired, on create and edit; every refusal changes nothing. Two instances on one
// database: an edit is followed by the other at once, and a limit of 100 hit by 500 parallel
// visits through both answers exactly 100 redirects and stores exactly 100 visits.
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { newUser, postShort } from "./helpers.ts";

let db: TestDatabase;
const prismas: PrismaClient[] = [];
let a: ShortenerApp;
let b: ShortenerApp;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  const apps = await Promise.all(
    [0, 1].map(async () => {
      const client = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 5 });
      prismas.push(client);
      const app = await buildApp({
        config: defaultConfig({ SHORT_BASE_URL: "https://sho.rt" }),
        prisma: client,
      });
      await app.ready();
      return app;
    }),
  );
  [a, b] = [apps[0]!, apps[1]!];
  prisma = prismas[0]!;
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await Promise.all(prismas.map((p) => p.$disconnect()));
  await db?.drop();
});

type User = Awaited<ReturnType<typeof newUser>>;
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

async function create(user: User, payload: object) {
  const res = await postShort(a, user, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Record<string, unknown> & { id: string; name: string };
}

const patch = (app: ShortenerApp, user: User, id: string, payload: object) =>
  app.inject({ method: "PATCH", url: `/api/shorts/${id}`, headers: user.headers, payload });

/** Status and Location of a GET (or HEAD) of the short. */
async function follow(app: ShortenerApp, name: string, method: "GET" | "HEAD" = "GET") {
  const res = await app.inject({ method, url: `/${name}` });
  if (res.statusCode === 302) return `302 ${res.headers.location}`;
  return method === "HEAD" ? `${res.statusCode}` : `${res.statusCode} ${res.body}`;
}

const storedVisits = async (shortId: string) => prisma.shortLog.count({ where: { shortId } });
const shorts = () => prisma.short.findMany({ orderBy: { id: "asc" } });

describe("the lifecycle fields", () => {
  it("are accepted on create, returned only when set, and the seed's Short is unchanged without them", async () => {
    const user = await newUser(prisma);
    const plain = await create(user, { url: "https://example.com/plain" });
    expect(Object.keys(plain).sort()).toEqual(["createdAt", "id", "name", "shorturl", "url", "visits"]);
    const from = "2026-01-01T00:00:00.000Z";
    const until = "2099-12-31T23:59:59.999Z";
    const full = await create(user, {
      url: "https://example.com/offer",
      validFrom: "2026-01-01T01:00:00+01:00",
      validUntil: until,
      maxVisits: 5,
      expiredUrl: "https://example.com/offer-ended",
    });
    expect(full).toMatchObject({
      validFrom: from,
      validUntil: until,
      maxVisits: 5,
      expiredUrl: "https://example.com/offer-ended",
    });
    expect(full).not.toHaveProperty("hasPassword");
    const read = await a.inject({ url: `/api/shorts/${full.id}`, headers: user.headers });
    expect(read.json()).toEqual(full);
    const listed = (await a.inject({ url: "/api/shorts", headers: user.headers })).json();
    expect(listed).toEqual([full, plain]);
  });

  it("refuses bad values with 400 and stores nothing", async () => {
    const user = await newUser(prisma);
    const before = await shorts();
    for (const payload of [
      { validFrom: at(HOUR), validUntil: at(-HOUR) },
      { validFrom: "2027-01-01T00:00:00Z", validUntil: "2027-01-01T00:00:00Z" },
      { validFrom: "tomorrow" },
      { validUntil: "2027-01-01" },
      { maxVisits: 0 },
      { maxVisits: 1.5 },
      { maxVisits: "3" },
      { maxVisits: 2_147_483_648 },
      { expiredUrl: "ftp://example.com/" },
      { expiredUrl: null },
      { password: "" },
    ]) {
      const res = await postShort(a, user, { url: "https://example.com/bad", ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ status: "Bad Request", error: expect.any(String) });
    }
    const inverted = await postShort(a, user, {
      url: "https://example.com/bad",
      validFrom: "2027-01-02T00:00:00Z",
      validUntil: "2027-01-01T00:00:00Z",
    });
    expect(inverted.json().error).toContain("validUntil must be later than validFrom");
    expect(await shorts()).toEqual(before);
  });

  it("are edited by PATCH (null clears each), and an edit that inverts the window is refused", async () => {
    const user = await newUser(prisma);
    const short = await create(user, { url: "https://example.com/edit", validUntil: "2030-01-01T00:00:00Z" });
    const set = await patch(a, user, short.id, {
      validFrom: "2029-01-01T00:00:00Z",
      maxVisits: 10,
      expiredUrl: "https://example.com/gone",
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      validFrom: "2029-01-01T00:00:00.000Z",
      validUntil: "2030-01-01T00:00:00.000Z",
      maxVisits: 10,
      expiredUrl: "https://example.com/gone",
    });
    const before = await shorts();
    for (const payload of [{ validFrom: "2031-01-01T00:00:00Z" }, { validUntil: "2028-12-31T00:00:00Z" }]) {
      const res = await patch(a, user, short.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: "Bad Request", error: "validUntil must be later than validFrom" });
    }
    expect((await patch(a, user, short.id, { maxVisits: -1 })).statusCode).toBe(400);
    expect(await shorts()).toEqual(before);
    // Moving both ends at once is one edit: checked together.
    const moved = await patch(a, user, short.id, {
      validFrom: "2031-01-01T00:00:00Z",
      validUntil: "2032-01-01T00:00:00Z",
    });
    expect(moved.statusCode).toBe(200);
    const cleared = await patch(a, user, short.id, {
      validFrom: null,
      validUntil: null,
      maxVisits: null,
      expiredUrl: null,
    });
    expect(cleared.statusCode).toBe(200);
    expect(Object.keys(cleared.json()).sort()).toEqual([
      "createdAt",
      "id",
      "name",
      "shorturl",
      "url",
      "visits",
    ]);
  });
});

describe("the validity window", () => {
  it("redirects only inside it; outside, 404 or the expired URL, and no visit", async () => {
    const user = await newUser(prisma);
    const early = await create(user, { url: "https://example.com/soon", validFrom: at(HOUR) });
    const late = await create(user, { url: "https://example.com/over", validUntil: at(-HOUR) });
    const redirected = await create(user, {
      url: "https://example.com/over2",
      validUntil: at(-HOUR),
      expiredUrl: "https://example.com/ended",
    });
    const inside = await create(user, {
      url: "https://example.com/now",
      validFrom: at(-HOUR),
      validUntil: at(HOUR),
    });
    expect(await follow(a, early.name)).toBe("404 Not Found");
    expect(await follow(a, late.name)).toBe("404 Not Found");
    expect(await follow(a, redirected.name)).toBe("302 https://example.com/ended");
    expect(await follow(a, redirected.name, "HEAD")).toBe("302 https://example.com/ended");
    expect(await follow(a, inside.name)).toBe("302 https://example.com/now");
    const expiredRes = await a.inject({ url: `/${redirected.name}` });
    expect(expiredRes.headers["cache-control"]).toBe("private, no-cache");
    for (const s of [early, late, redirected]) expect(await storedVisits(s.id)).toBe(0);
    expect(await storedVisits(inside.id)).toBe(1);
    // Opening the window (null clears the start) takes effect at once.
    expect((await patch(a, user, early.id, { validFrom: null })).statusCode).toBe(200);
    expect(await follow(a, early.name)).toBe("302 https://example.com/soon");
    expect(await storedVisits(early.id)).toBe(1);
  });
});

describe("the visit limit", () => {
  it("redirects exactly maxVisits times, then 404 or the expired URL without a visit; HEAD counts nothing", async () => {
    const user = await newUser(prisma);
    const short = await create(user, { url: "https://example.com/three", maxVisits: 3 });
    expect(await follow(a, short.name, "HEAD")).toBe("302 https://example.com/three");
    for (let i = 0; i < 3; i++) expect(await follow(a, short.name)).toBe("302 https://example.com/three");
    expect(await follow(a, short.name)).toBe("404 Not Found");
    expect(await follow(b, short.name)).toBe("404 Not Found");
    expect(await follow(a, short.name, "HEAD")).toBe("404");
    expect(await storedVisits(short.id)).toBe(3);
    const read = await a.inject({ url: `/api/shorts/${short.id}`, headers: user.headers });
    expect(read.json()).toMatchObject({ visits: 3, maxVisits: 3 });

    // An expired URL set afterwards is followed at once; still no visit.
    expect((await patch(a, user, short.id, { expiredUrl: "https://example.com/sold-out" })).statusCode).toBe(
      200,
    );
    expect(await follow(a, short.name)).toBe("302 https://example.com/sold-out");
    // Raising the limit lets exactly the difference through; removing it, everything.
    expect((await patch(a, user, short.id, { maxVisits: 4 })).statusCode).toBe(200);
    expect(await follow(a, short.name)).toBe("302 https://example.com/three");
    expect(await follow(a, short.name)).toBe("302 https://example.com/sold-out");
    expect((await patch(a, user, short.id, { maxVisits: null })).statusCode).toBe(200);
    expect(await follow(a, short.name)).toBe("302 https://example.com/three");
    expect(await storedVisits(short.id)).toBe(5);
  });

  it("set by an edit, counts the visits stored before it", async () => {
    const user = await newUser(prisma);
    const short = await create(user, { url: "https://example.com/later" });
    for (let i = 0; i < 2; i++) expect(await follow(a, short.name)).toBe("302 https://example.com/later");
    expect((await patch(a, user, short.id, { maxVisits: 3 })).json()).toMatchObject({
      visits: 2,
      maxVisits: 3,
    });
    expect(await follow(a, short.name)).toBe("302 https://example.com/later");
    expect(await follow(a, short.name)).toBe("404 Not Found");
    expect(await storedVisits(short.id)).toBe(3);
  });

  it("holds on an instance whose cache still has the short without a limit", async () => {
    const user = await newUser(prisma);
    const short = await create(user, { url: "https://example.com/stale" });
    expect(await follow(b, short.name)).toBe("302 https://example.com/stale"); // B caches it, unlimited
    // The limit, already reached, lands on A; B's very next visit must not get through, whether
    // or not the notification has reached B yet (the batched statement refuses limited shorts).
    expect((await patch(a, user, short.id, { maxVisits: 1 })).statusCode).toBe(200);
    expect(await follow(b, short.name)).toBe("404 Not Found");
    expect(await storedVisits(short.id)).toBe(1);
  });

  it("is exact under 500 parallel visits through two instances: 100 redirects, 100 visits", {
    timeout: 120_000,
  }, async () => {
    const user = await newUser(prisma);
    const short = await create(user, {
      url: "https://example.com/limited",
      name: "hundred",
      maxVisits: 100,
      expiredUrl: "https://example.com/too-late",
    });
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        (i % 2 === 0 ? a : b).inject({ url: "/hundred", remoteAddress: `10.0.${i >> 8}.${i & 255}` }),
      ),
    );
    const count = (location: string) =>
      answers.filter((r) => r.statusCode === 302 && r.headers.location === location).length;
    const other = answers.filter((r) => r.statusCode !== 302).map((r) => `${r.statusCode} ${r.body}`);
    expect(other).toEqual([]);
    expect(count("https://example.com/limited")).toBe(100);
    expect(count("https://example.com/too-late")).toBe(400);
    expect(await storedVisits(short.id)).toBe(100);
    // The count, the aggregates and the short's visits all agree with the rows.
    const row = await prisma.short.findUniqueOrThrow({ where: { id: short.id } });
    expect(row.countedVisits).toBe(100);
    const read = await a.inject({ url: `/api/shorts/${short.id}`, headers: user.headers });
    expect(read.json().visits).toBe(100);
    const stats = await a.inject({ url: `/api/shorts/${short.id}/stats`, headers: user.headers });
    expect(stats.json().totals.visits).toBe(100);
  });
});

describe("an edit of the lifecycle", () => {
  it("is followed by the other instance at once (within 1 s)", async () => {
    const user = await newUser(prisma);
    const short = await create(user, { url: "https://example.com/follow" });
    expect(await follow(b, short.name, "HEAD")).toBe("302 https://example.com/follow"); // cached on B
    expect(
      (await patch(a, user, short.id, { validUntil: at(-1_000), expiredUrl: "https://example.com/closed" }))
        .statusCode,
    ).toBe(200);
    // HEAD writes no visit: only B's cache answers it.
    await vi.waitFor(
      async () => expect(await follow(b, short.name, "HEAD")).toBe("302 https://example.com/closed"),
      SOON,
    );
    expect((await patch(a, user, short.id, { validUntil: null })).statusCode).toBe(200);
    await vi.waitFor(
      async () => expect(await follow(b, short.name, "HEAD")).toBe("302 https://example.com/follow"),
      SOON,
    );
  });
});
