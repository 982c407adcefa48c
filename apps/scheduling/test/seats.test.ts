// Seated event types as v1 booked and offered them (calcom-v1-bookings.md §2.5, §6.2; cal.com
// packages/features/bookings/lib/handleSeats/handleSeats.ts and create/createNewSeat.ts, cited
// in the test names): a seated slot carries the seats taken and its booking in GET /slots, a
// booker with room joins that booking, a full one is refused, and the count holds when many
// bookers race for the last seats (docs/adr/0167).
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();
let bookerKey: string;
beforeAll(async () => {
  bookerKey = (await createUser(t.prisma)).apiKey;
});

function body(eventTypeId: number, start: Date, email = "bea@example.com", extra: object = {}) {
  return {
    eventTypeId,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "de",
    metadata: {},
    responses: { name: `Booker ${email}`, email },
    ...extra,
  };
}

const post = (payload: object) =>
  t.app.inject({ method: "POST", url: withKey("/v1/bookings", bookerKey), payload });

async function slotsOn(eventTypeId: number, day: Date) {
  const response = await t.app.inject({
    url: withKey(
      `/v1/slots?eventTypeId=${eventTypeId}&startTime=${day.toISOString()}&endTime=${at(day, 24 * 60 - 1).toISOString()}`,
      bookerKey,
    ),
  });
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(
    response.json().slots as Record<string, { time: string; attendees?: number; bookingUid?: string }[]>,
  ).flat();
}

describe("seated slots (handleSeats.ts, createNewSeat.ts)", () => {
  it("GET /slots: a seated slot carries attendees and bookingUid until it is full, then it is gone (getBusyTimes.ts)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 2 });
    const monday = futureMonday();
    const first = await post(body(eventType.id, at(monday, 60)));
    expect(first.statusCode, first.body).toBe(201);
    const day = at(monday, -9 * 60);
    const seated = (await slotsOn(eventType.id, day)).find((s) => s.time === at(monday, 60).toISOString());
    expect(seated).toEqual({
      time: at(monday, 60).toISOString(),
      attendees: 1,
      bookingUid: first.json().uid,
    });
    expect(await slotsOn(eventType.id, day)).toContainEqual({ time: at(monday, 90).toISOString() });
    expect((await post(body(eventType.id, at(monday, 60), "cy@example.com"))).statusCode).toBe(201);
    expect((await slotsOn(eventType.id, day)).map((s) => s.time)).not.toContain(at(monday, 60).toISOString());
  });

  it("a booker with room joins the slot's booking: v1's answer keys (uid, startTime, status, responses…) plus id and attendees", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 3 });
    const start = at(futureMonday(), 120);
    const first = (await post(body(eventType.id, start))).json();
    const second = await post(body(eventType.id, start, "cy@example.com"));
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({
      id: first.id,
      uid: first.uid,
      startTime: start.toISOString(),
      status: "ACCEPTED",
      title: first.title,
      user: { email: null },
      attendees: [{ email: "bea@example.com" }, { email: "cy@example.com" }],
    });
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(1);
  });

  it("the same e-mail twice is 409 already_signed_up_for_this_booking_error; a full slot 409 booking_seats_full_error; neither changes anything", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 2 });
    const start = at(futureMonday(), 180);
    expect((await post(body(eventType.id, start))).statusCode).toBe(201);
    const again = await post(body(eventType.id, start, "BEA@example.com"));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "already_signed_up_for_this_booking_error" });
    // Guests take seats too: the booker and one guest do not fit in the one seat left.
    const withGuest = await post(
      body(eventType.id, start, "dan@example.com", {
        responses: { name: "Dan", email: "dan@example.com", guests: ["eve@example.com"] },
      }),
    );
    expect(withGuest.statusCode).toBe(409);
    expect(withGuest.json()).toEqual({ message: "booking_seats_full_error" });
    expect((await post(body(eventType.id, start, "cy@example.com"))).statusCode).toBe(201);
    const full = await post(body(eventType.id, start, "fay@example.com"));
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ message: "booking_seats_full_error" });
    expect(await t.prisma.attendee.count({ where: { booking: { eventTypeId: eventType.id } } })).toBe(2);
  });

  // The first booker's guests take seats as a later booker's do (they were not counted: a
  // booker and two guests filled a 2-seat slot with 3 attendees).
  it("the first booker is counted too: a booker and two guests do not fit 2 seats (409 booking_seats_full_error, nothing booked); with one guest they fill it", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 2 });
    const start = at(futureMonday(), 240);
    const guests = ["hal@example.com", "ida@example.com"];
    const crowd = await post(
      body(eventType.id, start, "gil@example.com", {
        responses: { name: "Gil", email: "gil@example.com", guests },
      }),
    );
    expect(crowd.statusCode, crowd.body).toBe(409);
    expect(crowd.json()).toEqual({ message: "booking_seats_full_error" });
    // v1's legacy shape carries the guests at the top level.
    const { responses: _, ...modern } = body(eventType.id, start);
    const legacy = await post({
      ...modern,
      name: "Gil",
      email: "gil@example.com",
      guests,
      location: "",
      customInputs: [],
    });
    expect(legacy.statusCode, legacy.body).toBe(409);
    expect(legacy.json()).toEqual({ message: "booking_seats_full_error" });
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(0);

    const pair = await post(
      body(eventType.id, start, "gil@example.com", {
        responses: { name: "Gil", email: "gil@example.com", guests: guests.slice(0, 1) },
      }),
    );
    expect(pair.statusCode, pair.body).toBe(201);
    expect(pair.json().attendees).toHaveLength(2);
    expect((await post(body(eventType.id, start, "joy@example.com"))).json()).toEqual({
      message: "booking_seats_full_error",
    });
  });

  it("a team's first booking counts the other hosts it records as attendees among the seats (docs/adr/0167)", async () => {
    const [first, second] = [await createUser(t.prisma), await createUser(t.prisma)].sort(
      (a, b) => a.user.id - b.user.id,
    );
    for (const person of [first!, second!]) await giveSchedule(t.prisma, person.user.id);
    const { eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", [
      { userId: first!.user.id },
      { userId: second!.user.id },
    ]);
    await t.prisma.eventType.update({ where: { id: eventType.id }, data: { seatsPerTimeSlot: 2 } });
    const start = at(futureMonday(), 300);
    // The booker, a guest and the second host: three attendees for two seats.
    const withGuest = await post(
      body(eventType.id, start, "kim@example.com", {
        responses: { name: "Kim", email: "kim@example.com", guests: ["lou@example.com"] },
      }),
    );
    expect(withGuest.statusCode, withGuest.body).toBe(409);
    expect(withGuest.json()).toEqual({ message: "booking_seats_full_error" });
    const alone = await post(body(eventType.id, start, "kim@example.com"));
    expect(alone.statusCode, alone.body).toBe(201);
    expect(alone.json().attendees.map((a: { email: string }) => a.email)).toEqual([
      "kim@example.com",
      second!.user.email,
    ]);
  });

  // handleNewBooking.ts runs validateBookingTimeIsNotOutOfBounds (isOutOfBounds.tsx) for every
  // booking before it looks for the slot's seated booking; only the availability check is left
  // out for a seat. A join skipped the notice and the period (it never reached reserveHosts).
  it("a seat inside the minimum notice or outside the ROLLING or RANGE period is 400 booking_time_out_of_bounds_error, personal or team (isOutOfBounds.tsx)", async () => {
    const host = await createUser(t.prisma);
    const personal = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 3 });
    const colleague = await createUser(t.prisma);
    await giveSchedule(t.prisma, colleague.user.id);
    const { eventType: team } = await makeTeamEvent(t.prisma, "COLLECTIVE", [
      { userId: host.user.id },
      { userId: colleague.user.id },
    ]);
    await t.prisma.eventType.update({ where: { id: team.id }, data: { seatsPerTimeSlot: 4 } });
    const monday = futureMonday();
    const dayBefore = new Date(monday.getTime() - 86_400_000);
    const refusals = [
      // Two weeks ahead: inside a notice of 30 days, past a ROLLING period of 3 days and a RANGE
      // that ends the day before.
      { minimumBookingNotice: 30 * 24 * 60 },
      { periodType: "ROLLING" as const, periodDays: 3, periodCountCalendarDays: true },
      { periodType: "RANGE" as const, periodStartDate: dayBefore, periodEndDate: dayBefore },
    ];
    for (const [i, eventType] of [personal, team].entries()) {
      const start = at(monday, 60 + 30 * i);
      const first = await post(body(eventType.id, start));
      expect(first.statusCode, first.body).toBe(201);
      for (const data of refusals) {
        await t.prisma.eventType.update({ where: { id: eventType.id }, data });
        const seat = await post(body(eventType.id, start, "cy@example.com"));
        expect(seat.statusCode, `${eventType.id} ${JSON.stringify(data)} ${seat.body}`).toBe(400);
        expect(seat.json()).toEqual({ message: "booking_time_out_of_bounds_error" });
        await t.prisma.eventType.update({
          where: { id: eventType.id },
          data: { minimumBookingNotice: 0, periodType: "UNLIMITED" },
        });
      }
      expect(
        await t.prisma.attendee.count({ where: { bookingId: first.json().id, email: "cy@example.com" } }),
      ).toBe(0);
      // Within them, the seat is taken.
      expect((await post(body(eventType.id, start, "cy@example.com"))).statusCode).toBe(201);
    }
  });

  it("a seated and recurring event type is 400 recurring_event_seats_error before anything else (handleNewBooking.ts)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 2 });
    await t.prisma.eventType.update({
      where: { id: eventType.id },
      data: { recurringEvent: { freq: 2, count: 4, interval: 1 } },
    });
    const response = await post(body(eventType.id, at(futureMonday(), 60)));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "recurring_event_seats_error" });
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(0);
  });

  it("twelve parallel bookers over HTTP for the last three seats: exactly three get one", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" }).catch(() => {});
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 5 });
    const start = at(futureMonday(3), 60);
    expect((await post(body(eventType.id, start, "a@example.com"))).statusCode).toBe(201);
    expect((await post(body(eventType.id, start, "b@example.com"))).statusCode).toBe(201);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${base}${withKey("/v1/bookings", bookerKey)}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body(eventType.id, start, `racer${i}@example.com`)),
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const bookings = await t.prisma.booking.findMany({
      where: { eventTypeId: eventType.id },
      include: { _count: { select: { attendees: true } } },
    });
    expect(bookings.map((b) => b._count.attendees)).toEqual([5]);
  });
});
