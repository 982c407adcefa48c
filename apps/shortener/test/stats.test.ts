// Visit analytics (issue 18): every visit row is enriched in the visit-log batch, the hourly
// aggregates written with it agree with the rows, and the stats API answers exactly what a
// GROUP BY over the stored visits says: totals, unique visitors, the timeseries in a time zone
// (DST days included) and the top lists, for one short and across a user's shorts.

import { poolOf } from "@app/db";
import { SOON } from "@app/testing/timing";
import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { StatsService } from "../src/stats/stats.service.ts";
import { VisitLog } from "../src/visits/visit-log.ts";
import { VisitMaintenance } from "../src/visits/visit-maintenance.ts";
import { rollUpDay } from "../src/visits/visit-rollup.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const AGENTS = [CHROME, IPHONE, GOOGLEBOT, "curl/8.5.0", ""];
const IPS = ["81.2.69.160", "8.8.8.8", "2a00:1450:4001:80b::200e", "127.0.0.1", "81.2.69.161"];
const REFERERS = ["https://news.example.com/a?b=1", "https://WWW.Search.example/", "", "not a url"];

async function shortOf(user: Awaited<ReturnType<typeof newUser>>, name?: string) {
  const response = await postShort(ctx.app, user, {
    url: "https://example.com/target",
    ...(name ? { name } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string; visits: number };
}

function follow(name: string, i: number) {
  return ctx.app.inject({
    url: `/${name}`,
    remoteAddress: IPS[i % IPS.length]!,
    headers: { "user-agent": AGENTS[i % AGENTS.length]!, referer: REFERERS[i % REFERERS.length]! },
  });
}

/** Visits at chosen times, through the visit log itself (as the redirect stores them). */
async function visitAt(shortId: string, at: string, i = 0) {
  await ctx.app.visitLog.record({
    shortId,
    ipAddress: IPS[i % IPS.length]!,
    userAgent: AGENTS[i % AGENTS.length]!,
    referer: REFERERS[i % REFERERS.length]!,
    at: new Date(at),
  });
}

async function stats(user: { headers: Record<string, string> }, url: string) {
  const response = await ctx.app.inject({ url, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The truth: figures computed from the stored visit rows. */
async function fromRows(shortIds: string[], from: string, to: string) {
  const where = `"short_id" = ANY($1::uuid[]) AND "created_at" >= $2 AND "created_at" < $3`;
  const args = [shortIds, from, to];
  const [totals] = await ctx.prisma.$queryRawUnsafe<{ visits: bigint; humans: bigint }[]>(
    `SELECT count(*) AS visits, count(*) FILTER (WHERE NOT "is_bot") AS humans
     FROM "shortener"."short_logs" WHERE ${where}`,
    ...args,
  );
  // A visitor counts once per short and UTC day, in the hour of its first visit that day.
  const [unique] = await ctx.prisma.$queryRawUnsafe<{ visitors: bigint }[]>(
    `SELECT count(*) AS visitors FROM (
       SELECT min("created_at") AS first FROM "shortener"."short_logs"
       WHERE "short_id" = ANY($1::uuid[]) AND "visitor" IS NOT NULL
       GROUP BY "short_id", "visitor", date_trunc('day', "created_at" AT TIME ZONE 'UTC')
     ) AS f WHERE first >= $2 AND first < $3`,
    ...args,
  );
  const top = async (column: string) =>
    (
      await ctx.prisma.$queryRawUnsafe<{ value: string; visits: bigint; humans: bigint }[]>(
        `SELECT "${column}" AS value, count(*) AS visits, count(*) FILTER (WHERE NOT "is_bot") AS humans
         FROM "shortener"."short_logs" WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
        ...args,
      )
    ).map((row) => ({ value: row.value, visits: Number(row.visits), humans: Number(row.humans) }));
  return {
    totals: {
      visits: Number(totals!.visits),
      humans: Number(totals!.humans),
      bots: Number(totals!.visits - totals!.humans),
      uniqueVisitors: Number(unique!.visitors),
    },
    referrers: await top("referrer_host"),
    countries: await top("country"),
    browsers: await top("browser"),
    os: await top("os"),
    devices: await top("device"),
  };
}

/** Raw visits per bucket: each visit in the bucket its UTC hour's start falls in, in `zone`. */
/**
 * The documented rule, read literally: a bucket holds the UTC hours from the one its local start
 * falls in to the one the next bucket's falls in (in a zone a quarter or half hour off UTC,
 * the hour in which local midnight falls belongs to the new day).
 */
async function bucketsFromRows(shortIds: string[], from: string, to: string, interval: string, zone: string) {
  const rows = await ctx.prisma.$queryRawUnsafe<{ instant: Date; visits: bigint }[]>(
    `WITH buckets AS (
       SELECT b AT TIME ZONE $5 AS "start" FROM generate_series(
         date_trunc($4, ($2::timestamptz - interval '1 month') AT TIME ZONE $5),
         ($3::timestamptz + interval '1 month') AT TIME ZONE $5, ('1 ' || $4)::interval) AS b
     )
     SELECT (SELECT max("start") FROM buckets WHERE date_trunc('hour', "start") <= date_trunc('hour', l."created_at"))
       AS instant, count(*) AS visits
     FROM "shortener"."short_logs" l
     WHERE "short_id" = ANY($1::uuid[]) AND "created_at" >= $2 AND "created_at" < $3 GROUP BY 1`,
    shortIds,
    from,
    to,
    interval,
    zone,
  );
  return new Map(rows.map((row) => [row.instant.getTime(), Number(row.visits)]));
}

describe("enrichment", () => {
  it("stores bot, browser, OS, device, country and referrer host with each visit", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    for (let i = 0; i < 5; i++) expect((await follow(short.name, i)).statusCode).toBe(302);
    const logs = await ctx.app.inject({ url: `/api/shorts/${short.id}/logs`, headers: user.headers });
    const byAgent = Object.fromEntries(
      (logs.json() as Record<string, unknown>[]).map((log) => [log.userAgent as string, log]),
    );
    expect(byAgent[CHROME]).toMatchObject({
      isBot: false,
      browser: "Chrome",
      os: "Windows",
      device: "desktop",
      country: "GB",
      referrerHost: "news.example.com",
      ipAddress: "81.2.69.160",
    });
    expect(byAgent[IPHONE]).toMatchObject({
      isBot: false,
      browser: "Mobile Safari",
      os: "iOS",
      device: "mobile",
      country: "US",
      referrerHost: "www.search.example",
    });
    expect(byAgent[GOOGLEBOT]).toMatchObject({ isBot: true, device: "bot", country: "IE", referrerHost: "" });
    expect(byAgent["curl/8.5.0"]).toMatchObject({ isBot: true, country: "", referrerHost: "" });
    expect(byAgent[""]).toMatchObject({ isBot: false, browser: "", os: "", device: "", country: "GB" });
    // The visitor hash is stored, never returned.
    expect(Object.keys(byAgent[CHROME]!)).not.toContain("visitor");
  });
});

describe("stats of one short", () => {
  it("equal a GROUP BY over the stored visits after a burst of parallel redirects", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => follow(short.name, i)));
    expect(answers.every((answer) => answer.statusCode === 302)).toBe(true);
    const body = await stats(user, `/api/shorts/${short.id}/stats?interval=hour`);
    const truth = await fromRows([short.id], body.from, body.to);
    expect(body.totals).toEqual(truth.totals);
    expect(body.totals).toMatchObject({ visits: 200, humans: 120, bots: 80 });
    // Five IPs cycling with five agents: 5 distinct (IP, agent) pairs.
    expect(body.totals.uniqueVisitors).toBe(5);
    for (const list of ["referrers", "countries", "browsers", "os", "devices"] as const) {
      expect(body[list], list).toEqual(truth[list]);
    }
    expect(body.timeseries.reduce((sum: number, bucket: { visits: number }) => sum + bucket.visits, 0)).toBe(
      200,
    );
    // The short's own visit count agrees, in the list and alone.
    const got = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: user.headers });
    expect(got.json().visits).toBe(200);
    const list = await ctx.app.inject({ url: "/api/shorts", headers: user.headers });
    expect(list.json()[0]).toMatchObject({ id: short.id, visits: 200 });
  });

  it("buckets days from local midnight in the caller's zone: 23 and 25 hours across DST", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    // Europe/London: 2026-03-29 lost an hour (01:00 GMT → 02:00 BST), 2026-10-25 gained one.
    const visits = [
      "2026-03-28T23:30:00Z", // 28 March local
      "2026-03-29T00:10:00Z", // 29 March 00:10 GMT
      "2026-03-29T22:59:00Z", // 29 March 23:59 BST
      "2026-03-29T23:00:00Z", // 30 March 00:00 BST
      "2026-10-25T00:30:00Z", // 25 October 01:30 BST
      "2026-10-25T23:30:00Z", // 25 October 23:30 GMT
      "2026-10-26T00:00:00Z", // 26 October
    ];
    for (const [i, at] of visits.entries()) await visitAt(short.id, at, i);
    const spring = await stats(
      user,
      `/api/shorts/${short.id}/stats?from=2026-03-28T00:00:00Z&to=2026-03-30T23:00:00Z&interval=day&timezone=Europe/London`,
    );
    expect(spring.timeseries.map((b: { start: string; visits: number }) => [b.start, b.visits])).toEqual([
      ["2026-03-28T00:00:00+00:00", 1],
      ["2026-03-29T00:00:00+00:00", 2],
      ["2026-03-30T00:00:00+01:00", 1],
    ]);
    const autumn = await stats(
      user,
      `/api/shorts/${short.id}/stats?from=2026-10-24T23:00:00Z&to=2026-10-27T00:00:00Z&interval=day&timezone=Europe/London`,
    );
    expect(autumn.timeseries.map((b: { start: string; visits: number }) => [b.start, b.visits])).toEqual([
      ["2026-10-25T00:00:00+01:00", 2],
      ["2026-10-26T00:00:00+00:00", 1],
    ]);
    // The 25-hour day has 25 hourly buckets, labelled in local time (01:00 twice).
    const hours = await stats(
      user,
      `/api/shorts/${short.id}/stats?from=2026-10-24T23:00:00Z&to=2026-10-26T00:00:00Z&interval=hour&timezone=Europe/London`,
    );
    expect(hours.timeseries).toHaveLength(25);
    expect(
      hours.timeseries
        .filter((b: { start: string }) => b.start.includes("T01:00:00"))
        .map((b: { start: string }) => b.start),
    ).toEqual(["2026-10-25T01:00:00+01:00", "2026-10-25T01:00:00+00:00"]);
  });

  it("every bucket, in several zones and intervals, equals the stored visits of its hours", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const start = Date.parse("2026-01-01T00:00:00Z");
    // 120 visits spread over about 100 days, at uneven hours.
    for (let i = 0; i < 120; i++) {
      await visitAt(short.id, new Date(start + ((i * 7919 * 60_000) % (100 * 86_400_000))).toISOString(), i);
    }
    // In the UTC hour that holds local midnight in Kolkata (18:30) and Kathmandu (18:15), before
    // it: a Monday's (2 March), a month's (1 April) and a Sunday's (1 March).
    for (const at of ["2026-03-01T18:05:00Z", "2026-03-31T18:10:00Z", "2026-02-28T18:14:00Z"]) {
      await visitAt(short.id, at);
    }
    const from = "2026-01-01T00:00:00Z";
    const to = "2026-04-15T00:00:00Z";
    for (const zone of [
      "UTC",
      "America/New_York",
      "Asia/Kolkata",
      "Asia/Kathmandu",
      "Australia/Lord_Howe",
      "Pacific/Chatham",
    ]) {
      for (const interval of ["day", "week", "month"]) {
        const body = await stats(
          user,
          `/api/shorts/${short.id}/stats?from=${from}&to=${to}&interval=${interval}&timezone=${zone}`,
        );
        const truth = await bucketsFromRows([short.id], from, to, interval, zone);
        const got = new Map<number, number>(
          body.timeseries
            .filter((b: { visits: number }) => b.visits > 0)
            .map((b: { start: string; visits: number }) => [Date.parse(b.start), b.visits]),
        );
        expect(got, `${zone} ${interval}`).toEqual(truth);
        expect(body.totals.visits).toBe(123);
      }
    }
  });

  it("answers ranges at the ends of years 1 and 9999, and refuses those past them with a 400", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const link = await ctx.app.inject({
      method: "POST",
      url: `/api/shorts/${short.id}/stats-link`,
      headers: user.headers,
    });
    const page = new URL(link.json().url).pathname;
    const endpoints = [`/api/shorts/${short.id}/stats`, "/api/stats", `${page}/data`];
    for (const query of [
      "to=9999-12-31T23:30:00Z", // rounded up to year 10000
      "from=9999-12-30T00:00:00Z&to=9999-12-31T00:00:00-01:00",
      "from=0000-06-01T00:00:00Z&to=0000-07-01T00:00:00Z",
      "from=0001-01-01T23:59:00Z&to=0001-01-05T00:00:00Z", // rounded down to 23:00, a day before the first
      "to=0001-01-10T00:00:00Z", // the default from, 30 days before, is in year 0
    ]) {
      for (const endpoint of endpoints) {
        const response = await ctx.app.inject({ url: `${endpoint}?${query}`, headers: user.headers });
        expect([response.statusCode, response.json().error], `${endpoint} ${query}`).toEqual([
          400,
          "the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z",
        ]);
      }
    }
    const starts = async (query: string) => {
      for (const endpoint of endpoints.slice(1)) await stats(user, `${endpoint}?${query}`);
      const body = await stats(user, `${endpoints[0]}?${query}`);
      return body.timeseries.map((bucket: { start: string }) => bucket.start);
    };
    // Year 1's first Monday is 1 January, whose midnight at +14:00 is in year 0 (1 BC) in UTC.
    expect(
      await starts("from=0001-01-02T00:00:00Z&to=0001-01-20T00:00:00Z&interval=week&timezone=Etc/GMT-14"),
    ).toEqual(["0001-01-01T00:00:00+14:00", "0001-01-08T00:00:00+14:00", "0001-01-15T00:00:00+14:00"]);
    const months = await starts(
      "from=9999-01-01T00:00:00Z&to=9999-12-31T00:00:00Z&interval=month&timezone=Etc/GMT%2B12",
    );
    expect([months.length, months[0], months.at(-1)]).toEqual([
      13,
      "9998-12-01T00:00:00-12:00",
      "9999-12-01T00:00:00-12:00",
    ]);
  });

  it("counts the 1,000 buckets a timeseries may hold exactly, whatever the interval and zone", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const DAY_MS = 86_400_000;
    const since = (from: string, days: number) => new Date(Date.parse(from) + days * DAY_MS).toISOString();
    const buckets = async (from: string, to: string, interval: string, zone = "UTC") => {
      const response = await ctx.app.inject({
        url: `/api/shorts/${short.id}/stats?from=${from}&to=${to}&interval=${interval}&timezone=${zone}`,
        headers: user.headers,
      });
      if (response.statusCode === 400) return response.json().error;
      expect(response.statusCode, response.body).toBe(200);
      return response.json().timeseries.length;
    };
    expect(await buckets("2020-01-01T00:00:00Z", since("2020-01-01T00:00:00Z", 1000), "day")).toBe(1000);
    expect(await buckets("2020-01-01T00:00:00Z", since("2020-01-01T00:00:00Z", 1001), "day")).toBe(
      "the range holds more than 1000 day buckets",
    );
    // Across DST changes: 974 local days hold 974 buckets (refused once as 974 × 24 / 23 > 1,000).
    // The last one, 31 August 2022, ends at 23:00 UTC (midnight BST).
    expect(await buckets("2020-01-01T00:00:00Z", "2022-08-31T23:00:00Z", "day", "Europe/London")).toBe(974);
    // 2020-01-06 is a Monday.
    expect(await buckets("2020-01-06T00:00:00Z", since("2020-01-06T00:00:00Z", 7000), "week")).toBe(1000);
    expect(await buckets("2020-01-06T00:00:00Z", since("2020-01-06T00:00:00Z", 7001), "week")).toBe(
      "the range holds more than 1000 week buckets",
    );
    // 1,000 months from January 1926 end in May 2009 (refused once as 671-hour months).
    expect(await buckets("1926-01-01T00:00:00Z", "2009-05-01T00:00:00Z", "month")).toBe(1000);
    expect(await buckets("1926-01-01T00:00:00Z", "2009-05-01T01:00:00Z", "month")).toBe(
      "the range holds more than 1000 month buckets",
    );
    expect(await buckets("1950-01-01T00:00:00Z", "2026-12-01T00:00:00Z", "month", "America/New_York")).toBe(
      924,
    );
  });

  it("refuses a bad query with a 400 and another user's short with a 404", async () => {
    const user = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    const short = await shortOf(user);
    for (const query of [
      "timezone=Mars/Olympus",
      "timezone=europe/london",
      "interval=year",
      "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
      "from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&interval=hour",
      "from=yesterday",
      "extra=1",
    ]) {
      const response = await ctx.app.inject({
        url: `/api/shorts/${short.id}/stats?${query}`,
        headers: user.headers,
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toHaveProperty("error");
    }
    const theirs = await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: other.headers });
    expect(theirs.statusCode).toBe(404);
  });
});

describe("stats across a user's shorts", () => {
  it("sum every short of the caller and only theirs, with the top shorts", async () => {
    const user = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    const shorts = [await shortOf(user), await shortOf(user), await shortOf(user)];
    const theirs = await shortOf(other);
    const counts = [5, 12, 3];
    await Promise.all(
      shorts.flatMap((short, s) => Array.from({ length: counts[s]! }, (_, i) => follow(short.name, i))),
    );
    await Promise.all(Array.from({ length: 7 }, (_, i) => follow(theirs.name, i)));
    const body = await stats(user, "/api/stats");
    const truth = await fromRows(
      shorts.map((short) => short.id),
      body.from,
      body.to,
    );
    expect(body.totals).toEqual(truth.totals);
    expect(body.totals.visits).toBe(20);
    expect(body.referrers).toEqual(truth.referrers);
    expect(body.shorts.map((s: { name: string; visits: number }) => [s.name, s.visits])).toEqual([
      [shorts[1]!.name, 12],
      [shorts[0]!.name, 5],
      [shorts[2]!.name, 3],
    ]);
    const all = ["countries", "browsers", "os", "devices"] as const;
    for (const list of all) expect(body[list], list).toEqual(truth[list]);

    // A deleted short leaves the account's figures at once (its rows wait for the sweep), and
    // they stay equal to the live shorts' rows while and after it runs.
    await ctx.app.visitMaintenance.stop();
    expect(
      (await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${shorts[1]!.id}`, headers: user.headers }))
        .statusCode,
    ).toBe(204);
    const live = [shorts[0]!.id, shorts[2]!.id];
    for (const moment of ["before the sweep", "after it"]) {
      const after = await stats(user, "/api/stats");
      const liveTruth = await fromRows(live, after.from, after.to);
      expect(after.totals, moment).toEqual(liveTruth.totals);
      for (const list of ["referrers", ...all] as const)
        expect(after[list], `${moment}: ${list}`).toEqual(liveTruth[list]);
      expect(
        after.shorts.map((s: { name: string }) => s.name),
        moment,
      ).toEqual([shorts[0]!.name, shorts[2]!.name]);
      await new VisitMaintenance(ctx.prisma).sweep();
    }

    const empty = await newUser(ctx.prisma);
    const none = await stats(empty, "/api/stats?interval=week");
    expect(none.totals).toEqual({ visits: 0, humans: 0, bots: 0, uniqueVisitors: 0 });
    expect(none.shorts).toEqual([]);
    expect(none.timeseries.every((b: { visits: number }) => b.visits === 0)).toBe(true);
  });
});

describe("the access log", () => {
  it("pages by id, newest first, stable while visits arrive (before=)", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    for (let i = 0; i < 25; i++) await follow(short.name, i);
    const seen: string[] = [];
    let before = "";
    for (;;) {
      const page = await ctx.app.inject({
        url: `/api/shorts/${short.id}/logs?limit=10${before ? `&before=${before}` : ""}`,
        headers: user.headers,
      });
      const rows = page.json() as { id: string }[];
      if (rows.length === 0) break;
      seen.push(...rows.map((row) => row.id));
      before = rows.at(-1)!.id;
      // Visits arriving meanwhile are newer: they never shift the pages still to come.
      await Promise.all([follow(short.name, 1), follow(short.name, 2)]);
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect([...seen].sort((a, b) => Number(b) - Number(a))).toEqual(seen);
    const bad = await ctx.app.inject({
      url: `/api/shorts/${short.id}/logs?before=abc`,
      headers: user.headers,
    });
    expect(bad.statusCode).toBe(400);
    // Every visit is older than an id above int8, which the pattern's 19 digits allow.
    const stored = await ctx.prisma.shortLog.count({ where: { shortId: short.id } });
    for (const above of ["9223372036854775808", "9999999999999999999"]) {
      const url = `/api/shorts/${short.id}/logs?limit=1000&before=${above}`;
      const json = await ctx.app.inject({ url, headers: user.headers });
      expect(json.statusCode, above).toBe(200);
      expect(json.json(), above).toHaveLength(stored);
      const csv = await ctx.app.inject({ url: `${url}&format=csv`, headers: user.headers });
      expect(
        csv.body
          .trimEnd()
          .split("\r\n")
          .slice(1)
          .map((line) => line.split(",")[0]),
      ).toEqual(json.json().map((row: { id: string }) => row.id));
    }
  });

  it("exports as CSV on format=csv or Accept: text/csv, fields escaped", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    await ctx.app.inject({
      url: `/${short.name}`,
      remoteAddress: "8.8.8.8",
      headers: { "user-agent": '=cmd|"x",\nnext', referer: "https://r.example/" },
    });
    await follow(short.name, 0);
    for (const request of [
      { url: `/api/shorts/${short.id}/logs?format=csv`, headers: user.headers },
      { url: `/api/shorts/${short.id}/logs`, headers: { ...user.headers, accept: "text/csv" } },
    ]) {
      const response = await ctx.app.inject(request);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      const lines = response.body.split("\r\n");
      expect(lines[0]).toBe(
        "id,createdAt,ipAddress,userAgent,referer,isBot,browser,os,device,country,referrerHost,rule,visitedUrl,redirectUrl",
      );
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain(",81.2.69.160,");
      expect(lines[2]).toContain(`,8.8.8.8,"'=cmd|""x"",\nnext",https://r.example/,`);
      // The URL visited and the one the visit was sent to (docs/adr/0271), last.
      for (const line of lines.slice(1, 3)) {
        expect(line).toMatch(new RegExp(`,https://sho\\.rt/${short.name},https://example\\.com/target$`));
      }
    }
    const json = await ctx.app.inject({
      url: `/api/shorts/${short.id}/logs?format=json`,
      headers: { ...user.headers, accept: "text/csv" },
    });
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    // Accept's weights decide (RFC 9110): q=0 refuses a type; the heavier wins, then the first named.
    for (const [accept, type] of [
      ["text/csv;q=0, application/json", "json"],
      ["text/csv;q=0", "json"],
      ["text/csv;q=0.1, application/json", "json"],
      ["application/json;q=0.5, text/csv", "csv"],
      ["text/csv, application/json", "csv"],
      ["application/json, text/csv", "json"],
      ["text/*", "csv"],
      ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "json"],
    ]) {
      const answer = await ctx.app.inject({
        url: `/api/shorts/${short.id}/logs`,
        headers: { ...user.headers, accept },
      });
      expect(answer.headers["content-type"], accept).toMatch(
        type === "csv" ? /^text\/csv/ : /^application\/json/,
      );
    }
  });
});

describe("the public statistics link", () => {
  it("is created by the owner only, replaced by a new one, revoked at once", async () => {
    const user = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    const short = await shortOf(user);
    await follow(short.name, 0);
    const url = `/api/shorts/${short.id}/stats-link`;
    expect((await ctx.app.inject({ method: "POST", url, headers: other.headers })).statusCode).toBe(404);
    const first = await ctx.app.inject({ method: "POST", url, headers: user.headers });
    expect(first.statusCode).toBe(201);
    const firstPath = new URL(first.json().url).pathname;
    expect(first.json().url).toMatch(/^https:\/\/sho\.rt\/stats\/[A-Za-z0-9_-]{32}$/);
    const data = await ctx.app.inject({ url: `${firstPath}/data?interval=week` });
    expect(data.statusCode).toBe(200);
    expect(data.json()).toMatchObject({ name: short.name, interval: "week", totals: { visits: 1 } });
    const page = await ctx.app.inject({ url: firstPath });
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    // Only the token's hash is stored.
    const token = firstPath.split("/").at(-1)!;
    expect(JSON.stringify(await ctx.prisma.statsLink.findMany())).not.toContain(token);

    const second = await ctx.app.inject({ method: "POST", url, headers: user.headers });
    expect(second.statusCode).toBe(201);
    expect((await ctx.app.inject({ url: firstPath })).statusCode).toBe(404);
    const secondPath = new URL(second.json().url).pathname;
    expect((await ctx.app.inject({ url: `${secondPath}/data` })).statusCode).toBe(200);

    expect((await ctx.app.inject({ method: "DELETE", url, headers: other.headers })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: "DELETE", url, headers: user.headers })).statusCode).toBe(204);
    expect((await ctx.app.inject({ method: "DELETE", url, headers: user.headers })).statusCode).toBe(404);
    for (const path of [
      secondPath,
      `${secondPath}/data`,
      "/stats/not-a-token",
      "/stats/assets/missing.js",
      // Names every plain object has (500 before: the assets were looked up in one).
      "/stats/assets/__proto__",
      "/stats/assets/constructor",
      "/stats/assets/toString",
    ]) {
      const gone = await ctx.app.inject({ url: path });
      expect(gone.statusCode, path).toBe(404);
      expect(gone.headers["content-type"], path).toMatch(/^text\/plain/);
    }
    // Its assets are served by the service itself.
    const chart = await ctx.app.inject({ url: "/stats/assets/chart.umd.min.js" });
    expect([chart.statusCode, chart.headers["content-type"]]).toEqual([
      200,
      "text/javascript; charset=utf-8",
    ]);
    // "stats" is the page's own path: no short may take it.
    const taken = await postShort(ctx.app, user, { url: "https://example.com/", name: "stats" });
    expect(taken.statusCode).toBe(400);
  });

  it("is 404, and nothing is stored, when the short is deleted while the link is created", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const deleter = new pg.Client({ connectionString: ctx.db.directUrl });
    await deleter.connect();
    try {
      // The short is deleted, not yet committed: the request finds it, then its insert waits
      // on the row (the foreign key's check) until the DELETE commits.
      await deleter.query("BEGIN");
      await deleter.query(`DELETE FROM "shortener"."shorts" WHERE "id" = $1::uuid`, [short.id]);
      const creating = ctx.app.inject({
        method: "POST",
        url: `/api/shorts/${short.id}/stats-link`,
        headers: user.headers,
      });
      await vi.waitFor(async () => {
        const waiting = await ctx.prisma.$queryRaw<unknown[]>`
          SELECT FROM pg_stat_activity WHERE "query" LIKE '%stats_links%' AND wait_event_type = 'Lock'`;
        expect(waiting.length).toBe(1);
      }, SOON);
      await deleter.query("COMMIT");
      const created = await creating;
      expect([created.statusCode, created.body]).toEqual([404, "Not Found"]);
      expect(await ctx.prisma.statsLink.count({ where: { shortId: short.id } })).toBe(0);
    } finally {
      await deleter.end();
    }
  });
});

describe("top lists over ranges of whole days and hours", () => {
  it("equal the stored visits for ranges starting and ending mid-day, within a day, and over days", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const start = Date.parse("2026-02-01T00:00:00Z");
    // Out of time order: a visitor counts in the hour of its first visit of the day, whichever
    // of its visits is stored first.
    const times = Array.from({ length: 90 }, (_, i) => start + ((i * 5333 * 60_000) % (10 * 86_400_000)));
    for (const [i, time] of times.entries()) await visitAt(short.id, new Date(time).toISOString(), i);
    for (const [from, to] of [
      ["2026-02-01T00:00:00Z", "2026-02-11T00:00:00Z"],
      ["2026-02-02T07:00:00Z", "2026-02-08T13:00:00Z"],
      ["2026-02-03T05:00:00Z", "2026-02-03T19:00:00Z"],
      ["2026-02-04T22:00:00Z", "2026-02-05T03:00:00Z"],
    ] as const) {
      const body = await stats(user, `/api/shorts/${short.id}/stats?from=${from}&to=${to}&interval=hour`);
      const truth = await fromRows([short.id], from, to);
      for (const list of ["referrers", "countries", "browsers", "os", "devices"] as const) {
        expect(body[list], `${from} ${to} ${list}`).toEqual(truth[list]);
      }
      expect(body.totals, `${from} ${to}`).toEqual(truth.totals);
    }
  });
});

describe("unique visitors, whatever the order and delay visits are stored in (docs/adr/0203, 0204)", () => {
  const HOUR = 3_600_000;
  // Yesterday at 11:00 UTC: the turn of an hour whose visitor rows the service still keeps.
  const turn = () => Math.floor(Date.now() / 86_400_000) * 86_400_000 - 13 * HOUR;
  const range = (from: number, to: number) =>
    [new Date(from).toISOString(), new Date(to).toISOString()] as const;

  /** Unique visitors over each hour around `at`, the day, and the account, with their truth. */
  async function visitorsAround(user: { headers: Record<string, string> }, shortIds: string[], at: number) {
    const figures: Record<string, [number, number]> = {};
    for (const [name, [from, to]] of [
      ["hour before", range(at - HOUR, at)],
      ["hour after", range(at, at + HOUR)],
      ["both hours", range(at - HOUR, at + HOUR)],
    ] as const) {
      const truth = (await fromRows(shortIds, from, to)).totals.uniqueVisitors;
      for (const id of shortIds) {
        const body = await stats(user, `/api/shorts/${id}/stats?from=${from}&to=${to}&interval=hour`);
        const own = (await fromRows([id], from, to)).totals.uniqueVisitors;
        figures[`${name} ${id}`] = [body.totals.uniqueVisitors, own];
      }
      figures[`${name}, account`] = [
        (await stats(user, `/api/stats?from=${from}&to=${to}`)).totals.uniqueVisitors,
        truth,
      ];
    }
    return figures;
  }

  it("counts a visitor in the hour of its first visit when a later visit was stored first", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const at = turn();
    // The visitor's 11:00:10 visit is stored, then its 10:59:50 one: it moves to 10:00.
    await visitAt(short.id, new Date(at + 10_000).toISOString(), 0);
    await visitAt(short.id, new Date(at - 10_000).toISOString(), 0);
    // A second visitor came at 11:00 only; a third at 10:59:30, and stored first, then at 11:00.
    await visitAt(short.id, new Date(at + 20_000).toISOString(), 1);
    await visitAt(short.id, new Date(at - 30_000).toISOString(), 3);
    await visitAt(short.id, new Date(at + 30_000).toISOString(), 3);
    const figures = await visitorsAround(user, [short.id], at);
    expect(figures[`hour before ${short.id}`]).toEqual([2, 2]);
    expect(figures[`hour after ${short.id}`]).toEqual([1, 1]);
    for (const [name, [got, truth]] of Object.entries(figures)) expect(got, name).toBe(truth);
  });

  it("equal the stored visits when two instances store one visitor's visits at an hour's turn at once", async () => {
    const user = await newUser(ctx.prisma);
    const shorts = [await shortOf(user), await shortOf(user)];
    const at = turn();
    // A second instance: its own batches, the same database.
    const other = new VisitLog(ctx.prisma);
    const logs = [ctx.app.visitLog, other];
    // 25 visitors (5 addresses x 5 agents), each seen just before the turn by one instance and
    // just after it by the other, on both shorts, in rounds sent at once.
    const visit = (log: VisitLog, shortId: string, time: number, visitor: number) =>
      log.record({
        shortId,
        ipAddress: IPS[visitor % IPS.length]!,
        userAgent: AGENTS[Math.floor(visitor / IPS.length) % AGENTS.length]!,
        referer: "",
        at: new Date(time),
      });
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 25 }, (_, visitor) =>
          shorts.flatMap((short, s) => [
            visit(logs[(visitor + round + s) % 2]!, short.id, at - 1_000 - round, visitor),
            visit(logs[(visitor + round + s + 1) % 2]!, short.id, at + 1_000 + round, visitor),
          ]),
        ).flat(),
      );
    }
    await other.drain();
    const figures = await visitorsAround(
      user,
      shorts.map((short) => short.id),
      at,
    );
    expect(figures[`hour before ${shorts[0]!.id}`]).toEqual([25, 25]);
    expect(figures[`hour after ${shorts[0]!.id}`]).toEqual([0, 0]);
    for (const [name, [got, truth]] of Object.entries(figures)) expect(got, name).toBe(truth);
  });

  it("keeps no visitor hash for a visit stored after the day following it, before or after its day's rows go", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    // Three days back: as an instance whose clock is days behind stores it.
    const at = turn() - 2 * 86_400_000;
    await visitAt(short.id, new Date(at).toISOString(), 0);
    // The maintenance deletes the visitor rows of days before yesterday; the same person again.
    await new VisitMaintenance(ctx.prisma).maintainPartitions();
    await visitAt(short.id, new Date(at + HOUR).toISOString(), 0);
    // And yesterday, which keeps its hash.
    await visitAt(short.id, new Date(turn()).toISOString(), 0);
    const rows = await ctx.prisma.$queryRaw<{ hashed: boolean }[]>`
      SELECT "visitor" IS NOT NULL AS "hashed" FROM "shortener"."short_logs"
      WHERE "short_id" = ${short.id}::uuid ORDER BY "created_at"`;
    expect(rows.map((row) => row.hashed)).toEqual([false, false, true]);
    for (const [from, to] of [range(at - HOUR, at + 2 * HOUR), range(at - HOUR, turn() + HOUR)]) {
      const body = await stats(user, `/api/shorts/${short.id}/stats?from=${from}&to=${to}&interval=hour`);
      expect(body.totals, `${from} ${to}`).toEqual((await fromRows([short.id], from, to)).totals);
    }
    const body = await stats(
      user,
      `/api/shorts/${short.id}/stats?from=${range(at - HOUR, turn() + HOUR).join("&to=")}`,
    );
    expect(body.totals).toMatchObject({ visits: 3, uniqueVisitors: 1 });
  });
});

describe("daily rows rolled up from the hourly ones (docs/adr/0185)", () => {
  const DAY = 86_400_000;
  // Rolled up and swept here when the test says so: the app's own timers stop first.
  // The tests below hold the roll-up's locks on purpose across several steps, which a busy
  // machine may take seconds over: it waits for them as long as they need (2 s in service).
  const maintenance = () => new VisitMaintenance(ctx.prisma, { rollUpLockTimeoutMs: 60_000 });
  beforeAll(() => ctx.app.visitMaintenance.stop());

  /** Each daily table, and what a GROUP BY over the stored visits of `shortIds` says it holds. */
  async function dailyRowsAgainstVisits(userId: string, shortIds: string[], through: string) {
    // The aggregates of every visit stored so far, as a reader of them sees them (docs/adr/0234).
    await ctx.app.visitLog.settle();
    const dimension = (column: string, name: string) =>
      `SELECT "short_id", ("created_at" AT TIME ZONE 'UTC')::date AS "day", '${name}' AS "dimension",
         "${column}" AS "value", "is_bot" FROM "shortener"."short_logs"
       WHERE "short_id" = ANY($1::uuid[]) AND "created_at" < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`;
    const visits = [
      ["browser", "browser"],
      ["os", "os"],
      ["device", "device"],
      ["country", "country"],
      ["referrer_host", "referrer"],
    ]
      .map(([column, name]) => dimension(column!, name!))
      .join(" UNION ALL ");
    const query = (sql: string, ...args: unknown[]) =>
      ctx.prisma
        .$queryRawUnsafe<Record<string, unknown>[]>(sql, ...args)
        .then((rows) =>
          rows.map((row) => JSON.stringify(row, (_, v) => (typeof v === "bigint" ? Number(v) : v))).sort(),
        );
    const [day, user, shorts, totals, valueTotals, userValueTotals] = await Promise.all([
      query(
        `SELECT "short_id", "day"::text, "dimension", "value", "visits", "humans" FROM "shortener"."visit_day_values"
         WHERE "short_id" = ANY($1::uuid[]) AND "day" <= $2::date AND "visits" > 0`,
        shortIds,
        through,
      ),
      query(
        `SELECT "day"::text, "dimension", "value", "visits", "humans" FROM "shortener"."visit_user_day_values"
         WHERE "user_id" = $1::uuid AND "day" <= $2::date AND "visits" > 0`,
        userId,
        through,
      ),
      query(
        `SELECT "short_id", "day"::text, "visits", "humans" FROM "shortener"."visit_user_short_days"
         WHERE "user_id" = $1::uuid AND "day" <= $2::date AND "visits" > 0`,
        userId,
        through,
      ),
      // The totals hold the days rolled up: `through` is the last (docs/adr/0187).
      query(
        `SELECT "short_id", "visits", "humans" FROM "shortener"."visit_user_short_totals"
         WHERE "user_id" = $1::uuid AND "visits" > 0`,
        userId,
      ),
      // And per value (docs/adr/0188).
      query(
        `SELECT "short_id", "dimension", "value", "visits", "humans" FROM "shortener"."visit_value_totals"
         WHERE "short_id" = ANY($1::uuid[]) AND "visits" > 0`,
        shortIds,
      ),
      query(
        `SELECT "dimension", "value", "visits", "humans" FROM "shortener"."visit_user_value_totals"
         WHERE "user_id" = $1::uuid AND "visits" > 0`,
        userId,
      ),
    ]);
    const [dayTruth, userTruth, shortsTruth, totalsTruth, valueTotalsTruth, userValueTotalsTruth] =
      await Promise.all([
        query(
          `SELECT "short_id", "day"::text, "dimension", "value", count(*)::int AS "visits",
           count(*) FILTER (WHERE NOT "is_bot")::int AS "humans" FROM (${visits}) v GROUP BY 1, 2, 3, 4`,
          shortIds,
          through,
        ),
        query(
          `SELECT "day"::text, "dimension", "value", count(*)::int AS "visits",
           count(*) FILTER (WHERE NOT "is_bot")::int AS "humans" FROM (${visits}) v GROUP BY 1, 2, 3`,
          shortIds,
          through,
        ),
        query(
          `SELECT "short_id", "day"::text, count(*)::int AS "visits", count(*) FILTER (WHERE NOT "is_bot")::int AS "humans"
         FROM (${dimension("browser", "browser")}) v GROUP BY 1, 2`,
          shortIds,
          through,
        ),
        query(
          `SELECT "short_id", count(*)::int AS "visits", count(*) FILTER (WHERE NOT "is_bot")::int AS "humans"
         FROM (${dimension("browser", "browser")}) v GROUP BY 1`,
          shortIds,
          through,
        ),
        query(
          `SELECT "short_id", "dimension", "value", count(*)::int AS "visits",
           count(*) FILTER (WHERE NOT "is_bot")::int AS "humans" FROM (${visits}) v GROUP BY 1, 2, 3`,
          shortIds,
          through,
        ),
        query(
          `SELECT "dimension", "value", count(*)::int AS "visits",
           count(*) FILTER (WHERE NOT "is_bot")::int AS "humans" FROM (${visits}) v GROUP BY 1, 2`,
          shortIds,
          through,
        ),
      ]);
    return {
      day,
      user,
      shorts,
      totals: [...totals, ...valueTotals, ...userValueTotals],
      dayTruth,
      userTruth,
      shortsTruth,
      totalsTruth: [...totalsTruth, ...valueTotalsTruth, ...userValueTotalsTruth],
    };
  }

  /** Every daily table and the totals through `through` equal the GROUP BY; some rows exist. */
  async function expectDailyRowsEqualVisits(userId: string, shortIds: string[], through: string) {
    const tables = await dailyRowsAgainstVisits(userId, shortIds, through);
    expect(tables.day).toEqual(tables.dayTruth);
    expect(tables.user).toEqual(tables.userTruth);
    expect(tables.shorts).toEqual(tables.shortsTruth);
    expect(tables.totals).toEqual(tables.totalsTruth);
    expect(tables.day.length).toBeGreaterThan(0);
  }

  async function expectFiguresEqualVisits(
    user: Awaited<ReturnType<typeof newUser>>,
    shorts: { id: string }[],
    from: string,
    to: string,
  ) {
    const range = `from=${from}&to=${to}&interval=day`;
    for (const short of shorts) {
      const body = await stats(user, `/api/shorts/${short.id}/stats?${range}`);
      expect(body).toMatchObject(await fromRows([short.id], from, to));
    }
    const account = await stats(user, `/api/stats?${range}`);
    expect(account).toMatchObject(
      await fromRows(
        shorts.map((s) => s.id),
        from,
        to,
      ),
    );
    // The list's visit counts, every short's summed at once when ordered by them.
    const list = await ctx.app.inject({ url: "/api/shorts?orderBy=visits", headers: user.headers });
    const counts = await ctx.prisma.$queryRaw<{ short_id: string; visits: bigint }[]>`
      SELECT "short_id", count(*) AS "visits" FROM "shortener"."short_logs"
      WHERE "short_id" = ANY(${shorts.map((s) => s.id)}::uuid[]) GROUP BY 1`;
    expect(
      Object.fromEntries((list.json() as { id: string; visits: number }[]).map((s) => [s.id, s.visits])),
    ).toEqual(Object.fromEntries(counts.map((row) => [row.short_id, Number(row.visits)])));
  }

  const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

  it("rolls up each day that is over while visits arrive; every figure equals the stored visits before and after", async () => {
    const user = await newUser(ctx.prisma);
    const shorts = [await shortOf(user), await shortOf(user)];
    const today = Math.floor(Date.now() / DAY) * DAY;
    // Eleven days not rolled up yet (as after a service's long downtime).
    await ctx.prisma
      .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today - 11 * DAY)}::date, "totals_through" = ${isoDay(today - 11 * DAY)}::date`;
    let i = 0;
    for (let day = 10; day >= 1; day--) {
      for (let k = 0; k < 6; k++) {
        await visitAt(
          shorts[k % 2]!.id,
          new Date(today - day * DAY + k * 4 * 3_600_000 + 60_000).toISOString(),
          i++,
        );
      }
    }
    // The batches wrote no daily rows for these days: they come from the hours until rolled up.
    const [{ days }] = (await ctx.prisma.$queryRaw<{ days: bigint }[]>`
      SELECT count(*) AS "days" FROM "shortener"."visit_day_values"
      WHERE "short_id" = ANY(${shorts.map((s) => s.id)}::uuid[])`) as [{ days: bigint }];
    expect(Number(days)).toBe(0);
    const from = new Date(today - 12 * DAY).toISOString();
    const to = new Date(today + DAY).toISOString();
    await expectFiguresEqualVisits(user, shorts, from, to);

    // Rolled up (once earlier tests' deleted shorts are swept) while redirects store visits.
    await maintenance().sweep();
    const burst = Promise.all(Array.from({ length: 60 }, (_, n) => follow(shorts[n % 2]!.name, n)));
    const rolled = await maintenance().rollUp();
    expect((await burst).every((response) => response.statusCode === 302)).toBe(true);
    expect(rolled).toEqual(Array.from({ length: 10 }, (_, n) => isoDay(today - (10 - n) * DAY)));
    expect(await maintenance().rollUp()).toEqual([]);

    // Late visits of days rolled up: their batches write the daily rows too.
    await visitAt(shorts[0]!.id, new Date(today - 5 * DAY + 23 * 3_600_000).toISOString(), i++);
    await visitAt(shorts[1]!.id, new Date(today - 3 * DAY + 23 * 3_600_000).toISOString(), i++);

    const through = isoDay(today - DAY);
    await expectDailyRowsEqualVisits(
      user.id,
      shorts.map((s) => s.id),
      through,
    );
    await expectFiguresEqualVisits(user, shorts, from, to);
    // Ranges that end inside the rolled days, and that start in them and end today.
    await expectFiguresEqualVisits(
      user,
      shorts,
      new Date(today - 9 * DAY).toISOString(),
      new Date(today - 4 * DAY).toISOString(),
    );
    await expectFiguresEqualVisits(user, shorts, new Date(today - 3 * DAY + 5 * 3_600_000).toISOString(), to);
  });

  it("lists an account's top shorts exactly, bounded by each short's visits of all time or read whole (docs/adr/0187)", async () => {
    const user = await newUser(ctx.prisma);
    const shorts = [];
    for (let k = 0; k < 14; k++) shorts.push(await shortOf(user));
    const today = Math.floor(Date.now() / DAY) * DAY;
    const hour = 3_600_000;
    await ctx.prisma
      .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today - 9 * DAY)}::date, "totals_through" = ${isoDay(today - 9 * DAY)}::date`;
    let i = 0;
    // Four shorts busy long ago (the most visits of all time, few or none lately) ...
    for (let k = 0; k < 4; k++) {
      for (let n = 0; n < 12 - k; n++)
        await visitAt(shorts[k]!.id, new Date(today - 8 * DAY + n * hour).toISOString(), i++);
    }
    await visitAt(shorts[3]!.id, new Date(today - 2 * DAY).toISOString(), i++);
    // ... and ten busy lately, some with as many visits as others (ties go by id).
    const recent = [3, 3, 2, 2, 2, 1, 1, 4, 4, 5];
    for (let k = 4; k < 14; k++) {
      for (let n = 0; n < recent[k - 4]!; n++) {
        await visitAt(
          shorts[k]!.id,
          new Date(today - (5 - (n % 6)) * DAY + (k + n) * hour).toISOString(),
          i++,
        );
      }
    }
    await maintenance().sweep();
    expect(await maintenance().rollUp()).toHaveLength(8);
    // A late visit of a rolled-up day, and a short deleted before the sweep takes its rows.
    await visitAt(shorts[9]!.id, new Date(today - 3 * DAY + 5 * hour).toISOString(), i++);
    expect(
      (
        await ctx.app.inject({
          method: "DELETE",
          url: `/api/shorts/${shorts[13]!.id}`,
          headers: user.headers,
        })
      ).statusCode,
    ).toBe(204);
    // The same list whichever way the sums are read: each candidate's own, or every short's.
    const readWhole = new StatsService(ctx.prisma, "http://localhost", undefined, 0);
    const ranges = [
      [today - 9 * DAY, today + DAY],
      [today - 4 * DAY, today + DAY],
      [today - 8 * DAY + 7 * hour, today - 2 * DAY + 13 * hour],
      [today - 3 * DAY + 2 * hour, today - 3 * DAY + 9 * hour],
    ];
    for (const [start, end] of ranges) {
      const [from, to] = [new Date(start!).toISOString(), new Date(end!).toISOString()];
      const truth = (
        await ctx.prisma.$queryRaw<{ id: string; name: string; visits: bigint; humans: bigint }[]>`
          SELECT s."id", s."name", count(*) AS "visits", count(*) FILTER (WHERE NOT l."is_bot") AS "humans"
          FROM "shortener"."short_logs" l JOIN "shortener"."shorts" s ON s."id" = l."short_id"
          WHERE s."user_id" = ${user.id}::uuid AND l."created_at" >= ${from}::timestamptz AND l."created_at" < ${to}::timestamptz
          GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 10`
      ).map((row) => ({ ...row, visits: Number(row.visits), humans: Number(row.humans) }));
      expect(truth.length, from).toBeGreaterThan(0);
      const body = await stats(user, `/api/stats?from=${from}&to=${to}`);
      expect(body.shorts, `${from} ${to}`).toEqual(truth);
      // The account's other figures too, its deleted short's rows left out before the sweep
      // (the long ranges read the totals less the days outside them: docs/adr/0188).
      const live = shorts.slice(0, 13).map((short) => short.id);
      expect(body, `${from} ${to}`).toMatchObject(await fromRows(live, from, to));
      const whole = await readWhole.forUser(user.id, { from, to, interval: "day", timezone: "UTC" });
      expect(whole.shorts, `${from} ${to}, read whole`).toEqual(truth);
    }
    // The sweep takes the deleted short's totals with its other rows.
    const totalsOf = (shortId: string) =>
      ctx.prisma.$queryRaw<unknown[]>`
        SELECT FROM "shortener"."visit_user_short_totals" WHERE "short_id" = ${shortId}::uuid`;
    expect(await totalsOf(shorts[13]!.id)).toHaveLength(1);
    await maintenance().sweep();
    expect(await totalsOf(shorts[13]!.id)).toHaveLength(0);
  });

  it("answers exactly while days rolled up wait to be added to the totals, and adds them after", async () => {
    const user = await newUser(ctx.prisma);
    const shorts = [await shortOf(user), await shortOf(user), await shortOf(user)];
    const today = Math.floor(Date.now() / DAY) * DAY;
    await ctx.prisma.$executeRaw`UPDATE "shortener"."visit_rollup"
      SET "rolled_through" = ${isoDay(today - 4 * DAY)}::date, "totals_through" = ${isoDay(today - 4 * DAY)}::date`;
    let i = 0;
    for (let day = 3; day >= 0; day--) {
      for (let k = 0; k < 3 + day; k++) {
        await visitAt(
          shorts[(k + day) % 3]!.id,
          new Date(today - day * DAY + k * 3_600_000).toISOString(),
          i++,
        );
      }
    }
    await maintenance().sweep();
    // The roll-up's first step only: three days rolled up, none of them in the totals yet.
    const pool = poolOf(ctx.prisma);
    for (let n = 3; n >= 1; n--) expect(await rollUpDay(pool, isoDay(today))).toBe(isoDay(today - n * DAY));
    // A late visit of a day rolled up and not in the totals: the daily rows only.
    await visitAt(shorts[2]!.id, new Date(today - 2 * DAY + 20 * 3_600_000).toISOString(), i++);
    const ranges = [
      [today - 6 * DAY, today + DAY],
      [today - 3 * DAY, today],
      [today - 3 * DAY + 2 * 3_600_000, today - DAY + 5 * 3_600_000],
    ];
    const everyRange = async () => {
      for (const [from, to] of ranges) {
        const [start, end] = [new Date(from!).toISOString(), new Date(to!).toISOString()];
        await expectFiguresEqualVisits(user, shorts, start, end);
      }
    };
    await everyRange();
    expect(await maintenance().rollUp()).toEqual([]);
    const [{ through }] = (await ctx.prisma.$queryRaw<{ through: string }[]>`
      SELECT "totals_through"::text AS "through" FROM "shortener"."visit_rollup"`) as [{ through: string }];
    expect(through).toBe(isoDay(today - DAY));
    const tables = await dailyRowsAgainstVisits(
      user.id,
      shorts.map((s) => s.id),
      isoDay(today - DAY),
    );
    expect(tables.totals).toEqual(tables.totalsTruth);
    await everyRange();
  });

  it("stores recent visits of a day already rolled up (clocks apart) again, with their daily rows", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const created = await postShort(ctx.app, user, { url: "https://example.com/limited", maxVisits: 100 });
    const limited = created.json() as { id: string; name: string };
    const today = Math.floor(Date.now() / DAY) * DAY;
    await ctx.prisma
      .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today)}::date, "totals_through" = ${isoDay(today)}::date`;
    try {
      // Today's visits go without the daily writes, are refused, and go again with them; a
      // limited short's visits too, each counted once.
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, n) => follow(n < 6 ? short.name : limited.name, n)),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(302));
      const [{ count }] = (await ctx.prisma.$queryRaw<{ count: number }[]>`
        SELECT "counted_visits" AS "count" FROM "shortener"."shorts" WHERE "id" = ${limited.id}::uuid`) as [
        { count: number },
      ];
      expect(count).toBe(2);
      await expectDailyRowsEqualVisits(user.id, [short.id, limited.id], isoDay(today));
      await expectFiguresEqualVisits(
        user,
        [short, limited],
        new Date(today - DAY).toISOString(),
        new Date(today + DAY).toISOString(),
      );
    } finally {
      await ctx.prisma
        .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today - DAY)}::date, "totals_through" = ${isoDay(today - DAY)}::date`;
    }
  });

  it("stores today's visits while a day is rolled up; a visit of that day waits and writes its daily rows (docs/adr/0189)", async () => {
    const user = await newUser(ctx.prisma);
    const short = await shortOf(user);
    const created = await postShort(ctx.app, user, { url: "https://example.com/limited", maxVisits: 100 });
    expect(created.statusCode, created.body).toBe(201);
    const limited = created.json() as { id: string; name: string };
    const today = Math.floor(Date.now() / DAY) * DAY;
    const yesterday = isoDay(today - DAY);
    await maintenance().sweep();
    await ctx.prisma.$executeRaw`UPDATE "shortener"."visit_rollup"
      SET "rolled_through" = ${isoDay(today - 2 * DAY)}::date, "totals_through" = ${isoDay(today - 2 * DAY)}::date`;
    // Yesterday's visits, before the roll-up.
    let i = 0;
    for (let k = 0; k < 4; k++)
      await visitAt(short.id, new Date(today - DAY + k * 3_600_000).toISOString(), i++);
    const counted = (at: number, n: number) =>
      ctx.app.visitLog.recordCounted({
        shortId: limited.id,
        ipAddress: IPS[n % IPS.length]!,
        userAgent: AGENTS[n % AGENTS.length]!,
        referer: REFERERS[n % REFERERS.length]!,
        at: new Date(at),
      });
    await counted(today - DAY + 3_600_000, i++);

    // The roll-up is held after it closed the day: this transaction writes a daily table.
    const holder = new pg.Client({ connectionString: ctx.db.directUrl });
    await holder.connect();
    const waiting = async (table: string) => {
      const { rows } = await holder.query(
        `SELECT FROM pg_locks WHERE relation = $1::regclass AND mode = 'ShareLock' AND NOT granted`,
        [`"shortener"."${table}"`],
      );
      return rows.length;
    };
    let rolling: Promise<string[]> | undefined;
    let late: Promise<unknown> | undefined;
    let draining: Promise<unknown> | undefined;
    try {
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE "shortener"."visit_user_short_days" IN ROW EXCLUSIVE MODE`);
      rolling = maintenance().rollUp();
      await vi.waitFor(async () => expect(await waiting("visit_user_short_days")).toBe(1), SOON);
      const [{ closed }] = (await ctx.prisma.$queryRaw<{ closed: string }[]>`
        SELECT "closed_through"::text AS "closed" FROM "shortener"."visit_rollup"`) as [{ closed: string }];
      expect(closed).toBe(yesterday);
      // Today's visits, of both kinds of short, are stored meanwhile ...
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, n) => follow(n % 2 === 0 ? short.name : limited.name, n)),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(6).fill(302));
      // ... and a visit of the day being rolled up waits for the roll-up.
      let lateStored = false;
      late = visitAt(short.id, new Date(today - DAY + 20 * 3_600_000).toISOString(), i++).then(() => {
        lateStored = true;
      });
      await vi.waitFor(async () => {
        const { rows } = await holder.query(
          `SELECT FROM pg_locks WHERE relation = '"shortener"."visit_day_values"'::regclass AND NOT granted`,
        );
        expect(rows.length).toBe(1);
      }, SOON);
      expect(lateStored).toBe(false);
      // Its batch gave its slot up: today's visits behind it are stored while it waits.
      const behind = await Promise.race([
        Promise.all(Array.from({ length: 4 }, (_, n) => follow(short.name, 6 + n))),
        new Promise<"held">((resolve) => setTimeout(() => resolve("held"), SOON.timeout)),
      ]);
      expect(behind === "held" ? behind : behind.map((response) => response.statusCode)).toEqual(
        Array(4).fill(302),
      );
      expect(lateStored).toBe(false);
      // A stop now waits for it as well.
      let drained = false;
      draining = ctx.app.visitLog.drain().then(() => {
        drained = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(drained).toBe(false);
      // The roll-up was waiting all along.
      expect(await waiting("visit_user_short_days")).toBe(1);
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    await draining;
    const [{ lateRows }] = (await ctx.prisma.$queryRaw<{ lateRows: number }[]>`
      SELECT count(*)::int AS "lateRows" FROM "shortener"."short_logs"
      WHERE "short_id" = ${short.id}::uuid AND "created_at" = ${new Date(today - DAY + 20 * 3_600_000)}`) as [
      { lateRows: number },
    ];
    expect(lateRows).toBe(1);
    expect(await rolling).toEqual([yesterday]);
    await late;

    await expectDailyRowsEqualVisits(user.id, [short.id, limited.id], yesterday);
    await expectFiguresEqualVisits(
      user,
      [short, limited],
      new Date(today - 2 * DAY).toISOString(),
      new Date(today + DAY).toISOString(),
    );
    const [{ count, stored }] = (await ctx.prisma.$queryRaw<{ count: number; stored: bigint }[]>`
      SELECT s."counted_visits" AS "count", (SELECT count(*) FROM "shortener"."short_logs" l WHERE l."short_id" = s."id") AS "stored"
      FROM "shortener"."shorts" s WHERE s."id" = ${limited.id}::uuid`) as [{ count: number; stored: bigint }];
    expect(count).toBe(4);
    expect(Number(stored)).toBe(4);
  });

  it("waits while a deleted short's rows wait for the sweep", async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    await ctx.prisma
      .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today - 5 * DAY)}::date, "totals_through" = ${isoDay(today - 5 * DAY)}::date`;
    // A queued deletion that the sweep cannot take: this test's open transaction holds its row.
    const user = await newUser(ctx.prisma);
    const [queued] = await ctx.prisma.$queryRaw<{ short_id: string }[]>`
      INSERT INTO "shortener"."deleted_shorts" ("short_id", "user_id")
      VALUES (gen_random_uuid(), ${user.id}::uuid) RETURNING "short_id"`;
    const holder = new pg.Client({ connectionString: ctx.db.directUrl });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT FROM "shortener"."deleted_shorts" WHERE "short_id" = $1 FOR UPDATE`, [
        queued!.short_id,
      ]);
      expect(await maintenance().rollUp()).toEqual([]);
      await holder.query(`DELETE FROM "shortener"."deleted_shorts" WHERE "short_id" = $1`, [
        queued!.short_id,
      ]);
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    expect(await maintenance().rollUp()).toEqual([4, 3, 2, 1].map((n) => isoDay(today - n * DAY)));
  });

  it("lets a roll-up in progress finish when the service stops, and starts no further day", async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    await maintenance().sweep();
    await ctx.prisma
      .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today - 3 * DAY)}::date, "totals_through" = ${isoDay(today - 3 * DAY)}::date`;
    // The roll-up waits for this lock while the service stops.
    const holder = new pg.Client({ connectionString: ctx.db.directUrl });
    await holder.connect();
    const running = new VisitMaintenance(ctx.prisma, {
      intervalMs: 3_600_000,
      sweepIntervalMs: 3_600_000,
      rollUpLockTimeoutMs: 60_000,
    });
    try {
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE "shortener"."visit_hour_values" IN EXCLUSIVE MODE`);
      running.start();
      await vi.waitFor(async () => {
        const { rows } = await holder.query(
          `SELECT FROM pg_locks WHERE relation = '"shortener"."visit_hour_values"'::regclass AND NOT granted`,
        );
        expect(rows.length).toBe(1);
      }, SOON);
      let stopped = false;
      const stopping = running.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stopped).toBe(false);
      await holder.query("COMMIT");
      await stopping;
    } finally {
      await holder.end();
    }
    // The day in progress was rolled up and committed; the next one waits for the next start.
    const [{ through }] = (await ctx.prisma.$queryRaw<{ through: string }[]>`
      SELECT "rolled_through"::text AS "through" FROM "shortener"."visit_rollup"`) as [{ through: string }];
    expect(through).toBe(isoDay(today - 2 * DAY));
    expect(await maintenance().rollUp()).toEqual([isoDay(today - DAY)]);
  });

  it("gives way to a long transaction on the daily tables, says so, and rolls up again soon after", async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    await maintenance().sweep();
    await ctx.prisma
      .$executeRaw`UPDATE "shortener"."visit_rollup" SET "rolled_through" = ${isoDay(today - 2 * DAY)}::date, "totals_through" = ${isoDay(today - 2 * DAY)}::date`;
    const said: { level: string; msg: string }[] = [];
    const log = {
      info: () => {},
      warn: (_: object, msg: string) => said.push({ level: "warn", msg }),
      error: (_: object, msg: string) => said.push({ level: "error", msg }),
    };
    // Held past the roll-up's lock timeout (2 s in service, 200 ms here).
    const holder = new pg.Client({ connectionString: ctx.db.directUrl });
    await holder.connect();
    const running = new VisitMaintenance(ctx.prisma, {
      intervalMs: 3_600_000,
      sweepIntervalMs: 3_600_000,
      rollUpRetryMs: 100,
      rollUpLockTimeoutMs: 200,
      log,
    });
    const through = async () =>
      (
        (await ctx.prisma.$queryRaw<{ through: string }[]>`
          SELECT "rolled_through"::text AS "through" FROM "shortener"."visit_rollup"`) as [
          { through: string },
        ]
      )[0].through;
    try {
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE "shortener"."visit_hour_values" IN EXCLUSIVE MODE`);
      running.start();
      await vi.waitFor(() => expect(said.length).toBeGreaterThan(0), SOON);
      expect(said[0]).toEqual({ level: "warn", msg: expect.stringContaining("busy") });
      expect(await through()).toBe(isoDay(today - 2 * DAY));
      await holder.query("COMMIT");
      // Rolled up by the retry: the next scheduled run is an hour away.
      await vi.waitFor(async () => expect(await through()).toBe(isoDay(today - DAY)), SOON);
      expect(said.filter((line) => line.level === "error")).toEqual([]);
    } finally {
      await running.stop();
      await holder.end();
    }
  });
});
