// GET /availability through the app: v1's query and answer (apps/api/v1/pages/api/availability/_get.ts
// and getUserAvailability), computed with the slot engine's schedule and busy times.
import type { PrismaClient } from "@app/db";
import { describe, expect, it } from "vitest";
import { futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

const get = (apiKey: string, query: string, path = "/v1/availability") =>
  t.app.inject({ url: withKey(`${path}?${query}`, apiKey) });

// Fixed Mondays, one in winter and one in summer (availability does not depend on now).
const WINTER = "2027-01-04";
const SUMMER = "2027-07-05";
const utc = (day: string, time: string) => `${day}T${time}:00.000Z`;

/** A schedule of `userId` in `timeZone`, weekdays 09:00-17:00 plus the given overrides, made their default. */
async function workWeek(
  prisma: PrismaClient,
  userId: number,
  timeZone: string,
  overrides: { date: string; start: string; end: string }[] = [],
) {
  const schedule = await prisma.schedule.create({
    data: {
      userId,
      name: timeZone,
      timeZone,
      availability: {
        create: [
          {
            days: [1, 2, 3, 4, 5],
            startTime: new Date("1970-01-01T09:00:00Z"),
            endTime: new Date("1970-01-01T17:00:00Z"),
          },
          ...overrides.map((o) => ({
            days: [],
            date: new Date(`${o.date}T00:00:00Z`),
            startTime: new Date(`1970-01-01T${o.start}:00Z`),
            endTime: new Date(`1970-01-01T${o.end}:00Z`),
          })),
        ],
      },
    },
  });
  await prisma.user.update({ where: { id: userId }, data: { defaultScheduleId: schedule.id } });
  return schedule;
}

let bookings = 0;
async function book(prisma: PrismaClient, userId: number, eventTypeId: number, start: string, end: string) {
  return prisma.booking.create({
    data: {
      uid: `availability-${process.pid}-${++bookings}`,
      userId,
      eventTypeId,
      title: `Call ${bookings} between Hope Host and Bea Booker`,
      startTime: new Date(start),
      endTime: new Date(end),
      status: "ACCEPTED",
      attendees: { create: { name: "Bea Booker", email: "bea@example.com", timeZone: "UTC" } },
    },
  });
}

describe("GET /availability of a user", () => {
  it("answers v1's shape (availability/_get.ts, getUserAvailability): busy times padded by buffers, the schedule's zone, free dateRanges, UTC workingHours", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    await t.prisma.eventType.update({ where: { id: eventType.id }, data: { afterEventBuffer: 15 } });
    const booked = await book(
      t.prisma,
      host.user.id,
      eventType.id,
      utc(WINTER, "10:00"),
      utc(WINTER, "10:30"),
    );
    // A cancelled booking and one on another day are not busy here.
    const cancelled = await book(
      t.prisma,
      host.user.id,
      eventType.id,
      utc(WINTER, "12:00"),
      utc(WINTER, "12:30"),
    );
    await t.prisma.booking.update({ where: { id: cancelled.id }, data: { status: "CANCELLED" } });
    await book(t.prisma, host.user.id, eventType.id, utc("2027-01-05", "10:00"), utc("2027-01-05", "10:30"));

    const response = await get(host.apiKey, `userId=${host.user.id}&dateFrom=${WINTER}&dateTo=2027-01-05`);
    expect(response.statusCode, response.body).toBe(200);
    const free = [
      { start: utc(WINTER, "09:00"), end: utc(WINTER, "10:00") },
      { start: utc(WINTER, "10:45"), end: utc(WINTER, "17:00") },
    ];
    expect(response.json()).toEqual({
      busy: [{ start: utc(WINTER, "10:00"), end: utc(WINTER, "10:45"), title: booked.title }],
      timeZone: "UTC",
      dateRanges: free,
      oooExcludedDateRanges: free,
      workingHours: [{ days: [1, 2, 3, 4, 5], startTime: 540, endTime: 1020, userId: host.user.id }],
      dateOverrides: [],
      currentSeats: null,
      datesOutOfOffice: {},
    });
  });

  it("takes username instead of userId, on every path; another caller sees the busy times without titles", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    await book(t.prisma, host.user.id, eventType.id, utc(WINTER, "11:00"), utc(WINTER, "11:30"));
    const range = `dateFrom=${WINTER}&dateTo=2027-01-05`;
    const own = (await get(host.apiKey, `userId=${host.user.id}&${range}`)).json();
    expect(own.busy[0].title).toEqual(expect.any(String));
    for (const path of ["/v1/availability", "/api/v1/availability", "/availability"]) {
      const byName = await get(host.apiKey, `username=${host.user.username}&${range}`, path);
      expect(byName.json(), path).toEqual(own);
    }
    const other = await createUser(t.prisma);
    const seen = (await get(other.apiKey, `userId=${host.user.id}&${range}`)).json();
    expect(seen).toEqual({ ...own, busy: [{ start: utc(WINTER, "11:00"), end: utc(WINTER, "11:30") }] });
    const admin = await createUser(t.prisma, { admin: true });
    expect((await get(admin.apiKey, `userId=${host.user.id}&${range}`)).json()).toEqual(own);
  });

  it("reports working hours in UTC at the zone's offset on dateFrom, split across midnight onto the neighbouring days (two zones, winter and summer)", async () => {
    const berlin = await createUser(t.prisma);
    await workWeek(t.prisma, berlin.user.id, "Europe/Berlin");
    const winter = (
      await get(berlin.apiKey, `userId=${berlin.user.id}&dateFrom=${WINTER}&dateTo=2027-01-05`)
    ).json();
    expect(winter.timeZone).toBe("Europe/Berlin");
    expect(winter.workingHours).toEqual([
      { days: [1, 2, 3, 4, 5], startTime: 480, endTime: 960, userId: berlin.user.id },
    ]);
    expect(winter.dateRanges).toEqual([{ start: utc(WINTER, "08:00"), end: utc(WINTER, "16:00") }]);
    const summer = (
      await get(berlin.apiKey, `userId=${berlin.user.id}&dateFrom=${SUMMER}&dateTo=2027-07-06`)
    ).json();
    expect(summer.workingHours).toEqual([
      { days: [1, 2, 3, 4, 5], startTime: 420, endTime: 900, userId: berlin.user.id },
    ]);
    expect(summer.dateRanges).toEqual([{ start: utc(SUMMER, "07:00"), end: utc(SUMMER, "15:00") }]);

    // Auckland (+13 in January): 09:00-17:00 is 20:00 the day before to 04:00 UTC.
    const auckland = await createUser(t.prisma);
    await workWeek(t.prisma, auckland.user.id, "Pacific/Auckland");
    const south = (
      await get(auckland.apiKey, `userId=${auckland.user.id}&dateFrom=2027-01-03T00:00:00Z&dateTo=${WINTER}`)
    ).json();
    expect(south.workingHours).toEqual([
      { days: [1, 2, 3, 4, 5], startTime: 0, endTime: 240, userId: auckland.user.id },
      { days: [0, 1, 2, 3, 4], startTime: 1200, endTime: 1439, userId: auckland.user.id },
    ]);
    // Monday 09:00 in Auckland is Sunday 20:00 UTC.
    expect(south.dateRanges).toEqual([{ start: "2027-01-03T20:00:00.000Z", end: utc(WINTER, "00:00") }]);
  });

  it("lists date overrides meeting the range and frees only their hours that day", async () => {
    const host = await createUser(t.prisma);
    await workWeek(t.prisma, host.user.id, "Europe/Berlin", [
      { date: WINTER, start: "12:00", end: "14:00" },
      { date: "2027-02-01", start: "10:00", end: "11:00" },
    ]);
    const answer = (
      await get(host.apiKey, `userId=${host.user.id}&dateFrom=${WINTER}&dateTo=2027-01-06`)
    ).json();
    expect(answer.dateOverrides).toEqual([{ start: utc(WINTER, "11:00"), end: utc(WINTER, "13:00") }]);
    expect(answer.dateRanges).toEqual([
      { start: utc(WINTER, "11:00"), end: utc(WINTER, "13:00") },
      { start: utc("2027-01-05", "08:00"), end: utc("2027-01-05", "16:00") },
    ]);
    // Overrides are not weekly working hours.
    expect(answer.workingHours).toHaveLength(1);
  });

  it("uses the eventTypeId's own schedule, and lists a seated event type's bookings in currentSeats (seats left: not busy)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 3 });
    const tokyo = await t.prisma.schedule.create({
      data: {
        userId: host.user.id,
        name: "Tokyo",
        timeZone: "Asia/Tokyo",
        availability: {
          create: {
            days: [1],
            startTime: new Date("1970-01-01T10:00:00Z"),
            endTime: new Date("1970-01-01T12:00:00Z"),
          },
        },
      },
    });
    await t.prisma.eventType.update({ where: { id: eventType.id }, data: { scheduleId: tokyo.id } });
    const seated = await book(
      t.prisma,
      host.user.id,
      eventType.id,
      utc(WINTER, "01:00"),
      utc(WINTER, "01:30"),
    );
    const query = `userId=${host.user.id}&dateFrom=${WINTER}&dateTo=2027-01-05`;
    const plain = (await get(host.apiKey, query)).json();
    expect(plain.timeZone).toBe("UTC");
    expect(plain.busy).toHaveLength(1);
    expect(plain.currentSeats).toBeNull();

    const withType = (await get(host.apiKey, `${query}&eventTypeId=${eventType.id}`)).json();
    expect(withType.timeZone).toBe("Asia/Tokyo");
    expect(withType.busy).toEqual([]);
    expect(withType.dateRanges).toEqual([{ start: utc(WINTER, "01:00"), end: utc(WINTER, "03:00") }]);
    expect(withType.currentSeats).toEqual([
      { uid: seated.uid, startTime: utc(WINTER, "01:00"), _count: { attendees: 1 } },
    ]);
  });

  it("agrees with /slots: every slot of the day lies in a free range", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const day = futureMonday().toISOString().slice(0, 10);
    await book(t.prisma, host.user.id, eventType.id, `${day}T13:00:00.000Z`, `${day}T14:00:00.000Z`);
    const range = `${day}T00:00:00Z`;
    const next = new Date(new Date(range).getTime() + 86_400_000).toISOString();
    const free = (await get(host.apiKey, `userId=${host.user.id}&dateFrom=${range}&dateTo=${next}`)).json()
      .dateRanges as { start: string; end: string }[];
    const slots = (
      await t.app.inject({
        url: withKey(`/v1/slots?eventTypeId=${eventType.id}&startTime=${range}&endTime=${next}`, host.apiKey),
      })
    ).json().slots as Record<string, { time: string }[]>;
    const times = Object.values(slots).flat();
    for (const { time } of times) {
      const start = Date.parse(time);
      const inside = free.some(
        (r) => Date.parse(r.start) <= start && start + 30 * 60_000 <= Date.parse(r.end),
      );
      expect(inside, time).toBe(true);
    }
    // 09:00-17:00 less the booked hour: 14 half-hour slots in two free ranges.
    expect(times).toHaveLength(14);
    expect(free).toHaveLength(2);
  });
});

describe("GET /availability at the ends of the calendar", () => {
  // The bookings' query window is widened by a margin: at year 1 it reached year 0, which
  // PostgreSQL refuses (a 500). Years below 100 are also where Date.UTC reads 1 as 1901.
  it("answers the first days of year 1 (a Monday) and the last of year 9999 (a Friday)", async () => {
    const host = await createUser(t.prisma);
    await makeHost(t.prisma, host.user.id);
    const first = await get(host.apiKey, `userId=${host.user.id}&dateFrom=0001-01-01&dateTo=0001-01-02`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      busy: [],
      dateRanges: [{ start: "0001-01-01T09:00:00.000Z", end: "0001-01-01T17:00:00.000Z" }],
      workingHours: [{ days: [1, 2, 3, 4, 5], startTime: 540, endTime: 1020, userId: host.user.id }],
    });
    const last = await get(
      host.apiKey,
      `userId=${host.user.id}&dateFrom=9999-12-31&dateTo=9999-12-31T23:59:59.999Z`,
    );
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().dateRanges).toEqual([
      { start: "9999-12-31T09:00:00.000Z", end: "9999-12-31T17:00:00.000Z" },
    ]);
  });
});

describe("GET /availability of a team", () => {
  it("answers [{userId, availability}] for each accepted member, to the team's OWNERs and ADMINs (v1's teamId branch)", async () => {
    const owner = await createUser(t.prisma);
    const member = await createUser(t.prisma);
    const invitee = await createUser(t.prisma);
    const stranger = await createUser(t.prisma);
    const admin = await createUser(t.prisma, { admin: true });
    const team = await t.prisma.team.create({
      data: {
        name: "Support",
        members: {
          create: [
            { userId: owner.user.id, role: "OWNER", accepted: true },
            { userId: member.user.id, role: "MEMBER", accepted: true },
            { userId: invitee.user.id, role: "ADMIN", accepted: false },
          ],
        },
      },
    });
    await workWeek(t.prisma, member.user.id, "Europe/Berlin");
    const memberType = await makeHost(t.prisma, owner.user.id);
    await book(t.prisma, owner.user.id, memberType.id, utc(WINTER, "09:00"), utc(WINTER, "09:30"));
    const query = `teamId=${team.id}&dateFrom=${WINTER}&dateTo=2027-01-05`;

    const answer = await get(owner.apiKey, query);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as { userId: number; availability: { busy: object[]; timeZone: string } }[];
    expect(body.map((entry) => entry.userId)).toEqual([owner.user.id, member.user.id].sort((a, b) => a - b));
    const byUser = new Map(body.map((entry) => [entry.userId, entry.availability]));
    // Each member's answer is exactly their own: the owner sees their own titles, and no one else's.
    expect(byUser.get(owner.user.id)).toEqual(
      (await get(owner.apiKey, `userId=${owner.user.id}&dateFrom=${WINTER}&dateTo=2027-01-05`)).json(),
    );
    expect(byUser.get(member.user.id)!.timeZone).toBe("Europe/Berlin");
    expect((await get(admin.apiKey, query)).json()).toHaveLength(2);

    const refused = await get(member.apiKey, query);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: `Only an OWNER or ADMIN of team ${team.id} can read its members' availability`,
    });
    // An unaccepted invitation grants nothing yet; a stranger does not see the team at all.
    expect((await get(invitee.apiKey, query)).statusCode).toBe(403);
    const hidden = await get(stranger.apiKey, query);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: `Team with id: ${team.id} not found` });
  });
});

describe("GET /availability refuses", () => {
  it("bad queries with 400 in v1's words, unknown users and event types with 404, and nothing without a key", async () => {
    const caller = await createUser(t.prisma);
    const id = caller.user.id;
    const cases: [string, number, string | RegExp][] = [
      [
        `dateFrom=${WINTER}&dateTo=2027-01-05`,
        400,
        /Either username or userId or teamId should be filled in\./,
      ],
      [`userId=${id}&dateTo=2027-01-05`, 400, /dateFrom/],
      [`userId=${id}&dateFrom=2027-13-01&dateTo=2027-01-05`, 400, /dateFrom/],
      [
        `userId=${id}&dateFrom=2027-01-05&dateTo=${WINTER}`,
        400,
        "custom in 'dateTo': dateTo must be after dateFrom",
      ],
      [
        `userId=${id}&dateFrom=${WINTER}&dateTo=2027-06-01`,
        400,
        "custom in 'dateTo': the range may span at most 93 days",
      ],
      [`userId=${id}&dateFrom=${WINTER}&dateTo=2027-01-05&timeZone=UTC`, 400, /timeZone/],
      [`userId=abc&dateFrom=${WINTER}&dateTo=2027-01-05`, 400, /userId/],
      [`userId=2147483647&dateFrom=${WINTER}&dateTo=2027-01-05`, 404, "No user found in getUserAvailability"],
      [
        `username=nobody-${id}&dateFrom=${WINTER}&dateTo=2027-01-05`,
        404,
        "No user found in getUserAvailability",
      ],
      [
        `userId=${id}&dateFrom=${WINTER}&dateTo=2027-01-05&eventTypeId=2147483647`,
        404,
        "Event type with id: 2147483647 not found",
      ],
      [`teamId=2147483647&dateFrom=${WINTER}&dateTo=2027-01-05`, 404, "Team with id: 2147483647 not found"],
    ];
    for (const [query, status, message] of cases) {
      const response = await get(caller.apiKey, query);
      expect(response.statusCode, query).toBe(status);
      if (typeof message === "string") expect(response.json().message, query).toBe(message);
      else expect(response.json().message, query).toMatch(message);
    }
    // v1's own example spelling of a date-time, without an offset, is read as UTC.
    const spaced = await get(
      caller.apiKey,
      `userId=${id}&dateFrom=2027-01-04 08:00:00&dateTo=2027-01-04T12:00`,
    );
    expect(spaced.statusCode, spaced.body).toBe(200);
    expect(spaced.json().dateRanges).toEqual([{ start: utc(WINTER, "09:00"), end: utc(WINTER, "12:00") }]);
    expect(
      (await t.app.inject({ url: `/v1/availability?userId=${id}&dateFrom=${WINTER}&dateTo=2027-01-05` }))
        .statusCode,
    ).toBe(401);
  });
});
