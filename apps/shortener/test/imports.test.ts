// `pnpm -s shortener import`: each source's export (a sample of each under fixtures/imports/),
// what is kept, visits one by one and totals as imported history, idempotency, bad lines, and
// two runs at once.
import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCliInProcess } from "@app/testing/cli";
import { beforeAll, describe, expect, it } from "vitest";
import { shortenerCli } from "../src/cli.ts";
import { DEFAULT_DOMAIN } from "../src/default-domain.ts";
import { csvRows } from "../src/imports/csv-rows.ts";
import { Importer } from "../src/imports/importer.ts";
import type { SourceLine } from "../src/imports/source-link.ts";
import { reservedNames } from "../src/reserved-names.ts";
import { ShortsService } from "../src/shorts/shorts.service.ts";
import { countryOf } from "../src/visits/visit-enrichment.ts";
import { VisitLog } from "../src/visits/visit-log.ts";
import { VisitMaintenance } from "../src/visits/visit-maintenance.ts";
import { newUser, postShort, setupShortener, TEST_PASSWORDS } from "./helpers.ts";

const ctx = setupShortener();
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/imports/${name}`, import.meta.url));
const cliFile = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

const env = () => ({
  DATABASE_URL: ctx.db.url,
  DATABASE_DIRECT_URL: ctx.db.directUrl,
  SHORT_BASE_URL: "https://sho.rt",
});

let tenants = 0;
/**
 * A user with a domain of their own: a name is unique per domain, and the tests import the same
 * samples, so each imports onto its own domain (unless it names another).
 */
async function tenant() {
  const user = await newUser(ctx.prisma);
  const host = `t${++tenants}.import.example`;
  const added = await runCliInProcess(
    shortenerCli,
    ["domain:add", "--domain", host, "--user", user.email],
    env(),
  );
  expect(added.code, added.stderr).toBe(0);
  return { ...user, host };
}

type Who = { email: string; host?: string };

async function importFile(file: string, from: string, who: Who, ...more: string[]) {
  const onDomain = who.host !== undefined && !more.includes("--domain") ? ["--domain", who.host] : [];
  const out = await runCliInProcess(
    shortenerCli,
    ["import", file, "--from", from, "--user", who.email, ...onDomain, ...more],
    env(),
  );
  return { code: out.code, stdout: out.stdout.trim(), stderr: out.stderr.trim() };
}

async function importJson(file: string, from: string, who: Who, ...more: string[]) {
  const out = await importFile(file, from, who, "--json", ...more);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as {
    created: number;
    skipped: number;
    failed: number;
    visits: number;
    historyVisits: number;
    problems: { place: string; reason: string }[];
  };
}

type Listed = {
  id: string;
  name: string;
  url: string;
  title?: string;
  tags?: string[];
  createdAt: string;
  visits: number;
};
async function shortsOf(user: { headers: Record<string, string> }): Promise<Listed[]> {
  const res = await ctx.app.inject({ url: "/api/shorts?limit=100&order=asc", headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function statsOf(
  user: { headers: Record<string, string> },
  id: string,
  range = "from=2000-01-01T00:00:00Z&interval=month",
) {
  const res = await ctx.app.inject({ url: `/api/shorts/${id}/stats?${range}`, headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const byName = (shorts: Listed[]) => Object.fromEntries(shorts.map((s) => [s.name, s]));

describe("pnpm shortener import: each source's export", () => {
  beforeAll(async () => {
    // As the maintenance does once it is past VISIT_RETENTION_DAYS: the partition that held
    // every month before partitioning is gone, and old months have none until an import needs it.
    await ctx.prisma.$executeRawUnsafe(
      `ALTER TABLE "shortener"."short_logs" DETACH PARTITION "shortener"."short_logs_legacy"`,
    );
    await ctx.prisma.$executeRawUnsafe(`DROP TABLE "shortener"."short_logs_legacy"`);
  });

  it("bitly: its CSV export; clicks as imported history; a target the API refuses is a failed line", async () => {
    const user = await tenant();
    const out = await importFile(fixture("bitly.csv"), "bitly", user);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      "created 2, skipped 0, failed 1; visits imported 0, added to imported history 165",
    );
    expect(out.stderr).toMatch(/^line 4: url: /);
    const shorts = byName(await shortsOf(user));
    expect(shorts["3xYzAbC"]).toMatchObject({
      url: "https://example.com/spring?utm_source=bitly&utm_medium=social",
      title: "Spring launch",
      tags: ["marketing", "spring-sale"],
      createdAt: "2024-03-01T10:15:00.000Z",
      visits: 0,
    });
    // The custom back-half is the name people share.
    expect(shorts["docs-home"]).toMatchObject({ title: "Docs, home", url: "https://docs.example.com/" });
    const stats = await statsOf(user, shorts["3xYzAbC"]!.id);
    expect(stats.importedVisits).toBe(120);
    expect(stats.totals.visits).toBe(0);
  });

  it("kutt: its API v2 JSON; a reserved name is a failed item, the others go on", async () => {
    const user = await tenant();
    const summary = await importJson(fixture("kutt.json"), "kutt", user);
    expect(summary).toMatchObject({ created: 2, skipped: 0, failed: 1, historyVisits: 17 });
    expect(summary.problems).toEqual([{ place: "item 3", reason: 'name "api" is reserved' }]);
    const shorts = byName(await shortsOf(user));
    expect(shorts.promo).toMatchObject({ title: "Winter promo", createdAt: "2024-01-05T12:00:00.000Z" });
    expect(shorts.gh).toMatchObject({ url: "https://github.com/example/project" });
    expect(shorts.gh).not.toHaveProperty("title");
    // Statistics without imported history answer as before imports existed.
    expect(await statsOf(user, shorts.gh!.id)).not.toHaveProperty("importedVisits");
  });

  it("shlink JSON: visits one by one, at their time, enriched, marked, in their month's partition, aggregates exact", async () => {
    const user = await tenant();
    const summary = await importJson(fixture("shlink.json"), "shlink", user);
    expect(summary).toMatchObject({ created: 2, failed: 0, visits: 3, historyVisits: 250 });
    const shorts = byName(await shortsOf(user));
    const store = shorts["12C18"]!;
    expect(store).toMatchObject({
      title: "The store",
      tags: ["store", "promo"],
      visits: 3,
      forwardQuery: true,
    });
    expect(store).not.toHaveProperty("crawlable");
    // As the short behaved at Shlink (docs/adr/0268).
    expect(shorts.blog).toMatchObject({ forwardQuery: true, crawlable: true });
    // Each visit keeps the URL Shlink says was visited; where it was sent, Shlink's export does not say.
    const logs = await ctx.app.inject({ url: `/api/shorts/${store.id}/logs`, headers: user.headers });
    expect(
      logs
        .json()
        .map((log: { visitedUrl?: string; redirectUrl?: string }) => [log.visitedUrl, log.redirectUrl]),
    ).toEqual([
      ["https://s.test/12C18", undefined],
      ["https://s.test/12C18", undefined],
      ["https://s.test/12C18", undefined],
    ]);
    const rows = await ctx.prisma.$queryRaw<
      {
        at: Date;
        imported: boolean;
        partition: string;
        bot: boolean;
        browser: string;
        referrerHost: string;
      }[]
    >`
      SELECT created_at AS "at", imported, tableoid::regclass::text AS "partition", is_bot AS "bot", browser,
             referrer_host AS "referrerHost"
        FROM shortener.short_logs WHERE short_id = ${store.id}::uuid ORDER BY created_at`;
    expect(rows.map((r) => [r.at.toISOString(), r.imported, r.bot])).toEqual([
      ["2026-09-11T03:00:00.000Z", true, true],
      ["2026-09-21T18:02:44.000Z", true, false],
      ["2026-10-02T09:14:03.000Z", true, false],
    ]);
    expect(rows.map((r) => r.partition.replace(/_\d\d$/, ""))).toEqual([
      "shortener.short_logs_202609",
      "shortener.short_logs_202609",
      "shortener.short_logs_202610",
    ]);
    expect(rows[2]).toMatchObject({ browser: "Chrome", referrerHost: "t.co" });
    const stats = await statsOf(
      user,
      store.id,
      "from=2026-09-01T00:00:00Z&to=2026-11-01T00:00:00Z&interval=month",
    );
    expect(stats.totals).toMatchObject({ visits: 3, humans: 2, bots: 1 });
    expect(stats.timeseries.map((b: { visits: number }) => b.visits)).toEqual([2, 1]);
    expect(stats).not.toHaveProperty("importedVisits");
    // Without its visits, a short URL's visitsSummary.total is history.
    expect((await statsOf(user, shorts.blog!.id)).importedVisits).toBe(250);
    // The account's statistics count the history of all its shorts.
    const mine = await ctx.app.inject({ url: "/api/stats?from=2026-09-01T00:00:00Z", headers: user.headers });
    expect(mine.json()).toMatchObject({ importedVisits: 250 });
  });

  it("shlink CSV: the web client's export of the short URLs", async () => {
    const user = await tenant();
    const summary = await importJson(fixture("shlink.csv"), "shlink", user);
    expect(summary).toMatchObject({ created: 2, failed: 1, historyVisits: 253 });
    expect(summary.problems[0]).toMatchObject({ place: "line 4" });
    expect(summary.problems[0]!.reason).toMatch(/^name: name must be/);
    expect(byName(await shortsOf(user))["12C18"]).toMatchObject({
      title: "The store",
      tags: ["store", "promo"],
    });
  });

  it("yourls CSV: the yourls_url table; clicks as history", async () => {
    const user = await tenant();
    const summary = await importJson(fixture("yourls.csv"), "yourls", user);
    expect(summary).toMatchObject({ created: 3, failed: 0, historyVisits: 15 });
    expect(byName(await shortsOf(user))["1"]).toMatchObject({
      url: "https://example.com/?a=1&b=2",
      title: 'Example with a "quote"',
      createdAt: "2022-01-15T08:05:09.000Z",
    });
  });

  it("yourls SQL dump: yourls_log's clicks one by one (their country from the IP), a name refused here fails", async () => {
    const user = await tenant();
    const summary = await importJson(fixture("yourls.sql"), "yourls", user);
    expect(summary).toMatchObject({ created: 2, failed: 1, visits: 3, historyVisits: 0 });
    expect(summary.problems[0]!.place).toMatch(/^line \d+$/);
    const shorts = byName(await shortsOf(user));
    expect(shorts.ozh).toMatchObject({
      title: "Ozh RICHARD - Blog",
      visits: 2,
      createdAt: "2021-06-30T12:00:00.000Z",
    });
    const rows = await ctx.prisma.$queryRaw<{ referer: string; country: string }[]>`
      SELECT referer, country FROM shortener.short_logs WHERE short_id = ${shorts.ozh!.id}::uuid ORDER BY created_at`;
    // "direct" is YOURLS's word for no referrer; the country is the visit log's, from the IP.
    expect(rows).toEqual([
      { referer: "", country: "GB" },
      { referer: "https://news.ycombinator.com/item?id=1", country: countryOf("2001:db8::1") },
    ]);
  });

  it("csv: the generic format; a bad line is reported with its line number and reason, the rest goes on", async () => {
    const user = await tenant();
    const out = await importFile(fixture("generic.csv"), "csv", user);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      "created 3, skipped 0, failed 2; visits imported 0, added to imported history 49",
    );
    expect(out.stderr.split("\n")).toEqual([
      expect.stringMatching(/^line 5: url: /),
      'line 6: created date "yesterday" is not a date',
    ]);
    const shorts = await shortsOf(user);
    expect(shorts.map((s) => s.name).slice(0, 2)).toEqual(["launch", "pricing"]);
    expect(shorts[2]!.name).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(shorts[2]).toMatchObject({ title: "Drawn name", url: "https://example.com/no-name" });
  });
});

describe("pnpm shortener import: idempotency, conflicts, domains", () => {
  it("the same file twice gives the same result; a later export adds only what is new", async () => {
    const user = await tenant();
    const first = await importJson(fixture("shlink.json"), "shlink", user);
    const before = await shortsOf(user);
    const again = await importJson(fixture("shlink.json"), "shlink", user);
    expect(again).toMatchObject({ created: 0, skipped: 2, failed: 0, visits: 0, historyVisits: 0 });
    expect(await shortsOf(user)).toEqual(before);
    expect(first.visits).toBe(3);

    // A later export: one more visit, one more short URL, a higher total.
    const dir = await mkdtemp(join(tmpdir(), "import-"));
    const later = JSON.parse(
      await (await import("node:fs/promises")).readFile(fixture("shlink.json"), "utf8"),
    );
    const [store, blog] = later.shortUrls.data;
    store.visits.visits.data.unshift({
      referer: "",
      date: "2026-11-02T10:00:00+00:00",
      userAgent: "curl/8.4.0",
      visitLocation: null,
      potentialBot: false,
    });
    blog.visitsSummary.total = 260;
    later.shortUrls.data.push({
      ...blog,
      shortCode: "new",
      longUrl: "https://example.com/new",
      visitsSummary: { total: 1 },
    });
    await writeFile(join(dir, "later.json"), JSON.stringify(later));
    const next = await importJson(join(dir, "later.json"), "shlink", user);
    expect(next).toMatchObject({ created: 1, skipped: 2, visits: 1, historyVisits: 11 });
    const shorts = byName(await shortsOf(user));
    expect(shorts["12C18"]!.visits).toBe(4);
    expect((await statsOf(user, shorts.blog!.id)).importedVisits).toBe(260);
  });

  it("a name taken on the domain by a short not from this import is a failed line, the short untouched", async () => {
    const user = await tenant();
    const made = await postShort(ctx.app, user, {
      url: "https://elsewhere.example/",
      name: "promo",
      domain: user.host,
    });
    expect(made.statusCode).toBe(201);
    const summary = await importJson(fixture("kutt.json"), "kutt", user);
    expect(summary.problems).toContainEqual({
      place: "item 1",
      reason: `name "promo" is already taken on ${user.host}`,
    });
    const shorts = byName(await shortsOf(user));
    expect(shorts.promo!.url).toBe("https://elsewhere.example/");
    expect(Object.keys(shorts).sort()).toEqual(["gh", "promo"]);
  });

  it("--domain puts the shorts on a domain the user may use; one they may not is refused, nothing created", async () => {
    const user = await newUser(ctx.prisma);
    const refused = await importFile(fixture("yourls.csv"), "yourls", user, "--domain", "nope.example");
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe('domain "nope.example" is not one you may use');
    await runCliInProcess(
      shortenerCli,
      ["domain:add", "--domain", "go.example", "--user", user.email],
      env(),
    );
    const summary = await importJson(fixture("yourls.csv"), "yourls", user, "--domain", "go.example");
    expect(await shortsOf(user)).toHaveLength(3);
    expect(summary.created).toBe(3);
    expect((await shortsOf(user)).every((s) => (s as { domain?: string }).domain === "go.example")).toBe(
      true,
    );
    // The same links into the default domain are other shorts: the key is per domain.
    expect((await importJson(fixture("yourls.csv"), "yourls", user)).created).toBe(3);
    expect(await shortsOf(user)).toHaveLength(6);
  });

  it("two runs of one file at once create each link once", async () => {
    const user = await tenant();
    const runs = await Promise.all([1, 2, 3].map(() => importJson(fixture("generic.csv"), "csv", user)));
    expect(runs.map((r) => r.created).reduce((a, b) => a + b)).toBe(3);
    expect(runs.map((r) => r.skipped).reduce((a, b) => a + b)).toBe(6);
    expect(await shortsOf(user)).toHaveLength(3);
    const [row] = await ctx.prisma.$queryRaw<{ history: bigint }[]>`
      SELECT sum(s.imported_visits)::int8 AS history FROM shortener.shorts s JOIN shortener.users u ON u.id = s.user_id
       WHERE u.email = ${user.email}`;
    expect(Number(row!.history)).toBe(49);
  });
});

describe("imported visits and their visitors", () => {
  /** The truth: each visitor once per short and UTC day, from the stored rows (as stats.test.ts). */
  async function visitorsStored(shortIds: string[]) {
    const [row] = await ctx.prisma.$queryRaw<{ visitors: bigint }[]>`
      SELECT count(DISTINCT ("short_id", "visitor", date_trunc('day', "created_at" AT TIME ZONE 'UTC'))) AS visitors
        FROM shortener.short_logs WHERE short_id = ANY(${shortIds}::uuid[]) AND visitor IS NOT NULL`;
    return Number(row!.visitors);
  }

  const RANGE = "from=2026-09-01T00:00:00Z&to=2026-11-01T00:00:00Z&interval=month";

  it("count as visitors: by address and user agent per UTC day when the source has the address, each visit when it has none", async () => {
    const user = await tenant();
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0";
    const curl = "curl/8.4.0";
    const clicks = [
      // 5 October: 81.2.69.160 with Firefox twice (one visitor), with curl (another), 8.8.8.8 (a third).
      ["2026-10-05 08:00:00", firefox, "81.2.69.160"],
      ["2026-10-05 09:30:00", firefox, "81.2.69.160"],
      ["2026-10-05 10:00:00", curl, "81.2.69.160"],
      ["2026-10-05 11:00:00", firefox, "8.8.8.8"],
      // 6 October: the first one again (a new day), and two visits with no address (one each).
      ["2026-10-06 08:00:00", firefox, "81.2.69.160"],
      ["2026-10-06 09:00:00", firefox, ""],
      ["2026-10-06 09:05:00", firefox, ""],
    ];
    const dir = await mkdtemp(join(tmpdir(), "import-"));
    const dump = join(dir, "yourls.sql");
    await writeFile(
      dump,
      `INSERT INTO \`yourls_url\` VALUES ('visited','https://example.com/v','Visited','2026-10-01 00:00:00','127.0.0.1',7);
INSERT INTO \`yourls_log\` VALUES ${clicks
        .map(([at, agent, ip], i) => `(${i + 1},'${at}','visited','direct','${agent}','${ip}','')`)
        .join(",")};
`,
    );
    expect(await importJson(dump, "yourls", user)).toMatchObject({ created: 1, visits: 7 });
    expect(await importJson(fixture("shlink.json"), "shlink", user)).toMatchObject({ created: 2, visits: 3 });

    const shorts = byName(await shortsOf(user));
    const visited = shorts.visited!.id;
    const store = shorts["12C18"]!.id;
    // Shlink exports no addresses: each of its 3 visits is a visitor.
    const expected = { [visited]: 6, [store]: 3 };
    for (const [id, visitors] of Object.entries(expected)) {
      const stats = await statsOf(user, id, RANGE);
      expect(stats.totals.uniqueVisitors, id).toBe(visitors);
      expect(await visitorsStored([id])).toBe(visitors);
    }
    // Counted in the hour of its first visit that day: 81.2.69.160 with Firefox came at 08:00.
    const morning = "from=2026-10-05T09:00:00Z&to=2026-10-06T00:00:00Z&interval=hour";
    expect((await statsOf(user, visited, morning)).totals).toMatchObject({ visits: 3, uniqueVisitors: 2 });
    const account = await ctx.app.inject({ url: `/api/stats?${RANGE}`, headers: user.headers });
    expect(account.json().totals).toMatchObject({ visits: 10, uniqueVisitors: 9 });
    expect(await visitorsStored([visited, store])).toBe(9);

    // The same files again import nothing, and count no visitor twice.
    expect(await importJson(dump, "yourls", user)).toMatchObject({ visits: 0 });
    expect((await statsOf(user, visited, RANGE)).totals.uniqueVisitors).toBe(6);
  });
});

describe("imported visits and the retention", () => {
  it("visits of months already past VISIT_RETENTION_DAYS count as imported history; the rest are stored", async () => {
    const user = await tenant();
    const day = 86_400_000;
    const now = Date.now();
    const visit = (ago: number) => ({
      at: new Date(now - ago * day),
      userAgent: "curl/8",
      referer: "",
      ipAddress: "",
    });
    async function* lines(): AsyncGenerator<SourceLine> {
      yield {
        place: "item 1",
        key: "/old",
        name: "kept-old",
        url: "https://example.com/",
        tags: [],
        visits: [visit(400), visit(200), visit(1)],
      };
    }
    const maintenance = new VisitMaintenance(ctx.prisma, { retentionDays: 90 });
    const visitLog = new VisitLog(ctx.prisma);
    const services = {
      prisma: ctx.prisma,
      shorts: new ShortsService(ctx.prisma, {
        shortBaseUrl: "https://sho.rt",
        reservedNames: reservedNames("/api"),
        passwords: TEST_PASSWORDS,
      }),
      visitLog,
      maintenance,
      retentionDays: 90,
    };
    const target = { userId: user.id, domain: DEFAULT_DOMAIN, source: "shlink" as const };
    expect(await new Importer(services, target).run(lines())).toMatchObject({
      created: 1,
      visits: 1,
      historyVisits: 2,
    });
    // Again: nothing twice, neither the history nor the visit.
    expect(await new Importer(services, target).run(lines())).toMatchObject({
      created: 0,
      skipped: 1,
      visits: 0,
      historyVisits: 0,
    });
    await visitLog.drain();
    const [short] = await shortsOf(user);
    expect(short!.visits).toBe(1);
    expect((await statsOf(user, short!.id)).importedVisits).toBe(2);
    // No partition was made for a month the maintenance would drop at once.
    const { dropped } = await maintenance.maintainPartitions();
    expect(dropped).toEqual([]);
  });
});

describe("pnpm shortener import: invocation", () => {
  it("refuses a bad invocation (exit 2) and a missing file or a file that is not the export (exit 1)", async () => {
    const user = await tenant();
    expect(
      (await runCliInProcess(shortenerCli, ["import", "--from", "csv", "--user", user.email], env())).code,
    ).toBe(2);
    const wrong = await importFile(fixture("generic.csv"), "tinyurl", user);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^--from must be one of bitly, kutt, shlink, yourls, csv/);
    const missing = await importFile("/nonexistent/export.csv", "csv", user);
    expect(missing).toMatchObject({ code: 1, stderr: "no file /nonexistent/export.csv" });
    const notKutt = await importFile(fixture("generic.csv"), "kutt", user);
    expect(notKutt.code).toBe(1);
    expect(notKutt.stderr.split("\n")).toHaveLength(1);
    const nobody = await importFile(fixture("generic.csv"), "csv", { email: "nobody@example.com" });
    expect(nobody).toMatchObject({ code: 1, stderr: "no user with e-mail nobody@example.com" });
  });

  it("runs as users run it: the compiled CLI, the summary on stdout, no progress off a terminal", async () => {
    const user = await tenant();
    const result = spawnSync(
      process.execPath,
      [
        cliFile,
        "import",
        fixture("kutt.json"),
        "--from",
        "kutt",
        "--user",
        user.email,
        "--domain",
        user.host,
      ],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env() }, encoding: "utf8" },
    );
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(
      "created 2, skipped 0, failed 1; visits imported 0, added to imported history 17",
    );
    expect(result.stderr.trim()).toBe('item 3: name "api" is reserved');
  });
});

describe("the CSV reader", () => {
  async function* chunks(...parts: string[]) {
    yield* parts;
  }
  const rows = async (...parts: string[]) => {
    const out: { line: number; fields: string[] }[] = [];
    for await (const row of csvRows(chunks(...parts))) out.push(row);
    return out;
  };

  it("reads quotes, doubled quotes and line breaks in a field, whichever chunk they fall in; each record with its first line", async () => {
    const text = 'a,b\r\n"x, ""y""","line one\nline two"\n\nlast,"q"""\n';
    const whole = await rows(text);
    expect(whole).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ['x, "y"', "line one\nline two"] },
      { line: 5, fields: ["last", 'q"'] },
    ]);
    // Cut at every position: the same records.
    for (let at = 1; at < text.length; at++) {
      expect(await rows(text.slice(0, at), text.slice(at))).toEqual(whole);
    }
  });
});
