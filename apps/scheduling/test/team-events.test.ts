// Team event types through the app, as v1 served them: GET /slots for COLLECTIVE and
// ROUND_ROBIN event types (by id, by team slug, and dynamic groups of users) and POST /bookings
// holding every host or one chosen by v1's round-robin rule, also under concurrency and across
// two app instances on one database. v1 sources are cited in the test names (cal.com paths).
import { createPrisma, type PrismaClient } from "@app/db";
import { conformance } from "@app/testing/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent, type TeamHost } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

// Bookings of one round-robin team run one at a time under its hosts' locks, each holding a
// pooled connection while it waits: the concurrency tests queue for the pool as long as the
// bookings ahead take, which a loaded two-core machine can make seconds. They test the order,
// not the pool's 5 s wait (with 50 bookings, CI answered the last ones 503 on 2026-11-26).
const POOL = { poolMax: 4, connectTimeoutMs: 60_000 };
const t = setupApp({}, { database: POOL });
/** A second instance of the service on the same database, with its own connection pool. */
let second: { app: SchedulingApp; prisma: PrismaClient };

beforeAll(async () => {
  const prisma = createPrisma(t.databaseUrl, { ...POOL, directUrl: t.directUrl });
  const app = await buildApp({ config: t.config, prisma, logger: false });
  conformance.watch(app);
  await app.ready();
  second = { app, prisma };
});
afterAll(async () => {
  await second?.app.close();
  await second?.prisma.$disconnect();
});

/** `count` users, each with a Monday-Friday schedule (09:00-17:00 UTC unless `zones` says otherwise). */
async function people(count: number, zones: string[] = []) {
  const users = [];
  for (let i = 0; i < count; i++) {
    const person = await createUser(t.prisma);
    await giveSchedule(t.prisma, person.user.id, { timeZone: zones[i] ?? "UTC", name: `Host ${i + 1}` });
    users.push(person);
  }
  return users.sort((a, b) => a.user.id - b.user.id);
}

const hostsOf = (users: { user: { id: number } }[], extra: Partial<TeamHost> = {}) =>
  users.map(({ user }) => ({ userId: user.id, ...extra }));

async function slots(query: string, app = t.app) {
  const { apiKey } = await createUser(t.prisma);
  const response = await app.inject({ url: withKey(`/v1/slots?${query}`, apiKey) });
  return response;
}

/** The start times GET /slots offers for one event type over one day, in UTC. */
async function offered(eventTypeId: number, day: Date) {
  const response = await slots(
    `eventTypeId=${eventTypeId}&startTime=${day.toISOString()}&endTime=${at(day, 24 * 60 - 1).toISOString()}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(response.json().slots as Record<string, { time: string }[]>)
    .flat()
    .map((slot) => slot.time);
}

let bookerKey: string;
beforeAll(async () => {
  bookerKey = (await createUser(t.prisma)).apiKey;
});

function book(eventTypeId: number, start: Date, app = t.app, name = "Bea Booker") {
  return app.inject({
    method: "POST",
    url: withKey("/v1/bookings", bookerKey),
    payload: {
      eventTypeId,
      start: start.toISOString(),
      timeZone: "Europe/Berlin",
      language: "de",
      metadata: {},
      responses: { name, email: "bea@example.com" },
    },
  });
}

const bookingsOf = (eventTypeId: number) =>
  t.prisma.booking.findMany({
    where: { eventTypeId, status: "ACCEPTED" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { attendees: { orderBy: { id: "asc" } } },
  });

// Monday 00:00 UTC, at least two weeks ahead.
const monday = () => at(futureMonday(3), -9 * 60);

describe("GET /slots of a team event type (trpc/server/routers/viewer/slots/util.ts, getAggregatedAvailability.ts)", () => {
  it("COLLECTIVE: only where every host is free, each in their own zone; ROUND_ROBIN: where any is", async () => {
    // Tokyo 09:00-17:00 is 00:00-08:00 UTC, Kolkata's 03:30-11:30: neither has DST.
    const users = await people(2, ["Asia/Tokyo", "Asia/Kolkata"]);
    const collective = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const roundRobin = await makeTeamEvent(t.prisma, "ROUND_ROBIN", hostsOf(users));
    const day = monday();
    const both = await offered(collective.eventType.id, day);
    expect(both[0]).toBe(at(day, 3 * 60 + 30).toISOString());
    expect(both.at(-1)).toBe(at(day, 7 * 60 + 30).toISOString());
    expect(both).toHaveLength(9);
    const either = await offered(roundRobin.eventType.id, day);
    expect(either[0]).toBe(day.toISOString());
    expect(either.at(-1)).toBe(at(day, 11 * 60).toISOString());
    expect(either).toHaveLength(23);
  });

  it("a host's booking, as organizer or as attendee (lib/getBusyTimes.ts), takes the slot of a COLLECTIVE event type only", async () => {
    const users = await people(2);
    const collective = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const roundRobin = await makeTeamEvent(t.prisma, "ROUND_ROBIN", hostsOf(users));
    const day = at(monday(), 9 * 60);
    // The first host organizes one at 09:00; the second attends one (of someone else) at 10:00.
    const other = await createUser(t.prisma);
    for (const [userId, minutes, attendee] of [
      [users[0]!.user.id, 0, "someone@example.com"],
      [other.user.id, 60, users[1]!.user.email],
    ] as const) {
      await t.prisma.booking.create({
        data: {
          uid: `team-busy-${userId}-${minutes}-${Date.now()}`,
          userId,
          title: "busy",
          startTime: at(day, minutes),
          endTime: at(day, minutes + 30),
          attendees: { create: [{ email: attendee, name: "x", timeZone: "UTC" }] },
        },
      });
    }
    const collectiveSlots = await offered(collective.eventType.id, at(day, -9 * 60));
    expect(collectiveSlots).not.toContain(day.toISOString());
    expect(collectiveSlots).not.toContain(at(day, 60).toISOString());
    expect(collectiveSlots).toContain(at(day, 30).toISOString());
    const roundRobinSlots = await offered(roundRobin.eventType.id, at(day, -9 * 60));
    expect(roundRobinSlots).toContain(day.toISOString());
    expect(roundRobinSlots).toContain(at(day, 60).toISOString());
  });

  it("ROUND_ROBIN with a fixed host (isFixed): the fixed host must be free as well", async () => {
    const [fixed, ...others] = await people(3);
    const { eventType } = await makeTeamEvent(t.prisma, "ROUND_ROBIN", [
      { userId: fixed!.user.id, isFixed: true },
      ...hostsOf(others),
    ]);
    const day = at(monday(), 9 * 60);
    await t.prisma.booking.create({
      data: {
        uid: `fixed-busy-${Date.now()}`,
        userId: fixed!.user.id,
        title: "busy",
        startTime: day,
        endTime: at(day, 30),
      },
    });
    const times = await offered(eventType.id, at(day, -9 * 60));
    expect(times).not.toContain(day.toISOString());
    expect(times).toContain(at(day, 30).toISOString());
  });

  it("takes v1's other ways to name it: isTeamEvent=true with the team's slug in usernameList", async () => {
    const users = await people(2);
    const { team, eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const day = monday();
    const range = `startTime=${day.toISOString()}&endTime=${at(day, 24 * 60 - 1).toISOString()}`;
    const byId = await slots(`eventTypeId=${eventType.id}&${range}&timeZone=Europe/Berlin`);
    const bySlug = await slots(
      `usernameList=${team.slug}&eventTypeSlug=${eventType.slug}&isTeamEvent=true&${range}&timeZone=Europe/Berlin`,
    );
    expect(bySlug.statusCode, bySlug.body).toBe(200);
    expect(Object.values(bySlug.json().slots).flat()).toHaveLength(16);
    expect(bySlug.json()).toEqual(byId.json());
    // Without isTeamEvent the name is a user's: no such user has that event type.
    const asUser = await slots(`usernameList=${team.slug}&eventTypeSlug=${eventType.slug}&${range}`);
    expect(asUser.statusCode).toBe(404);
  });

  it("a team event type without hosts offers nothing (v1: no users)", async () => {
    const { eventType } = await makeTeamEvent(t.prisma, "ROUND_ROBIN", []);
    expect(await offered(eventType.id, monday())).toEqual([]);
  });

  it("dynamic group of two or more usernames (lib/defaultEvents.ts): 30 minutes when all are free, 120 minutes' notice", async () => {
    const [early, late] = await people(2, ["UTC", "America/New_York"]);
    const day = monday();
    const range = `startTime=${day.toISOString()}&endTime=${at(day, 24 * 60 - 1).toISOString()}`;
    const names = `usernameList=${early!.user.username}&usernameList=${late!.user.username}`;
    const group = await slots(`${names}&eventTypeSlug=anything&${range}`);
    expect(group.statusCode, group.body).toBe(200);
    const times = Object.values(group.json().slots as Record<string, { time: string }[]>).flat();
    // 09:00-17:00 UTC and 09:00-17:00 New York (13:00 or 14:00 UTC by the season) overlap until 17:00 UTC.
    expect(times.at(-1)).toEqual({ time: at(day, 16 * 60 + 30).toISOString() });
    expect([6, 8]).toContain(times.length);
    const longer = await slots(`${names}&eventTypeSlug=anything&duration=60&${range}`);
    expect(Object.values(longer.json().slots).flat().length).toBeLessThan(times.length);

    const unknown = await slots(
      `usernameList=${early!.user.username}&usernameList=nobody-${Date.now()}&eventTypeSlug=x&${range}`,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "NOT_FOUND" });
    await t.prisma.user.update({ where: { id: late!.user.id }, data: { allowDynamicBooking: false } });
    const refused = await slots(`${names}&eventTypeSlug=anything&${range}`);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      message: "Some of the users in this group do not allow dynamic booking",
    });
  });
});

describe("POST /bookings of a COLLECTIVE event type (features/bookings/lib/handleNewBooking.ts)", () => {
  it("holds every host: the first organizes, the others attend after the booker; the team is in the title", async () => {
    const users = await people(3);
    const { team, eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const start = at(monday(), 10 * 60);
    const response = await book(eventType.id, start);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      userId: users[0]!.user.id,
      eventTypeId: eventType.id,
      title: `Team call between ${team.name} and Bea Booker`,
      user: { email: null, name: "Host 1" },
      luckyUsers: [],
    });
    expect(body.attendees.map((a: { email: string }) => a.email)).toEqual([
      "bea@example.com",
      users[1]!.user.email,
      users[2]!.user.email,
    ]);
    // v1 records a host with their user's zone and locale (not their schedule's zone).
    expect(body.attendees[1]).toMatchObject({ name: "Host 2", timeZone: "Europe/London", locale: "en" });
    // Every host is now busy then, on this event type and on their own.
    const personal = await makeHost(t.prisma, users[2]!.user.id);
    expect(await offered(eventType.id, at(start, -10 * 60))).not.toContain(start.toISOString());
    expect(await offered(personal.id, at(start, -10 * 60))).not.toContain(start.toISOString());
  });

  it("answers 409 fixed_hosts_unavailable_for_booking when a host is busy, and books nothing", async () => {
    const users = await people(2);
    const { eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const personal = await makeHost(t.prisma, users[1]!.user.id);
    const start = at(monday(), 11 * 60);
    expect((await book(personal.id, start)).statusCode).toBe(201);
    const refused = await book(eventType.id, start);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: "fixed_hosts_unavailable_for_booking" });
    expect(await bookingsOf(eventType.id)).toEqual([]);
  });

  it("keeps the event type's grid and notice: 400 as for a personal event type", async () => {
    const users = await people(2);
    const { eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const offGrid = await book(eventType.id, at(monday(), 10 * 60 + 10));
    expect(offGrid.statusCode).toBe(400);
    expect(offGrid.json()).toEqual({ message: "no_available_users_found_error" });
    await t.prisma.eventType.update({
      where: { id: eventType.id },
      data: { minimumBookingNotice: 60 * 24 * 365 },
    });
    const soon = await book(eventType.id, at(monday(), 10 * 60));
    expect(soon.json()).toEqual({ message: "booking_time_out_of_bounds_error" });
    const { eventType: hostless } = await makeTeamEvent(t.prisma, "COLLECTIVE", []);
    expect((await book(hostless.id, at(monday(), 10 * 60))).json()).toEqual({
      message: "no_available_users_found_error",
    });
    expect(await bookingsOf(eventType.id)).toEqual([]);
  });

  it("a start outside a RANGE period is 400 booking_time_out_of_bounds_error, as for a personal event type (v1's isOutOfBounds)", async () => {
    const users = await people(2);
    const { eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const day = monday();
    await t.prisma.eventType.update({
      where: { id: eventType.id },
      data: { periodType: "RANGE", periodStartDate: day, periodEndDate: day },
    });
    const tuesday = at(day, (24 + 10) * 60);
    expect(await offered(eventType.id, at(day, 24 * 60))).toEqual([]);
    const outside = await book(eventType.id, tuesday);
    expect(outside.statusCode, outside.body).toBe(400);
    expect(outside.json()).toEqual({ message: "booking_time_out_of_bounds_error" });
    expect((await book(eventType.id, at(day, 10 * 60))).statusCode).toBe(201);
  });
});

describe("POST /bookings of a ROUND_ROBIN event type (lib/server/getLuckyUser.ts)", () => {
  it("goes to the least recently booked free host; 409 round_robin_host_unavailable_for_booking when none is free", async () => {
    const users = await people(3);
    const ids = users.map(({ user }) => user.id);
    const { eventType } = await makeTeamEvent(t.prisma, "ROUND_ROBIN", hostsOf(users));
    const day = at(monday(), 10 * 60);
    const chosen: number[] = [];
    for (const minutes of [0, 30, 60, 90, 180, 180, 180]) {
      const response = await book(eventType.id, at(day, minutes));
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body.luckyUsers).toEqual([body.userId]);
      expect(body.attendees).toHaveLength(1);
      expect(body.title).toBe(`Team call between Host ${ids.indexOf(body.userId) + 1} and Bea Booker`);
      chosen.push(body.userId);
    }
    // Never booked first, in id order; then whoever's latest booking is oldest, among the free.
    expect(chosen).toEqual([ids[0], ids[1], ids[2], ids[0], ids[1], ids[2], ids[0]]);
    const none = await book(eventType.id, at(day, 180));
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: "round_robin_host_unavailable_for_booking" });
    expect(await bookingsOf(eventType.id)).toHaveLength(7);
  });

  it("with a fixed host: they organize, the chosen round-robin host attends; 409 fixed_hosts_unavailable_for_booking when they are busy", async () => {
    const [fixed, ...others] = await people(3);
    const { team, eventType } = await makeTeamEvent(t.prisma, "ROUND_ROBIN", [
      { userId: fixed!.user.id, isFixed: true },
      ...hostsOf(others),
    ]);
    const start = at(monday(), 13 * 60);
    const response = await book(eventType.id, start);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      userId: fixed!.user.id,
      luckyUsers: [others[0]!.user.id],
      title: `Team call between ${team.name} and Bea Booker`,
    });
    expect(body.attendees.map((a: { email: string }) => a.email)).toEqual([
      "bea@example.com",
      others[0]!.user.email,
    ]);
    // The second round-robin host is free at that time, the fixed one is not.
    const refused = await book(eventType.id, start);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: "fixed_hosts_unavailable_for_booking" });
  });

  it("takes priority and weights set through the API: priority first, then each host's share (isRRWeightsEnabled)", async () => {
    const owner = await createUser(t.prisma);
    const users = await people(2);
    const team = await t.prisma.team.create({
      data: {
        name: "Weighted",
        members: {
          create: [
            { userId: owner.user.id, accepted: true, role: "OWNER" },
            ...users.map(({ user }) => ({ userId: user.id, accepted: true })),
          ],
        },
      },
    });
    const create = async (slug: string, extra: object, hosts: object[]) => {
      const response = await t.app.inject({
        method: "POST",
        url: withKey("/v1/event-types", owner.apiKey),
        payload: {
          title: "Sales call",
          slug,
          length: 30,
          teamId: team.id,
          schedulingType: "ROUND_ROBIN",
          minimumBookingNotice: 0,
          hosts,
          ...extra,
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().event_type as { id: number; hosts: object[]; isRRWeightsEnabled: boolean };
    };
    const [low, high] = users.map(({ user }) => user.id) as [number, number];
    const prioritized = await create("priority", {}, [
      { userId: low, priority: 1 },
      { userId: high, priority: 4 },
    ]);
    expect(prioritized.hosts).toEqual([
      { userId: low, isFixed: false, scheduleId: null, priority: 1, weight: null },
      { userId: high, isFixed: false, scheduleId: null, priority: 4, weight: null },
    ]);
    const day = at(monday(), 9 * 60);
    for (const minutes of [0, 30]) {
      expect((await book(prioritized.id, at(day, minutes))).json().userId).toBe(high);
    }
    // `high` is busy at 09:00 now: the lower priority host takes it.
    expect((await book(prioritized.id, day)).json().userId).toBe(low);

    const weighted = await create("weighted", { isRRWeightsEnabled: true }, [
      { userId: low, weight: 300 },
      { userId: high, weight: 100 },
    ]);
    expect(weighted.isRRWeightsEnabled).toBe(true);
    const chosen = [];
    for (let n = 0; n < 8; n++)
      chosen.push((await book(weighted.id, at(day, 24 * 60 + 30 * n))).json().userId);
    expect(chosen).toEqual([low, high, low, low, low, high, low, low]);

    const refused = await t.app.inject({
      method: "PATCH",
      url: withKey(`/v1/event-types/${weighted.id}`, owner.apiKey),
      payload: { hosts: [{ userId: low, priority: 5, weight: -1 }] },
    });
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json()
        .issues.map((issue: { path: string }) => issue.path)
        .sort(),
    ).toEqual(["hosts.0.priority", "hosts.0.weight"]);
  });
});

describe("concurrency (the per-host locks are PostgreSQL advisory locks: they hold across instances)", () => {
  it("20 parallel bookings of distinct slots over two instances go round the 5 hosts in v1's order, 4 each", async () => {
    const users = await people(5);
    const ids = users.map(({ user }) => user.id);
    const { eventType } = await makeTeamEvent(t.prisma, "ROUND_ROBIN", hostsOf(users));
    const base = at(monday(), 9 * 60);
    // A round-robin booking holds all its hosts' locks, so these run one at a time (POOL, above).
    const starts = Array.from({ length: 20 }, (_, i) =>
      at(base, Math.floor(i / 16) * 24 * 60 + (i % 16) * 30),
    );
    const answers = await Promise.all(
      starts.map((start, i) => book(eventType.id, start, i % 2 === 0 ? t.app : second.app)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(starts.map(() => 201));
    const made = await bookingsOf(eventType.id);
    expect(made).toHaveLength(20);
    // In the order they were made (under the hosts' locks), each went to the least recently booked.
    expect(made.map((booking) => booking.userId)).toEqual(starts.map((_, i) => ids[i % 5]));
  });

  it("two bookers of the last free round-robin host, on two instances: one wins, also against a booking of that host's own event type", async () => {
    const [busy, last] = await people(2);
    const { eventType } = await makeTeamEvent(t.prisma, "ROUND_ROBIN", hostsOf([busy!, last!]));
    const personal = await makeHost(t.prisma, last!.user.id);
    const start = at(monday(), 14 * 60);
    const busyOwn = await makeHost(t.prisma, busy!.user.id);
    expect((await book(busyOwn.id, start)).statusCode).toBe(201);

    const attempts = Array.from({ length: 10 }, (_, i) =>
      book(i < 8 ? eventType.id : personal.id, start, i % 2 === 0 ? t.app : second.app, `Racer ${i}`),
    );
    const answers = await Promise.all(attempts);
    const won = answers.filter((answer) => answer.statusCode === 201);
    expect(won).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 201)) {
      expect([
        '409 {"message":"round_robin_host_unavailable_for_booking"}',
        '400 {"message":"no_available_users_found_error"}',
      ]).toContain(`${answer.statusCode} ${answer.body}`);
    }
    const lasts = await t.prisma.booking.findMany({
      where: { userId: last!.user.id, startTime: start, status: "ACCEPTED" },
    });
    expect(lasts).toHaveLength(1);
  });

  it("COLLECTIVE: ten bookers of one slot on two instances, one wins, the others get 409", async () => {
    const users = await people(3);
    const { eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", hostsOf(users));
    const start = at(monday(), 15 * 60);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => book(eventType.id, start, i % 2 === 0 ? t.app : second.app)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await bookingsOf(eventType.id)).toHaveLength(1);
  });
});
