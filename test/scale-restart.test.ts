// Planned stops behind HAProxy that no client notices (issue 38 items 1 and 2, docs/adr/0215,
// 0216), with real processes (scripts/scale-topology.ts, the topology `pnpm scale` runs):
// - a rolling restart of all three instances of each service while 64 keep-alive connections
//   redirect through the proxy and others book: no client error, a visit row per 302, a
//   booking per 201;
// - a SIGTERM to one instance mid-burst, with nothing but the proxy's checks to take it out:
//   no client error, a visit row per 302, exit 0.
// Figures are logged for docs/operations.md; no timing is asserted.
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBookingLoad, startBurst } from "../scripts/scale-drill.ts";
import { haproxyBinary, startTopology, type Topology } from "../scripts/scale-topology.ts";
import { alwaysBookableHost, count, drillShort } from "./drill-fixtures.ts";

const INSTANCES = 3;
const CHECK = { interMs: 500, fall: 2, rise: 2 };
const CONNECTIONS = 64;
/** Connections that book meanwhile, one booking after another each. */
const BOOKERS = 4;

const haproxy = haproxyBinary();
if (!haproxy)
  console.warn("test/scale-restart.test.ts skipped: haproxy is not installed (.ci/run installs it)");

let db: TestDatabase;
let prisma: PrismaClient;
let topology: Topology;

describe.skipIf(!haproxy)("planned stops behind HAProxy", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrisma(db.url, { poolMax: 2 });
    topology = await startTopology({
      shortener: INSTANCES,
      scheduling: INSTANCES,
      databaseUrl: db.url,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: "warn",
        // Each instance counts in memory here: a budget no drill comes near.
        RATE_LIMIT_MAX: "1000000",
      },
      check: CHECK,
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await prisma?.$disconnect();
    await db?.drop();
  }, 60_000);

  it(`a rolling restart of all ${INSTANCES} instances of each service under ${CONNECTIONS} connections: no client error, a row per 302, a booking per 201`, async () => {
    const short = await drillShort(prisma, "rolling");
    const host = await alwaysBookableHost(prisma);
    const pidsBefore = [...topology.instances.shortener, ...topology.instances.scheduling].map(
      (instance) => instance.process.pid,
    );

    const burst = startBurst(`${topology.url.shortener}/${short.name}`, CONNECTIONS);
    const booking = startBookingLoad(topology.url.scheduling, {
      ...host,
      connections: BOOKERS,
    });
    while (burst.outcome.redirects < 500 || booking.statuses.length < 10) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const restartedAt = Date.now();
    const restart = topology.rollingRestart((line) => console.log(`rolling restart: ${line}`));
    // A second one asked for meanwhile is refused.
    await expect(topology.rollingRestart()).rejects.toThrow("a rolling restart is already running");
    const restarted = await restart;
    const tookMs = Date.now() - restartedAt;
    // The load goes on a moment on the new instances.
    const redirectsAtEnd = burst.outcome.redirects;
    while (burst.outcome.redirects < redirectsAtEnd + 200)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const outcome = await burst.stop();
    const statuses = await booking.stop();

    const rows = await prisma.shortLog.count({ where: { shortId: short.id } });
    const bookings = await prisma.booking.count({ where: { eventTypeId: host.eventTypeId } });
    const created = statuses.filter((status) => status === 201).length;
    const states = await topology.serverStates();
    console.log(
      `rolling restart of ${restarted.length} instances in ${tookMs} ms ` +
        `(each: ${restarted.map((instance) => `${instance.name} ${instance.tookMs} ms`).join(", ")}): ` +
        `${outcome.redirects} redirects, ${rows} visit rows, ${outcome.errors.length} redirect errors; ` +
        `booking answers ${JSON.stringify(count(statuses))}, ${bookings} bookings stored; ` +
        `HAProxy: redispatched ${states.reduce((sum, state) => sum + state.redispatched, 0)}, ` +
        `connection errors ${states.reduce((sum, state) => sum + state.connectionErrors, 0)}, ` +
        `response errors ${states.reduce((sum, state) => sum + state.responseErrors, 0)}`,
    );
    expect(restarted.map((instance) => [instance.name, instance.exitCode])).toEqual(
      ["shortener", "scheduling"].flatMap((service) =>
        Array.from({ length: INSTANCES }, (_, i) => [`${service}-${i + 1}`, 0]),
      ),
    );
    // Every instance is a new process.
    const pidsAfter = [...topology.instances.shortener, ...topology.instances.scheduling].map(
      (instance) => instance.process.pid,
    );
    expect(pidsAfter.filter((pid) => pidsBefore.includes(pid))).toEqual([]);
    expect(outcome.errors).toEqual([]);
    expect(rows).toBe(outcome.redirects);
    expect(count(statuses), booking.refusals.join("\n")).toEqual({ 201: statuses.length });
    expect(bookings).toBe(created);
    // A hang's bound, not a speed: on a loaded machine one instance took 20 s to replace.
  }, 600_000);

  it(`a SIGTERM to one instance under ${CONNECTIONS} connections, with only the proxy's checks to take it out: no client error, a row per 302, exit 0`, async () => {
    const short = await drillShort(prisma, "planned");
    const victim = topology.instances.shortener[1]!;
    const burst = startBurst(`${topology.url.shortener}/${short.name}`, CONNECTIONS);
    while (burst.outcome.redirects < 500) await new Promise((resolve) => setTimeout(resolve, 10));
    victim.process.kill("SIGTERM");
    const signalledAt = Date.now();
    // Watch HAProxy take it out while it still serves (logged; the outcome is what is asserted).
    let downAt: number | undefined;
    while (victim.process.exitCode === null) {
      const state = (await topology.serverStates()).find((s) => s.server === victim.name);
      if (downAt === undefined && !state?.status.startsWith("UP")) downAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const exitedAt = Date.now();
    // The burst goes on a while on the two instances left.
    const redirectsAtExit = burst.outcome.redirects;
    while (burst.outcome.redirects < redirectsAtExit + 500)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const outcome = await burst.stop();

    const rows = await prisma.shortLog.count({ where: { shortId: short.id } });
    console.log(
      `planned stop: ${outcome.redirects} redirects, ${rows} visit rows, ${outcome.errors.length} errors; ` +
        `HAProxy had it out ${downAt === undefined ? "not before it exited" : `${downAt - signalledAt} ms after the signal`}, ` +
        `it exited ${exitedAt - signalledAt} ms after the signal (STOP_WAIT_MS ${CHECK.interMs * (CHECK.fall + 1)} ms, then the drain)`,
    );
    expect(await victim.exited).toBe(0);
    expect(outcome.errors).toEqual([]);
    expect(rows).toBe(outcome.redirects);
  });
});
