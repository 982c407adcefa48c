// Hosted mode end to end, through the real app: a default database and tenant databases whose
// users have the same ids. Every resource written and read through one route (no `key`, or a
// tenant's license key) lands in and comes from that route's database only; keys of one
// database mean nothing in another; a disabled tenant is refused by every instance at once;
// one tenant's database going down answers 503 for that tenant only; rate limits count per
// tenant and user; logs name the tenant and never its license key or database URL. The
// default (off) and `required` modes are checked at the end.
import { Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, startTcpProxy, type TcpProxy, type TestDatabase } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import type { SchedulingConfig } from "../src/config.ts";
import { INVALID_LICENSE_KEY, MISSING_LICENSE_KEY } from "../src/hosting/hosting.ts";
import { futureMonday, makeHost } from "./booking-helpers.ts";
import { testConfig } from "./helpers.ts";
import {
  hostedUrl,
  newTenantSecret,
  registerTenant,
  type TestTenant,
  withPassword,
} from "./hosted-helpers.ts";
import {
  type Caller,
  fixtures,
  makeBooking,
  makePayment,
  newUser,
  resources,
  SECRET,
  storedRow,
} from "./resource-fixtures.ts";

const TENANT_SECRET = newTenantSecret();
const PASSWORD = "tenant-db-password-must-not-leak";

/** The three databases the isolation tests write to: the default one, and tenants a and b. */
type Route = "main" | "a" | "b";
const ROUTES: Route[] = ["main", "a", "b"];
/** c: behind a proxy that goes down; d: disabled and enabled again. */
type TenantName = "a" | "b" | "c" | "d";
const TENANTS: TenantName[] = ["a", "b", "c", "d"];

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});

const databases: Partial<Record<Route | TenantName, TestDatabase>> = {};
const prisma = {} as Record<Route | TenantName, PrismaClient>;
const tenants = {} as Record<TenantName, TestTenant>;
const owners = {} as Record<Route, Caller>;
let proxy: TcpProxy;
let app: SchedulingApp;
/** Further instances a test builds on the same default database; closed after the file. */
const others: SchedulingApp[] = [];
/** Every answer, checked for secrets after the file. */
const answers: string[] = [];

// A tenant (and a key) found is trusted for ten minutes here (5 s in the service): what follows a
// change at once can only be the registry's notification, however long a loaded machine takes.
const NOTIFIED_ONLY = { authCacheMs: 600_000 };

// A tenant database that is down answers 503 after DATABASE_WAIT_MS (15 s in the service).
const hostedConfig = (overrides: Partial<SchedulingConfig> = {}) =>
  testConfig({ HOSTED_MODE: "on", TENANT_SECRET, DATABASE_WAIT_MS: 1_000, ...overrides });

async function another(overrides: Partial<SchedulingConfig> = {}): Promise<SchedulingApp> {
  const instance = await buildApp({ config: hostedConfig(overrides), prisma: prisma.main, ...NOTIFIED_ONLY });
  others.push(instance);
  await instance.ready();
  return instance;
}

beforeAll(async () => {
  const names = ["main", ...TENANTS] as const;
  const created = await Promise.all(names.map(() => createTestDatabase()));
  names.forEach((name, i) => {
    databases[name] = created[i]!;
    prisma[name] = createPrisma(created[i]!.url, { poolMax: name === "main" ? 4 : 2 });
  });
  const server = new URL(databases.c!.url);
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  for (const name of TENANTS) {
    const direct = databases[name]!.url;
    const url = await withPassword(name === "c" ? proxy.via(direct) : direct, PASSWORD);
    tenants[name] = await registerTenant(prisma.main, TENANT_SECRET, url, `tenant-${name}`);
  }
  app = await buildApp({
    config: hostedConfig(),
    prisma: prisma.main,
    logger: { level: "info", stream },
    ...NOTIFIED_ONLY,
  });
  await app.ready();
  // The first user of each database: the same id everywhere, different people.
  for (const route of ROUTES) owners[route] = await newUser(prisma[route], { admin: true });
});

afterAll(async () => {
  for (const instance of [app, ...others]) await instance?.close();
  await proxy?.close();
  for (const client of Object.values(prisma)) await client.$disconnect();
  await Promise.all(Object.values(databases).map((database) => database.drop()));
});

afterAll(() => {
  // Nothing secret ever left the server: no stored secret, license key or database URL.
  expect(answers.length).toBeGreaterThan(0);
  for (const answer of answers) {
    expect(answer).not.toContain(SECRET);
    expect(answer).not.toContain(PASSWORD);
    expect(answer).not.toContain("postgresql://");
    for (const tenant of Object.values(tenants)) expect(answer).not.toContain(tenant.licenseKey);
  }
});

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
  text: string;
  headers: Record<string, unknown>;
}

/** A request through `route`: its database's key, plus the tenant's license key unless `main`. */
async function call(
  route: Route | TenantName,
  method: string,
  path: string,
  apiKey: string,
  body?: unknown,
  instance: SchedulingApp = app,
): Promise<Answer> {
  const licenseKey = route === "main" ? undefined : tenants[route].licenseKey;
  const response = await instance.inject({
    method: method as "GET",
    url: hostedUrl(path, apiKey, licenseKey),
    ...(body === undefined ? {} : { payload: body as object }),
  });
  answers.push(response.body);
  let parsed: Answer["body"] = {};
  try {
    parsed = response.json();
  } catch {
    // Checked through `text`.
  }
  return { status: response.statusCode, body: parsed, text: response.body, headers: response.headers };
}

const perRoute = async <T>(work: (route: Route) => Promise<T>): Promise<Record<Route, T>> => {
  const result = {} as Record<Route, T>;
  // One database after the other, in the same order: the same steps give the same ids.
  for (const route of ROUTES) result[route] = await work(route);
  return result;
};

describe("setup", () => {
  it("gives the first user of every database the same id, and each route its own user", async () => {
    expect(owners.a.user.id).toBe(owners.main.user.id);
    expect(owners.b.user.id).toBe(owners.main.user.id);
    for (const route of ROUTES) {
      const me = await call(route, "GET", "/api/v1/me", owners[route].apiKey);
      expect(me.status, me.text).toBe(200);
      expect((me.body.user as { email: string }).email).toBe(owners[route].user.email);
    }
  });
});

// Every resource the table offers a generic create for (users included).
describe.each(resources.filter((r) => r.operations.includes("create") && !r.custom.create))(
  "$path through each route",
  (resource) => {
    const { path, keys } = resource;
    const fixture = fixtures[path]!;
    const count = (route: Route) => resource.delegate(prisma[route]).count({ where: {} });
    const counts = () => perRoute(count);
    const item = (id: string) => `/api/v1/${path}/${encodeURIComponent(id)}`;

    it("is created, edited, deleted, read and listed in the route's own database only", async () => {
      // Create through each route: only that database gains a row.
      const rows = await perRoute(async (route) => {
        const body = await fixture.createBody!(prisma[route], owners[route].user);
        const before = await counts();
        const created = await call(route, "POST", `/api/v1/${path}`, owners[route].apiKey, body);
        expect(created.status, `${route}: ${created.text}`).toBe(201);
        expect(await counts()).toEqual({ ...before, [route]: before[route] + 1 });
        return created.body[keys.singular] as Record<string, unknown>;
      });
      const ids = { main: resource.idOf(rows.main), a: resource.idOf(rows.a), b: resource.idOf(rows.b) };
      const stored = (route: Route) => storedRow(prisma[route], resource, ids[route]);
      const before = await perRoute(stored);

      // Edit through a: only a's row changes.
      const edited = await call("a", "PATCH", item(ids.a), owners.a.apiKey, fixture.edit);
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body[keys.singular]).toMatchObject(fixture.edit!);
      expect(await stored("main")).toEqual(before.main);
      expect(await stored("b")).toEqual(before.b);
      expect(await stored("a")).not.toEqual(before.a);

      // Delete through b: only b's row goes.
      const deleted = await call("b", "DELETE", item(ids.b), owners.b.apiKey);
      expect(deleted.status, deleted.text).toBe(200);
      expect(await stored("b")).toBeNull();
      expect(await stored("main")).toEqual(before.main);
      expect(await stored("a")).not.toBeNull();

      // Reads and lists answer each database's own state: as created, as edited, gone.
      const expected = { main: rows.main, a: edited.body[keys.singular], b: undefined };
      for (const route of ROUTES) {
        const read = await call(route, "GET", item(ids[route]), owners[route].apiKey);
        const list = await call(route, "GET", `/api/v1/${path}?take=100`, owners[route].apiKey);
        expect(list.status, list.text).toBe(200);
        const listed = list.body[keys.plural] as Record<string, unknown>[];
        if (expected[route]) {
          expect(read.status, `${route}: ${read.text}`).toBe(200);
          expect(read.body[keys.singular]).toEqual(expected[route]);
          expect(listed).toContainEqual(expected[route]);
        } else {
          expect(read.status, `${route}: ${read.text}`).toBe(404);
          expect(listed.map((row) => resource.idOf(row))).not.toContain(ids[route]);
        }
        expect(listed.length).toBe(await count(route));
      }
    });
  },
);

describe("bookings, payments, /me and /slots through each route", () => {
  it("reads, lists and cancels bookings in the route's own database only", async () => {
    const bookings = await perRoute((route) => makeBooking(prisma[route], owners[route].user.id));
    expect(new Set(ROUTES.map((route) => bookings[route].id)).size).toBe(1);
    const id = bookings.main.id;
    for (const route of ROUTES) {
      const read = await call(route, "GET", `/api/v1/bookings/${id}`, owners[route].apiKey);
      expect(read.status, read.text).toBe(200);
      expect((read.body.booking as { uid: string }).uid).toBe(bookings[route].uid);
    }
    const cancelled = await call(
      "a",
      "DELETE",
      `/api/v1/bookings/${id}?cancellationReason=Moved`,
      owners.a.apiKey,
    );
    expect(cancelled.status, cancelled.text).toBe(200);
    const statuses = await perRoute(
      async (route) => (await prisma[route].booking.findUniqueOrThrow({ where: { id } })).status,
    );
    expect(statuses).toEqual({ main: "ACCEPTED", a: "CANCELLED", b: "ACCEPTED" });
    for (const route of ROUTES) {
      const list = await call(route, "GET", "/api/v1/bookings", owners[route].apiKey);
      expect(list.status, list.text).toBe(200);
      const uids = (list.body.bookings as { uid: string }[]).map((booking) => booking.uid);
      const own = await prisma[route].booking.findMany({ select: { uid: true }, orderBy: { id: "asc" } });
      expect(uids.sort()).toEqual(own.map((booking) => booking.uid).sort());
      for (const other of ROUTES.filter((r) => r !== route)) expect(uids).not.toContain(bookings[other].uid);
    }
  });

  it("reads payments from the route's own database", async () => {
    const payments = await perRoute((route) => makePayment(prisma[route], owners[route].user.id));
    for (const route of ROUTES) {
      const read = await call(route, "GET", `/api/v1/payments/${payments[route].id}`, owners[route].apiKey);
      expect(read.status, read.text).toBe(200);
      expect((read.body.payment as { uid: string }).uid).toBe(payments[route].uid);
    }
  });

  it("computes slots from the route's own event type", async () => {
    // Same id in every database, a different length in each.
    const lengths = { main: 15, a: 30, b: 60 };
    const eventTypes = await perRoute((route) =>
      makeHost(prisma[route], owners[route].user.id, { length: lengths[route] }),
    );
    expect(new Set(ROUTES.map((route) => eventTypes[route].id)).size).toBe(1);
    const monday = futureMonday().toISOString().slice(0, 10);
    const query = `eventTypeId=${eventTypes.main.id}&startTime=${monday}&endTime=${monday}T23:59:59Z`;
    for (const route of ROUTES) {
      const slots = await call(route, "GET", `/api/v1/slots?${query}`, owners[route].apiKey);
      expect(slots.status, slots.text).toBe(200);
      const day = (slots.body.slots as Record<string, { time: string }[]>)[monday] ?? [];
      // Monday 09:00-17:00 UTC, one slot per length.
      expect(day.length, route).toBe((8 * 60) / lengths[route]);
    }
  });
});

describe("idempotency keys through each route", () => {
  it("are kept in the route's own database: the same user id and key book once in each", async () => {
    const eventTypes = await perRoute((route) => makeHost(prisma[route], owners[route].user.id));
    const start = new Date(futureMonday(5).getTime() + 60 * 60_000).toISOString();
    const body = {
      eventTypeId: eventTypes.main.id,
      start,
      timeZone: "UTC",
      language: "en",
      responses: { name: "Rita Retry", email: "rita@example.com" },
    };
    const post = (route: Route) =>
      app.inject({
        method: "POST",
        url: hostedUrl(
          "/api/v1/bookings",
          owners[route].apiKey,
          route === "main" ? undefined : tenants[route].licenseKey,
        ),
        headers: { "idempotency-key": "same-key-everywhere" },
        payload: body,
      });
    for (const route of ROUTES) {
      const first = await post(route);
      answers.push(first.body);
      expect(first.statusCode, `${route}: ${first.body}`).toBe(201);
      const again = await post(route);
      answers.push(again.body);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(again.body).toBe(first.body);
    }
    const stored = await perRoute(async (route) => ({
      keys: await prisma[route].idempotencyKey.count({ where: { key: "same-key-everywhere" } }),
      bookings: await prisma[route].booking.count({ where: { eventTypeId: eventTypes[route].id } }),
    }));
    expect(stored).toEqual({
      main: { keys: 1, bookings: 1 },
      a: { keys: 1, bookings: 1 },
      b: { keys: 1, bookings: 1 },
    });
  });
});

describe("keys belong to one database", () => {
  it("refuses an apiKey with another database's license key, or with none", async () => {
    const cases: [Route | TenantName, string][] = [
      ["b", owners.a.apiKey],
      ["main", owners.a.apiKey],
      ["a", owners.main.apiKey],
      ["a", owners.b.apiKey],
    ];
    for (const [route, apiKey] of cases) {
      const answer = await call(route, "GET", "/api/v1/me", apiKey);
      expect(answer.status, `${route}`).toBe(401);
      expect(answer.body).toEqual({ message: "Your API key is not valid." });
    }
  });

  it("refuses an unknown, empty or repeated license key before looking at the apiKey", async () => {
    const a = tenants.a.licenseKey;
    for (const query of ["key=lk_unknown", "key=", `key=${a}&key=${a}`, `key=${a}x`]) {
      const answer = await app.inject({ url: `/api/v1/me?apiKey=${owners.a.apiKey}&${query}` });
      answers.push(answer.body);
      expect(answer.statusCode, query).toBe(401);
      expect(answer.json()).toEqual({ message: INVALID_LICENSE_KEY });
    }
    // No apiKey with a valid license key: the usual message, from the tenant's side.
    const noApiKey = await app.inject({ url: `/api/v1/me?key=${a}` });
    expect(noApiKey.statusCode).toBe(401);
    expect(noApiKey.json()).toEqual({ message: "No apiKey provided" });
  });
});

describe("tenants coming and going", () => {
  it("refuses a disabled tenant on every instance within moments (no cache bound wait), as an unknown key", async () => {
    const owner = await newUser(prisma.d);
    const second = await another();
    for (const instance of [app, second]) {
      expect((await call("d", "GET", "/api/v1/me", owner.apiKey, undefined, instance)).status).toBe(200);
    }
    await prisma.main.tenant.update({ where: { id: tenants.d.id }, data: { disabledAt: new Date() } });
    const unknown = await app.inject({ url: hostedUrl("/api/v1/me", owner.apiKey, "lk_unknown") });
    // Long before the ten minutes' trust ends: both instances heard of it from the table's notification.
    await vi.waitFor(async () => {
      for (const instance of [app, second]) {
        const refused = await call("d", "GET", "/api/v1/me", owner.apiKey, undefined, instance);
        expect(refused.status).toBe(401);
        expect(refused.text).toBe(unknown.body);
      }
    }, SOON);
    await prisma.main.tenant.update({ where: { id: tenants.d.id }, data: { disabledAt: null } });
    await vi.waitFor(
      async () =>
        expect((await call("d", "GET", "/api/v1/me", owner.apiKey, undefined, second)).status).toBe(200),
      SOON,
    );
  });

  it("waits for a tenant's database that accepts no connection for less than DATABASE_WAIT_MS (its failover), then answers", async () => {
    const owner = await newUser(prisma.c);
    const waiting = await another({ DATABASE_WAIT_MS: 20_000 });
    // Its client to the tenant's database is open, as on an instance serving it.
    expect((await call("c", "GET", "/api/v1/schedules", owner.apiKey, undefined, waiting)).status).toBe(200);
    await proxy.down();
    let upAt = 0;
    const answer = call("c", "GET", "/api/v1/schedules", owner.apiKey, undefined, waiting).then((got) => ({
      ...got,
      at: Date.now(),
    }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await proxy.up();
    upAt = Date.now();
    const got = await answer;
    expect(got.status, got.text).toBe(200);
    // It was answered once the database was back, not before (no error taken for an answer).
    expect(got.at).toBeGreaterThanOrEqual(upAt);
  });

  it("answers 503 for a tenant whose database is down, while the others keep working", async () => {
    const owner = await newUser(prisma.c);
    expect((await call("c", "GET", "/api/v1/me", owner.apiKey)).status).toBe(200);
    const fresh = await another();
    await proxy.down();
    try {
      // With a client already open (key cached or not), and on an instance opening it first.
      for (const [instance, path] of [
        [app, "/api/v1/me"],
        [app, "/api/v1/schedules"],
        [fresh, "/api/v1/me"],
      ] as const) {
        const down = await call("c", "GET", path, owner.apiKey, undefined, instance);
        expect(down.status, down.text).toBe(503);
        expect(down.body.message).toMatch(/unavailable/);
      }
      for (const route of ROUTES) {
        const me = await call(route, "GET", "/api/v1/me", owners[route].apiKey);
        expect(me.status, `${route}: ${me.text}`).toBe(200);
      }
    } finally {
      await proxy.up();
    }
    await vi.waitFor(
      async () => {
        for (const instance of [app, fresh]) {
          expect((await call("c", "GET", "/api/v1/me", owner.apiKey, undefined, instance)).status).toBe(200);
        }
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe("rate limits and logs", () => {
  it("counts requests per tenant and user: the same user id in another database has its own budget", async () => {
    const limited = await another({ RATE_LIMIT_MAX: 2 });
    const me = (route: Route) => call(route, "GET", "/api/v1/me", owners[route].apiKey, undefined, limited);
    expect((await me("a")).status).toBe(200);
    expect((await me("a")).status).toBe(200);
    const spent = await me("a");
    expect(spent.status).toBe(429);
    for (const route of ["b", "main"] as const) {
      const fresh = await me(route);
      expect(fresh.status, route).toBe(200);
      expect(fresh.headers["x-ratelimit-remaining"], route).toBe("1");
    }
  });

  it("names the tenant on its request lines, never its license key or database URL", () => {
    const parsed = lines.map((line) => JSON.parse(line) as { tenantId?: string; res?: unknown; msg: string });
    const completed = parsed.filter((line) => line.msg === "request completed" && line.tenantId);
    for (const name of ["a", "b", "c"] as const) {
      expect(
        completed.some((line) => line.tenantId === tenants[name].id),
        name,
      ).toBe(true);
    }
    // The 503s of the outage were logged, with the tenant.
    expect(parsed.some((line) => line.msg === "database unavailable" && line.tenantId === tenants.c.id)).toBe(
      true,
    );
    const logged = lines.join("\n");
    expect(logged).toContain("key=[redacted]");
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain("postgresql://");
    for (const tenant of Object.values(tenants)) expect(logged).not.toContain(tenant.licenseKey);
  });
});

describe("modes", () => {
  it("off (the default): a key parameter is refused with 400 and nothing else changes", async () => {
    const off = await buildApp({ config: testConfig({}), prisma: prisma.main });
    others.push(off);
    expect(off.hosting).toBeNull();
    const refused = await off.inject({
      url: hostedUrl("/api/v1/me", owners.main.apiKey, tenants.a.licenseKey),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: expect.stringMatching(/key parameter.*hosted mode.*off/) });
    expect((await off.inject({ url: hostedUrl("/api/v1/me", owners.main.apiKey) })).statusCode).toBe(200);
    expect((await off.inject({ url: "/health?key=x" })).statusCode).toBe(200);
  });

  it("required: every authenticated request needs a license key", async () => {
    const required = await another({ HOSTED_MODE: "required" });
    const without = await required.inject({ url: hostedUrl("/api/v1/me", owners.main.apiKey) });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({ message: MISSING_LICENSE_KEY });
    expect((await call("a", "GET", "/api/v1/me", owners.a.apiKey, undefined, required)).status).toBe(200);
    expect((await required.inject({ url: "/health" })).statusCode).toBe(200);
  });
});
