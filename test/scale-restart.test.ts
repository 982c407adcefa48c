// Planned stops behind HAProxy that no client notices (issue 38 items 1 and 2, docs/adr/0215,
// 0216), with real processes (scripts/scale-topology.ts, the topology `pnpm scale` runs):
// - a rolling restart of all three instances of each service while 64 keep-alive connections
//   redirect through the proxy and others book: no client error, a visit row per 302, a
//   booking per 201;
// - a SIGTERM to one instance mid-burst, with nothing but the proxy's checks to take it out:
//   no client error, a visit row per 302, exit 0.
// Figures are logged for docs/operations.md; no timing is asserted.
import { Agent, request } from "node:http";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithKey } from "../apps/scheduling/src/credentials.ts";
import { futureMonday } from "../apps/scheduling/test/booking-helpers.ts";
import { startBurst } from "../scripts/scale-drill.ts";
import { haproxyBinary, startTopology, type Topology } from "../scripts/scale-topology.ts";

const INSTANCES = 3;
const CHECK = { interMs: 500, fall: 2, rise: 2 };
const CONNECTIONS = 64;
/** Connections that book meanwhile, one booking after another each. */
const BOOKERS = 4;
const SLOT_MINUTES = 5;
const SLOTS_A_DAY = (24 * 60) / SLOT_MINUTES - 1;

const haproxy = haproxyBinary();
if (!haproxy)
  console.warn("test/scale-restart.test.ts skipped: haproxy is not installed (.ci/run installs it)");

let db: TestDatabase;
let prisma: PrismaClient;
let topology: Topology;

/** Bookers: each sends one booking after another over its keep-alive connection until stopped. */
function startBooking(url: string, apiKey: string, eventTypeId: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: BOOKERS });
  // Every booking a slot of its own: 5-minute slots from a Monday 00:00 UTC two weeks ahead.
  const first = futureMonday(2).getTime() - 9 * 3_600_000;
  let next = 0;
  const statuses: number[] = [];
  const refusals: string[] = [];
  let stopping = false;
  const book = () =>
    new Promise<void>((resolve) => {
      // 287 slots a day: the schedule ends at 23:55, so the last one starts at 23:50.
      const n = next++;
      const minutes = Math.floor(n / SLOTS_A_DAY) * 1_440 + (n % SLOTS_A_DAY) * SLOT_MINUTES;
      const start = new Date(first + minutes * 60_000).toISOString();
      const body = JSON.stringify({
        eventTypeId,
        start,
        timeZone: "UTC",
        language: "en",
        responses: { name: "Restart Drill", email: "drill@example.com" },
        metadata: {},
      });
      const req = request(
        `${url}/v1/bookings?apiKey=${apiKey}`,
        { method: "POST", agent, headers: { "content-type": "application/json" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => {
            statuses.push(res.statusCode ?? 0);
            if (res.statusCode !== 201) refusals.push(`${start}: ${res.statusCode} ${text.slice(0, 200)}`);
            resolve();
          });
        },
      );
      req.on("error", () => {
        statuses.push(0);
        resolve();
      });
      req.end(body);
    });
  const running = Promise.all(
    Array.from({ length: BOOKERS }, async () => {
      while (!stopping) await book();
    }),
  );
  return {
    statuses,
    refusals,
    async stop() {
      stopping = true;
      await running;
      agent.destroy();
      return statuses;
    },
  };
}

/** How many times each value occurs. */
function count(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

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
    const owner = await prisma.shortenerUser.create({ data: { email: `rolling-${Date.now()}@example.com` } });
    const short = await prisma.short.create({
      data: { userId: owner.id, name: `rolling-${Date.now()}`, url: "https://example.com/rolling" },
    });
    const host = await createUserWithKey(prisma, {
      email: `host-${Date.now()}@example.com`,
      username: `host-${Date.now()}`,
      role: "USER",
      prefix: "cal_",
    });
    // Bookable every day, around the clock, in 5-minute slots.
    const schedule = await prisma.schedule.create({
      data: {
        userId: host.user.id,
        name: "Always",
        timeZone: "UTC",
        availability: {
          create: [
            {
              days: [0, 1, 2, 3, 4, 5, 6],
              startTime: new Date("1970-01-01T00:00:00Z"),
              endTime: new Date("1970-01-01T23:55:00Z"),
            },
          ],
        },
      },
    });
    await prisma.user.update({ where: { id: host.user.id }, data: { defaultScheduleId: schedule.id } });
    const eventType = await prisma.eventType.create({
      data: {
        userId: host.user.id,
        title: "Drill",
        slug: `drill-${Date.now()}`,
        length: SLOT_MINUTES,
        minimumBookingNotice: 0,
      },
    });
    const pidsBefore = [...topology.instances.shortener, ...topology.instances.scheduling].map(
      (instance) => instance.process.pid,
    );

    const burst = startBurst(`${topology.url.shortener}/${short.name}`, CONNECTIONS);
    const booking = startBooking(topology.url.scheduling, host.apiKey, eventType.id);
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
    const bookings = await prisma.booking.count({ where: { eventTypeId: eventType.id } });
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
  });

  it(`a SIGTERM to one instance under ${CONNECTIONS} connections, with only the proxy's checks to take it out: no client error, a row per 302, exit 0`, async () => {
    const owner = await prisma.shortenerUser.create({ data: { email: `planned-${Date.now()}@example.com` } });
    const short = await prisma.short.create({
      data: { userId: owner.id, name: `planned-${Date.now()}`, url: "https://example.com/planned" },
    });
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
