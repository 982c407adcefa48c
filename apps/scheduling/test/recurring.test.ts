// Recurring series as v1 had them (calcom-v1-bookings.md §2.2, §5.3; cal.com
// apps/api/v1/pages/api/bookings/_post.ts and packages/features/bookings/lib/handleCancelBooking.ts,
// cited in the test names): each POST books one booking of a series named by the client's
// `recurringEventId`, `recurringCount` is checked against the event type's recurrence, and
// cancelling with `allRemainingBookings=true` cancels the series' bookings that have not started.

import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();
let host: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  host = await createUser(t.prisma);
});

const WEEK = 7 * 24 * 60;

/** A 30-minute event type of a fresh host, weekly four times. */
async function weekly() {
  const owner = await createUser(t.prisma);
  const eventType = await makeHost(t.prisma, owner.user.id);
  await t.prisma.eventType.update({
    where: { id: eventType.id },
    data: { recurringEvent: { freq: 2, count: 4, interval: 1 } },
  });
  return { owner, eventType };
}

function body(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
  return {
    eventTypeId,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "de",
    metadata: {},
    responses: { name: "Bea Booker", email: "bea@example.com" },
    ...extra,
  };
}

const post = (payload: object) =>
  t.app.inject({ method: "POST", url: withKey("/v1/bookings", host.apiKey), payload });

/** The four weekly bookings of one series, starting `weeks` weeks ahead at 10:00 UTC. */
async function series(eventTypeId: number, weeks = 2) {
  const recurringEventId = randomUUID();
  const first = at(futureMonday(weeks), 60);
  const made = [];
  for (let i = 0; i < 4; i++) {
    const response = await post(
      body(eventTypeId, at(first, i * WEEK), { recurringEventId, recurringCount: 4 }),
    );
    expect(response.statusCode, response.body).toBe(201);
    made.push(response.json() as { id: number; uid: string; recurringEventId: string });
  }
  return { recurringEventId, made };
}

const statuses = async (recurringEventId: string) =>
  (await t.prisma.booking.findMany({ where: { recurringEventId }, orderBy: { startTime: "asc" } })).map(
    (b) => b.status,
  );

describe("POST /bookings of a series (_post.ts, getBookingData.ts)", () => {
  it("each POST books one booking of the series, with its recurringEventId", async () => {
    const { eventType } = await weekly();
    const { recurringEventId, made } = await series(eventType.id);
    expect(made.map((b) => b.recurringEventId)).toEqual([
      recurringEventId,
      recurringEventId,
      recurringEventId,
      recurringEventId,
    ]);
    expect(await statuses(recurringEventId)).toEqual(["ACCEPTED", "ACCEPTED", "ACCEPTED", "ACCEPTED"]);
  });

  it("checks recurringCount against the event type's recurrence as v1 documented it: missing or over the count is 400, nothing booked", async () => {
    const { eventType } = await weekly();
    const start = at(futureMonday(), 60);
    const over = await post(body(eventType.id, start, { recurringEventId: "s-1", recurringCount: 5 }));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      message: "Invalid recurringCount",
      issues: [{ path: "recurringCount" }],
    });
    const missing = await post(body(eventType.id, start, { recurringEventId: "s-1" }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: "Missing recurringCount" });
    const zero = await post(body(eventType.id, start, { recurringEventId: "s-1", recurringCount: 0 }));
    expect(zero.statusCode).toBe(400);
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(0);
  });

  it("recurringCount alone (Pipedream's create-booking sends it) is ignored, as in v1", async () => {
    const { eventType } = await weekly();
    const response = await post(body(eventType.id, at(futureMonday(), 90), { recurringCount: 99 }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().recurringEventId).toBeNull();
  });
});

describe("cancelling with allRemainingBookings (handleCancelBooking.ts)", () => {
  it("`true` on DELETE /bookings/{id} cancels every booking of the series from now on; past ones and other series stay", async () => {
    const { owner, eventType } = await weekly();
    const { recurringEventId, made } = await series(eventType.id);
    const other = await series(eventType.id, 7);
    // A booking of the series that is already over (written directly: the API refuses the past).
    const past = await t.prisma.booking.create({
      data: {
        uid: randomUUID(),
        userId: owner.user.id,
        eventTypeId: eventType.id,
        recurringEventId,
        title: "Past",
        startTime: new Date(Date.now() - 8 * 24 * 3_600_000),
        endTime: new Date(Date.now() - 8 * 24 * 3_600_000 + 1_800_000),
      },
    });
    const response = await t.app.inject({
      method: "DELETE",
      url: withKey(
        `/v1/bookings/${made[2]!.id}?allRemainingBookings=true&cancellationReason=Moving`,
        owner.apiKey,
      ),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: "Booking successfully cancelled.",
      onlyRemovedAttendee: false,
      bookingId: made[2]!.id,
      bookingUid: made[2]!.uid,
    });
    expect(await statuses(recurringEventId)).toEqual([
      "ACCEPTED",
      "CANCELLED",
      "CANCELLED",
      "CANCELLED",
      "CANCELLED",
    ]);
    expect(await t.prisma.booking.findUniqueOrThrow({ where: { id: past.id } })).toMatchObject({
      status: "ACCEPTED",
      cancellationReason: null,
    });
    const cancelled = await t.prisma.booking.findMany({ where: { recurringEventId, status: "CANCELLED" } });
    expect(new Set(cancelled.map((b) => b.cancellationReason))).toEqual(new Set(["Moving"]));
    expect(await statuses(other.recurringEventId)).toEqual(["ACCEPTED", "ACCEPTED", "ACCEPTED", "ACCEPTED"]);
  });

  it("on /cancel too (Raycast's route); any other value than `true` cancels the one booking only", async () => {
    const { owner, eventType } = await weekly();
    const { recurringEventId, made } = await series(eventType.id);
    const one = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${made[0]!.id}/cancel?allRemainingBookings=TRUE`, owner.apiKey),
    });
    expect(one.statusCode).toBe(200);
    expect(await statuses(recurringEventId)).toEqual(["CANCELLED", "ACCEPTED", "ACCEPTED", "ACCEPTED"]);
    const all = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${made[1]!.id}/cancel?allRemainingBookings=true`, owner.apiKey),
    });
    expect(all.statusCode).toBe(200);
    expect(await statuses(recurringEventId)).toEqual(["CANCELLED", "CANCELLED", "CANCELLED", "CANCELLED"]);
    // The first keeps its own cancellation ("Not Provided" by default); the series' got theirs.
    const again = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${made[3]!.id}/cancel?allRemainingBookings=true`, owner.apiKey),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: "This booking has already been cancelled." });
  });

  it("a recurringEventId on an event type that is not recurring is kept, but cancels only its booking (as v1)", async () => {
    const owner = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, owner.user.id);
    const start = at(futureMonday(), 60);
    const a = (await post(body(eventType.id, start, { recurringEventId: "plain" }))).json();
    const b = (await post(body(eventType.id, at(start, 60), { recurringEventId: "plain" }))).json();
    expect(a.recurringEventId).toBe("plain");
    const cancelled = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${a.id}?allRemainingBookings=true`, owner.apiKey),
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await t.prisma.booking.findUniqueOrThrow({ where: { id: b.id } })).status).toBe("ACCEPTED");
  });

  it("parallel cancels of one series over HTTP leave every future booking of it cancelled, and free their slots", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" }).catch(() => {});
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { owner, eventType } = await weekly();
    const { recurringEventId, made } = await series(eventType.id, 3);
    const answers = await Promise.all(
      made.map((booking) =>
        fetch(`${base}${withKey(`/v1/bookings/${booking.id}?allRemainingBookings=true`, owner.apiKey)}`, {
          method: "DELETE",
        }).then((r) => r.status),
      ),
    );
    expect(answers.every((status) => status === 200 || status === 400)).toBe(true);
    expect(answers).toContain(200);
    expect(await statuses(recurringEventId)).toEqual(["CANCELLED", "CANCELLED", "CANCELLED", "CANCELLED"]);
    // Every slot of the series can be booked again.
    const first = at(futureMonday(3), 60);
    for (let i = 0; i < 4; i++)
      expect((await post(body(eventType.id, at(first, i * WEEK)))).statusCode).toBe(201);
  });
});
