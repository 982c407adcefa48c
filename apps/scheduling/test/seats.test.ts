// Seated event types as v1 booked and offered them (calcom-v1-bookings.md §2.5, §6.2; cal.com
// packages/features/bookings/lib/handleSeats/handleSeats.ts and create/createNewSeat.ts, cited
// in the test names): a seated slot carries the seats taken and its booking in GET /slots, a
// booker with room joins that booking, a full one is refused, and the count holds when many
// bookers race for the last seats (docs/adr/0167).
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
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
