// Redirect rules (issue 39 item 2, docs/adr/0232): the first rule whose conditions all hold
// picks the target, after the window, the limit and the password; each visit records the rule,
// the stats count visits by rule, and every instance follows an edit at once. Real user agents
// of current browsers and real Accept-Language headers.
import { createPrisma, type PrismaClient } from "@app/db";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import {
  acceptedLanguages,
  type CompiledRules,
  chooseTarget,
  compileRules,
  deviceMatches,
  preferredLanguage,
  type VisitorFacts,
} from "../src/shorts/redirect-rules.ts";
import { VisitEnricher } from "../src/visits/visit-enrichment.ts";
import { newUser, postShort, setupShortener, TEST_PASSWORDS } from "./helpers.ts";

const ctx = setupShortener();

// Current browsers' user agents (late 2026 releases send these frozen/reduced forms).
const UA = {
  iphoneSafari:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  // iPad Safari asking for the mobile site, and Chrome on iPad: both name the iPad.
  ipadSafari:
    "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  ipadChrome:
    "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  androidChromePhone:
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  androidChromeTablet:
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  samsungTablet:
    "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Safari/537.36",
  windowsChrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  windowsEdge:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  windowsFirefox: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  macSafari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  macChrome:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  googlebotSmartphone:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  curl: "curl/8.5.0",
} as const;

// Browsers' own Accept-Language headers: Chrome in US English, Chrome in German, Firefox in Swiss French.
const LANG = {
  english: "en-US,en;q=0.9",
  german: "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7",
  swissFrench: "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5",
} as const;

const GB = "81.2.69.160";
const US = "8.8.8.8";
const IE = "2a00:1450:4001:80b::200e";

type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
let second: { app: ShortenerApp; prisma: PrismaClient };

beforeAll(async () => {
  owner = await newUser(ctx.prisma);
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

async function create(payload: object, user = owner) {
  const response = await postShort(ctx.app, user, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string; redirectRules?: unknown[] };
}

function go(
  path: string,
  { ua = UA.windowsChrome, lang, ip = "127.0.0.1", method = "GET" as "GET" | "HEAD", app = ctx.app } = {} as {
    ua?: string;
    lang?: string;
    ip?: string;
    method?: "GET" | "HEAD";
    app?: ShortenerApp;
  },
) {
  return app.inject({
    method,
    url: path,
    remoteAddress: ip,
    headers: { "user-agent": ua, ...(lang === undefined ? {} : { "accept-language": lang }) },
  });
}

async function locationOf(path: string, options: Parameters<typeof go>[1] = {}) {
  const response = await go(path, options);
  expect(response.statusCode, response.body).toBe(302);
  return response.headers.location;
}

/** The short's visits' rules, oldest first (null: the default target). */
async function rulesOf(shortId: string) {
  const rows = await ctx.prisma.shortLog.findMany({ where: { shortId }, orderBy: { id: "asc" } });
  return rows.map((row) => row.rule);
}

describe("device rules", () => {
  it("tell iOS, Android, other mobiles and desktops apart by real user agents", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] },
        { url: "https://example.com/android", conditions: [{ type: "device", value: "android" }] },
        { url: "https://example.com/mobile", conditions: [{ type: "device", value: "mobile" }] },
        { url: "https://example.com/desktop", conditions: [{ type: "device", value: "desktop" }] },
      ],
    });
    const expected: [string, string, number | null][] = [
      [UA.iphoneSafari, "ios", 1],
      [UA.ipadSafari, "ios", 1],
      [UA.ipadChrome, "ios", 1],
      [UA.androidChromePhone, "android", 2],
      [UA.androidChromeTablet, "android", 2],
      [UA.samsungTablet, "android", 2],
      [UA.windowsChrome, "desktop", 4],
      [UA.windowsEdge, "desktop", 4],
      [UA.windowsFirefox, "desktop", 4],
      [UA.macSafari, "desktop", 4],
      [UA.macChrome, "desktop", 4],
      // A crawler posing as a phone is sent as the phone; a bot otherwise is no desktop.
      [UA.googlebotSmartphone, "android", 2],
      [UA.curl, "default", null],
    ];
    for (const [ua, target] of expected) {
      expect(await locationOf(`/${short.name}`, { ua }), ua).toBe(`https://example.com/${target}`);
    }
    expect(await rulesOf(short.id)).toEqual(expected.map(([, , rule]) => rule));
  });

  it("counts tablets and phones of any system as mobile", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/mobile", conditions: [{ type: "device", value: "mobile" }] },
      ],
    });
    for (const ua of [UA.iphoneSafari, UA.ipadChrome, UA.androidChromePhone, UA.samsungTablet]) {
      expect(await locationOf(`/${short.name}`, { ua }), ua).toBe("https://example.com/mobile");
    }
    for (const ua of [UA.windowsEdge, UA.macSafari, UA.curl]) {
      expect(await locationOf(`/${short.name}`, { ua }), ua).toBe("https://example.com/default");
    }
  });
});

describe("language rules", () => {
  it("follow Accept-Language with its q-values, as browsers send it", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/de", conditions: [{ type: "language", value: "de" }] },
        { url: "https://example.com/fr", conditions: [{ type: "language", value: "fr" }] },
      ],
    });
    const cases: [string | undefined, string][] = [
      [LANG.english, "default"],
      [LANG.german, "de"],
      // fr-CH comes first; de is acceptable too, but later.
      [LANG.swissFrench, "fr"],
      ["en;q=0.8, de;q=0.9", "de"],
      ["fr;q=0, de;q=0.1", "de"],
      ["de;q=0", "default"],
      ["*", "default"],
      ["DE-at", "de"],
      [undefined, "default"],
      ["", "default"],
    ];
    for (const [lang, target] of cases) {
      expect(await locationOf(`/${short.name}`, { lang }), String(lang)).toBe(
        `https://example.com/${target}`,
      );
    }
  });

  it("a region's tag matches only that region; the general tag matches every region", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/pt-br", conditions: [{ type: "language", value: "pt-BR" }] },
        { url: "https://example.com/pt", conditions: [{ type: "language", value: "pt" }] },
      ],
    });
    expect(await locationOf(`/${short.name}`, { lang: "pt-BR,pt;q=0.9" })).toBe("https://example.com/pt-br");
    expect(await locationOf(`/${short.name}`, { lang: "pt-br" })).toBe("https://example.com/pt-br");
    expect(await locationOf(`/${short.name}`, { lang: "pt-PT,pt;q=0.9" })).toBe("https://example.com/pt");
    expect(await locationOf(`/${short.name}`, { lang: "pt" })).toBe("https://example.com/pt");
  });
});

describe("country and query rules", () => {
  it("send by the address's country, from IPv4 and IPv6", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/gb", conditions: [{ type: "country", value: "GB" }] },
        { url: "https://example.com/us", conditions: [{ type: "country", value: "US" }] },
        { url: "https://example.com/ie", conditions: [{ type: "country", value: "IE" }] },
      ],
    });
    expect(await locationOf(`/${short.name}`, { ip: GB })).toBe("https://example.com/gb");
    expect(await locationOf(`/${short.name}`, { ip: US })).toBe("https://example.com/us");
    expect(await locationOf(`/${short.name}`, { ip: IE })).toBe("https://example.com/ie");
    expect(await locationOf(`/${short.name}`, { ip: `::ffff:${GB}` })).toBe("https://example.com/gb");
    expect(await locationOf(`/${short.name}`, { ip: "10.1.2.3" })).toBe("https://example.com/default");
  });

  it("match a query parameter's exact value, any of a repeated one's", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        {
          url: "https://example.com/news",
          conditions: [{ type: "query", param: "utm_source", value: "newsletter" }],
        },
        { url: "https://example.com/empty", conditions: [{ type: "query", param: "flag", value: "" }] },
      ],
    });
    const cases: [string, string][] = [
      ["?utm_source=newsletter", "news"],
      ["?a=1&utm_source=x&utm_source=newsletter", "news"],
      ["?utm_source=Newsletter", "default"],
      ["?utm_source=newsletters", "default"],
      ["?utm_source=news%6Cetter", "news"],
      ["?flag", "empty"],
      ["?flag=", "empty"],
      ["", "default"],
      ["?constructor=newsletter", "default"],
    ];
    for (const [query, target] of cases) {
      expect(await locationOf(`/${short.name}${query}`), query).toBe(`https://example.com/${target}`);
    }
  });
});

describe("rule order", () => {
  it("the first rule whose conditions all hold wins; none: the default target", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        {
          url: "https://example.com/ios-de",
          conditions: [
            { type: "device", value: "ios" },
            { type: "language", value: "de" },
          ],
        },
        { url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] },
        { url: "https://example.com/ref", conditions: [{ type: "query", param: "ref", value: "x" }] },
        { url: "https://example.com/never", conditions: [{ type: "device", value: "ios" }] },
      ],
    });
    const path = `/${short.name}`;
    expect(await locationOf(path, { ua: UA.iphoneSafari, lang: LANG.german })).toBe(
      "https://example.com/ios-de",
    );
    expect(await locationOf(path, { ua: UA.iphoneSafari, lang: LANG.english })).toBe(
      "https://example.com/ios",
    );
    expect(await locationOf(`${path}?ref=x`, { ua: UA.iphoneSafari })).toBe("https://example.com/ios");
    expect(await locationOf(`${path}?ref=x`, { ua: UA.windowsFirefox })).toBe("https://example.com/ref");
    expect(await locationOf(path, { ua: UA.windowsFirefox, lang: LANG.german })).toBe(
      "https://example.com/default",
    );
    expect(await rulesOf(short.id)).toEqual([1, 2, 2, 3, null]);
  });

  it("HEAD answers the same Location and stores no visit", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [{ url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] }],
    });
    const head = await go(`/${short.name}`, { method: "HEAD", ua: UA.iphoneSafari });
    expect([head.statusCode, head.headers.location]).toEqual([302, "https://example.com/ios"]);
    expect(await rulesOf(short.id)).toEqual([]);
  });
});

describe("the window, the visit limit and the password come first", () => {
  const rules = [{ url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] }];

  it("outside the window: the expired URL, no visit", async () => {
    const short = await create({
      url: "https://example.com/default",
      validUntil: "2020-01-01T00:00:00Z",
      expiredUrl: "https://example.com/over",
      redirectRules: rules,
    });
    expect(await locationOf(`/${short.name}`, { ua: UA.iphoneSafari })).toBe("https://example.com/over");
    expect(await rulesOf(short.id)).toEqual([]);
  });

  it("a visit limit counts visits of every rule, exactly, under parallel visits", async () => {
    const short = await create({
      url: "https://example.com/default",
      maxVisits: 7,
      expiredUrl: "https://example.com/over",
      redirectRules: rules,
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        go(`/${short.name}`, { ua: i % 2 ? UA.iphoneSafari : UA.macSafari }),
      ),
    );
    const locations = answers.map((answer) => answer.headers.location);
    const sent = locations.filter((location) => location !== "https://example.com/over");
    expect(sent).toHaveLength(7);
    const stored = await rulesOf(short.id);
    expect(stored).toHaveLength(7);
    // Each stored visit's rule is the one its answer followed.
    expect(stored.filter((rule) => rule === 1)).toHaveLength(
      sent.filter((location) => location === "https://example.com/ios").length,
    );
  });

  it("a password: the form first, then the rule's target, the query kept through the form", async () => {
    const short = await create({
      url: "https://example.com/default",
      password: "open sesame",
      redirectRules: [
        ...rules,
        { url: "https://example.com/ref", conditions: [{ type: "query", param: "ref", value: "x" }] },
      ],
    });
    const form = await go(`/${short.name}`, { ua: UA.iphoneSafari });
    expect(form.statusCode).toBe(200);
    expect(await rulesOf(short.id)).toEqual([]);
    const post = (path: string, ua: string) =>
      ctx.app.inject({
        method: "POST",
        url: path,
        headers: { "user-agent": ua, "content-type": "application/x-www-form-urlencoded" },
        payload: "password=open+sesame",
      });
    const ios = await post(`/${short.name}`, UA.iphoneSafari);
    expect([ios.statusCode, ios.headers.location]).toEqual([302, "https://example.com/ios"]);
    const ref = await post(`/${short.name}?ref=x`, UA.windowsChrome);
    expect([ref.statusCode, ref.headers.location]).toEqual([302, "https://example.com/ref"]);
    const wrong = await ctx.app.inject({
      method: "POST",
      url: `/${short.name}`,
      headers: { "user-agent": UA.iphoneSafari, "content-type": "application/x-www-form-urlencoded" },
      payload: "password=nope",
    });
    expect(wrong.statusCode).toBe(401);
    expect(await rulesOf(short.id)).toEqual([1, 2]);
  });
});

describe("the rule each visit followed", () => {
  it("is in the logs, the CSV export and the stats, which equal the rows", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] },
        { url: "https://example.com/de", conditions: [{ type: "language", value: "de" }] },
      ],
    });
    const visits: Parameters<typeof go>[1][] = [
      { ua: UA.iphoneSafari },
      { ua: UA.iphoneSafari },
      { ua: UA.windowsChrome, lang: LANG.german },
      { ua: UA.windowsChrome, lang: LANG.english },
      { ua: UA.curl, lang: LANG.german },
      { ua: UA.macSafari },
    ];
    for (const options of visits) await locationOf(`/${short.name}`, options);

    const logs = await ctx.app.inject({ url: `/api/shorts/${short.id}/logs`, headers: owner.headers });
    expect(logs.statusCode).toBe(200);
    // Newest first; the default target's visits have no rule.
    expect(logs.json().map((log: { rule?: number }) => log.rule ?? null)).toEqual([null, 2, null, 2, 1, 1]);

    const csv = await ctx.app.inject({
      url: `/api/shorts/${short.id}/logs?format=csv`,
      headers: owner.headers,
    });
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]!.split(",").at(-3)).toBe("rule");
    expect(lines.slice(1).map((line) => line.split(",").at(-3))).toEqual(["", "2", "", "2", "1", "1"]);

    const stats = await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: owner.headers });
    expect(stats.statusCode).toBe(200);
    const rows = await ctx.prisma.$queryRaw<{ value: string; visits: bigint; humans: bigint }[]>`
      SELECT coalesce("rule"::text, 'default') AS "value", count(*) AS "visits", count(*) FILTER (WHERE NOT "is_bot") AS "humans"
        FROM "shortener"."short_logs" WHERE "short_id" = ${short.id}::uuid GROUP BY 1 ORDER BY 2 DESC, 1`;
    expect(stats.json().rules).toEqual(
      rows.map((row) => ({ value: row.value, visits: Number(row.visits), humans: Number(row.humans) })),
    );
    expect(stats.json().rules).toEqual([
      { value: "1", visits: 2, humans: 2 },
      { value: "2", visits: 2, humans: 1 },
      { value: "default", visits: 2, humans: 2 },
    ]);
  });

  it("is counted only while the short has rules: none for a short without, and none before they were set", async () => {
    const short = await create({ url: "https://example.com/default" });
    await locationOf(`/${short.name}`, { ua: UA.iphoneSafari });
    const statsOf = async () =>
      (await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: owner.headers })).json();
    expect((await statsOf()).rules).toEqual([]);
    const ruleRows = () =>
      ctx.prisma.visitHourValue.count({ where: { shortId: short.id, dimension: "rule" } });
    expect(await ruleRows()).toBe(0);
    const patched = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      headers: owner.headers,
      payload: {
        redirectRules: [{ url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] }],
      },
    });
    expect(patched.statusCode).toBe(200);
    await locationOf(`/${short.name}`, { ua: UA.iphoneSafari });
    await locationOf(`/${short.name}`, { ua: UA.windowsChrome });
    const stats = await statsOf();
    expect(stats.totals.visits).toBe(3);
    expect(stats.rules).toEqual([
      { value: "1", visits: 1, humans: 1 },
      { value: "default", visits: 1, humans: 1 },
    ]);
    expect(await rulesOf(short.id)).toEqual([null, 1, null]);
  });

  it("is left out of an account's statistics and its aggregates", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(
      {
        url: "https://example.com/default",
        redirectRules: [{ url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] }],
      },
      user,
    );
    await locationOf(`/${short.name}`, { ua: UA.iphoneSafari });
    const stats = await ctx.app.inject({ url: "/api/stats", headers: user.headers });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().totals.visits).toBe(1);
    expect(stats.json()).not.toHaveProperty("rules");
    const userRows = await ctx.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS "n" FROM "shortener"."visit_user_hour_values" WHERE "dimension" = 'rule'`;
    expect(Number(userRows[0]!.n)).toBe(0);
  });

  it("stays exact under parallel redirects: rows, rules and stats agree", async () => {
    const short = await create({
      url: "https://example.com/default",
      redirectRules: [
        { url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] },
        { url: "https://example.com/android", conditions: [{ type: "device", value: "android" }] },
      ],
    });
    const agents = [UA.iphoneSafari, UA.androidChromePhone, UA.windowsEdge];
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        go(`/${short.name}`, { ua: agents[i % 3]!, app: i % 2 ? ctx.app : second.app }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).every((status) => status === 302)).toBe(true);
    const stored = await rulesOf(short.id);
    expect(stored).toHaveLength(150);
    const stats = (
      await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: owner.headers })
    ).json();
    expect(stats.totals.visits).toBe(150);
    expect(stats.rules).toEqual([
      { value: "1", visits: 50, humans: 50 },
      { value: "2", visits: 50, humans: 50 },
      { value: "default", visits: 50, humans: 50 },
    ]);
  });
});

describe("editing the rules", () => {
  it("replaces the whole list; [] and null remove it; every instance follows at once", async () => {
    const short = await create({ url: "https://example.com/default", name: "rules-edit" });
    expect(short).not.toHaveProperty("redirectRules");
    const path = "/rules-edit";
    // Both instances have the short cached, without rules.
    for (const app of [ctx.app, second.app])
      expect(await locationOf(path, { ua: UA.iphoneSafari, app })).toBe("https://example.com/default");

    const patch = (redirectRules: unknown) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/api/shorts/${short.id}`,
        headers: owner.headers,
        payload: { redirectRules },
      });
    const rules = [{ url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] }];
    const set = await patch(rules);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().redirectRules).toEqual(rules);
    expect(await locationOf(path, { ua: UA.iphoneSafari })).toBe("https://example.com/ios");
    await vi.waitFor(
      async () =>
        expect(await locationOf(path, { ua: UA.iphoneSafari, app: second.app })).toBe(
          "https://example.com/ios",
        ),
      SOON,
    );

    // Another field alone keeps the rules.
    const renamed = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      headers: owner.headers,
      payload: { tags: ["x"] },
    });
    expect(renamed.json().redirectRules).toEqual(rules);

    for (const removal of [[], null]) {
      expect((await patch(rules)).statusCode).toBe(200);
      const removed = await patch(removal);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).not.toHaveProperty("redirectRules");
      expect(
        (await ctx.prisma.short.findUniqueOrThrow({ where: { id: short.id } })).redirectRules,
      ).toBeNull();
      expect(await locationOf(path, { ua: UA.iphoneSafari })).toBe("https://example.com/default");
      await vi.waitFor(
        async () =>
          expect(await locationOf(path, { ua: UA.iphoneSafari, app: second.app })).toBe(
            "https://example.com/default",
          ),
        SOON,
      );
    }
    const read = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: owner.headers });
    expect(read.json()).not.toHaveProperty("redirectRules");
  });

  it("creates shorts with rules in bulk, and reads them back in order", async () => {
    const rules = [
      { url: "https://example.com/a", conditions: [{ type: "country", value: "GB" }] },
      {
        url: "https://example.com/b",
        conditions: [
          { type: "query", param: "p", value: "1" },
          { type: "language", value: "pt-BR" },
        ],
      },
    ];
    const bulk = await ctx.app.inject({
      method: "POST",
      url: "/api/shorts/bulk",
      headers: owner.headers,
      payload: {
        shorts: [{ url: "https://example.com/x", redirectRules: rules }, { url: "https://example.com/y" }],
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const [withRules, without] = bulk.json().results;
    expect(withRules.short.redirectRules).toEqual(rules);
    expect(without.short).not.toHaveProperty("redirectRules");
    const read = await ctx.app.inject({ url: `/api/shorts/${withRules.short.id}`, headers: owner.headers });
    expect(read.json().redirectRules).toEqual(rules);
    expect(await locationOf(`/${withRules.short.name}`, { ip: GB })).toBe("https://example.com/a");
  });
});

describe("bad rules", () => {
  const device = (value: string) => ({
    url: "https://example.com/a",
    conditions: [{ type: "device", value }],
  });
  const cases: [string, unknown, RegExp][] = [
    ["11 rules", Array.from({ length: 11 }, () => device("ios")), /at most 10 redirect rules/],
    ["empty conditions", [{ url: "https://example.com/a", conditions: [] }], /at least one condition/],
    [
      "11 conditions",
      [{ url: "https://example.com/a", conditions: Array(11).fill({ type: "device", value: "ios" }) }],
      /at most 10 conditions/,
    ],
    [
      "a lower-case country",
      [{ url: "https://example.com/a", conditions: [{ type: "country", value: "de" }] }],
      /ISO 3166-1/,
    ],
    [
      "a country name",
      [{ url: "https://example.com/a", conditions: [{ type: "country", value: "Germany" }] }],
      /ISO 3166-1/,
    ],
    ["an unknown device", [device("tablet")], /device must be one of/],
    [
      "an unknown condition",
      [{ url: "https://example.com/a", conditions: [{ type: "weekday", value: "mon" }] }],
      /type/,
    ],
    [
      "a bad language",
      [{ url: "https://example.com/a", conditions: [{ type: "language", value: "*" }] }],
      /BCP 47/,
    ],
    ["a bad URL", [{ url: "ftp://example.com/a", conditions: [{ type: "device", value: "ios" }] }], /http/],
    ["no URL", [{ conditions: [{ type: "device", value: "ios" }] }], /url/],
    [
      "an empty param",
      [{ url: "https://example.com/a", conditions: [{ type: "query", param: "", value: "x" }] }],
      /param must not be empty/,
    ],
    [
      "a lone surrogate",
      [{ url: "https://example.com/a", conditions: [{ type: "query", param: "p", value: "\ud800" }] }],
      /surrogate/,
    ],
    [
      "an extra field",
      [{ url: "https://example.com/a", conditions: [{ type: "device", value: "ios", os: "x" }] }],
      /os|unrecognized/i,
    ],
    ["not a list", { url: "https://example.com/a" }, /array/i],
  ];

  it.each(cases)(
    "refuses %s with a 400 on create and edit, storing nothing",
    async (_, redirectRules, message) => {
      const before = await ctx.prisma.short.count();
      const created = await postShort(ctx.app, owner, { url: "https://example.com/", redirectRules });
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json().error).toMatch(message);
      expect(await ctx.prisma.short.count()).toBe(before);

      const short = await create({ url: "https://example.com/", redirectRules: [device("android")] });
      const edited = await ctx.app.inject({
        method: "PATCH",
        url: `/api/shorts/${short.id}`,
        headers: owner.headers,
        payload: { redirectRules, url: "https://example.com/changed" },
      });
      expect(edited.statusCode, edited.body).toBe(400);
      const row = await ctx.prisma.short.findUniqueOrThrow({ where: { id: short.id } });
      expect([row.url, row.redirectRules]).toEqual(["https://example.com/", [device("android")]]);
    },
  );
});

describe("the matcher", () => {
  const enricher = new VisitEnricher("full");
  const facts = (
    over: Partial<{ ua: string; ip: string; lang: string; query: Record<string, string[]> }> = {},
  ): VisitorFacts => ({
    agent: () => enricher.agentOf(over.ua ?? UA.windowsChrome),
    ip: () => over.ip ?? "127.0.0.1",
    country: () => enricher.countryOf(over.ip ?? "127.0.0.1"),
    acceptLanguage: () => over.lang,
    query: (param) => over.query?.[param] ?? [],
  });
  const compiled = (rules: unknown[]) => compileRules(rules) as CompiledRules;

  it("reads Accept-Language by q-value, then order, without q=0, * or junk", () => {
    expect(acceptedLanguages(LANG.swissFrench)).toEqual(["fr-ch", "fr", "en", "de"]);
    expect(acceptedLanguages(LANG.german)).toEqual(["de-de", "de", "en-us", "en"]);
    expect(acceptedLanguages("en;q=0.5, de, fr;q=0, it;q=1.0, x_y, es;q=2, nl;q=abc")).toEqual([
      "de",
      "it",
      "en",
    ]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it("picks the visitor's preferred language among the rules' ones", () => {
    expect(preferredLanguage(acceptedLanguages(LANG.swissFrench), ["de", "fr"])).toBe("fr-ch");
    expect(preferredLanguage(acceptedLanguages(LANG.swissFrench), ["de"])).toBe("de");
    expect(preferredLanguage(acceptedLanguages(LANG.english), ["de", "fr"])).toBeUndefined();
    expect(preferredLanguage(["de-ch"], ["de-at"])).toBeUndefined();
    expect(preferredLanguage(["dex"], ["de"])).toBeUndefined();
  });

  it("classifies devices", () => {
    const of = (ua: string) =>
      (["ios", "android", "mobile", "desktop"] as const).filter((device) =>
        deviceMatches(device, enricher.agentOf(ua)),
      );
    expect(of(UA.iphoneSafari)).toEqual(["ios", "mobile"]);
    expect(of(UA.ipadSafari)).toEqual(["ios", "mobile"]);
    expect(of(UA.samsungTablet)).toEqual(["android", "mobile"]);
    expect(of(UA.androidChromeTablet)).toEqual(["android", "mobile"]);
    expect(of(UA.windowsFirefox)).toEqual(["desktop"]);
    expect(of(UA.macChrome)).toEqual(["desktop"]);
    expect(of(UA.curl)).toEqual([]);
    expect(of("")).toEqual(["desktop"]);
  });

  it("chooses the first rule that holds, asking only what the conditions need", () => {
    const rules = compiled([
      {
        url: "https://a",
        conditions: [
          { type: "country", value: "GB" },
          { type: "language", value: "en" },
        ],
      },
      { url: "https://b", conditions: [{ type: "query", param: "x", value: "1" }] },
    ]);
    expect(chooseTarget("https://d", rules, facts({ ip: GB, lang: LANG.english }))).toEqual({
      url: "https://a",
      rule: 1,
    });
    expect(
      chooseTarget("https://d", rules, facts({ ip: US, lang: LANG.english, query: { x: ["1"] } })),
    ).toEqual({
      url: "https://b",
      rule: 2,
    });
    // English is among the German browser's languages: of the rules' languages, it is the one it prefers.
    expect(chooseTarget("https://d", rules, facts({ ip: GB, lang: LANG.german }))).toEqual({
      url: "https://a",
      rule: 1,
    });
    expect(chooseTarget("https://d", rules, facts({ ip: GB, lang: "de-DE,de;q=0.9" }))).toEqual({
      url: "https://d",
      rule: null,
    });
    let asked = 0;
    const counting: VisitorFacts = {
      ...facts(),
      agent: () => {
        asked++;
        return enricher.agentOf(UA.macSafari);
      },
    };
    chooseTarget("https://d", rules, counting);
    expect(asked).toBe(0);
    const devices = compiled([
      { url: "https://a", conditions: [{ type: "device", value: "ios" }] },
      { url: "https://b", conditions: [{ type: "device", value: "desktop" }] },
    ]);
    expect(chooseTarget("https://d", devices, counting)).toEqual({ url: "https://b", rule: 2 });
    expect(asked).toBe(1);
    expect(compileRules(null)).toBeUndefined();
    expect(compileRules([])).toBeUndefined();
  });
});
