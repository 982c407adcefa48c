// A short's visits through Shlink's API (docs/adr/0285): the page read from the hour its first
// visit is in, the count from the hourly aggregates, answer the same pages and totals as the
// rows' own order and count, which GET /rest/v3/tags/{tag}/visits still reads for a tag only
// this short has. Ties on created_at, visits on hour boundaries, date filters at and between
// visits, bots excluded, the last partial page and pages past the end, and rows dropped while
// their hours stay (as retention drops a month). And the list's JSON, written as bytes, against
// the objects it stands for.
import { beforeAll, describe, expect, it } from "vitest";
import { pagination, visitListJson } from "../src/shlink/short-url-view.ts";
import { newUser, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const HOUR = 3_600_000;
const TAG = "paged-only";

let user: Awaited<ReturnType<typeof newUser>>;
let shortId: string;
let code: string;
/** Two days back, on an hour: the visits are at and after it. */
const base = Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR;
const times: number[] = [];

async function rest(url: string) {
  const response = await ctx.app.inject({ url: `/rest/v3${url}`, headers: { "x-api-key": user.token } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { visits: { data: unknown[]; pagination: Record<string, number> } };
}

/** The short's visits page by the new path and by the rows' own (the tag's), equal. */
async function same(query: string) {
  const [byShort, byTag] = await Promise.all([
    rest(`/short-urls/${code}/visits?${query}`),
    rest(`/tags/${TAG}/visits?${query}`),
  ]);
  expect(byShort, query).toEqual(byTag);
  return byShort.visits;
}

const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  user = await newUser(ctx.prisma);
  const created = await ctx.app.inject({
    method: "POST",
    url: "/rest/v3/short-urls",
    headers: { "x-api-key": user.token },
    payload: { longUrl: "https://example.com/paged", tags: [TAG] },
  });
  expect(created.statusCode, created.body).toBe(200);
  code = created.json().shortCode;
  shortId = (await ctx.prisma.short.findFirstOrThrow({ where: { userId: user.id } })).id;
  // 41 hours of visits, 1-9 an hour (none in some), three at once on every fifth hour's start, a
  // bot every seventh; and three now.
  for (let hour = 0; hour < 41; hour++) {
    const count = hour % 6 === 5 ? 0 : 1 + ((hour * 7) % 9);
    for (let i = 0; i < count; i++) times.push(base + hour * HOUR + i * 397_001);
    if (hour % 5 === 0) times.push(base + hour * HOUR, base + hour * HOUR);
  }
  times.push(Date.now(), Date.now(), Date.now());
  await Promise.all(
    times.map((at, i) =>
      ctx.app.visitLog.record({
        shortId,
        ipAddress: `203.0.113.${i % 200}`,
        userAgent: i % 7 === 3 ? GOOGLEBOT : CHROME,
        referer: `https://ref.example/${i}`,
        at: new Date(at),
      }),
    ),
  );
});

describe("a short's visits by its hours", () => {
  it("pages as the rows' own order and count, every page of several sizes, past the end too", async () => {
    const all = await same("");
    expect(all.pagination.totalItems).toBe(times.length);
    for (const size of [1, 7, 50, times.length - 1, times.length, 5000]) {
      const pages = Math.ceil(times.length / size);
      const asked = new Set([1, 2, 3, pages - 1, pages, pages + 1].filter((page) => page >= 1));
      for (let page = 1; page <= pages; page += Math.ceil(pages / 12)) asked.add(page);
      await Promise.all([...asked].map((page) => same(`page=${page}&itemsPerPage=${size}`)));
    }
    const last = await same(`page=${Math.ceil(times.length / 7)}&itemsPerPage=7`);
    expect(last.pagination.itemsInCurrentPage).toBe(times.length % 7 || 7);
    expect((await same(`page=1000&itemsPerPage=7`)).data).toEqual([]);
  });

  it("excludes bots and filters dates as the rows do: on hours, between them, at a visit", async () => {
    const humans = await same("excludeBots=true");
    expect(humans.pagination.totalItems).toBe(times.filter((_, i) => i % 7 !== 3).length);
    const edges = [
      base,
      base + 5 * HOUR,
      base + 5 * HOUR - 1,
      base + 5 * HOUR + 1,
      base + 7 * HOUR + 397_001,
      base + 7 * HOUR + 1_000,
      base + 7 * HOUR + 1_800_000,
      base + 30 * HOUR,
      base + 40 * HOUR + 397_001,
      Date.now() + HOUR,
    ];
    let pair = 0;
    for (const from of [undefined, ...edges]) {
      const asked: Promise<unknown>[] = [];
      for (const to of [undefined, ...edges]) {
        if (from !== undefined && to !== undefined && to < from - HOUR) continue;
        const dates = [from && `startDate=${iso(from)}`, to && `endDate=${iso(to)}`]
          .filter(Boolean)
          .join("&");
        const bots = ++pair % 2 === 0 ? "&excludeBots=true" : "";
        asked.push(same(`${dates}${bots}&itemsPerPage=5&page=2`), same(`${dates}${bots}`));
      }
      await Promise.all(asked);
    }
  });

  it("counts the rows left when the oldest are dropped and their hours kept (as retention drops a month)", async () => {
    // Mid-hour, so the oldest hour left is partly gone.
    await ctx.prisma.$executeRaw`
      DELETE FROM "shortener"."short_logs" WHERE "short_id" = ${shortId}::uuid AND "created_at" < ${new Date(base + 12 * HOUR + 500_000)}`;
    const left = await same("");
    expect(left.pagination.totalItems).toBe(times.filter((at) => at >= base + 12 * HOUR + 500_000).length);
    for (let page = 1; page <= 8; page++) await same(`page=${page}&itemsPerPage=9`);
    await same(`startDate=${iso(base)}&endDate=${iso(base + 20 * HOUR)}&itemsPerPage=4&page=3`);
    await same(`endDate=${iso(base + 10 * HOUR)}`);
  });
});

describe("the visit list's JSON (docs/adr/0286)", () => {
  it("writes each visit as the objects and JSON.stringify would: every string escaped as JSON has it", () => {
    const awkward = [
      "",
      'a "quoted" \\ path',
      "tab\tnew\nline\r\u0000\u001f\u007f",
      "Zürich, 東京, 🙂",
      "lone \ud800 surrogate \udfff",
      "\u2028\u2029",
      "x".repeat(5000),
    ];
    const rows = awkward.map((text, i) => ({
      // As PostgreSQL writes a timestamp: its fraction of a second only when there is one.
      createdAt: `2026-01-02 03:04:0${i}${i % 2 ? ".678" : ""}`,
      referer: text,
      userAgent: `${text} agent`,
      isBot: i % 2 === 0,
      country: ["", "DE", "JP", "ZZ"][i % 4]!,
      visitedUrl: i % 3 === 0 ? null : `https://sho.rt/${text}`,
      redirectUrl: i % 3 === 1 ? null : text,
      kind: "name",
    }));
    const page = pagination(1, 10, rows.length, rows.length);
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    const expected = (type?: string) => ({
      visits: {
        data: rows.map((row) => ({
          referer: row.referer,
          date: `2026-01-02T03:04:0${rows.indexOf(row)}+00:00`,
          userAgent: row.userAgent,
          visitLocation:
            row.country === ""
              ? null
              : {
                  countryCode: row.country,
                  countryName: names.of(row.country),
                  regionName: "",
                  cityName: "",
                  latitude: 0,
                  longitude: 0,
                  timezone: "",
                  isEmpty: false,
                },
          potentialBot: row.isBot,
          visitedUrl: row.visitedUrl,
          redirectUrl: row.redirectUrl,
          ...(type ? { type } : {}),
        })),
        pagination: page,
      },
    });
    expect(visitListJson(rows, page).toString("utf8")).toBe(JSON.stringify(expected()));
    expect(visitListJson(rows, page, () => "invalid_short_url").toString("utf8")).toBe(
      JSON.stringify(expected("invalid_short_url")),
    );
    expect(JSON.parse(visitListJson([], page).toString("utf8"))).toEqual({
      visits: { data: [], pagination: page },
    });
  });
});
