// Domains (issue 39 item 1; docs/adr/0219-0221): registered by the operator's CLI, open to every
// user or assigned to some, a short's name unique per domain, the redirect by the request's Host,
// each domain's root and unknown-name redirects, and two instances following a short that moves.
// The tests of this file run in order on one database: the first runs before any domain exists.
import { createPrisma, type PrismaClient } from "@app/db";
import { StatsQuery } from "@app/schemas/shortener";
import { runCliInProcess } from "@app/testing/cli";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { shortenerCli } from "../src/cli.ts";
import { StatsService } from "../src/stats/stats.service.ts";
import { newUser, postShort, setupShortener, TEST_PASSWORDS } from "./helpers.ts";

// The proxy is the test itself (inject's address): X-Forwarded-Host is honoured.
const ctx = setupShortener({ TRUST_PROXY: ["127.0.0.1"] });

async function cli(...args: string[]) {
  const out = await runCliInProcess(shortenerCli, args, {
    DATABASE_URL: ctx.db.url,
    DATABASE_DIRECT_URL: ctx.db.directUrl,
    SHORT_BASE_URL: ctx.config.SHORT_BASE_URL,
  });
  return { code: out.code, stdout: out.stdout.trim(), stderr: out.stderr.trim() };
}

/** A GET of `path` as a request to `host` reaches the app (no Host: inject's "localhost:80"). */
const get = (app: ShortenerApp, path: string, host?: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url: path, headers: { ...(host === undefined ? {} : { host }), ...headers } });

const countShorts = () => ctx.prisma.short.count();

let owner: Awaited<ReturnType<typeof newUser>>;
let other: Awaited<ReturnType<typeof newUser>>;
let second: { app: ShortenerApp; prisma: PrismaClient };

beforeAll(async () => {
  owner = await newUser(ctx.prisma);
  other = await newUser(ctx.prisma);
  // A second instance on the same database, as another process of a deployment would be.
  const prisma = createPrisma(ctx.db.url, { directUrl: ctx.db.directUrl, poolMax: 3 });
  const app = await buildApp({ config: ctx.config, prisma, passwords: TEST_PASSWORDS });
  await app.ready();
  second = { app, prisma };
});

afterAll(async () => {
  await second?.app.close();
  await second?.prisma.$disconnect();
});

describe("one domain (none registered)", () => {
  it("answers every Host with the default domain and shows no trace of domains", async () => {
    const created = await postShort(ctx.app, owner, { url: "https://example.com/solo", name: "solo" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).not.toHaveProperty("domain");
    expect(created.json().shorturl).toBe("https://sho.rt/solo");
    for (const host of [undefined, "sho.rt", "127.0.0.1:3000", "anything.example"]) {
      expect((await get(ctx.app, "/solo", host)).statusCode).toBe(302);
    }
    const domains = await ctx.app.inject({ url: "/api/domains", headers: owner.headers });
    expect(domains.json()).toEqual([{ host: "sho.rt", isDefault: true }]);
    // No root URL: 404, as before domains.
    expect((await get(ctx.app, "/")).statusCode).toBe(404);
  });
});

describe("domain commands", () => {
  it("register domains open to every user or assigned to one, and list them", async () => {
    expect(await cli("domain:add", "--domain", "B.Example")).toMatchObject({
      code: 0,
      stdout: "added domain b.example: open to every user",
    });
    const added = await cli("domain:add", "--domain", "c.example", "--user", owner.email, "--json");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ host: "c.example", users: [owner.email], shorts: 0 });
    const listed = await cli("domain:list", "--json");
    expect(
      JSON.parse(listed.stdout).map((d: { host: string; isDefault: boolean }) => [d.host, d.isDefault]),
    ).toEqual([
      ["sho.rt", true],
      ["b.example", false],
      ["c.example", false],
    ]);
    const text = await cli("domain:list");
    expect(text.stdout).toMatch(/sho\.rt \(default\)/);
    expect(text.stdout).toMatch(/c\.example\s+\S*user/);
  });

  it("refuse what cannot be done with one line and exit 1, a malformed flag with exit 2", async () => {
    expect(await cli("domain:add", "--domain", "b.example")).toMatchObject({
      code: 1,
      stderr: "domain b.example is already registered",
    });
    expect(await cli("domain:add", "--domain", "sho.rt")).toMatchObject({
      code: 1,
      stderr: "sho.rt is the default domain (SHORT_BASE_URL's host)",
    });
    expect(await cli("domain:add", "--domain", "d.example", "--user", "nobody@example.com")).toMatchObject({
      code: 1,
      stderr: "no user nobody@example.com",
    });
    expect((await cli("domain:add", "--domain", "d.example:8080")).code).toBe(2);
    expect((await cli("domain:add", "--domain", "d.example", "--root-url", "ftp://x")).code).toBe(2);
    expect((await cli("domain:set", "--domain", "b.example")).code).toBe(2);
    expect(await cli("domain:remove", "--domain", "nowhere.example")).toMatchObject({
      code: 1,
      stderr: "no domain nowhere.example (domain:list shows them)",
    });
    // Nothing of it was registered.
    expect(JSON.parse((await cli("domain:list", "--json")).stdout)).toHaveLength(3);
  });

  it("take the last user off a domain only with --open, which opens it to every user", async () => {
    await cli("domain:add", "--domain", "e.example", "--user", owner.email);
    const refused = await cli("domain:unassign", "--domain", "e.example", "--user", owner.email);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/last user of e\.example.*--open/);
    expect(await cli("domain:assign", "--domain", "e.example", "--user", other.email)).toMatchObject({
      code: 0,
    });
    expect(await cli("domain:unassign", "--domain", "e.example", "--user", owner.email)).toMatchObject({
      code: 0,
      stdout: `${owner.email} taken off e.example`,
    });
    expect(
      await cli("domain:unassign", "--domain", "e.example", "--user", other.email, "--open"),
    ).toMatchObject({
      code: 0,
      stdout: `${other.email} taken off e.example; e.example is now open to every user`,
    });
    expect(await cli("domain:remove", "--domain", "e.example")).toMatchObject({ code: 0 });
  });
});

describe("GET /api/domains", () => {
  it("lists the default domain, then the open ones and those assigned to the caller", async () => {
    const mine = await ctx.app.inject({ url: "/api/domains", headers: owner.headers });
    expect(mine.json()).toEqual([
      { host: "sho.rt", isDefault: true },
      { host: "b.example", isDefault: false },
      { host: "c.example", isDefault: false },
    ]);
    const theirs = await ctx.app.inject({ url: "/api/domains", headers: other.headers });
    expect(theirs.json()).toEqual([
      { host: "sho.rt", isDefault: true },
      { host: "b.example", isDefault: false },
    ]);
    expect((await ctx.app.inject({ url: "/api/domains" })).statusCode).toBe(401);
  });
});

describe("shorts on domains", () => {
  it("creates a short on a domain, with its shorturl, and a name per domain", async () => {
    const onB = await postShort(ctx.app, owner, {
      url: "https://b.example.org/x",
      name: "x",
      domain: "B.EXAMPLE",
    });
    expect(onB.statusCode).toBe(201);
    expect(onB.json()).toMatchObject({ name: "x", domain: "b.example", shorturl: "https://b.example/x" });
    const onDefault = await postShort(ctx.app, other, { url: "https://example.com/x", name: "x" });
    expect(onDefault.statusCode).toBe(201);
    expect(onDefault.json()).not.toHaveProperty("domain");
    const got = await ctx.app.inject({ url: `/api/shorts/${onB.json().id}`, headers: owner.headers });
    expect(got.json()).toEqual(onB.json());
    const taken = await postShort(ctx.app, other, {
      url: "https://example.com/y",
      name: "x",
      domain: "b.example",
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('name "x" is already taken on b.example');
  });

  it("refuses a rename to a name taken on the short's own domain, naming the domain", async () => {
    const other = await postShort(ctx.app, owner, {
      url: "https://example.com/o",
      name: "other-b",
      domain: "b.example",
    });
    const renamed = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${other.json().id}`,
      headers: owner.headers,
      payload: { name: "x" },
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error).toBe('name "x" is already taken on b.example');
    await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${other.json().id}`, headers: owner.headers });
  });

  it("gives a name on one domain to exactly one of two concurrent creates; on two domains to both", async () => {
    const same = await Promise.all(
      [0, 1].map(() =>
        postShort(ctx.app, owner, { url: "https://example.com/r", name: "race", domain: "c.example" }),
      ),
    );
    expect(same.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    const apart = await Promise.all(
      ["b.example", "sho.rt"].map((domain) =>
        postShort(ctx.app, owner, { url: "https://example.com/t", name: "twin", domain }),
      ),
    );
    expect(apart.map((res) => res.statusCode)).toEqual([201, 201]);
    expect(apart.map((res) => res.json().shorturl)).toEqual([
      "https://b.example/twin",
      "https://sho.rt/twin",
    ]);
  });

  it("refuses a domain the caller may not use, or that does not exist, with 400 and creates nothing", async () => {
    const before = await countShorts();
    for (const domain of ["c.example", "unknown.example"]) {
      const res = await postShort(ctx.app, other, { url: "https://example.com/no", name: "no", domain });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status: "Bad Request",
        error: `domain "${domain}" is not one you may use`,
      });
    }
    const malformed = await postShort(ctx.app, other, {
      url: "https://example.com/no",
      domain: "b.example:80",
    });
    expect(malformed.statusCode).toBe(400);
    expect(await countShorts()).toBe(before);
  });

  it("creates bulk items per domain, refusing only the items on a domain the caller may not use", async () => {
    const bulk = () =>
      ctx.app.inject({
        method: "POST",
        url: "/api/shorts/bulk",
        headers: { ...other.headers, "idempotency-key": "bulk-domains" },
        payload: {
          shorts: [
            { url: "https://example.com/1", name: "pair", domain: "b.example" },
            { url: "https://example.com/2", name: "pair" },
            { url: "https://example.com/3", name: "pair", domain: "c.example" },
            { url: "https://example.com/4", name: "pair", domain: "b.example" },
            { url: "https://example.com/5", domain: "b.example" },
          ],
        },
      });
    const res = await bulk();
    const results = res.json().results;
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 201, 400, 409, 201]);
    expect(results[0].short.shorturl).toBe("https://b.example/pair");
    expect(results[1].short.shorturl).toBe("https://sho.rt/pair");
    expect(results[2].error.error).toBe('domain "c.example" is not one you may use');
    expect(results[4].short.shorturl).toMatch(/^https:\/\/b\.example\/[A-Za-z0-9]{7}$/);
    // The same key and body: the same answer, nothing created twice.
    const count = await countShorts();
    const again = await bulk();
    expect(again.body).toBe(res.body);
    expect(await countShorts()).toBe(count);
  });

  it("lists and searches the caller's shorts on one domain", async () => {
    const names = async (query: string) =>
      (await ctx.app.inject({ url: `/api/shorts?${query}`, headers: owner.headers }))
        .json()
        .map((s: { name: string; shorturl: string }) => s.shorturl);
    expect((await names("domain=b.example")).sort()).toEqual([
      "https://b.example/twin",
      "https://b.example/x",
    ]);
    expect(await names("domain=B.Example&search=tw")).toEqual(["https://b.example/twin"]);
    expect((await names("domain=sho.rt")).sort()).toEqual(["https://sho.rt/solo", "https://sho.rt/twin"]);
    expect(await names("domain=unknown.example")).toEqual([]);
    // Someone else's shorts on the same domain are never listed.
    expect(await names("domain=b.example&search=pair")).toEqual([]);
  });
});

describe("the redirect by Host", () => {
  it("resolves the name on the Host's domain: letter case and port ignored, X-Forwarded-Host from a trusted proxy", async () => {
    const to = async (host: string | undefined, headers?: Record<string, string>) => {
      const res = await get(ctx.app, "/x", host, headers);
      return res.statusCode === 302 ? res.headers.location : res.statusCode;
    };
    expect(await to("b.example")).toBe("https://b.example.org/x");
    expect(await to("B.Example:8443")).toBe("https://b.example.org/x");
    expect(await to("sho.rt")).toBe("https://example.com/x");
    expect(await to("proxy.internal", { "x-forwarded-host": "b.example" })).toBe("https://b.example.org/x");
    // A registered domain without this name: 404, never the default domain's short.
    expect(await to("c.example")).toBe(404);
  });

  it("answers 404 for a Host that names no domain once domains are registered", async () => {
    expect((await get(ctx.app, "/x", "unknown.example")).statusCode).toBe(404);
    // inject's own Host (localhost) is not the base URL's (sho.rt).
    expect((await get(ctx.app, "/x")).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: "HEAD", url: "/x", headers: { host: "b.example" } })).statusCode,
    ).toBe(302);
  });

  it("redirects a domain's root and unknown names where the operator says, until removed", async () => {
    const set = await cli(
      "domain:set",
      "--domain",
      "b.example",
      "--root-url",
      "https://b.example.org/",
      "--not-found-url",
      "https://b.example.org/missing",
    );
    expect(set).toMatchObject({
      code: 0,
      stdout: "b.example: / -> https://b.example.org/, unknown names -> https://b.example.org/missing",
    });
    // The CLI is another process's connection: the instances hear of it at commit.
    await vi.waitFor(async () => {
      expect((await get(ctx.app, "/", "b.example")).headers.location).toBe("https://b.example.org/");
      expect((await get(second.app, "/nothing-here", "b.example")).headers.location).toBe(
        "https://b.example.org/missing",
      );
    }, SOON);
    const visits = await ctx.prisma.shortLog.count();
    expect((await get(ctx.app, "/nothing-here", "b.example")).statusCode).toBe(302);
    expect(await ctx.prisma.shortLog.count()).toBe(visits);
    // Other domains keep answering 404.
    expect((await get(ctx.app, "/", "c.example")).statusCode).toBe(404);
    expect((await get(ctx.app, "/nothing-here", "sho.rt")).statusCode).toBe(404);
    await cli("domain:set", "--domain", "b.example", "--root-url", "", "--not-found-url", "");
    await vi.waitFor(async () => {
      expect((await get(ctx.app, "/", "b.example")).statusCode).toBe(404);
      expect((await get(ctx.app, "/nothing-here", "b.example")).statusCode).toBe(404);
    }, SOON);
  });
});

describe("moving a short to another domain", () => {
  it("is followed by every instance at once: the old short URL stops, the new one redirects", async () => {
    const created = await postShort(ctx.app, owner, { url: "https://example.com/mover", name: "mover" });
    // Both instances have the default domain's "mover" cached.
    for (const app of [ctx.app, second.app])
      expect((await get(app, "/mover", "sho.rt")).statusCode).toBe(302);
    const moved = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${created.json().id}`,
      headers: owner.headers,
      payload: { domain: "c.example" },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ domain: "c.example", shorturl: "https://c.example/mover" });
    // The editing instance at once; the other when the notification arrives (at commit).
    expect((await get(ctx.app, "/mover", "sho.rt")).statusCode).toBe(404);
    await vi.waitFor(
      async () => expect((await get(second.app, "/mover", "sho.rt")).statusCode).toBe(404),
      SOON,
    );
    for (const app of [ctx.app, second.app])
      expect((await get(app, "/mover", "c.example")).statusCode).toBe(302);
  });

  it("refuses a domain the caller may not use, and a name taken there, changing nothing", async () => {
    const mine = await postShort(ctx.app, other, { url: "https://example.com/stay", name: "stay" });
    const patch = (payload: object) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/api/shorts/${mine.json().id}`,
        headers: other.headers,
        payload,
      });
    const refused = await patch({ domain: "c.example", url: "https://example.com/changed" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('domain "c.example" is not one you may use');
    const taken = await patch({ domain: "b.example", name: "x" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('name "x" is already taken on b.example');
    const now = await ctx.app.inject({ url: `/api/shorts/${mine.json().id}`, headers: other.headers });
    expect(now.json()).toEqual(mine.json());
    expect((await get(ctx.app, "/stay", "sho.rt")).headers.location).toBe("https://example.com/stay");
  });

  it("never reaches another user's short through a domain", async () => {
    const owners = await ctx.app.inject({ url: "/api/shorts?domain=c.example", headers: owner.headers });
    const id = owners.json()[0].id;
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const res = await ctx.app.inject({
        method,
        url: `/api/shorts/${id}`,
        headers: other.headers,
        ...(method === "PATCH" ? { payload: { domain: "b.example" } } : {}),
      });
      expect(res.statusCode).toBe(404);
    }
    expect(
      (await ctx.app.inject({ url: "/api/shorts?domain=c.example", headers: other.headers })).json(),
    ).toEqual([]);
  });
});

describe("statistics by domain", () => {
  it("counts the caller's shorts on one domain only, exactly as their visits", async () => {
    const user = await newUser(ctx.prisma);
    const onDefault = await postShort(ctx.app, user, { url: "https://example.com/a", name: "stats-a" });
    const onB = await postShort(ctx.app, user, {
      url: "https://example.com/b",
      name: "stats-b",
      domain: "b.example",
    });
    for (let i = 0; i < 2; i++) expect((await get(ctx.app, "/stats-a", "sho.rt")).statusCode).toBe(302);
    for (let i = 0; i < 3; i++) expect((await get(ctx.app, "/stats-b", "b.example")).statusCode).toBe(302);
    const stats = async (query: string) => {
      const res = await ctx.app.inject({ url: `/api/stats${query}`, headers: user.headers });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      return [
        body.totals.visits,
        body.shorts.map((short: { id: string; visits: number }) => [short.id, short.visits]),
      ];
    };
    expect(await stats("")).toEqual([
      5,
      [
        [onB.json().id, 3],
        [onDefault.json().id, 2],
      ],
    ]);
    // Each top short says its domain, as a Short does: absent on the default one.
    const all = (await ctx.app.inject({ url: "/api/stats", headers: user.headers })).json();
    expect(all.shorts.map((short: { domain?: string }) => short.domain)).toEqual(["b.example", undefined]);
    expect(await stats("?domain=B.example")).toEqual([3, [[onB.json().id, 3]]]);
    expect(await stats("?domain=sho.rt&interval=hour")).toEqual([2, [[onDefault.json().id, 2]]]);
    expect(await stats("?domain=unknown.example")).toEqual([0, []]);
    // The same through top shorts' other plan (every candidate's rows at once, not one by one).
    const readWhole = new StatsService(ctx.prisma, "https://sho.rt", undefined, 0);
    const whole = await readWhole.forUser(user.id, StatsQuery.parse({}), {
      id: await ctx.app.domains.idOf("b.example"),
    });
    expect(whole.shorts.map((short) => [short.id, short.visits])).toEqual([[onB.json().id, 3]]);
    expect((await ctx.app.inject({ url: "/api/stats?domain=a:b", headers: user.headers })).statusCode).toBe(
      400,
    );
  });
});

describe("removing a domain", () => {
  it("refuses while it has shorts, naming how many; once they are gone it goes, and its Host answers 404", async () => {
    const refused = await cli("domain:remove", "--domain", "c.example");
    expect(refused).toMatchObject({
      code: 1,
      stderr: "domain c.example has 2 shorts; delete them or move them to another domain first",
    });
    const shorts = (
      await ctx.app.inject({ url: "/api/shorts?domain=c.example", headers: owner.headers })
    ).json();
    for (const short of shorts) {
      await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${short.id}`, headers: owner.headers });
    }
    expect(await cli("domain:remove", "--domain", "c.example")).toMatchObject({
      code: 0,
      stdout: "removed domain c.example",
    });
    expect((await cli("domain:remove", "--domain", "sho.rt")).stderr).toBe(
      "sho.rt is the default domain; it cannot be removed",
    );
    await vi.waitFor(
      async () => expect((await get(second.app, "/race", "c.example")).statusCode).toBe(404),
      SOON,
    );
    const domains = await ctx.app.inject({ url: "/api/domains", headers: owner.headers });
    expect(domains.json().map((d: { host: string }) => d.host)).toEqual(["sho.rt", "b.example"]);
  });
});
