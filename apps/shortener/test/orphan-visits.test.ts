// Orphan visits (issue 39 item 4; docs/adr/0227, 0228): GET requests for an unknown name, a
// domain's root and an unknown Host, counted per domain and hour with the visits' enrichment,
// never a row per request; a scanner's burst of distinct names bounded per hour, exact across
// two instances that stop; who reads them (GET /api/orphan-visits) and the operator's CLI.
// The tests of this file run in order on one database.
import { createPrisma, type PrismaClient } from "@app/db";
import { ORPHAN_VALUES_PER_HOUR } from "@app/schemas/shortener";
import { runCliInProcess } from "@app/testing/cli";
import { startTcpProxy } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { shortenerCli } from "../src/cli.ts";
import type { ShortenerConfig } from "../src/config.ts";
import { DEFAULT_DOMAIN_ID } from "../src/default-domain.ts";
import { OTHER_VALUE, UNKNOWN_HOST_ID } from "../src/visits/orphan-visits.ts";
import { anonymizeIp, countryOf } from "../src/visits/visit-enrichment.ts";
import { newUser, postShort, setupShortener, TEST_PASSWORDS } from "./helpers.ts";

const ctx = setupShortener();

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/** An address with a registry country (what it is, the country database says). */
const PUBLIC_IP = "81.2.69.160";

async function cli(...args: string[]) {
  const out = await runCliInProcess(shortenerCli, args, {
    DATABASE_URL: ctx.db.url,
    DATABASE_DIRECT_URL: ctx.db.directUrl,
    SHORT_BASE_URL: ctx.config.SHORT_BASE_URL,
  });
  return { code: out.code, stdout: out.stdout.trim(), stderr: out.stderr.trim() };
}

/**
 * Registers a domain with the CLI, and waits until this instance's redirect knows it: the
 * change reaches it by notification, a moment after the CLI's commit.
 */
async function addDomain(host: string, ...options: string[]) {
  expect((await cli("domain:add", "--domain", host, ...options)).code).toBe(0);
  await vi.waitFor(async () => expect((await ctx.app.domains.forHost(host))?.host).toBe(host));
}

/** A GET as a browser sends it (no user agent at all is a bot's, as for a visit). */
const get = (app: ShortenerApp, url: string, host: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: "GET",
    url,
    headers: { host, "user-agent": CHROME, ...headers },
    remoteAddress: PUBLIC_IP,
  });

/** Another instance on the same database, as another process of a deployment would be. */
async function instance(overrides: Partial<ShortenerConfig> = {}) {
  const prisma = createPrisma(ctx.db.url, { directUrl: ctx.db.directUrl, poolMax: 3 });
  const app = await buildApp({ config: { ...ctx.config, ...overrides }, prisma, passwords: TEST_PASSWORDS });
  await app.ready();
  return { app, prisma };
}
const stopped: { app: ShortenerApp; prisma: PrismaClient }[] = [];
async function stop(...instances: { app: ShortenerApp; prisma: PrismaClient }[]) {
  await Promise.all(instances.map((i) => i.app.close()));
  await Promise.all(instances.map((i) => i.prisma.$disconnect()));
}

/** The stored totals of a domain, per kind. */
async function kinds(domainId: string) {
  const rows = await ctx.prisma.orphanVisitHour.groupBy({
    by: ["kind"],
    where: { domainId },
    _sum: { visits: true, humans: true },
  });
  return Object.fromEntries(
    rows.map((r) => [r.kind, { visits: r._sum.visits ?? 0, humans: r._sum.humans ?? 0 }]),
  );
}

/** A dimension's stored values of a domain, summed over the hours. */
async function values(domainId: string, dimension: string) {
  const rows = await ctx.prisma.orphanVisitHourValue.groupBy({
    by: ["value"],
    where: { domainId, dimension },
    _sum: { visits: true },
  });
  return Object.fromEntries(rows.map((r) => [r.value, r._sum.visits ?? 0]));
}

const storedRows = async () =>
  (await ctx.prisma.orphanVisitHour.count()) + (await ctx.prisma.orphanVisitHourValue.count());

let owner: Awaited<ReturnType<typeof newUser>>;
let other: Awaited<ReturnType<typeof newUser>>;
let openId: string;
let ownedId: string;

beforeAll(async () => {
  owner = await newUser(ctx.prisma);
  other = await newUser(ctx.prisma);
  // b.example open to every user, c.example assigned to the owner; with domains registered, a
  // Host that names none is unknown (docs/adr/0221).
  await addDomain("b.example");
  await addDomain("c.example", "--user", owner.email, "--not-found-url", "https://c.example/help");
  openId = (await ctx.prisma.shortDomain.findUniqueOrThrow({ where: { host: "b.example" } })).id;
  ownedId = (await ctx.prisma.shortDomain.findUniqueOrThrow({ where: { host: "c.example" } })).id;
  expect(
    (
      await postShort(ctx.app, owner, {
        url: "https://example.com/poster",
        name: "summer",
        domain: "c.example",
      })
    ).statusCode,
  ).toBe(201);
});

afterAll(async () => {
  await stop(...stopped.splice(0));
});

describe("what is counted", () => {
  it("counts an unknown name, a root and an unknown host, with a redirect to the not-found URL too, and no short's visit", async () => {
    expect((await get(ctx.app, "/sumer", "c.example")).headers.location).toBe("https://c.example/help");
    expect((await get(ctx.app, "/sumer", "c.example")).statusCode).toBe(302);
    expect((await get(ctx.app, "/", "c.example")).statusCode).toBe(404);
    expect((await get(ctx.app, "/summer", "c.example")).statusCode).toBe(302);
    expect((await get(ctx.app, "/anything", "nowhere.example:8080")).statusCode).toBe(404);
    expect((await get(ctx.app, "/", "NoWhere.Example")).statusCode).toBe(404);
    // HEAD and POST store no visit of a short either: not counted.
    expect(
      (await ctx.app.inject({ method: "HEAD", url: "/sumer", headers: { host: "c.example" } })).statusCode,
    ).toBe(302);
    expect(
      (await ctx.app.inject({ method: "POST", url: "/sumer", headers: { host: "c.example" }, payload: {} }))
        .statusCode,
    ).toBe(302);
    // A path no short could have (not a name) is not a link to one: not counted.
    expect((await get(ctx.app, "/wp-login.php", "c.example")).statusCode).toBe(404);
    await ctx.app.orphanVisits.flush();

    expect(await kinds(ownedId)).toEqual({ name: { visits: 2, humans: 2 }, root: { visits: 1, humans: 1 } });
    expect(await values(ownedId, "name")).toEqual({ sumer: 2 });
    expect(await kinds(UNKNOWN_HOST_ID)).toEqual({ host: { visits: 2, humans: 2 } });
    // Lower case, without the port.
    expect(await values(UNKNOWN_HOST_ID, "host")).toEqual({ "nowhere.example": 2 });
    // The short's own visit is a visit, not an orphan one.
    expect(await ctx.prisma.shortLog.count()).toBe(1);
    const metric = await ctx.app.metrics.getSingleMetric("orphan_visits_total")!.get();
    expect(Object.fromEntries(metric.values.map((v) => [v.labels.kind, v.value]))).toEqual({
      name: 2,
      root: 1,
      host: 2,
    });
  });

  it("enriches as a visit is: bot or human, browser, device, country, referrer host", async () => {
    const before = await kinds(openId);
    expect(before).toEqual({});
    await get(ctx.app, "/gone", "b.example", { referer: "https://poster.example/qr" });
    await get(ctx.app, "/gone", "b.example", { "user-agent": GOOGLEBOT });
    await ctx.app.orphanVisits.flush();
    expect(await kinds(openId)).toEqual({ name: { visits: 2, humans: 1 } });
    expect(await values(openId, "browser")).toEqual({ Chrome: 1, "": 1 });
    expect(await values(openId, "device")).toEqual({ desktop: 1, bot: 1 });
    expect(await values(openId, "referrer")).toEqual({ "poster.example": 1, "": 1 });
    expect(countryOf(PUBLIC_IP)).not.toBe("");
    expect(await values(openId, "country")).toEqual({ [countryOf(PUBLIC_IP)]: 2 });
  });

  it("stores no address, whatever VISIT_IP says, and derives the country from the full one", async () => {
    for (const mode of ["full", "anonymized", "none"] as const) {
      const one = await instance({ VISIT_IP: mode });
      expect((await get(one.app, `/ip-${mode}`, "sho.rt")).statusCode).toBe(404);
      await stop(one);
    }
    expect(await values(DEFAULT_DOMAIN_ID, "country")).toEqual({ [countryOf(PUBLIC_IP)]: 3 });
    const [hits] = await ctx.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM "shortener"."orphan_visit_hour_values"
      WHERE "value" LIKE ${`%${PUBLIC_IP}%`} OR "value" LIKE ${`%${anonymizeIp(PUBLIC_IP)}%`}`;
    expect(Number(hits!.n)).toBe(0);
  });
});

describe("a scanner's burst", () => {
  it("is counted exactly across two instances that stop, with at most 100 names an hour and the rest as (other)", async () => {
    const a = await instance();
    const b = await instance();
    const burst = 4000;
    const before = (await kinds(openId)).name?.visits ?? 0;
    const rowsBefore = await storedRows();
    // Distinct names, in parallel waves on both instances; no flush but the one each stop makes.
    for (let wave = 0; wave < burst; wave += 200) {
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          get(i % 2 === 0 ? a.app : b.app, `/scan-${wave + i}`, "b.example").then((r) =>
            expect(r.statusCode).toBe(404),
          ),
        ),
      );
    }
    // Whatever a timer has not stored yet, each stop stores.
    await stop(a, b);
    expect(a.app.orphanVisits.stored + b.app.orphanVisits.stored).toBe(burst);
    expect((await kinds(openId)).name!.visits - before).toBe(burst);
    const names = await values(openId, "name");
    expect(Object.values(names).reduce((sum, n) => sum + n, 0) - 2).toBe(burst);
    expect(names[OTHER_VALUE]).toBeGreaterThan(0);
    // The bound holds per hour (a burst across an hour's turn may keep a hundred in each).
    const perHour = await ctx.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM "shortener"."orphan_visit_hour_values"
      WHERE "domain_id" = ${openId}::uuid AND "dimension" = 'name' AND "value" <> ${OTHER_VALUE} GROUP BY "hour"`;
    for (const { n } of perHour) expect(Number(n)).toBeLessThanOrEqual(ORPHAN_VALUES_PER_HOUR);
    // Thousands of requests, a few hundred rows at most: no row per request.
    expect((await storedRows()) - rowsBefore).toBeLessThan(2 * (ORPHAN_VALUES_PER_HOUR + 10));
  });
});

describe("GET /api/orphan-visits", () => {
  const read = (user: { headers: Record<string, string> }, query = "") =>
    ctx.app.inject({ method: "GET", url: `/api/orphan-visits${query}`, headers: user.headers });

  it("answers an assigned domain's to its user, with the names asked for", async () => {
    const answer = await read(owner, "?domain=C.Example&interval=hour");
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      domain: "c.example",
      interval: "hour",
      totals: { visits: 3, humans: 3, bots: 0 },
      kinds: { unknownName: 2, root: 1 },
      names: [{ value: "sumer", visits: 2, humans: 2 }],
    });
    expect(body.timeseries).toHaveLength(24 * 30);
    expect(body.timeseries.reduce((sum: number, b: { visits: number }) => sum + b.visits, 0)).toBe(3);
    expect(body).not.toHaveProperty("hosts");
  });

  it("answers an open domain's and the default domain's to every user", async () => {
    for (const user of [owner, other]) {
      const open = await read(user, "?domain=b.example");
      expect(open.statusCode).toBe(200);
      expect(open.json().kinds.unknownName).toBe(4002);
      expect(open.json().names).toHaveLength(ORPHAN_VALUES_PER_HOUR);
      const fallback = await read(user);
      expect(fallback.statusCode).toBe(200);
      expect(fallback.json()).toMatchObject({ domain: "sho.rt", kinds: { unknownName: 3, root: 0 } });
    }
  });

  it("answers 404 for another user's domain and one that does not exist, 400 for bad input, 401 without a token", async () => {
    expect((await read(other, "?domain=c.example")).statusCode).toBe(404);
    expect((await read(other, "?domain=nowhere.example")).statusCode).toBe(404);
    const reversed = await read(owner, "?domain=c.example&from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z");
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toBe("from must be before to");
    expect((await read(owner, "?domain=not a host")).statusCode).toBe(400);
    expect((await read(owner, "?domain=c.example&extra=1")).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: "GET", url: "/api/orphan-visits" })).statusCode).toBe(401);
  });

  it("reads nothing outside the range", async () => {
    const past = await read(owner, "?domain=c.example&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z");
    expect(past.json()).toMatchObject({ totals: { visits: 0 }, names: [], timeseries: [{ visits: 0 }] });
  });
});

describe("the operator's CLI", () => {
  it("lists every domain and the unknown hosts, as a table or JSON", async () => {
    const json = await cli("orphan-visits", "--json");
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout);
    expect(rows.map((r: { domain: string | null }) => r.domain)).toEqual([
      "sho.rt",
      "b.example",
      "c.example",
      null,
    ]);
    expect(rows[2]).toMatchObject({
      kinds: { unknownName: 2, root: 1, unknownHost: 0 },
      names: [{ value: "sumer" }],
    });
    expect(rows[3]).toMatchObject({
      kinds: { unknownHost: 2 },
      hosts: [{ value: "nowhere.example", visits: 2 }],
    });
    const text = await cli("orphan-visits");
    expect(text.stdout).toContain("MOST ASKED FOR");
    expect(text.stdout).toMatch(/c\.example\s+3\s+3\s+2\s+1\s+0\s+sumer \(2\)/);
    expect(text.stdout).toMatch(/\(unknown hosts\)\s+2\s+2\s+0\s+0\s+2\s+nowhere\.example \(2\)/);
    const one = JSON.parse((await cli("orphan-visits", "--domain", "c.example", "--json")).stdout);
    expect(one.map((r: { domain: string }) => r.domain)).toEqual(["c.example"]);
  });

  it("refuses bad flags (exit 2) and an unknown domain (exit 1), changing nothing", async () => {
    const rows = await storedRows();
    expect(await cli("orphan-visits", "--domain", "not a host")).toMatchObject({ code: 2 });
    expect(await cli("orphan-visits", "--from", "yesterday")).toMatchObject({ code: 2 });
    expect(
      await cli("orphan-visits", "--from", "2026-02-01T00:00:00Z", "--to", "2026-01-01T00:00:00Z"),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining("from must be before to") });
    expect(await cli("orphan-visits", "--domain", "nowhere.example")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("no domain nowhere.example"),
    });
    expect(await storedRows()).toBe(rows);
  });

  it("drops a domain's orphan visits with the domain", async () => {
    await addDomain("d.example");
    await get(ctx.app, "/", "d.example");
    await ctx.app.orphanVisits.flush();
    const id = (await ctx.prisma.shortDomain.findUniqueOrThrow({ where: { host: "d.example" } })).id;
    expect(await kinds(id)).toEqual({ root: { visits: 1, humans: 1 } });
    expect((await cli("domain:remove", "--domain", "d.example")).code).toBe(0);
    expect(await kinds(id)).toEqual({});
    expect(await ctx.prisma.orphanVisitHourValue.count({ where: { domainId: id } })).toBe(0);
  });
});

describe("a flush the database refuses", () => {
  it("gives its counts back to the next one, which stores them all", async () => {
    const before = (await kinds(openId)).root?.visits ?? 0;
    // Every new or updated row refused, as a database that fails the statement would.
    await ctx.prisma.$executeRawUnsafe(
      `ALTER TABLE "shortener"."orphan_visit_hours" ADD CONSTRAINT "refuse_all" CHECK ("visits" < 0) NOT VALID`,
    );
    try {
      await get(ctx.app, "/", "b.example");
      await get(ctx.app, "/", "b.example");
      await expect(ctx.app.orphanVisits.flush()).rejects.toThrow(/refuse_all/);
      // The timer's own flush may have taken them meanwhile (a loaded machine fires it late): it
      // is refused too, and gives them back.
      await vi.waitFor(() => expect(ctx.app.orphanVisits.pending).toBe(2), SOON);
      await get(ctx.app, "/", "b.example");
    } finally {
      await ctx.prisma.$executeRawUnsafe(
        `ALTER TABLE "shortener"."orphan_visit_hours" DROP CONSTRAINT "refuse_all"`,
      );
    }
    await ctx.app.orphanVisits.flush();
    expect(ctx.app.orphanVisits.pending).toBe(0);
    expect((await kinds(openId)).root!.visits - before).toBe(3);
  });
});

// A leader that dies after a flush's commit and before its answer (issue 49): the flush is sent
// again as it was, with its id, finds the id stored and adds nothing twice (docs/adr/0288).
describe("a flush whose commit's answer is lost", () => {
  it("is sent again with its id, and its counts are added once", async () => {
    const target = new URL(ctx.db.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const prisma = createPrisma(proxy.via(ctx.db.url), {
      poolMax: 2,
      connectTimeoutMs: 1_000,
      // Through the proxy to the test PgBouncer when there is one (.ci/run's PgBouncer step).
      pooled: ctx.db.url !== ctx.db.directUrl,
      directUrl: ctx.db.directUrl,
    });
    const app = await buildApp({ config: ctx.config, prisma, passwords: TEST_PASSWORDS });
    try {
      await app.ready();
      await vi.waitFor(async () => expect((await app.domains.forHost("b.example"))?.host).toBe("b.example"));
      await app.orphanVisits.flush();
      const before = (await kinds(openId)).root?.visits ?? 0;
      const cut = proxy.cutAfterAnswer(
        // The flush's statement, by its name (prepared) or its text (behind PgBouncer).
        ["add_orphan_visits", `INSERT INTO "shortener"."orphan_visit_hours"`],
        "COMMIT",
      );
      for (let i = 0; i < 3; i++) await get(app, "/", "b.example");
      // This flush or the timer's meets the cut: its commit is made, its answer lost.
      await app.orphanVisits.flush().catch(() => undefined);
      await cut;
      expect((await kinds(openId)).root!.visits - before).toBe(3);
      await get(app, "/", "b.example");
      await app.orphanVisits.flush();
      expect(app.orphanVisits.pending).toBe(0);
      // Sent again, the flush found its id: 3 once, and the visit after it.
      expect((await kinds(openId)).root!.visits - before).toBe(4);
      // The ids are kept an hour: the maintenance two hours on leaves none.
      expect(await ctx.prisma.orphanVisitBatch.count()).toBeGreaterThan(0);
      await ctx.app.visitMaintenance.maintainPartitions(new Date(Date.now() + 2 * 3_600_000));
      expect(await ctx.prisma.orphanVisitBatch.count()).toBe(0);
    } finally {
      await app.close();
      await prisma.$disconnect();
      await proxy.close();
    }
  });
});
