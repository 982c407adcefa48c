// `pnpm bench`: the shortener's durable redirect and the scheduling API against bare Fastify
// baselines, measured side by side in one run. Every server runs in its own process (pinned to
// core 0 when taskset exists), the load generator (autocannon) in another (core 1); rounds are
// interleaved and medians printed with min/max, each round's figures after them, and each
// server's CPU time per answer (from /proc), which a machine shared with other work moves far
// less than req/s. Prints figures; asserts nothing.
//   pnpm bench                 3 rounds × 10 s, each after its own warm-up, 64 connections (+256 for redirects)
//   pnpm bench --quick         1 round × 2 s per row: about a minute in all, proves it works
//   pnpm bench --only redirect  only the redirect rows (or: scheduling, stats, drop, bulk,
//                               slots-team, slots-calendar, calendar-sync, bookings-concurrent, bookings-mail, startup,
//                               import, shlink, ha: the redirect on a Patroni cluster with synchronous
//                               replication), with their baselines; calendar-sync-large: only the
//                               100,000-event sync of calendar-sync
//   pnpm bench --soak 600      10 minutes of moderate load on the redirect: RSS, heap, visit queue every 30 s
// Uses DATABASE_URL when set, else an embedded PostgreSQL in a temporary folder.
import { type ChildProcess, execFileSync, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createPrisma, freePort, migrate, openDatabase, type PrismaClient, uuidv7 } from "@app/db";
import { issueApiKey } from "@app/scheduling/credentials";
import { databaseUrlKey, generateLicenseKey, sealDatabaseUrl } from "@app/scheduling/hosting/secrets";
import { SERVICE_NODE_FLAGS } from "@app/server/service-process";
import { loadConfig, readEnvironment } from "@app/shortener/config";
import { createUser } from "@app/shortener/credentials";
import pg from "pg";
import { doubleBooked, seedBookingsConcurrent, seedSlotsTeam, teamOf } from "./bench-bookings.ts";
import { calendarSyncRows } from "./bench-calendar-sync.ts";
import { confirmCalendars, seedCalendarBusy } from "./bench-calendars.ts";
import { importRows } from "./bench-import.ts";
import { messagesOf, startSmtpSink } from "./bench-mail.ts";
import { dropPartition, onlineDiscardMount, seedDroppablePartition } from "./bench-partition-drop.ts";
import { loadAllVisits, seedShlinkShorts, seedVisitedShort } from "./bench-shlink.ts";
import { startupRows } from "./bench-startup.ts";
import { seedStatsFixture } from "./bench-stats.ts";
import { type HaCluster, startHaCluster } from "./ha-cluster.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean" },
    soak: { type: "string" },
    rounds: { type: "string" },
    seconds: { type: "string" },
    only: { type: "string" },
    // Each server writes a V8 CPU profile (.cpuprofile) into this folder when it stops.
    "cpu-prof": { type: "string" },
  },
});
const CPU_PROF = values["cpu-prof"]
  ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(values["cpu-prof"])}`]
  : [];
const QUICK = values.quick === true;
const ROUNDS = Number(values.rounds ?? (QUICK ? 1 : 3));
const SECONDS = Number(values.seconds ?? (QUICK ? 2 : 10));
const root = fileURLToPath(new URL("..", import.meta.url));
const autocannon = path.join(root, "node_modules/autocannon/autocannon.js");
const pin = (() => {
  try {
    execFileSync("taskset", ["-c", "0", "true"]);
    return cpus().length > 1;
  } catch {
    return false;
  }
})();

interface Run {
  rps: number;
  /** Answers counted in the run. */
  requests: number;
  p50: number;
  p99: number;
  status: Record<string, number>;
  errors: number;
}

// wrk (Debian's package) when installed, as the issues' tables were measured: 2 threads, on
// core 1. Otherwise autocannon (a dev dependency) in its own process, pinned to core 1.
const WRK = (() => {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1.
    return (error as { status?: number }).status === 1;
  }
})();
const WRK_REPORT = path.join(root, "scripts/bench-wrk-report.lua");

/**
 * Loads `url` for `seconds`, or, with `until`, until that signal aborts (wrk and this script
 * stop on SIGINT and report what they measured).
 */
function cannon(
  url: string,
  connections: number,
  seconds: number,
  rate?: number,
  until?: AbortSignal,
  /** A Host header to send instead of the URL's (a registered domain's). */
  host?: string,
): Promise<Run> {
  if (WRK && !rate) return wrk(url, connections, until ? 3600 : seconds, until, host);
  const args = until
    ? ["-e", STOPPABLE_AUTOCANNON, autocannon, url, String(connections)]
    : [
        autocannon,
        "-j",
        "-c",
        String(connections),
        "-d",
        String(seconds),
        ...(rate ? ["-R", String(rate)] : []),
        ...(host ? ["-H", `host=${host}`] : []),
        url,
      ];
  const [command, argv] = pin
    ? ["taskset", ["-c", "1", process.execPath, ...args]]
    : [process.execPath, args];
  return collect(command, argv as string[], until, (r) => {
    const status = Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, (v as { count: number }).count]),
    );
    return {
      rps: r.requests.average,
      requests: r.requests.total,
      p50: r.latency.p50,
      p99: r.latency.p99,
      status,
      errors: r.errors + r.timeouts,
    };
  });
}

/** autocannon for an hour unless stopped by SIGINT, printing its JSON report either way. */
const STOPPABLE_AUTOCANNON = `const run = require(process.argv[1])(
  { url: process.argv[2], connections: Number(process.argv[3]), duration: 3600 },
  (error, result) => { if (error) throw error; console.log(JSON.stringify(result)); });
process.once("SIGINT", () => run.stop());`;

/** autocannon with one request header (the stats rows need a bearer token; wrk is not used). */
function cannonWithHeader(url: string, header: string, connections: number, seconds: number): Promise<Run> {
  const args = [autocannon, "-j", "-c", String(connections), "-d", String(seconds), "-H", header, url];
  const [command, argv] = pin
    ? ["taskset", ["-c", "1", process.execPath, ...args]]
    : [process.execPath, args];
  return collect(command, argv as string[], undefined, (r) => ({
    rps: r.requests.average,
    requests: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    status: Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, (v as { count: number }).count]),
    ),
    errors: r.errors + r.timeouts,
  }));
}

function wrk(
  url: string,
  connections: number,
  seconds: number,
  until?: AbortSignal,
  host?: string,
): Promise<Run> {
  const args = [
    "-t2",
    `-c${connections}`,
    `-d${seconds}s`,
    ...(host ? ["-H", `Host: ${host}`] : []),
    "-s",
    WRK_REPORT,
    url,
  ];
  // On its own core, the servers on the other (issue 39's method): wrk then never takes the
  // servers' core, and each row's figure is what one core of server answers.
  const [command, argv] = pin ? ["taskset", ["-c", "1", "wrk", ...args]] : ["wrk", args];
  return collect(command, argv as string[], until, (r) => ({
    rps: r.requests / (r.duration_us / 1e6),
    requests: r.requests,
    p50: r.p50_ms,
    p99: r.p99_ms,
    // wrk counts answers outside 2xx/3xx; every answer a bench server gives here is a 302 or a 200.
    status: {
      [url.includes("/event-types") ? "200" : "302"]: r.requests - r.bad_status,
      other: r.bad_status,
    },
    errors: r.socket_errors,
  }));
}

// The load generators' JSON reports, read loosely (autocannon's and bench-wrk-report.lua's).
// biome-ignore lint/suspicious/noExplicitAny: two external report formats, parsed field by field
type Report = Record<string, any>;

/** Runs a load generator (until `until` aborts, if given) and parses the JSON it prints last. */
function collect(
  command: string,
  argv: string[],
  until: AbortSignal | undefined,
  parse: (report: Report) => Run,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "ignore"] });
    until?.addEventListener("abort", () => child.kill("SIGINT"), { once: true });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", () => {
      try {
        resolve(parse(JSON.parse(out.trim().split("\n").at(-1) ?? "")));
      } catch (error) {
        reject(error);
      }
    });
  });
}

const config = loadConfig(readEnvironment());
const tmp = config.DATABASE_URL ? undefined : await mkdtemp(path.join(tmpdir(), "bench-"));
if (tmp) await chmod(tmp, 0o755);
let haCluster: HaCluster | undefined;
let haPrisma: PrismaClient | undefined;
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: tmp ?? ".data" });
const prisma = createPrisma(database.url);
const servers: ChildProcess[] = [];

// Hosted mode's routing, measured on a tenant whose database is the bench's own (same rows):
// the license-key lookup and the per-tenant client are what it adds.
const TENANT_SECRET = randomBytes(32).toString("hex");

// The mail-on scheduling server sends to this SMTP server, in the bench's own process.
const sink = await startSmtpSink();

async function startServer(
  kind: string,
  databaseUrl = database.url,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = path.join(root, "dist/bench-server.js");
  // The tenant's pool is the default database's (10), so the row measures the routing alone.
  const hosted =
    kind === "schedulingHosted"
      ? { HOSTED_MODE: "on", TENANT_SECRET, TENANT_POOL_MAX: "10" }
      : kind === "schedulingMail"
        ? { SMTP_URL: sink.url, MAIL_FROM: "Bench <bench@mail.example.test>" }
        : {};
  const serverKind =
    kind === "schedulingHosted" || kind === "schedulingMail"
      ? "scheduling"
      : kind === "shortenerDomains" || kind === "shortenerHa"
        ? "shortener"
        : kind === "prototypeHa"
          ? "prototype302"
          : kind;
  const child = fork(script, [serverKind, String(port)], {
    execPath: pin ? "taskset" : process.execPath,
    // Every server (the baselines too) with the flags the services run with in production.
    execArgv: pin
      ? ["-c", "0", process.execPath, ...SERVICE_NODE_FLAGS, ...CPU_PROF]
      : [...SERVICE_NODE_FLAGS, ...CPU_PROF],
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "info", ...hosted },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  servers.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const DOMAIN_HOST = "links.bench.example";
/** A campaign's query, as shared links carry one (the forwardQuery rows). */
const BENCH_QUERY = "?utm_source=newsletter&utm_medium=email&ref=mail";
let domainsPrisma: ReturnType<typeof createPrisma> | undefined;

/**
 * The bench database's twin with one registered domain and a short on it (created once, kept
 * for later runs): the "domains on" row's server runs on it.
 */
async function domainsDatabase(stamp: number) {
  const name = `${new URL(database.url).pathname.slice(1) || "postgres"}_domains`;
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  await openDatabase({ databaseUrl: url.toString(), dataDir: tmp ?? ".data" });
  domainsPrisma = createPrisma(url.toString());
  const user = await createUser(domainsPrisma, `bench-${stamp}@example.com`);
  const domain = await domainsPrisma.shortDomain.upsert({
    where: { host: DOMAIN_HOST },
    create: { host: DOMAIN_HOST },
    update: {},
  });
  const shortName = `bd${stamp}`;
  const short = await domainsPrisma.short.create({
    data: { userId: user.id, domainId: domain.id, name: shortName, url: "https://example.com/" },
  });
  // Five rules none of which a load generator's request meets (no user agent, language or
  // query; a loopback address): each redirect checks them all and takes the default target.
  const rulesName = `br${stamp}`;
  const rulesShort = await domainsPrisma.short.create({
    data: {
      userId: user.id,
      domainId: domain.id,
      name: rulesName,
      url: "https://example.com/",
      redirectRules: [
        { url: "https://example.com/ios", conditions: [{ type: "device", value: "ios" }] },
        { url: "https://example.com/android", conditions: [{ type: "device", value: "android" }] },
        { url: "https://example.com/de", conditions: [{ type: "language", value: "de" }] },
        { url: "https://example.com/fr", conditions: [{ type: "country", value: "FR" }] },
        {
          url: "https://example.com/campaign",
          conditions: [{ type: "query", param: "utm_source", value: "poster" }],
        },
      ],
    },
  });
  // forwardQuery on (docs/adr/0268): the visit's query merged into a target with a query of its own.
  const forwardName = `bf${stamp}`;
  const forwardShort = await domainsPrisma.short.create({
    data: {
      userId: user.id,
      domainId: domain.id,
      name: forwardName,
      url: "https://example.com/?ref=bench#top",
      forwardQuery: true,
    },
  });
  return {
    url: url.toString(),
    prisma: domainsPrisma,
    name: shortName,
    shortId: short.id,
    rulesName,
    rulesShortId: rulesShort.id,
    forwardName,
    forwardShortId: forwardShort.id,
  };
}

/**
 * Before each measured run: the disk writes the previous run left (hundreds of thousands of
 * visit rows) are flushed with `sync` and the machine gets two seconds, so each run starts on
 * a quiet disk rather than inside another's writeback.
 */
async function settle(): Promise<void> {
  if (QUICK) return;
  // What autovacuum would have done by now in a deployment (the machine's server may run with it
  // off, as this one does): fresh statistics for the rows the bench just wrote (without them a
  // booking's query for its hosts' attendances walked every booking of the day, 40 ms and more,
  // and each run was slower than the one before), and the visit sums' churn vacuumed.
  for (const client of [prisma, domainsPrisma]) {
    if (client === undefined) continue;
    await client.$executeRawUnsafe("ANALYZE");
    await client.$executeRawUnsafe('VACUUM "shortener"."visit_pending_sums"');
  }
  try {
    execFileSync("sync");
  } catch {
    // No sync(1): the pause alone.
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

/**
 * The statistics rows: one short holding the aggregates of 10 M visits over 365 days (1 M with
 * --quick), read daily over the whole year, and `GET /api/stats` for its user's 10,000 shorts
 * (1,000 with --quick) over the default 30 days. One connection (the rows measure latency, the
 * targets are p99 figures), each row after a warm-up.
 */
async function statsRows(shortenerUrl: string): Promise<void> {
  const size = QUICK
    ? { visits: 1_000_000, days: 365, shorts: 1_000 }
    : { visits: 10_000_000, days: 365, shorts: 10_000 };
  const seeding = performance.now();
  const fixture = await seedStatsFixture(prisma, size);
  console.log(
    `\nstatistics: aggregates of ${size.visits.toLocaleString("en")} visits over ${size.days} days on one short, ` +
      `and ${size.shorts.toLocaleString("en")} shorts of one user (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s); 1 connection`,
  );
  const from = new Date(Date.now() - size.days * 86_400_000).toISOString();
  const rows = [
    {
      label: "one short, 365 days, daily",
      url: `${shortenerUrl}/api/shorts/${fixture.shortId}/stats?from=${from}&interval=day`,
    },
    { label: `all ${size.shorts} shorts of a user, 30 days`, url: `${shortenerUrl}/api/stats` },
  ];
  console.log(`${"stats route".padEnd(38)} ${"req/s".padStart(7)}  p50 ms  p99 ms  answers`);
  for (const row of rows) {
    const header = `authorization=Bearer ${fixture.token}`;
    await cannonWithHeader(row.url, header, 1, QUICK ? 1 : 3);
    await settle();
    const run = await cannonWithHeader(row.url, header, 1, SECONDS);
    console.log(
      `${row.label.padEnd(38)} ${fmt(run.rps)}  ${String(run.p50).padStart(6)}  ${String(run.p99).padStart(6)}  ${JSON.stringify(run.status)}`,
    );
  }
}

/**
 * Shlink's API (issue 48): GET /rest/v3/short-urls over one user's 100,000 shorts (10,000 with
 * --quick), 1 connection, target p99 <= 50 ms; then the web component's load of a short's
 * 1,000,000 visits (100,000 with --quick), target <= 10 s.
 */
async function shlinkRows(shortenerUrl: string, serverPid: number | undefined): Promise<void> {
  const shorts = QUICK ? 10_000 : 100_000;
  const seeding = performance.now();
  const fixture = await seedShlinkShorts(prisma, shorts);
  console.log(
    `\nShlink's API: ${shorts.toLocaleString("en")} shorts of one user (seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s); 1 connection, X-Api-Key`,
  );
  const list = `${shortenerUrl}/rest/v3/short-urls`;
  // Page 5,000 of 10 at 100,000 shorts: the middle of the list.
  const lastPage = shorts / 20;
  const rows = [
    { label: "default page", url: list },
    { label: `searchTerm, one short (${fixture.rareTerm})`, url: `${list}?searchTerm=${fixture.rareTerm}` },
    { label: `searchTerm, a 21st (${fixture.broadTerm})`, url: `${list}?searchTerm=${fixture.broadTerm}` },
    { label: `tags[]=${fixture.tag} (200 shorts)`, url: `${list}?tags%5B%5D=${fixture.tag}` },
    { label: `page ${lastPage.toLocaleString("en")}`, url: `${list}?page=${lastPage}` },
  ];
  console.log(`${"GET /rest/v3/short-urls".padEnd(38)} ${"req/s".padStart(7)}  p50 ms  p99 ms  answers`);
  for (const row of rows) {
    const header = `x-api-key=${fixture.token}`;
    await cannonWithHeader(row.url, header, 1, QUICK ? 1 : 3);
    await settle();
    const run = await cannonWithHeader(row.url, header, 1, SECONDS);
    console.log(
      `${row.label.padEnd(38)} ${fmt(run.rps)}  ${String(run.p50).padStart(6)}  ${String(run.p99).padStart(6)}  ${JSON.stringify(run.status)}`,
    );
  }

  const visits = QUICK ? 100_000 : 1_000_000;
  const seedingVisits = performance.now();
  const visited = await seedVisitedShort(prisma, visits);
  console.log(
    `\nthe web component's visits load: ${visits.toLocaleString("en")} visits of one short (seeded in ${((performance.now() - seedingVisits) / 1000).toFixed(1)} s), itemsPerPage=5000, 4 pages at a time`,
  );
  // Three loads: each page reads by the short's hours (docs/adr/0285), seconds a load.
  // The CPU each side spent: the service's (from /proc) and this process's, which parses the
  // answers as the web component's browser would.
  for (let run = 1; run <= 3; run++) {
    const serverBefore = cpuMs(serverPid);
    const clientBefore = process.cpuUsage();
    const load = await loadAllVisits(shortenerUrl, visited);
    const serverCpu = (cpuMs(serverPid) ?? Number.NaN) - (serverBefore ?? Number.NaN);
    const client = process.cpuUsage(clientBefore);
    const sorted = [...load.pageMs].sort((a, b) => a - b);
    console.log(
      `run ${run}: ${load.items.toLocaleString("en")} visits in ${load.pages} pages, ${(load.ms / 1000).toFixed(1)} s; ` +
        `a page ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms (median), ${sorted.at(-1)!.toFixed(0)} ms (slowest); ${JSON.stringify(load.statuses)}; ` +
        `CPU: the service ${(serverCpu / 1000).toFixed(1)} s, the client ${((client.user + client.system) / 1e6).toFixed(1)} s`,
    );
  }
}

/**
 * The redirect at 64 connections, for 10 s as it is (3 s with --quick), then for as long as the service's retention
 * takes to detach a month's partition of 10 M visits (1 M with --quick) and drop it a piece at a
 * time (visit-maintenance.ts), from 0.5 s into that run: the run stops when the month is gone,
 * so its p99 is that of the requests answered while it went. Target: p99 during ≤ 2× before.
 */
async function partitionDropRows(redirectUrl: string): Promise<void> {
  const rows = QUICK ? 1_000_000 : 10_000_000;
  const seeded = await seedDroppablePartition(prisma, rows);
  await prisma.$executeRawUnsafe("CHECKPOINT");
  console.log(
    `\ndropping a month's partition of ${rows.toLocaleString("en")} visits (filled and vacuumed in ${seeded.toFixed(1)} s) under the redirect's load, 64 connections`,
  );
  await cannon(redirectUrl, 64, QUICK ? 1 : 3);
  await settle();
  // As long as the drop takes, about: a 3 s window's p99 moved from 13 to 63 ms between runs.
  const beforeSeconds = QUICK ? 3 : 10;
  const before = await cannon(redirectUrl, 64, beforeSeconds);
  await settle();
  const dropped = new AbortController();
  const during = cannon(redirectUrl, 64, 0, undefined, dropped.signal);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const drop = await dropPartition(prisma).finally(() => dropped.abort());
  const run = await during;
  console.log(`${"redirect".padEnd(38)} ${"req/s".padStart(7)}  p50 ms  p99 ms`);
  for (const [label, r] of [
    [`before the drop (${beforeSeconds} s)`, before],
    [`during it (${drop.pieces} pieces, ${(drop.dropMs / 1000).toFixed(1)} s)`, run],
  ] as const) {
    console.log(
      `${label.padEnd(38)} ${fmt(r.rps)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}`,
    );
  }
  console.log(`p99 during / before: ${(run.p99 / before.p99).toFixed(2)} (target ≤ 2)`);
  const discarding = await onlineDiscardMount(prisma);
  if (discarding) {
    console.log(
      `note: PostgreSQL's data directory is on ${discarding}, mounted with online discard: the drop waits for ` +
        "the device to discard the partition's blocks and commits wait behind it (docs/performance.md)",
    );
  }
}

/**
 * The bulk row: 1,000 shorts created by one POST /api/shorts/bulk (a tenth with a chosen name
 * and tags, the rest named by the service), timed from sending to the last byte of the answer,
 * after one warm-up request; 5 rounds (2 with --quick), median and max. Target: ≤ 1 s. Then the
 * same 1,000 as single POST /api/shorts, 16 at a time, for comparison.
 */
async function bulkRows(shortenerUrl: string): Promise<void> {
  const { token } = await createUser(prisma, `bench-bulk-${Date.now()}@example.com`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  let batch = 0;
  const items = () => {
    batch++;
    return Array.from({ length: 1_000 }, (_, i) =>
      i % 10 === 0
        ? {
            url: `https://example.com/bulk/${batch}/${i}?utm_source=bench`,
            name: `bulk-${batch}-${i}-${Date.now()}`,
            tags: ["bench", "bulk"],
          }
        : { url: `https://example.com/bulk/${batch}/${i}?utm_source=bench` },
    );
  };
  const timed = async (): Promise<number> => {
    const body = JSON.stringify({ shorts: items() });
    const started = performance.now();
    const response = await fetch(`${shortenerUrl}/api/shorts/bulk`, { method: "POST", headers, body });
    const { results } = (await response.json()) as { results: { status: number }[] };
    const elapsed = performance.now() - started;
    const created = results.filter((result) => result.status === 201).length;
    if (response.status !== 200 || created !== 1_000)
      throw new Error(`bulk: ${response.status}, ${created} created`);
    return elapsed;
  };
  const rounds = QUICK ? 2 : 5;
  console.log(`
bulk: 1,000 shorts in one POST /api/shorts/bulk, ${rounds} rounds after a warm-up (target ≤ 1,000 ms)`);
  await timed();
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    await settle();
    times.push(await timed());
  }
  console.log(`${"bulk route".padEnd(38)}  median ms  max ms`);
  console.log(
    `${"POST /api/shorts/bulk, 1,000 items".padEnd(38)}  ${median(times).toFixed(0).padStart(9)}  ${Math.max(
      ...times,
    )
      .toFixed(0)
      .padStart(6)}`,
  );
  const singles = items();
  const started = performance.now();
  for (let next = 0; next < singles.length; next += 16) {
    const chunk = singles.slice(next, next + 16);
    await Promise.all(
      chunk.map((item) =>
        fetch(`${shortenerUrl}/api/shorts`, { method: "POST", headers, body: JSON.stringify(item) }).then(
          (r) => {
            if (r.status !== 201) throw new Error(`single create: ${r.status}`);
            return r.arrayBuffer();
          },
        ),
      ),
    );
  }
  console.log(
    `${"same as 1,000 POST /api/shorts, 16 at once".padEnd(38)}  ${(performance.now() - started).toFixed(0).padStart(9)}`,
  );
}

/**
 * GET /v1/slots of a 5-host team event type over 30 days with 200 bookings in the way, for its
 * ROUND_ROBIN and its COLLECTIVE variant; one connection (the target is a p99: ≤ 50 ms).
 */
async function slotsTeamRows(schedulingUrl: string): Promise<void> {
  const fixture = await seedSlotsTeam(prisma);
  console.log("\nGET /v1/slots, 5 hosts, 30 days, 200 bookings of the hosts in the range; 1 connection");
  console.log(`${"slots route".padEnd(38)} ${"req/s".padStart(7)}  p50 ms  p99 ms  answers`);
  for (const [label, id] of [
    ["ROUND_ROBIN, 5 hosts", fixture.roundRobinId],
    ["COLLECTIVE, 5 hosts", fixture.collectiveId],
  ] as const) {
    const url =
      `${schedulingUrl}/v1/slots?apiKey=${fixture.apiKey}&eventTypeId=${id}` +
      `&startTime=${fixture.from.toISOString()}&endTime=${fixture.to.toISOString()}`;
    // autocannon (not wrk) so the answers are counted by status.
    await cannonWithHeader(url, "accept=application/json", 1, QUICK ? 1 : 3);
    await settle();
    const run = await cannonWithHeader(url, "accept=application/json", 1, SECONDS);
    console.log(
      `${label.padEnd(38)} ${fmt(run.rps)}  ${String(run.p50).padStart(6)}  ${String(run.p99).padStart(6)}  ${JSON.stringify(run.status)}`,
    );
  }
  console.log("target: p99 ≤ 50 ms");
}

/**
 * GET /v1/slots over 30 days for one host whose selected CalDAV calendar holds 2,000 events (a
 * tenth weekly series), against the same query for a host without one (target: p99 within
 * 1.2×), and for a 5-host team each with such a calendar (target: p99 ≤ 60 ms). The busy times
 * are read from the database, as a synchronisation leaves them; one connection, rounds interleaved.
 */
async function slotsCalendarRows(schedulingUrl: string, serverPid: number | undefined): Promise<void> {
  const from = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000);
  const to = new Date(from.getTime() + 30 * 86_400_000);
  const slotsOf = async (
    label: string,
    hosts: number,
    withCalendar: boolean,
    type: "COLLECTIVE" | "ROUND_ROBIN",
  ) => {
    const { users, eventType, apiKey } = await teamOf(prisma, hosts, label);
    const { id } = await eventType(type);
    if (withCalendar)
      await seedCalendarBusy(
        prisma,
        users.map((user) => user.id),
      );
    return `${schedulingUrl}/v1/slots?apiKey=${apiKey}&eventTypeId=${id}&startTime=${from.toISOString()}&endTime=${to.toISOString()}`;
  };
  const rows: [string, string][] = [
    ["1 host, no calendar", await slotsOf("cal-none", 1, false, "COLLECTIVE")],
    ["1 host, calendar of 2,000 events", await slotsOf("cal-one", 1, true, "COLLECTIVE")],
    ["ROUND_ROBIN, 5 hosts with calendars", await slotsOf("cal-rr", 5, true, "ROUND_ROBIN")],
    ["COLLECTIVE, 5 hosts with calendars", await slotsOf("cal-co", 5, true, "COLLECTIVE")],
  ];
  const rounds = QUICK ? 1 : 3;
  const results = new Map<string, Run[]>();
  // The server's CPU time per answer, as the throughput rows have it: on a machine shared with
  // other work the latencies move with the neighbours, the server's own work far less.
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [label, url] of round % 2 === 0 ? rows : [...rows].reverse()) {
      await confirmCalendars(prisma);
      await cannonWithHeader(url, "accept=application/json", 1, QUICK ? 1 : 3);
      await settle();
      const before = cpuMs(serverPid);
      const run = await cannonWithHeader(url, "accept=application/json", 1, SECONDS);
      const after = cpuMs(serverPid);
      const answers = Object.values(run.status).reduce((n, count) => n + count, 0);
      results.set(label, [...(results.get(label) ?? []), run]);
      cpu.set(label, [
        ...(cpu.get(label) ?? []),
        before === undefined || after === undefined || answers === 0
          ? Number.NaN
          : ((after - before) * 1000) / answers,
      ]);
    }
  }
  console.log(
    `\nGET /v1/slots, 30 days, connected calendars (busy times from the database); 1 connection, ${rounds} round(s) interleaved`,
  );
  console.log(
    `${"slots route".padEnd(38)} ${"req/s".padStart(7)}  p50 ms  p99 ms (median, per round)  CPU µs per answer (median, per round)  answers`,
  );
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const p99s = new Map<string, number>();
  const cpuMedians = new Map<string, number>();
  for (const [label] of rows) {
    const runs = results.get(label)!;
    p99s.set(label, median(runs.map((run) => run.p99)));
    const cpus = cpu.get(label)!;
    cpuMedians.set(label, median(cpus));
    console.log(
      `${label.padEnd(38)} ${fmt(median(runs.map((run) => run.rps)))}  ${String(median(runs.map((run) => run.p50))).padStart(6)}  ${String(p99s.get(label)).padStart(6)} (${runs.map((run) => run.p99).join(", ")})  ${median(cpus).toFixed(0).padStart(6)} (${cpus.map((c) => c.toFixed(0)).join(", ")})  ${JSON.stringify(runs.at(-1)!.status)}`,
    );
  }
  const ratio = p99s.get("1 host, calendar of 2,000 events")! / Math.max(1, p99s.get("1 host, no calendar")!);
  const cpuRatio =
    cpuMedians.get("1 host, calendar of 2,000 events")! / cpuMedians.get("1 host, no calendar")!;
  console.log(
    `targets: 1 host with a calendar p99 within 1.2× without (here ${ratio.toFixed(2)}×; the server's CPU per answer ${cpuRatio.toFixed(2)}×); 5 hosts p99 ≤ 60 ms`,
  );
}

/**
 * 100 bookings sent at once to a ROUND_ROBIN event type of 10 hosts: ten starts, each booked
 * ten times, so every (host, start) pair is taken exactly once. All must be 201, and SQL must
 * find no host with two overlapping bookings. Wall time from the first request to the last answer.
 */
async function bookingsConcurrentRows(schedulingUrl: string): Promise<void> {
  const fixture = await seedBookingsConcurrent(prisma);
  const url = `${schedulingUrl}/v1/bookings?apiKey=${fixture.apiKey}`;
  const requests = fixture.starts.flatMap((start) =>
    Array.from({ length: 10 }, (_, i) => ({
      eventTypeId: fixture.eventTypeId,
      start: start.toISOString(),
      timeZone: "UTC",
      language: "en",
      metadata: {},
      responses: { name: `Booker ${i}`, email: `booker-${i}-${start.getTime()}@example.com` },
    })),
  );
  const began = performance.now();
  const statuses = await Promise.all(
    requests.map((body) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((response) => response.status),
    ),
  );
  const wall = performance.now() - began;
  const counted: Record<string, number> = {};
  for (const status of statuses) counted[status] = (counted[status] ?? 0) + 1;
  const overlaps = await doubleBooked(prisma, fixture.eventTypeId);
  console.log(
    `\n100 concurrent POST /v1/bookings, ROUND_ROBIN over 10 hosts (10 starts × 10): ` +
      `wall ${wall.toFixed(0)} ms, answers ${JSON.stringify(counted)}, hosts double-booked (SQL): ${overlaps}` +
      `${counted["201"] === 100 && overlaps === 0 ? "" : "  ← NOT all 201 / double-booked"}`,
  );
}

/**
 * 100 bookings at once over 10 hosts, on the service without mail and on one with SMTP_URL set
 * (the same build, the same database), interleaved over `rounds` rounds (which side first
 * alternating), each on fresh hosts: the
 * p99 of every booking's own latency, off and on, and for mail on, every message's delay from its
 * booking's 201 to its arrival at the SMTP server.
 */
async function bookingsMailRows(offUrl: string, onUrl: string): Promise<void> {
  // 15 by default (--rounds sets it): each side's p99 is the tail of its slowest bursts, and with
  // 5 the ratio of two runs on a quiet machine spread from 1.07 to 1.36 (docs/performance.md).
  const rounds = QUICK ? 1 : values.rounds === undefined ? 15 : ROUNDS;
  const latencies = { off: [] as number[], on: [] as number[] };
  const delays: number[] = [];
  let expected = 0;
  let answers: Record<string, number> = {};
  const deliverBy = 30_000;
  for (let round = 0; round < rounds; round++) {
    // Which side goes first alternates: a machine whose load drifts weighs on both alike.
    for (const side of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
      await settle();
      const fixture = await seedBookingsConcurrent(prisma);
      const url = `${side === "off" ? offUrl : onUrl}/v1/bookings?apiKey=${fixture.apiKey}`;
      const answered = new Map<string, number>();
      await Promise.all(
        fixture.starts.flatMap((start) =>
          Array.from({ length: 10 }, async (_, i) => {
            const sent = performance.now();
            const response = await fetch(url, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                eventTypeId: fixture.eventTypeId,
                start: start.toISOString(),
                timeZone: "UTC",
                language: "en",
                metadata: {},
                responses: { name: `Booker ${i}`, email: `booker-${i}-${start.getTime()}@example.com` },
              }),
            });
            const done = performance.now();
            latencies[side].push(done - sent);
            const key = `${side} ${response.status}`;
            answers = { ...answers, [key]: (answers[key] ?? 0) + 1 };
            if (response.status === 201) answered.set(((await response.json()) as { uid: string }).uid, done);
          }),
        ),
      );
      if (side === "off") continue;
      // Every message of these bookings, once the sender has sent them all (bounded wait).
      const until = performance.now() + deliverBy;
      let { rows, unrendered } = await messagesOf(prisma, [...answered.keys()]);
      while ((unrendered > 0 || rows.some((r) => r.status !== "SENT")) && performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ({ rows, unrendered } = await messagesOf(prisma, [...answered.keys()]));
      }
      expected += rows.length;
      for (const row of rows) {
        const arrived = row.messageId ? sink.arrivals.get(row.messageId) : undefined;
        if (arrived !== undefined) delays.push(arrived - answered.get(row.bookingUid)!);
      }
    }
  }
  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;
  const [off, on] = [p99(latencies.off), p99(latencies.on)];
  const ratio = on / off;
  const maxDelay = Math.max(...delays);
  console.log(
    `\n100 concurrent POST /v1/bookings over 10 hosts, mail off vs on (SMTP in the bench's process), ` +
      `${rounds} round(s) each, interleaved: answers ${JSON.stringify(answers)}\n` +
      `  booking p99: off ${off.toFixed(0)} ms, on ${on.toFixed(0)} ms, on/off ${ratio.toFixed(2)}` +
      `${ratio <= 1.1 ? "" : "  ← more than 10 % slower"}\n` +
      `  messages: ${delays.length} of ${expected} delivered; from the booking's 201 to arrival: ` +
      `median ${median(delays).toFixed(0)} ms, max ${maxDelay.toFixed(0)} ms` +
      `${delays.length === expected && maxDelay <= 5_000 ? "" : "  ← NOT all delivered within 5 s"}`,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system, ms), from /proc; undefined where there is none. */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    // The fields after the command's closing parenthesis: state is the first, utime the 12th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const fmt = (n: number) => n.toFixed(0).padStart(7);

try {
  const stamp = Date.now();
  const user = await createUser(prisma, `bench-${stamp}@example.com`);
  const names = {
    select302: `bs${stamp}`,
    naive302: `bn${stamp}`,
    prototype302: `bp${stamp}`,
    shortener: `ba${stamp}`,
    bare302: "bare",
  };
  const shortIds: Record<string, string> = {};
  for (const name of Object.values(names)) {
    if (name !== "bare")
      shortIds[name] = (
        await prisma.short.create({ data: { userId: user.id, name, url: "https://example.com/" } })
      ).id;
  }
  const owner = await prisma.user.create({ data: { email: `bench-${stamp}@example.com` } });
  await prisma.eventType.create({
    data: { userId: owner.id, title: "Bench", slug: `bench-${stamp}`, length: 30 },
  });
  const { apiKey } = await issueApiKey(prisma, { userId: owner.id, prefix: "cal_" });
  const tenantId = uuidv7();
  const { licenseKey, hash } = generateLicenseKey();
  await prisma.tenant.create({
    data: {
      id: tenantId,
      name: `bench-${stamp}`,
      licenseKeyHash: hash,
      databaseUrlEncrypted: sealDatabaseUrl(databaseUrlKey(TENANT_SECRET), tenantId, database.url),
    },
  });

  // Domains on: a database of its own (a registered domain makes every other Host 404, ADR
  // 0221), with the short on a registered domain; its redirects send that domain's Host.
  const domains = await domainsDatabase(stamp);

  // --only ha: the same redirect on a three-node Patroni cluster with synchronous replication
  // (scripts/ha-cluster.ts, fsync on), through its HAProxy's writes port, as `pnpm scale --ha`
  // runs it: what a commit that waits for a standby costs the redirect (issue 49).
  let haUrl: string | undefined;
  let haShortId: string | undefined;
  if (values.only === "ha") {
    haCluster = await startHaCluster({ fsync: true });
    const admin = new pg.Client({ connectionString: haCluster.primaryUrl });
    await admin.connect();
    await admin.query("CREATE DATABASE bench");
    await admin.end();
    haUrl = haCluster.primaryUrl.replace(/\/postgres$/, "/bench");
    await migrate(haUrl);
    haPrisma = createPrisma(haUrl);
    const haUser = await createUser(haPrisma, `bench-${stamp}@example.com`);
    for (const name of [names.prototype302, names.shortener]) {
      const short = await haPrisma.short.create({
        data: { userId: haUser.id, name, url: "https://example.com/" },
      });
      if (name === names.shortener) haShortId = short.id;
    }
  }

  const kinds = [
    "bare302",
    "select302",
    "naive302",
    "prototype302",
    "shortener",
    "shortenerDomains",
    "selectJson",
    "scheduling",
    "schedulingHosted",
    "schedulingMail",
    ...(haUrl ? (["prototypeHa", "shortenerHa"] as const) : []),
  ] as const;
  const started = Object.fromEntries(
    await Promise.all(
      kinds.map(
        async (k) =>
          [
            k,
            await startServer(
              k,
              k === "shortenerDomains" ? domains.url : k.endsWith("Ha") ? haUrl : database.url,
            ),
          ] as const,
      ),
    ),
  );
  const path302 = (k: keyof typeof names) => `${started[k]!.url}/${names[k]}`;
  const targets: { label: string; kind: string; url: string; connections: number; host?: string }[] = [
    { label: "bare Fastify 302, no database", kind: "bare302", url: path302("bare302"), connections: 64 },
    { label: "Fastify + one pg SELECT", kind: "select302", url: path302("select302"), connections: 64 },
    {
      label: "SELECT + INSERT per request (naive)",
      kind: "naive302",
      url: path302("naive302"),
      connections: 64,
    },
    {
      label: "prototype: Map + unnest group commit",
      kind: "prototype302",
      url: path302("prototype302"),
      connections: 64,
    },
    {
      label: "shortener redirect (durable row)",
      kind: "shortener",
      url: path302("shortener"),
      connections: 64,
    },
    {
      label: "shortener, domains on",
      kind: "shortenerDomains",
      url: `${started.shortenerDomains!.url}/${domains.name}`,
      connections: 64,
      host: DOMAIN_HOST,
    },
    // The same request with a query to a short without and with forwardQuery: what merging costs.
    {
      label: "shortener, domains on, ?query",
      kind: "shortenerDomains",
      url: `${started.shortenerDomains!.url}/${domains.name}${BENCH_QUERY}`,
      connections: 64,
      host: DOMAIN_HOST,
    },
    {
      label: "same, forwardQuery on",
      kind: "shortenerDomains",
      url: `${started.shortenerDomains!.url}/${domains.forwardName}${BENCH_QUERY}`,
      connections: 64,
      host: DOMAIN_HOST,
    },
    {
      label: "shortener, domains on, 5 rules",
      kind: "shortenerDomains",
      url: `${started.shortenerDomains!.url}/${domains.rulesName}`,
      connections: 64,
      host: DOMAIN_HOST,
    },
    ...(haUrl
      ? [
          {
            label: "prototype, Patroni cluster (sync)",
            kind: "prototypeHa",
            url: `${started.prototypeHa!.url}/${names.prototype302}`,
            connections: 64,
          },
          {
            label: "shortener, Patroni cluster (sync)",
            kind: "shortenerHa",
            url: `${started.shortenerHa!.url}/${names.shortener}`,
            connections: 64,
          },
        ]
      : []),
    { label: "bare Fastify 302 @256", kind: "bare302", url: path302("bare302"), connections: 256 },
    {
      label: "prototype @256",
      kind: "prototype302",
      url: path302("prototype302"),
      connections: 256,
    },
    { label: "shortener redirect @256", kind: "shortener", url: path302("shortener"), connections: 256 },
    {
      label: "bare Fastify + pg SELECT, JSON",
      kind: "selectJson",
      url: `${started.selectJson!.url}/event-types`,
      connections: 64,
    },
    {
      label: "scheduling GET /v1/event-types",
      kind: "scheduling",
      url: `${started.scheduling!.url}/v1/event-types?apiKey=${apiKey}`,
      connections: 64,
    },
    {
      label: "same, hosted mode (?key=, a tenant)",
      kind: "schedulingHosted",
      url: `${started.schedulingHosted!.url}/v1/event-types?apiKey=${apiKey}&key=${licenseKey}`,
      connections: 64,
    },
  ];

  // --only: the redirect rows (kinds bare302 … shortener) or the scheduling ones, each with its baseline.
  const GROUPS: Record<string, string[]> = {
    redirect: ["bare302", "select302", "naive302", "prototype302", "shortener", "shortenerDomains"],
    scheduling: ["selectJson", "scheduling", "schedulingHosted"],
    ha: ["bare302", "prototype302", "shortener", "prototypeHa", "shortenerHa"],
    stats: [],
    drop: [],
    bulk: [],
    "slots-team": [],
    "slots-calendar": [],
    "calendar-sync": [],
    "calendar-sync-large": [],
    "bookings-concurrent": [],
    "bookings-mail": [],
    startup: [],
    import: [],
    shlink: [],
  };
  if (values.only !== undefined) {
    const kept = GROUPS[values.only];
    if (!kept) throw new Error(`--only takes ${Object.keys(GROUPS).join(" or ")}`);
    targets.splice(0, targets.length, ...targets.filter((target) => kept.includes(target.kind)));
  }

  if (values.soak) {
    const total = Number(values.soak);
    const server = started.shortener!;
    const rss0: number[] = [];
    console.log(`soak: ${total} s at 2,000 redirects/s on the shortener, samples every 30 s`);
    const load = cannon(path302("shortener"), 32, total, 2_000);
    for (let t = 0; t <= total; t += 30) {
      const stats = await new Promise<{ rss: number; heapUsed: number; depth: number }>((resolve) => {
        server.child.once("message", (m) => resolve(m as { rss: number; heapUsed: number; depth: number }));
        server.child.send("stats");
      });
      rss0.push(stats.rss);
      console.log(
        `${String(t).padStart(5)} s  rss ${(stats.rss / 2 ** 20).toFixed(1)} MiB  heap ${(stats.heapUsed / 2 ** 20).toFixed(1)} MiB  visit queue ${stats.depth}`,
      );
      if (t + 30 <= total) await new Promise((r) => setTimeout(r, 30_000));
    }
    const run = await load;
    const afterWarmup = rss0.slice(1);
    const growth = afterWarmup.length > 1 ? (afterWarmup.at(-1)! / afterWarmup[0]! - 1) * 100 : 0;
    console.log(
      `soak done: ${run.rps.toFixed(0)} req/s average, RSS growth after warm-up ${growth.toFixed(1)} %`,
    );
  } else {
    console.log(
      `Node ${process.version}, ${cpus().length} cores${pin ? ", servers on core 0" : ""}; load: ${WRK ? "wrk, 2 threads" : `autocannon${pin ? " on core 1" : ""}`}; ` +
        `${ROUNDS} round(s) × ${SECONDS} s, interleaved, after a ${QUICK ? 1 : 3} s warm-up each; ` +
        `about ${Math.ceil((targets.length * ROUNDS * (SECONDS + (QUICK ? 1 : 3)) + 30) / 60)} min in all\n`,
    );
    const rowsBefore =
      (await prisma.shortLog.count({ where: { shortId: shortIds[names.shortener]! } })) +
      (await domains.prisma.shortLog.count({
        where: { shortId: { in: [domains.shortId, domains.rulesShortId, domains.forwardShortId] } },
      })) +
      (haPrisma ? await haPrisma.shortLog.count({ where: { shortId: haShortId! } }) : 0);
    const runs = new Map<string, Run[]>(targets.map((t) => [t.label, []]));
    // The server's CPU time per answer in each measured run: unlike req/s, it holds when other
    // work shares the machine, so rows measured on a busy one can still be compared.
    const cpuPerAnswer = new Map<string, number[]>(targets.map((t) => [t.label, []]));
    // Not in the figures, but their visits are stored too: counted against the rows.
    const warmUps = new Map<string, Run[]>(targets.map((t) => [t.label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        // Each run right after its own warm-up: a server idle while the other rows ran (a
        // minute or more) first spends about half a second growing its heap back and
        // reconnecting, which is not the steady state this table is about (docs/performance.md).
        warmUps
          .get(target.label)!
          .push(
            await cannon(target.url, target.connections, QUICK ? 1 : 3, undefined, undefined, target.host),
          );
        await settle();
        const server = started[target.kind]!.child.pid;
        const cpuBefore = cpuMs(server);
        const run = await cannon(target.url, target.connections, SECONDS, undefined, undefined, target.host);
        runs.get(target.label)!.push(run);
        const cpuAfter = cpuMs(server);
        cpuPerAnswer
          .get(target.label)!
          .push(
            cpuBefore === undefined || cpuAfter === undefined
              ? Number.NaN
              : ((cpuAfter - cpuBefore) * 1000) / run.requests,
          );
      }
    }
    const rowsAfter =
      (await prisma.shortLog.count({ where: { shortId: shortIds[names.shortener]! } })) +
      (await domains.prisma.shortLog.count({
        where: { shortId: { in: [domains.shortId, domains.rulesShortId, domains.forwardShortId] } },
      })) +
      (haPrisma ? await haPrisma.shortLog.count({ where: { shortId: haShortId! } }) : 0);

    const baseOf: Record<string, string> = {
      "bare Fastify 302 @256": "bare Fastify 302 @256",
      "shortener redirect @256": "bare Fastify 302 @256",
      "prototype @256": "bare Fastify 302 @256",
      "bare Fastify + pg SELECT, JSON": "bare Fastify + pg SELECT, JSON",
      "scheduling GET /v1/event-types": "bare Fastify + pg SELECT, JSON",
      "same, hosted mode (?key=, a tenant)": "bare Fastify + pg SELECT, JSON",
    };
    const medianRps = (label: string) => median(runs.get(label)!.map((r) => r.rps));
    // The redirect rows against the issue-8 prototype at the same connections (issue 39's target).
    const prototypeOf = (target: { kind: string; connections: number }) =>
      target.kind.startsWith("shortener")
        ? targets.find(
            (t) =>
              t.kind === (target.kind.endsWith("Ha") ? "prototypeHa" : "prototype302") &&
              t.connections === target.connections,
          )?.label
        : undefined;
    const cpuOf = (label: string) => median(cpuPerAnswer.get(label)!);
    console.log(
      `${"route".padEnd(38)} ${"req/s".padStart(7)} ${"(min-max)".padStart(17)}  p50 ms  p99 ms  CPU µs   × base  × proto`,
    );
    for (const target of targets) {
      const rs = runs.get(target.label)!;
      const base = baseOf[target.label] ?? "bare Fastify 302, no database";
      const ratio = medianRps(target.label) / medianRps(base);
      const prototype = prototypeOf(target);
      console.log(
        `${target.label.padEnd(38)} ${fmt(medianRps(target.label))} ${`(${Math.min(...rs.map((r) => r.rps)).toFixed(0)}-${Math.max(...rs.map((r) => r.rps)).toFixed(0)})`.padStart(17)}  ${String(median(rs.map((r) => r.p50))).padStart(6)}  ${String(median(rs.map((r) => r.p99))).padStart(6)}  ${cpuOf(target.label).toFixed(0).padStart(6)}   ${ratio.toFixed(2)}${prototype ? `     ${(medianRps(target.label) / medianRps(prototype)).toFixed(2)}` : ""}`,
      );
    }
    // Each round's figures too: the medians hide a first round slower than the others (a
    // server's lazy work on its first requests lands there, and only there).
    if (ROUNDS > 1) {
      console.log(
        `\n${"route, each round".padEnd(38)} req/s, p99 ms and the server's CPU µs per answer, round 1 to ${ROUNDS}`,
      );
      for (const target of targets) {
        const cpu = cpuPerAnswer.get(target.label)!;
        const each = runs
          .get(target.label)!
          .map((r, i) => `${r.rps.toFixed(0)} / ${r.p99} / ${cpu[i]!.toFixed(0)}`);
        console.log(`${target.label.padEnd(38)} ${each.join("   ")}`);
      }
    }
    const shortenerRuns = targets
      .filter((t) => t.kind.startsWith("shortener"))
      .flatMap((t) => [...runs.get(t.label)!, ...warmUps.get(t.label)!]);
    const answered302 = shortenerRuns.reduce((n, r) => n + (r.status["302"] ?? 0), 0);
    const other = shortenerRuns.reduce(
      (n, r) =>
        n +
        Object.entries(r.status)
          .filter(([k]) => k !== "302")
          .reduce((m, [, v]) => m + v, 0) +
        r.errors,
      0,
    );
    if (shortenerRuns.length > 0) {
      console.log(
        `\nshortener (measured runs and warm-ups together): ${answered302} redirects answered 302, ` +
          `${rowsAfter - rowsBefore} visit rows stored, ${other} other answers or errors`,
      );
    }
    if (values.only === undefined || values.only === "stats") await statsRows(started.shortener!.url);
    if (values.only === undefined || values.only === "drop") await partitionDropRows(path302("shortener"));
    if (values.only === undefined || values.only === "bulk") await bulkRows(started.shortener!.url);
    if (values.only === undefined || values.only === "slots-team")
      await slotsTeamRows(started.scheduling!.url);
    if (values.only === undefined || values.only === "slots-calendar")
      await slotsCalendarRows(started.scheduling!.url, started.scheduling!.child.pid);
    if (values.only === undefined || values.only === "calendar-sync")
      await calendarSyncRows({ root, prisma, databaseUrl: database.url, quick: QUICK });
    if (values.only === "calendar-sync-large")
      await calendarSyncRows({ root, prisma, databaseUrl: database.url, quick: QUICK, parts: ["large"] });
    if (values.only === undefined || values.only === "bookings-concurrent")
      await bookingsConcurrentRows(started.scheduling!.url);
    if (values.only === undefined || values.only === "bookings-mail")
      await bookingsMailRows(started.scheduling!.url, started.schedulingMail!.url);
    if (values.only === undefined || values.only === "startup")
      await startupRows({ root, databaseUrl: database.url, runs: QUICK ? 3 : 10 });
    if (values.only === undefined || values.only === "shlink")
      await shlinkRows(started.shortener!.url, started.shortener!.child.pid);
    if (values.only === undefined || values.only === "import")
      await importRows({ root, databaseUrl: database.url, links: QUICK ? 10_000 : 100_000 });
  }
} finally {
  for (const server of servers) server.kill("SIGTERM");
  await Promise.all(
    servers.map((s) => new Promise((r) => (s.exitCode === null ? s.once("exit", r) : r(null)))),
  );
  await sink.close();
  await haPrisma?.$disconnect();
  await haCluster?.stop();
  await prisma.$disconnect();
  await domainsPrisma?.$disconnect();
  await database.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
}
