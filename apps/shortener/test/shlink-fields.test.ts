// Shlink's short URL fields in the shortener's own model and API (issue 48; docs/adr/0268-0270):
// forwardQuery, crawlable and robots.txt, findIfExists, shortCodeLength, namePrefix, each visit's visitedUrl
// and redirectUrl, Shlink 5.1's redirect conditions, and the names rest and manage reserved on a
// database that may already hold shorts by them. Redirects over real HTTP, where the hot path
// (docs/adr/0240) answers a cached short, and through Fastify.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { CITY_CONDITION_REFUSED } from "@app/schemas/shortener";
import { runCliInProcess } from "@app/testing/cli";
import { SOON } from "@app/testing/timing";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { shortenerCli } from "../src/cli.ts";
import { forwardedUrl } from "../src/shorts/forward-query.ts";
import {
  addressMatcher,
  type CompiledRules,
  chooseTarget,
  compileRules,
  deviceMatches,
  type VisitorFacts,
} from "../src/shorts/redirect-rules.ts";
import { VisitEnricher } from "../src/visits/visit-enrichment.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();
let port = 0;
type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
let other: User;

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  port = (ctx.app.server.address() as AddressInfo).port;
  [owner, other] = await Promise.all([newUser(ctx.prisma), newUser(ctx.prisma)]);
});

/** One request over real HTTP: its status, Location, body, and whether the hot path answered. */
function http(path: string, headers: Record<string, string> = {}) {
  const before = ctx.app.hotPath.answered;
  return new Promise<{ status: number; location: string | undefined; body: string; hot: boolean }>(
    (resolve, reject) => {
      // On the default domain (once a domain is registered, it no longer answers any Host).
      const sent = { host: "sho.rt", ...headers };
      const req = request({ host: "127.0.0.1", port, path, headers: sent, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            body,
            hot: ctx.app.hotPath.answered > before,
          }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

async function create(payload: object, user = owner) {
  const response = await postShort(ctx.app, user, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string; forwardQuery?: true; crawlable?: true };
}

const patch = (id: string, payload: object, user = owner) =>
  ctx.app.inject({ method: "PATCH", url: `/api/shorts/${id}`, headers: user.headers, payload });

const logsOf = async (id: string) =>
  (await ctx.app.inject({ url: `/api/shorts/${id}/logs`, headers: owner.headers })).json() as {
    visitedUrl?: string;
    redirectUrl?: string;
  }[];

const shortCount = () => ctx.prisma.short.count();

describe("forwardQuery", () => {
  it("merges as Shlink does: the target's parameters first, a shared name takes the visit's value, the fragment last", () => {
    expect(forwardedUrl("https://t.example/p", "")).toBe("https://t.example/p");
    expect(forwardedUrl("https://t.example/p", "a=1")).toBe("https://t.example/p?a=1");
    expect(forwardedUrl("https://t.example/p?a=1&b=2#top", "b=9&c=3")).toBe(
      "https://t.example/p?a=1&b=9&c=3#top",
    );
    // Sent as they came: no decoding and encoding again; names compared decoded.
    expect(forwardedUrl("https://t.example/?x%20y=1&k=v", "x+y=2&q=%E2%9C%93")).toBe(
      "https://t.example/?k=v&x+y=2&q=%E2%9C%93",
    );
    expect(forwardedUrl("https://t.example/#f", "&&a=&b")).toBe("https://t.example/?a=&b#f");
    expect(forwardedUrl("https://t.example/?a=1", "&")).toBe("https://t.example/?a=1");
  });

  it("is off unless asked for; on, the visit's query reaches the target over the hot path and Fastify's", async () => {
    const plain = await create({ url: "https://t.example/plain?a=1" });
    expect(plain.forwardQuery).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      expect((await http(`/${plain.name}?b=2`)).location).toBe("https://t.example/plain?a=1");
    }

    const short = await create({ url: "https://t.example/p?a=1&b=2#frag", forwardQuery: true });
    expect(short.forwardQuery).toBe(true);
    const first = await http(`/${short.name}?b=9&c=3`);
    const second = await http(`/${short.name}?b=9&c=3`);
    expect([first.hot, second.hot]).toEqual([false, true]);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(302);
      expect(answer.location).toBe("https://t.example/p?a=1&b=9&c=3#frag");
    }
    expect((await http(`/${short.name}`)).location).toBe("https://t.example/p?a=1&b=2#frag");

    // Turned off by an edit: every answer after it, the hot path's too, leaves the query behind.
    const off = await patch(short.id, { forwardQuery: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().forwardQuery).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      expect((await http(`/${short.name}?c=3`)).location).toBe("https://t.example/p?a=1&b=2#frag");
    }
    expect((await patch(short.id, { forwardQuery: true })).json().forwardQuery).toBe(true);
    expect((await http(`/${short.name}?c=3`)).location).toBe("https://t.example/p?a=1&b=2&c=3#frag");
  });

  it("applies to the url a redirect rule chose, and through a short's visit limit", async () => {
    const short = await create({
      url: "https://t.example/default",
      forwardQuery: true,
      maxVisits: 10,
      redirectRules: [
        { url: "https://t.example/rule?r=1", conditions: [{ type: "any-value-query-param", param: "go" }] },
      ],
    });
    expect((await http(`/${short.name}?go&x=1`)).location).toBe("https://t.example/rule?r=1&go&x=1");
    expect((await http(`/${short.name}?x=1`)).location).toBe("https://t.example/default?x=1");
  });

  it("refuses a value that is not a boolean, and changes nothing", async () => {
    const before = await shortCount();
    expect(
      (await postShort(ctx.app, owner, { url: "https://t.example/", forwardQuery: "yes" })).statusCode,
    ).toBe(400);
    expect(await shortCount()).toBe(before);
  });
});

describe("visitedUrl and redirectUrl", () => {
  it("are stored with each visit and shown in the access log, over the hot path and Fastify's, rules and limits too", async () => {
    const short = await create({ url: "https://t.example/v", forwardQuery: true });
    await http(`/${short.name}?q=1`);
    const hot = await http(`/${short.name}?q=2`);
    expect(hot.hot).toBe(true);
    const limited = await create({
      url: "https://t.example/limited",
      maxVisits: 5,
      redirectRules: [{ url: "https://t.example/ios", conditions: [{ type: "device", value: "ios" }] }],
    });
    await http(`/${limited.name}?z=%20`);
    expect(await logsOf(short.id)).toEqual([
      expect.objectContaining({
        visitedUrl: `https://sho.rt/${short.name}?q=2`,
        redirectUrl: "https://t.example/v?q=2",
      }),
      expect.objectContaining({
        visitedUrl: `https://sho.rt/${short.name}?q=1`,
        redirectUrl: "https://t.example/v?q=1",
      }),
    ]);
    expect(await logsOf(limited.id)).toEqual([
      expect.objectContaining({
        visitedUrl: `https://sho.rt/${limited.name}?z=%20`,
        redirectUrl: "https://t.example/limited",
      }),
    ]);
  });

  it("are absent from visits stored before they were kept", async () => {
    const short = await create({ url: "https://t.example/old" });
    await ctx.prisma.$executeRaw`
      INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer")
      VALUES (${short.id}::uuid, '', '', '')`;
    const [log] = await logsOf(short.id);
    expect(log).not.toHaveProperty("visitedUrl");
    expect(log).not.toHaveProperty("redirectUrl");
  });
});

describe("crawlable and robots.txt", () => {
  it("lists the crawlable shorts of the Host's domain as Allow, then Disallow: /", async () => {
    const cli = (...args: string[]) =>
      runCliInProcess(shortenerCli, args, {
        DATABASE_URL: ctx.db.url,
        DATABASE_DIRECT_URL: ctx.db.directUrl,
        SHORT_BASE_URL: ctx.config.SHORT_BASE_URL,
      });
    const empty = await http("/robots.txt", { host: "sho.rt" });
    expect(empty.status).toBe(200);
    expect(empty.body).not.toMatch(/^Allow:/m);

    expect((await cli("domain:add", "--domain", "robots.example")).code).toBe(0);
    await vi.waitFor(async () => expect(await ctx.app.domains.idOf("robots.example")).not.toBeNull(), SOON);
    const a = await create({ url: "https://t.example/a", name: "crawl-b", crawlable: true });
    await create({ url: "https://t.example/a", name: "crawl-a", crawlable: true });
    await create({ url: "https://t.example/a", name: "hidden", crawlable: false });
    await create({ url: "https://t.example/a", name: "crawl-c", crawlable: true, domain: "robots.example" });
    expect(a.crawlable).toBe(true);

    const robots = await http("/robots.txt", { host: "sho.rt" });
    expect(robots.body).toBe(
      "# For more information about the robots.txt standard, see:\n# https://www.robotstxt.org/orig.html\n\n" +
        "User-agent: *\nAllow: /crawl-a\nAllow: /crawl-b\nDisallow: /\n",
    );
    expect((await http("/robots.txt", { host: "robots.example" })).body).toMatch(
      /User-agent: \*\nAllow: \/crawl-c\nDisallow: \/\n$/,
    );
    // A Host that names no domain: nothing to allow.
    expect((await http("/robots.txt", { host: "nowhere.example" })).body).toMatch(
      /User-agent: \*\nDisallow: \/\n$/,
    );

    expect((await patch(a.id, { crawlable: false })).json().crawlable).toBeUndefined();
    expect((await http("/robots.txt", { host: "sho.rt" })).body).toMatch(
      /User-agent: \*\nAllow: \/crawl-a\nDisallow/,
    );
  });
});

describe("findIfExists", () => {
  it("answers the caller's short with the same url and given fields (200), else creates one (201)", async () => {
    const url = "https://t.example/find";
    const first = await create({ url, tags: ["x", "y"], maxVisits: 50 });
    const found = async (payload: object, user = owner) => {
      const response = await postShort(ctx.app, user, { url, findIfExists: true, ...payload });
      return { status: response.statusCode, id: (response.json() as { id: string }).id };
    };
    expect(await found({})).toEqual({ status: 200, id: first.id });
    expect(await found({ tags: ["y", "x"], maxVisits: 50 })).toEqual({ status: 200, id: first.id });
    expect(await found({ name: first.name })).toEqual({ status: 200, id: first.id });
    const before = await shortCount();
    // A field given with another value, a tag set that differs, another user, a password: a new one.
    expect((await found({ tags: ["x"] })).status).toBe(201);
    expect((await found({ maxVisits: 51 })).status).toBe(201);
    expect((await found({ forwardQuery: true })).status).toBe(201);
    expect((await found({}, other)).status).toBe(201);
    expect((await found({ password: "secret" })).status).toBe(201);
    expect(await shortCount()).toBe(before + 5);
    // Without it, the same request creates another.
    expect((await postShort(ctx.app, owner, { url })).statusCode).toBe(201);
    // In bulk, refused per item: each would need its own lookup.
    const bulk = await ctx.app.inject({
      method: "POST",
      url: "/api/shorts/bulk",
      headers: owner.headers,
      payload: { shorts: [{ url, findIfExists: true }, { url }] },
    });
    expect(bulk.json().results.map((r: { status: number }) => r.status)).toEqual([400, 201]);
  });
});

describe("shortCodeLength", () => {
  it("sets the generated name's length, 4 at least (Shlink's minimum); ignored with a name", async () => {
    expect((await create({ url: "https://t.example/", shortCodeLength: 4 })).name).toMatch(
      /^[A-Za-z0-9]{4}$/,
    );
    expect((await create({ url: "https://t.example/", shortCodeLength: 20 })).name).toHaveLength(20);
    expect((await create({ url: "https://t.example/" })).name).toHaveLength(7);
    expect((await create({ url: "https://t.example/", shortCodeLength: 5, name: "named-one" })).name).toBe(
      "named-one",
    );
    const before = await shortCount();
    for (const shortCodeLength of [3, 0, 65, 4.5, "5"]) {
      const response = await postShort(ctx.app, owner, { url: "https://t.example/", shortCodeLength });
      expect(response.statusCode, String(shortCodeLength)).toBe(400);
    }
    expect(
      (await postShort(ctx.app, owner, { url: "https://t.example/", shortCodeLength: 3 })).json().error,
    ).toMatch(/shortCodeLength must be at least 4/);
    expect(await shortCount()).toBe(before);
  });
});

describe("namePrefix (Shlink's pathPrefix)", () => {
  const rest = async (payload: object) => {
    const response = await fetch(`http://127.0.0.1:${port}/rest/v3/short-urls`, {
      method: "POST",
      headers: { "x-api-key": owner.token, "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("starts a given or a generated name, in both APIs, and the short redirects by the whole name", async () => {
    const given = await create({ url: "https://t.example/summer", namePrefix: "promo-", name: "summer" });
    expect(given.name).toBe("promo-summer");
    expect(await http("/promo-summer")).toMatchObject({ status: 302, location: "https://t.example/summer" });
    expect(
      (await create({ url: "https://t.example/", namePrefix: "promo-", shortCodeLength: 5 })).name,
    ).toMatch(/^promo-[A-Za-z0-9]{5}$/);
    const viaRest = await rest({ longUrl: "https://t.example/rest", pathPrefix: "go-", customSlug: "deal" });
    expect(viaRest).toMatchObject({ status: 200, body: { shortCode: "go-deal" } });
    const generated = await rest({
      longUrl: "https://t.example/rest",
      pathPrefix: "go-",
      shortCodeLength: 4,
    });
    expect(generated.body.shortCode).toMatch(/^go-[A-Za-z0-9]{4}$/);
    // Both APIs see the same short.
    const listed = await ctx.app.inject({ url: "/api/shorts?limit=100", headers: owner.headers });
    expect(listed.json().map((short: { name: string }) => short.name)).toContain("go-deal");
    // findIfExists with a prefix alone: a short whose name starts with it, else a new one.
    const found = await postShort(ctx.app, owner, {
      url: "https://t.example/summer",
      namePrefix: "promo-",
      findIfExists: true,
    });
    expect({ status: found.statusCode, id: found.json().id }).toEqual({ status: 200, id: given.id });
    const fresh = await postShort(ctx.app, owner, {
      url: "https://t.example/summer",
      namePrefix: "sale-",
      findIfExists: true,
    });
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().name).toMatch(/^sale-[A-Za-z0-9]{7}$/);
  });

  it("refuses a prefix that is not a name's start, one too long with its name, or a taken whole name, changing nothing", async () => {
    await create({ url: "https://t.example/", name: "taken-name" });
    const before = await shortCount();
    const refused: [object, RegExp][] = [
      [{ namePrefix: "a/b", name: "x" }, /namePrefix must be 1-63 characters/],
      [{ namePrefix: "", name: "x" }, /namePrefix must be 1-63 characters/],
      [{ namePrefix: "p".repeat(60), name: "abcde" }, /at most 64 characters/],
      [{ namePrefix: "p".repeat(60) }, /at most 64 characters/],
      [{ namePrefix: "re", name: "st" }, /reserved/],
    ];
    for (const [payload, error] of refused) {
      const response = await postShort(ctx.app, owner, { url: "https://t.example/", ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toMatch(error);
    }
    expect(
      (await postShort(ctx.app, owner, { url: "https://t.example/", namePrefix: "taken-", name: "name" }))
        .statusCode,
    ).toBe(409);
    for (const pathPrefix of ["a b", "a?b", "a/b", "p".repeat(60)]) {
      const response = await rest({ longUrl: "https://t.example/", pathPrefix, customSlug: "abcde" });
      expect(response, pathPrefix).toMatchObject({
        status: 400,
        body: { type: "https://shlink.io/api/error/invalid-data", invalidElements: ["pathPrefix"] },
      });
    }
    expect(
      await rest({ longUrl: "https://t.example/", pathPrefix: "taken-", customSlug: "name" }),
    ).toMatchObject({
      status: 400,
      body: { type: "https://shlink.io/api/error/non-unique-slug", customSlug: "taken-name" },
    });
    expect(await shortCount()).toBe(before);
  });
});

describe("Shlink 5.1's redirect conditions", () => {
  const enricher = new VisitEnricher("full");
  const UA = {
    linuxFirefox: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    ubuntuFirefox: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    chromebook:
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    macSafari:
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    windowsOpera:
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
    windowsEdge:
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    androidStock:
      "Mozilla/5.0 (Linux; U; Android 4.0.3; de-de; Galaxy S II Build/GRJ22) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
    androidChrome:
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    iphone:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  };

  it("device: the eight values, a desktop's system only on a desktop", () => {
    const devices = ["ios", "android", "mobile", "desktop", "windows", "macos", "linux", "chromeos"] as const;
    const of = (ua: string) => devices.filter((device) => deviceMatches(device, enricher.agentOf(ua)));
    expect(of(UA.linuxFirefox)).toEqual(["desktop", "linux"]);
    expect(of(UA.ubuntuFirefox)).toEqual(["desktop", "linux"]);
    expect(of(UA.chromebook)).toEqual(["desktop", "chromeos"]);
    expect(of(UA.macSafari)).toEqual(["desktop", "macos"]);
    expect(of(UA.windowsEdge)).toEqual(["desktop", "windows"]);
    expect(of(UA.androidChrome)).toEqual(["android", "mobile"]);
    expect(of(UA.iphone)).toEqual(["ios", "mobile"]);
  });

  it("ip-address: an address, a CIDR block (IPv4 and IPv6) or a wildcard pattern", () => {
    expect(addressMatcher("100.200.80.40")("100.200.80.40")).toBe(true);
    expect(addressMatcher("100.200.80.40")("100.200.80.41")).toBe(false);
    expect(addressMatcher("192.168.10.0/24")("192.168.10.77")).toBe(true);
    expect(addressMatcher("192.168.10.0/24")("192.168.11.1")).toBe(false);
    // As a dual-stack socket gives an IPv4 visitor.
    expect(addressMatcher("192.168.10.0/24")("::ffff:192.168.10.3")).toBe(true);
    expect(addressMatcher("11.22.*.*")("11.22.1.255")).toBe(true);
    expect(addressMatcher("11.*.33.*")("11.9.33.1")).toBe(true);
    expect(addressMatcher("11.22.*.*")("11.23.1.1")).toBe(false);
    expect(addressMatcher("11.22.*.*")("2001:db8::1")).toBe(false);
    expect(addressMatcher("2001:db8::/32")("2001:db8:ffff::1")).toBe(true);
    expect(addressMatcher("2001:db8::/32")("2001:db9::1")).toBe(false);
    expect(addressMatcher("2001:db8::/32")("not an address")).toBe(false);
  });

  it("query parameters, dates and browsers pick as Shlink's do", () => {
    const facts = (over: { ua?: string; query?: Record<string, string[]> } = {}): VisitorFacts => ({
      agent: () => enricher.agentOf(over.ua ?? UA.linuxFirefox),
      ip: () => "127.0.0.1",
      country: () => "",
      acceptLanguage: () => undefined,
      query: (param) => over.query?.[param] ?? [],
    });
    const pick = (conditions: unknown[], over: Parameters<typeof facts>[0] = {}) =>
      chooseTarget(
        "https://default/",
        compileRules([{ url: "https://rule/", conditions }]) as CompiledRules,
        facts(over),
      ).url === "https://rule/";
    const any = [{ type: "any-value-query-param", param: "p" }];
    const valueless = [{ type: "valueless-query-param", param: "p" }];
    expect([pick(any), pick(any, { query: { p: [""] } }), pick(any, { query: { p: ["v"] } })]).toEqual([
      false,
      true,
      true,
    ]);
    expect([pick(valueless, { query: { p: [""] } }), pick(valueless, { query: { p: ["v"] } })]).toEqual([
      true,
      false,
    ]);
    const past = "2020-01-01T00:00:00Z";
    const future = "2999-01-01";
    expect(pick([{ type: "before-date", value: future }])).toBe(true);
    expect(pick([{ type: "before-date", value: past }])).toBe(false);
    expect(pick([{ type: "after-date", value: past }])).toBe(true);
    expect(pick([{ type: "after-date", value: future }])).toBe(false);
    const browsers = (ua: string) =>
      ["chrome", "firefox", "edge", "safari", "opera", "android_browser"].filter((value) =>
        pick([{ type: "browser", value }], { ua }),
      );
    expect(browsers(UA.linuxFirefox)).toEqual(["firefox"]);
    expect(browsers(UA.chromebook)).toEqual(["chrome"]);
    expect(browsers(UA.windowsEdge)).toEqual(["edge"]);
    expect(browsers(UA.macSafari)).toEqual(["safari"]);
    expect(browsers(UA.iphone)).toEqual(["safari"]);
    expect(browsers(UA.windowsOpera)).toEqual(["opera"]);
    expect(browsers(UA.androidStock)).toEqual(["android_browser"]);
  });

  it("are stored, read back and followed through the API; an ip-address rule over real HTTP", async () => {
    const conditions = [
      { type: "device", value: "linux" },
      { type: "any-value-query-param", param: "a" },
      { type: "valueless-query-param", param: "b" },
      { type: "ip-address", value: "127.0.0.*" },
      { type: "before-date", value: "2999-12-31T23:59:59+02:00" },
      { type: "after-date", value: "2020-01-01" },
      { type: "browser", value: "firefox" },
    ];
    const short = await create({
      url: "https://t.example/default",
      redirectRules: [
        { url: "https://t.example/all", conditions },
        { url: "https://t.example/local", conditions: [{ type: "ip-address", value: "127.0.0.0/8" }] },
      ],
    });
    const read = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: owner.headers });
    expect(read.json().redirectRules[0].conditions).toEqual(conditions);
    expect((await http(`/${short.name}?a=1&b`, { "user-agent": UA.linuxFirefox })).location).toBe(
      "https://t.example/all",
    );
    const hot = await http(`/${short.name}?a=1`, { "user-agent": UA.linuxFirefox });
    expect([hot.hot, hot.location]).toEqual([true, "https://t.example/local"]);
  });

  it("refuse an invalid CIDR, wildcard or date, an unknown type and the city with a clear 400, changing nothing", async () => {
    const short = await create({
      url: "https://t.example/kept",
      redirectRules: [
        { url: "https://t.example/r", conditions: [{ type: "ip-address", value: "10.0.0.0/8" }] },
      ],
    });
    const refused: [unknown, RegExp][] = [
      [{ type: "ip-address", value: "10.0.0.0/33" }, /ip-address must be an IP address, a CIDR block/],
      [{ type: "ip-address", value: "10.0.0.256" }, /ip-address must be/],
      [{ type: "ip-address", value: "10.*.0" }, /ip-address must be/],
      [{ type: "ip-address", value: "2001:db8::/129" }, /ip-address must be/],
      [{ type: "ip-address", value: "*.*.*.*/8" }, /ip-address must be/],
      [{ type: "before-date", value: "2026-02-30" }, /must be an ISO 8601 date-time with offset/],
      [{ type: "after-date", value: "tomorrow" }, /must be an ISO 8601 date-time/],
      [{ type: "after-date", value: "2026-12-01T10:00:00" }, /must be an ISO 8601 date-time/],
      [
        { type: "device", value: "tv" },
        /device must be one of ios, android, desktop, mobile, windows, macos, linux, chromeos/,
      ],
      [
        { type: "browser", value: "lynx" },
        /browser must be one of chrome, firefox, edge, safari, opera, android_browser/,
      ],
      [{ type: "geolocation-city-name", value: "Berlin" }, /geolocation-city-name is not supported/],
      [{ type: "no-such-type", value: "x" }, /type must be one of device, language, country, query/],
    ];
    const before = await shortCount();
    for (const [condition, message] of refused) {
      const rules = [{ url: "https://t.example/x", conditions: [condition] }];
      const created = await postShort(ctx.app, owner, { url: "https://t.example/", redirectRules: rules });
      expect(created.statusCode, JSON.stringify(condition)).toBe(400);
      expect(created.json().error).toMatch(message);
      const edited = await patch(short.id, { redirectRules: rules });
      expect(edited.statusCode).toBe(400);
      expect(edited.json().error).toMatch(message);
    }
    expect(CITY_CONDITION_REFUSED).toMatch(/country database only/);
    expect(await shortCount()).toBe(before);
    const kept = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: owner.headers });
    expect(kept.json().redirectRules).toEqual([
      { url: "https://t.example/r", conditions: [{ type: "ip-address", value: "10.0.0.0/8" }] },
    ]);
  });
});

describe("the names rest and manage (docs/adr/0270)", () => {
  it("are refused to new shorts and renames, in any letter case", async () => {
    const short = await create({ url: "https://t.example/" });
    for (const name of ["rest", "manage", "Manage", "REST"]) {
      const created = await postShort(ctx.app, owner, { url: "https://t.example/", name });
      expect([created.statusCode, created.json().error]).toEqual([400, `name "${name}" is reserved`]);
      expect((await patch(short.id, { name })).statusCode).toBe(400);
    }
  });

  it("a short an upgraded database already has by such a name keeps redirecting, and can be edited; deeper paths are never its", async () => {
    // As the previous release could have created it.
    const [row] = await ctx.prisma.$queryRaw<{ id: string }[]>`
      INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url")
      VALUES (gen_random_uuid(), ${owner.id}::uuid, 'rest', 'https://t.example/old-rest') RETURNING "id"`;
    const first = await http("/rest");
    const second = await http("/rest?x=1");
    expect([first.status, first.location, second.status, second.hot]).toEqual([
      302,
      "https://t.example/old-rest",
      302,
      true,
    ]);
    // /rest/… is a path of its own (the Shlink API view's): never the short's.
    const deeper = await http("/rest/v3/health");
    expect(deeper.location).toBeUndefined();
    const edited = await patch(row!.id, { url: "https://t.example/new-rest" });
    expect([edited.statusCode, edited.json().name]).toEqual([200, "rest"]);
    expect((await http("/rest")).location).toBe("https://t.example/new-rest");
    expect(await ctx.prisma.shortLog.count({ where: { shortId: row!.id } })).toBe(3);
  });

  it("bare /manage is the UI's redirect to /manage/, unless the Host's domain has a short named manage", async () => {
    const domain = await ctx.prisma.shortDomain.create({ data: { host: "manage.example" } });
    await vi.waitFor(async () => expect(await ctx.app.domains.idOf("manage.example")).not.toBeNull(), SOON);
    const [row] = await ctx.prisma.$queryRaw<{ id: string }[]>`
      INSERT INTO "shortener"."shorts" ("id", "user_id", "domain_id", "name", "url")
      VALUES (gen_random_uuid(), ${owner.id}::uuid, ${domain.id}::uuid, 'manage', 'https://t.example/old-manage')
      RETURNING "id"`;
    const ui = { host: "sho.rt" };
    const short = { host: "manage.example" };
    // No short named manage on the default domain: the UI's address, query kept; never a visit.
    expect(await http("/manage", ui)).toMatchObject({ status: 302, location: "/manage/", hot: false });
    expect((await http("/manage?page=2", ui)).location).toBe("/manage/?page=2");
    expect((await http("/manage/", ui)).status).toBe(200);
    // Its domain's short: Fastify's route first (read from the database), then the hot path (cached).
    const first = await http("/manage", short);
    const second = await http("/manage", short);
    expect([first.status, first.location, first.hot]).toEqual([302, "https://t.example/old-manage", false]);
    expect([second.status, second.location, second.hot]).toEqual([302, "https://t.example/old-manage", true]);
    // Below /manage is the UI's on every domain.
    const page = await http("/manage/list-short-urls/1", short);
    expect([page.status, page.location]).toEqual([200, undefined]);
    expect(await ctx.prisma.shortLog.count({ where: { shortId: row!.id } })).toBe(2);
  });
});
