// Shlink's REST API (issue 48; docs/adr/0263-0266) driven by the real @shlinkio/shlink-js-sdk
// 3.2.1 over HTTP: every method the SDK has, two users, the default domain and a second one,
// answers checked field by field, other users' data unreachable, bad input answered with
// Shlink's problem and nothing changed, counts equal to the existing API's. The tests of this
// file run in order on one app and database.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { SOON } from "@app/testing/timing";
import * as sdk from "@shlinkio/shlink-js-sdk";
import * as sdkFetch from "@shlinkio/shlink-js-sdk/fetch";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { newUser, setupShortener } from "./helpers.ts";

// The package's declarations re-export without file extensions, which NodeNext resolution does
// not follow: the client is untyped here, its answers checked by value, lists read as ShortUrl/Visit.
// biome-ignore lint/suspicious/noExplicitAny: the SDK's own types cannot be resolved (above).
type ShlinkApiClient = any;
const { ShlinkApiClient } = sdk as unknown as {
  ShlinkApiClient: new (http: unknown, server: { baseUrl: string; apiKey: string }) => ShlinkApiClient;
};
const { FetchHttpClient } = sdkFetch as unknown as { FetchHttpClient: new () => unknown };
type ShortUrl = { shortCode: string; longUrl: string };
type Visit = { potentialBot: boolean; type?: string };
/** A JSON answer's body, read as the test expects it. */
const body = async (response: Response) => (await response.json()) as Record<string, Record<string, unknown>>;

const ctx = setupShortener({ SHLINK_CORS_ALLOW_ORIGIN: "https://ui.example, https://other.example" });

const OWN_DOMAIN = "mine.example";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let base: string;
let alice: Awaited<ReturnType<typeof newUser>>;
let bob: Awaited<ReturnType<typeof newUser>>;
let asAlice: ShlinkApiClient;
let asBob: ShlinkApiClient;

const client = (apiKey: string) => new ShlinkApiClient(new FetchHttpClient(), { baseUrl: base, apiKey });

/** What a call the SDK made was refused with (the parsed problem body it throws). */
async function refusal(call: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error("the call was not refused");
}

const problem = (code: string, status: number, extra: Record<string, unknown> = {}) =>
  expect.objectContaining({
    type: `https://shlink.io/api/error/${code}`,
    status,
    title: expect.any(String),
    detail: expect.any(String),
    ...extra,
  });

/** A request of `/path` on `host`, over HTTP as a browser (or a bot) sends it: status, Location, body. */
function get(path: string, host = "sho.rt", agent = CHROME) {
  const { port } = new URL(base);
  return new Promise<{ status: number; location: string | undefined; text: string }>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path: `/${path}`, headers: { host, "user-agent": agent }, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
/** A visit of `/name` on `host`: its status. */
const visit = async (name: string, host = "sho.rt", agent = CHROME) => (await get(name, host, agent)).status;

/** Everything stored, to compare before and after a refused call. */
const snapshot = async () => ({
  shorts: await ctx.prisma.short.findMany({ orderBy: { id: "asc" } }),
  domains: await ctx.prisma.shortDomain.findMany({ orderBy: { id: "asc" } }),
});

beforeAll(async () => {
  await ctx.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  alice = await newUser(ctx.prisma);
  bob = await newUser(ctx.prisma);
  asAlice = client(alice.token);
  asBob = client(bob.token);
  // A second domain, assigned to Alice only.
  const domain = await ctx.prisma.shortDomain.create({ data: { host: OWN_DOMAIN } });
  await ctx.prisma.shortDomainUser.create({ data: { domainId: domain.id, userId: alice.id } });
  await vi.waitFor(
    async () => expect((await ctx.app.domains.forHost(OWN_DOMAIN))?.host).toBe(OWN_DOMAIN),
    SOON,
  );
});

describe("transport", () => {
  it("health answers without a key, with the Shlink API level as a semantic version", async () => {
    expect(await client("").health()).toEqual({
      status: "pass",
      version: "5.1.0",
      links: { about: "https://shlink.io", project: "https://github.com/shlinkio/shlink" },
    });
    const unversioned = await fetch(`${base}/rest/health`);
    expect(unversioned.headers.get("content-type")).toMatch(/^application\/health\+json/);
  });

  it("mercure-info answers Shlink's 501 problem", async () => {
    expect(await refusal(asAlice.mercureInfo())).toEqual(problem("mercure-not-configured", 501));
  });

  it("refuses a missing key, an unknown key and an unknown route as Shlink does", async () => {
    expect(await refusal(client("").listShortUrls())).toEqual(
      problem("missing-authentication", 401, { expectedHeaders: ["X-Api-Key"] }),
    );
    expect(await refusal(client("not-a-key").listShortUrls())).toEqual(problem("invalid-api-key", 401));
    const shorten = await fetch(`${base}/rest/v3/short-urls/shorten?longUrl=https://example.com/`, {
      headers: { "x-api-key": alice.token },
    });
    expect(await shorten.json()).toEqual(problem("missing-authentication", 401, { param: "apiKey" }));
    const unknown = await fetch(`${base}/rest/v3/nothing-here`, { headers: { "x-api-key": alice.token } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await unknown.json()).toEqual(problem("not-found", 404));
  });

  it("answers CORS on /rest only: preflight unauthenticated, headers echoed, the origin as configured, errors too", async () => {
    const preflight = await fetch(`${base}/rest/v3/short-urls`, {
      method: "OPTIONS",
      headers: {
        origin: "https://ui.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("x-api-key,content-type");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,POST,PUT,PATCH,DELETE");
    expect(preflight.headers.get("access-control-max-age")).toBe("3600");
    const refused = await fetch(`${base}/rest/v3/tags`, { headers: { origin: "https://other.example" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://other.example");
    const unlisted = await fetch(`${base}/rest/v3/tags`, { headers: { origin: "https://evil.example" } });
    expect(unlisted.headers.get("access-control-allow-origin")).toBeNull();
    const api = await fetch(`${base}/api/me`, { headers: { origin: "https://ui.example" } });
    expect(api.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("serves v1 and v2 as v3, and never logs a key given in the query", async () => {
    for (const version of ["v1", "v2"]) {
      const answer = await fetch(`${base}/rest/${version}/tags`, { headers: { "x-api-key": alice.token } });
      expect(await answer.json()).toEqual({ tags: { data: [], pagination: expect.any(Object) } });
    }
  });
});

describe("short URLs", () => {
  it("creates with Shlink's fields and defaults, on the default domain and another", async () => {
    const created = await asAlice.createShortUrl({
      longUrl: "https://example.com/one",
      customSlug: "one",
      tags: ["Launch", "blog post"],
      title: "The first",
      validSince: "2026-01-01T00:00:00+00:00",
      maxVisits: 100,
      forwardQuery: true,
      crawlable: true,
      findIfExists: true,
      shortCodeLength: 6,
    });
    expect(created).toEqual({
      shortCode: "one",
      shortUrl: "https://sho.rt/one",
      longUrl: "https://example.com/one",
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      tags: ["launch", "blog-post"],
      meta: { validSince: "2026-01-01T00:00:00+00:00", validUntil: null, maxVisits: 100 },
      domain: null,
      title: "The first",
      crawlable: true,
      forwardQuery: true,
      visitsSummary: { total: 0, nonBots: 0, bots: 0 },
      hasRedirectRules: false,
    });
    const elsewhere = await asAlice.createShortUrl({
      longUrl: "https://example.com/two",
      domain: OWN_DOMAIN,
      tags: ["blog-post"],
    });
    // Shlink's defaults: a short made through /rest forwards the query and is not crawlable.
    expect(elsewhere).toMatchObject({
      shortUrl: `https://${OWN_DOMAIN}/${elsewhere.shortCode}`,
      domain: OWN_DOMAIN,
      tags: ["blog-post"],
      title: null,
      forwardQuery: true,
      crawlable: false,
    });
    // findIfExists: the caller's short with the same url and given fields (forwardQuery and
    // crawlable not compared), answered 200 as a creation is; nothing is created.
    const count = await ctx.prisma.short.count();
    const again = await fetch(`${base}/rest/v3/short-urls`, {
      method: "POST",
      headers: { "x-api-key": alice.token, "content-type": "application/json" },
      body: JSON.stringify({
        longUrl: "https://example.com/two",
        domain: OWN_DOMAIN,
        tags: ["blog-post"],
        forwardQuery: false,
        findIfExists: true,
      }),
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(elsewhere);
    expect(await ctx.prisma.short.count()).toBe(count);
    // Another user's short of the same url is never found: Bob gets one of his own (removed again).
    const bobsOwn = await asBob.createShortUrl({ longUrl: "https://example.com/one", findIfExists: true });
    expect(bobsOwn.shortCode).not.toBe("one");
    await asBob.deleteShortUrl({ shortCode: bobsOwn.shortCode });
    // The same short, through the existing API.
    const mine = await ctx.app.inject({ method: "GET", url: "/api/shorts", headers: alice.headers });
    expect(
      mine
        .json()
        .map((short: { name: string }) => short.name)
        .sort(),
    ).toEqual([elsewhere.shortCode, "one"].sort());
    expect(mine.json().find((short: { name: string }) => short.name === "one")).toMatchObject({
      forwardQuery: true,
      crawlable: true,
    });
    // GET /short-urls/shorten takes the key as ?apiKey=.
    const shorten = await fetch(
      `${base}/rest/v3/short-urls/shorten?apiKey=${alice.token}&longUrl=${encodeURIComponent("https://example.com/three")}&shortCodeLength=5&format=txt`,
    );
    expect(shorten.status).toBe(200);
    expect(await shorten.text()).toMatch(/^https:\/\/sho\.rt\/[A-Za-z0-9]{5}$/);
    // Numbers as strings, as the web component's form sends them; unknown keys ignored.
    await asBob.createShortUrl({
      longUrl: "https://example.com/bob",
      customSlug: "bobs",
      tags: ["launch"],
      maxVisits: "100000",
      shortCodeLength: "7",
      somethingElse: true,
    });
    expect((await asBob.getShortUrl({ shortCode: "bobs" })).meta.maxVisits).toBe(100000);
  });

  it("refuses a taken slug, a bad slug, a domain not the caller's, with Shlink's problem and nothing changed", async () => {
    const before = await snapshot();
    expect(
      await refusal(asBob.createShortUrl({ longUrl: "https://example.com/x", customSlug: "one" })),
    ).toEqual(problem("non-unique-slug", 400, { customSlug: "one" }));
    for (const customSlug of ["a?b", "a#b", "a/b", "a b"]) {
      expect(await refusal(asAlice.createShortUrl({ longUrl: "https://example.com/x", customSlug }))).toEqual(
        problem("invalid-data", 400, { invalidElements: ["customSlug"] }),
      );
    }
    expect(
      await refusal(asBob.createShortUrl({ longUrl: "https://example.com/x", domain: OWN_DOMAIN })),
    ).toEqual(problem("invalid-data", 400, { invalidElements: ["domain"] }));
    expect(await refusal(asAlice.createShortUrl({ longUrl: "not a url" }))).toEqual(
      problem("invalid-data", 400, { invalidElements: ["longUrl"] }),
    );
    expect(await snapshot()).toEqual(before);
  });

  it("lists with Shlink's pagination, filters and orders; only the caller's", async () => {
    const all = await asAlice.listShortUrls();
    expect(all.pagination).toEqual({
      currentPage: 1,
      pagesCount: 1,
      itemsPerPage: 10,
      itemsInCurrentPage: 3,
      totalItems: 3,
    });
    expect(all.data.map((url: ShortUrl) => url.longUrl)).toEqual([
      "https://example.com/three",
      "https://example.com/two",
      "https://example.com/one",
    ]);
    const paged = await asAlice.listShortUrls({
      itemsPerPage: 2,
      page: 2,
      orderBy: { field: "longUrl", dir: "ASC" },
    });
    expect(paged.data.map((url: ShortUrl) => url.longUrl)).toEqual(["https://example.com/two"]);
    expect(paged.pagination).toEqual({
      currentPage: 2,
      pagesCount: 2,
      itemsPerPage: 2,
      itemsInCurrentPage: 1,
      totalItems: 3,
    });
    const names = async (params: Record<string, unknown>) =>
      (await asAlice.listShortUrls(params)).data.map((url: ShortUrl) => url.shortCode).sort();
    expect(await names({ tags: ["launch"] })).toEqual(["one"]);
    expect(await names({ tags: ["launch", "blog-post"], tagsMode: "all" })).toEqual(["one"]);
    expect((await names({ tags: ["launch", "blog-post"], tagsMode: "any" })).length).toBe(2);
    expect((await names({ excludeTags: ["launch"] })).length).toBe(2);
    expect(await names({ searchTerm: "FIRST" })).toEqual(["one"]);
    expect((await names({ domain: "DEFAULT" })).length).toBe(2);
    expect((await names({ domain: OWN_DOMAIN })).length).toBe(1);
    expect(await names({ startDate: "2000-01-01", endDate: "2001-01-01" })).toEqual([]);
    expect((await names({ excludeMaxVisitsReached: true, excludePastValidUntil: true })).length).toBe(3);
    expect((await asBob.listShortUrls()).data.map((url: ShortUrl) => url.shortCode)).toEqual(["bobs"]);
  });

  it("refuses a malformed orderBy, page=0 and itemsPerPage past the bound; -1 lists all", async () => {
    for (const query of [
      "orderBy=visits-UP",
      "orderBy=colour",
      "page=0",
      "itemsPerPage=5001",
      "itemsPerPage=0",
    ]) {
      const answer = await fetch(`${base}/rest/v3/short-urls?${query}`, {
        headers: { "x-api-key": alice.token },
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual(problem("invalid-data", 400));
    }
    const all = await fetch(`${base}/rest/v3/short-urls?itemsPerPage=-1`, {
      headers: { "x-api-key": alice.token },
    });
    expect((await body(all)).shortUrls!.pagination).toEqual({
      currentPage: 1,
      pagesCount: 1,
      itemsPerPage: 3,
      itemsInCurrentPage: 3,
      totalItems: 3,
    });
  });

  it("gets and edits by short code and domain, ignoring unknown keys; another user's is not found", async () => {
    const got = await asAlice.getShortUrl({ shortCode: "one" });
    expect(got.title).toBe("The first");
    const edited = await asAlice.updateShortUrl(
      { shortCode: "one" },
      // The web component sends `domain` in an edit: ignored, as Shlink does.
      {
        longUrl: "https://example.com/one-edited",
        title: null,
        maxVisits: null,
        tags: ["launch"],
        domain: null,
      } as never,
    );
    expect(edited).toMatchObject({
      longUrl: "https://example.com/one-edited",
      title: null,
      tags: ["launch"],
      meta: { maxVisits: null },
    });
    // forwardQuery and crawlable are edited (false sent as false), robots.txt following crawlable.
    expect(
      await asAlice.updateShortUrl({ shortCode: "one" }, { forwardQuery: false, crawlable: false }),
    ).toMatchObject({ forwardQuery: false, crawlable: false, longUrl: "https://example.com/one-edited" });
    expect((await get("robots.txt")).text).not.toContain("Allow: /one");
    expect(
      await asAlice.updateShortUrl({ shortCode: "one" }, { forwardQuery: true, crawlable: true }),
    ).toMatchObject({ forwardQuery: true, crawlable: true });
    expect((await get("robots.txt")).text).toContain("Allow: /one");
    const [other] = (await asAlice.listShortUrls({ domain: OWN_DOMAIN })).data;
    expect(await asAlice.getShortUrl({ shortCode: other!.shortCode, domain: OWN_DOMAIN })).toMatchObject({
      domain: OWN_DOMAIN,
    });
    const before = await snapshot();
    expect(await refusal(asBob.getShortUrl({ shortCode: "one" }))).toEqual(
      problem("short-url-not-found", 404, { shortCode: "one" }),
    );
    expect(await refusal(asBob.updateShortUrl({ shortCode: "one" }, { title: "mine now" }))).toEqual(
      problem("short-url-not-found", 404),
    );
    expect(await refusal(asBob.deleteShortUrl({ shortCode: "one" }))).toEqual(
      problem("short-url-not-found", 404),
    );
    expect(await refusal(asAlice.getShortUrl({ shortCode: other!.shortCode }))).toEqual(
      problem("short-url-not-found", 404),
    );
    expect(await refusal(asAlice.updateShortUrl({ shortCode: "one" }, { maxVisits: -3 }))).toEqual(
      problem("invalid-data", 400, { invalidElements: ["maxVisits"] }),
    );
    expect(await snapshot()).toEqual(before);
  });

  it("sets and reads redirect rules through the model's rules", async () => {
    const rules = await asAlice.setShortUrlRedirectRules(
      { shortCode: "one" },
      {
        redirectRules: [
          {
            longUrl: "https://example.com/android",
            conditions: [{ type: "device", matchKey: null, matchValue: "android" }],
          },
          {
            longUrl: "https://example.com/de",
            conditions: [
              { type: "language", matchKey: null, matchValue: "de" },
              { type: "query-param", matchKey: "ref", matchValue: "news" },
              { type: "geolocation-country-code", matchKey: null, matchValue: "DE" },
            ],
          },
        ],
      },
    );
    expect(rules).toEqual({
      defaultLongUrl: "https://example.com/one-edited",
      redirectRules: [
        {
          longUrl: "https://example.com/android",
          priority: 1,
          conditions: [{ type: "device", matchKey: null, matchValue: "android" }],
        },
        {
          longUrl: "https://example.com/de",
          priority: 2,
          conditions: [
            { type: "language", matchKey: null, matchValue: "de" },
            { type: "query-param", matchKey: "ref", matchValue: "news" },
            { type: "geolocation-country-code", matchKey: null, matchValue: "DE" },
          ],
        },
      ],
    });
    expect(await asAlice.getShortUrlRedirectRules({ shortCode: "one" })).toEqual(rules);
    expect((await asAlice.getShortUrl({ shortCode: "one" })).hasRedirectRules).toBe(true);
    // The existing API sees the same rules.
    const [short] = (
      await ctx.app.inject({ method: "GET", url: "/api/shorts?search=one-edited", headers: alice.headers })
    ).json();
    expect(short.redirectRules).toHaveLength(2);
    const before = await snapshot();
    expect(
      await refusal(
        asAlice.setShortUrlRedirectRules(
          { shortCode: "one" },
          {
            redirectRules: [
              {
                longUrl: "https://example.com/x",
                conditions: [{ type: "device", matchKey: null, matchValue: "toaster" }],
              },
            ],
          },
        ),
      ),
    ).toEqual(problem("invalid-data", 400, { invalidElements: ["redirectRules"] }));
    expect(await snapshot()).toEqual(before);
    // Every condition type of Shlink 5.1 but the city round-trips, through the model's names.
    const everyType = [
      { type: "device", matchKey: null, matchValue: "windows" },
      { type: "device", matchKey: null, matchValue: "chromeos" },
      { type: "language", matchKey: null, matchValue: "pt-BR" },
      { type: "query-param", matchKey: "ref", matchValue: "news" },
      { type: "any-value-query-param", matchKey: "utm", matchValue: null },
      { type: "valueless-query-param", matchKey: "debug", matchValue: null },
      { type: "ip-address", matchKey: null, matchValue: "192.168.10.0/24" },
      { type: "geolocation-country-code", matchKey: null, matchValue: "DE" },
      { type: "before-date", matchKey: null, matchValue: "2030-01-01T00:00:00+00:00" },
      { type: "after-date", matchKey: null, matchValue: "2026-01-01" },
      { type: "browser", matchKey: null, matchValue: "android_browser" },
    ];
    const all = await asAlice.setShortUrlRedirectRules(
      { shortCode: "one" },
      {
        // Two conditions a rule: at most 10 rules a short.
        redirectRules: [0, 2, 4, 6, 8, 10].map((start) => ({
          longUrl: `https://example.com/${start}`,
          conditions: everyType.slice(start, start + 2),
        })),
      },
    );
    expect(all.redirectRules.flatMap((rule: { conditions: unknown[] }) => rule.conditions)).toEqual(
      everyType,
    );
    expect(await asAlice.getShortUrlRedirectRules({ shortCode: "one" })).toEqual(all);
    const stored = (await ctx.prisma.short.findFirst({ where: { name: "one" } }))!.redirectRules as {
      conditions: unknown[];
    }[];
    expect(stored.flatMap((rule) => rule.conditions)).toEqual([
      { type: "device", value: "windows" },
      { type: "device", value: "chromeos" },
      { type: "language", value: "pt-BR" },
      { type: "query", param: "ref", value: "news" },
      { type: "any-value-query-param", param: "utm" },
      { type: "valueless-query-param", param: "debug" },
      { type: "ip-address", value: "192.168.10.0/24" },
      { type: "country", value: "DE" },
      { type: "before-date", value: "2030-01-01T00:00:00+00:00" },
      { type: "after-date", value: "2026-01-01" },
      { type: "browser", value: "android_browser" },
    ]);
    const withAll = await snapshot();
    expect(
      await refusal(
        asAlice.setShortUrlRedirectRules(
          { shortCode: "one" },
          {
            redirectRules: [
              {
                longUrl: "https://example.com/x",
                conditions: [{ type: "geolocation-city-name", matchKey: null, matchValue: "Berlin" }],
              },
            ],
          },
        ),
      ),
    ).toEqual(problem("invalid-data", 400, { invalidElements: ["redirectRules"] }));
    expect(await snapshot()).toEqual(withAll);
    expect(await asAlice.setShortUrlRedirectRules({ shortCode: "one" }, { redirectRules: [] })).toEqual({
      defaultLongUrl: "https://example.com/one-edited",
      redirectRules: [],
    });
  });
});

describe("visits", () => {
  let elsewhere: string;
  beforeAll(async () => {
    elsewhere = (await asAlice.listShortUrls({ domain: OWN_DOMAIN })).data[0]!.shortCode;
    // forwardQuery (on for "one"): the visit's query is sent on to the url.
    const forwarded = await get("one?ref=news");
    expect(forwarded).toMatchObject({ status: 302, location: "https://example.com/one-edited?ref=news" });
    const visits = [
      visit("one"),
      visit("one", "sho.rt", GOOGLEBOT),
      visit(elsewhere, OWN_DOMAIN),
      visit("bobs"),
    ];
    // Orphans: an unknown name and the root, on each domain.
    visits.push(visit("no-such-name"), visit(""), visit("nothing", OWN_DOMAIN));
    expect(await Promise.all(visits)).toEqual([302, 302, 302, 302, 404, 404, 404]);
  });

  it("lists a short's visits newest first with Shlink's fields, bots excluded by presence", async () => {
    const visits = await asAlice.getShortUrlVisits({ shortCode: "one" });
    expect(visits.pagination.totalItems).toBe(3);
    expect(visits.data[0]).toEqual({
      referer: "",
      date: expect.stringMatching(/\+00:00$/),
      userAgent: expect.any(String),
      visitLocation: null,
      potentialBot: expect.any(Boolean),
      visitedUrl: expect.stringMatching(/^https:\/\/sho\.rt\/one/),
      redirectUrl: expect.stringMatching(/^https:\/\/example\.com\/one-edited/),
    });
    // The visit with a query: the URL visited with it, and where forwardQuery sent it.
    expect(visits.data).toContainEqual(
      expect.objectContaining({
        visitedUrl: "https://sho.rt/one?ref=news",
        redirectUrl: "https://example.com/one-edited?ref=news",
      }),
    );
    expect(visits.data.filter((row: Visit) => row.potentialBot)).toHaveLength(1);
    const humans = await fetch(`${base}/rest/v3/short-urls/one/visits?excludeBots=false`, {
      headers: { "x-api-key": alice.token },
    });
    expect((await body(humans)).visits!.pagination).toMatchObject({ totalItems: 2 });
    const page = await asAlice.getShortUrlVisits({ shortCode: "one" }, { page: 2, itemsPerPage: 2 });
    expect(page.pagination).toEqual({
      currentPage: 2,
      pagesCount: 2,
      itemsPerPage: 2,
      itemsInCurrentPage: 1,
      totalItems: 3,
    });
    expect(await refusal(asBob.getShortUrlVisits({ shortCode: "one" }))).toEqual(
      problem("short-url-not-found", 404),
    );
  });

  it("lists visits by tag, by domain, non-orphan and orphan; only the caller's", async () => {
    expect((await asAlice.getTagVisits("launch")).pagination.totalItems).toBe(3);
    expect((await asBob.getTagVisits("launch")).pagination.totalItems).toBe(1);
    expect((await asAlice.getTagVisits("blog-post", { domain: OWN_DOMAIN })).pagination.totalItems).toBe(1);
    expect((await asAlice.getTagVisits("blog-post", { domain: "DEFAULT" })).pagination.totalItems).toBe(0);
    expect(await refusal(asAlice.getTagVisits("nope"))).toEqual(
      problem("tag-not-found", 404, { tag: "nope" }),
    );
    expect((await asAlice.getDomainVisits("DEFAULT")).pagination.totalItems).toBe(3);
    expect((await asAlice.getDomainVisits(OWN_DOMAIN)).pagination.totalItems).toBe(1);
    expect(await refusal(asBob.getDomainVisits(OWN_DOMAIN))).toEqual(problem("domain-not-found", 404));
    expect((await asAlice.getNonOrphanVisits()).pagination.totalItems).toBe(4);
    expect((await asAlice.getNonOrphanVisits({ domain: OWN_DOMAIN })).pagination.totalItems).toBe(1);
    const orphans = await asAlice.getOrphanVisits();
    expect(orphans.pagination.totalItems).toBe(3);
    expect(orphans.data.map((row: Visit) => row.type).sort()).toEqual([
      "base_url",
      "invalid_short_url",
      "invalid_short_url",
    ]);
    expect((await asAlice.getOrphanVisits({ type: "base_url" })).pagination.totalItems).toBe(1);
    expect((await asAlice.getOrphanVisits({ type: "regular_404" })).pagination.totalItems).toBe(0);
    // Bob sees the default domain's orphans, not those of Alice's domain.
    expect((await asBob.getOrphanVisits()).pagination.totalItems).toBe(2);
    const wrongType = await fetch(`${base}/rest/v3/visits/orphan?type=other`, {
      headers: { "x-api-key": alice.token },
    });
    expect(await wrongType.json()).toEqual(problem("invalid-data", 400, { invalidElements: ["type"] }));
  });

  it("the overview's counts equal the existing API's statistics and the rows", async () => {
    const overview = await asAlice.getVisitsOverview();
    expect(overview).toEqual({
      nonOrphanVisits: { total: 4, nonBots: 3, bots: 1 },
      orphanVisits: { total: 3, nonBots: 3, bots: 0 },
    });
    const stats = await ctx.app.inject({ method: "GET", url: "/api/stats", headers: alice.headers });
    expect(stats.json().totals.visits).toBe(overview.nonOrphanVisits.total);
    const byVisits = await asAlice.listShortUrls({ orderBy: { field: "visits", dir: "DESC" } });
    expect(byVisits.data.map((url: ShortUrl & { visitsSummary: unknown }) => url.visitsSummary)).toEqual([
      { total: 3, nonBots: 2, bots: 1 },
      { total: 1, nonBots: 1, bots: 0 },
      { total: 0, nonBots: 0, bots: 0 },
    ]);
    const byHumans = await asAlice.listShortUrls({ orderBy: { field: "nonBotVisits", dir: "ASC" } });
    expect(byHumans.data[0].visitsSummary.nonBots).toBe(0);
    expect((await asAlice.getShortUrl({ shortCode: "one" })).visitsSummary).toEqual({
      total: 3,
      nonBots: 2,
      bots: 1,
    });
    const listed = await ctx.app.inject({ method: "GET", url: "/api/shorts", headers: alice.headers });
    const one = listed.json().find((short: { name: string }) => short.name === "one");
    expect(one.visits).toBe(3);
  });

  it("deletes a short URL's visits and their counts, in both APIs; not another user's", async () => {
    const before = await snapshot();
    expect(await refusal(asBob.deleteShortUrlVisits({ shortCode: elsewhere, domain: OWN_DOMAIN }))).toEqual(
      problem("short-url-not-found", 404),
    );
    expect(await snapshot()).toEqual(before);
    expect(await asAlice.deleteShortUrlVisits({ shortCode: elsewhere, domain: OWN_DOMAIN })).toEqual({
      deletedVisits: 1,
    });
    expect((await asAlice.getShortUrl({ shortCode: elsewhere, domain: OWN_DOMAIN })).visitsSummary).toEqual({
      total: 0,
      nonBots: 0,
      bots: 0,
    });
    const overview = await asAlice.getVisitsOverview();
    expect(overview.nonOrphanVisits).toEqual({ total: 3, nonBots: 2, bots: 1 });
    const stats = await ctx.app.inject({ method: "GET", url: "/api/stats", headers: alice.headers });
    expect(stats.json().totals.visits).toBe(3);
    expect((await asAlice.getNonOrphanVisits()).pagination.totalItems).toBe(3);
  });

  it("deletes orphan visits of the caller's own domains only", async () => {
    expect(await asBob.deleteOrphanVisits()).toEqual({ deletedVisits: 0 });
    expect(await asAlice.deleteOrphanVisits()).toEqual({ deletedVisits: 1 });
    expect((await asAlice.getOrphanVisits()).pagination.totalItems).toBe(2);
  });
});

describe("tags and domains", () => {
  it("lists tags with their figures, renames and deletes them, per user", async () => {
    expect(await asAlice.listTags()).toMatchObject({ data: ["blog-post", "launch"] });
    expect((await asAlice.tagsStats()).data).toEqual([
      { tag: "blog-post", shortUrlsCount: 1, visitsSummary: { total: 0, nonBots: 0, bots: 0 } },
      { tag: "launch", shortUrlsCount: 1, visitsSummary: { total: 3, nonBots: 2, bots: 1 } },
    ]);
    const before = await snapshot();
    expect(await refusal(asAlice.editTag({ oldName: "launch", newName: "blog-post" }))).toEqual(
      problem("tag-conflict", 409, { oldName: "launch", newName: "blog-post" }),
    );
    expect(await refusal(asAlice.editTag({ oldName: "nope", newName: "other" }))).toEqual(
      problem("tag-not-found", 404),
    );
    expect(await snapshot()).toEqual(before);
    await asAlice.editTag({ oldName: "launch", newName: "started" });
    expect((await asAlice.listTags()).data).toEqual(["blog-post", "started"]);
    // Bob's "launch" is his own.
    expect((await asBob.listTags()).data).toEqual(["launch"]);
    await asAlice.deleteTags(["started"]);
    expect((await asAlice.listTags()).data).toEqual(["blog-post"]);
    expect((await asBob.listTags()).data).toEqual(["launch"]);
  });

  it("lists the caller's domains and edits the redirects of a domain assigned to them", async () => {
    const nothing = { baseUrlRedirect: null, regular404Redirect: null, invalidShortUrlRedirect: null };
    expect(await asBob.listDomains()).toEqual({
      data: [{ domain: "sho.rt", isDefault: true, redirects: nothing }],
      defaultRedirects: nothing,
    });
    const redirects = {
      baseUrlRedirect: "https://example.com/home",
      invalidShortUrlRedirect: "https://example.com/404",
    };
    expect(await asAlice.editDomainRedirects({ domain: OWN_DOMAIN, ...redirects })).toEqual({
      ...redirects,
      regular404Redirect: null,
    });
    expect((await asAlice.listDomains()).data).toEqual([
      { domain: "sho.rt", isDefault: true, redirects: nothing },
      { domain: OWN_DOMAIN, isDefault: false, redirects: { ...redirects, regular404Redirect: null } },
    ]);
    const before = await snapshot();
    expect(await refusal(asBob.editDomainRedirects({ domain: OWN_DOMAIN, baseUrlRedirect: null }))).toEqual(
      problem("domain-not-found", 404),
    );
    expect(
      await refusal(
        asAlice.editDomainRedirects({ domain: "sho.rt", baseUrlRedirect: "https://example.com/" }),
      ),
    ).toEqual(problem("forbidden-operation", 403));
    expect(await snapshot()).toEqual(before);
  });

  it("deletes a short URL: gone from both APIs", async () => {
    await asAlice.deleteShortUrl({ shortCode: "one" });
    expect(await refusal(asAlice.getShortUrl({ shortCode: "one" }))).toEqual(
      problem("short-url-not-found", 404),
    );
    const mine = await ctx.app.inject({ method: "GET", url: "/api/shorts", headers: alice.headers });
    expect(mine.json().map((short: { name: string }) => short.name)).not.toContain("one");
  });
});

describe("concurrency", () => {
  it("visits arriving while a short's visits are deleted: its counts still equal its rows, in both APIs", async () => {
    const visits = Array.from({ length: 20 }, () => visit("bobs"));
    const [deleted] = await Promise.all([asBob.deleteShortUrlVisits({ shortCode: "bobs" }), ...visits]);
    expect(deleted.deletedVisits).toBeGreaterThanOrEqual(1);
    const rows = (await asBob.getShortUrlVisits({ shortCode: "bobs" })).pagination.totalItems;
    expect(rows).toBeLessThanOrEqual(20);
    expect((await asBob.getShortUrl({ shortCode: "bobs" })).visitsSummary.total).toBe(rows);
    const listed = await ctx.app.inject({ method: "GET", url: "/api/shorts", headers: bob.headers });
    expect(listed.json()[0].visits).toBe(rows);
    const stats = await ctx.app.inject({ method: "GET", url: "/api/stats", headers: bob.headers });
    expect(stats.json().totals.visits).toBe(rows);
  });
});

describe("long lists", () => {
  it("refuses all of more than 5,000 visits at once, and pages through them", async () => {
    const bobs = await ctx.prisma.short.findFirst({ where: { userId: bob.id, name: "bobs" } });
    const stored = (await asBob.getShortUrlVisits({ shortCode: "bobs" })).pagination.totalItems;
    // The rows with their hourly aggregates, as a batch of visits stores them: a short's visit
    // list counts its hours (docs/adr/0285).
    await ctx.prisma.$executeRaw`
      WITH stored AS (
        INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer")
        SELECT ${bobs!.id}::uuid, '', 'agent', '' FROM generate_series(1, 5001) RETURNING "short_id", "created_at"
      )
      INSERT INTO "shortener"."visit_hours" AS h ("short_id", "hour", "visits", "humans", "visitors")
      SELECT "short_id", date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*), count(*), 0
        FROM stored GROUP BY 1, 2
      ON CONFLICT ("short_id", "hour") DO UPDATE SET "visits" = h."visits" + excluded."visits", "humans" = h."humans" + excluded."humans"`;
    expect(await refusal(asBob.getShortUrlVisits({ shortCode: "bobs" }, { itemsPerPage: -1 }))).toEqual(
      problem("invalid-data", 400, { invalidElements: ["itemsPerPage"] }),
    );
    const last = await asBob.getShortUrlVisits({ shortCode: "bobs" }, { page: 2, itemsPerPage: 5000 });
    expect(last.pagination).toEqual({
      currentPage: 2,
      pagesCount: 2,
      itemsPerPage: 5000,
      itemsInCurrentPage: stored + 1,
      totalItems: stored + 5001,
    });
  });
});

describe("search", () => {
  it("finds by name, URL, title, tag and domain, literally, through the trigram index (docs/adr/0277)", async () => {
    const carol = await newUser(ctx.prisma);
    const asCarol = client(carol.token);
    // 20,000 shorts, so that the planner would rather read the index than every short of hers.
    await ctx.prisma.$executeRaw`
      INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url", "tags", "title")
      SELECT gen_random_uuid(), ${carol.id}::uuid, 'c' || i, 'https://example.com/page/' || md5(i::text),
             ARRAY['t' || (i % 50)]::varchar(32)[], CASE WHEN i % 2 = 0 THEN 'Page ' || i END
        FROM generate_series(1, 20000) AS i`;
    await ctx.prisma.$executeRaw`ANALYZE "shortener"."shorts"`;
    for (const [customSlug, longUrl, extra] of [
      ["needle-name", "https://example.com/a", {}],
      ["in-url", "https://example.com/needle-in-the-url", {}],
      ["in-title", "https://example.com/b", { title: "A Needle in the title" }],
      ["in-tag", "https://example.com/c", { tags: ["needle-tag"] }],
      ["percent", "https://example.com/100%25_off", {}],
    ] as const) {
      await asCarol.createShortUrl({ longUrl, customSlug, ...extra });
    }
    const found = async (searchTerm: string) => {
      const list = await asCarol.listShortUrls({ searchTerm, itemsPerPage: 50 });
      return {
        codes: list.data.map((url: ShortUrl) => url.shortCode).sort(),
        total: list.pagination.totalItems,
      };
    };
    expect(await found("NEEDLE")).toEqual({
      codes: ["in-tag", "in-title", "in-url", "needle-name"],
      total: 4,
    });
    expect(await found("needle-tag")).toEqual({ codes: ["in-tag"], total: 1 });
    // LIKE's wildcards are matched as themselves.
    expect(await found("%25_")).toEqual({ codes: ["percent"], total: 1 });
    expect(await found("c19999")).toEqual({ codes: ["c19999"], total: 1 });
    // A term spanning two columns (a name, then its URL) matches neither.
    expect(await found("needle-name https")).toEqual({ codes: [], total: 0 });
    // Nor one spanning two tags, or a title's words and a tag.
    await asCarol.createShortUrl({
      longUrl: "https://example.com/d",
      customSlug: "two-tags",
      tags: ["alpha-tag", "beta-tag"],
      title: "Gamma words",
    });
    expect(await found("alpha-tag beta")).toEqual({ codes: [], total: 0 });
    expect(await found("words alpha")).toEqual({ codes: [], total: 0 });
    expect(await found("gamma WORDS")).toEqual({ codes: ["two-tags"], total: 1 });
    // With every tag asked for, tag names are not searched: a term only a tag has finds nothing.
    const withAllTags = async (searchTerm: string, tags: string[]) =>
      (await asCarol.listShortUrls({ searchTerm, tags, tagsMode: "all", itemsPerPage: 50 })).data.map(
        (url: ShortUrl) => url.shortCode,
      );
    expect(await withAllTags("beta", ["alpha-tag", "beta-tag"])).toEqual([]);
    expect(await withAllTags("gamma", ["alpha-tag", "beta-tag"])).toEqual(["two-tags"]);
    expect(await withAllTags("beta", ["alpha-tag"])).toEqual([]);
    expect(
      await asCarol.listShortUrls({ searchTerm: "beta", tags: ["alpha-tag"], tagsMode: "any" }),
    ).toMatchObject({
      data: [expect.objectContaining({ shortCode: "two-tags" })],
    });
    // The default domain's host: every short on it (Shlink searches the domain too).
    expect((await found("sho.rt")).total).toBe(20006);

    // The app's own query reads shorts_search_idx (what EXPLAIN would show: counted by PostgreSQL).
    const scans = async () =>
      Number(
        (
          await ctx.prisma.$queryRaw<{ scans: bigint }[]>`
            SELECT idx_scan AS "scans" FROM pg_stat_user_indexes WHERE indexrelname = 'shorts_search_idx'`
        )[0]!.scans,
      );
    const before = await scans();
    expect(await found("c12345")).toEqual({ codes: ["c12345"], total: 1 });
    await vi.waitFor(async () => expect(await scans()).toBeGreaterThanOrEqual(before + 2), SOON);
  });
});
