// Rescheduling through POST /bookings with `rescheduleUid`, as v1 did it (calcom-v1-bookings.md
// §2.5; cal.com packages/features/bookings/lib/handleNewBooking.ts and handleNewBooking/
// getOriginalRescheduledBooking.ts, cited in the test names): the original is cancelled and
// marked in the booking's own transaction, its time does not block the new one (nor in GET
// /slots?rescheduleUid=), refusals change nothing, and parallel reschedules of one booking
// leave exactly one new booking.
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();
let bookerKey: string;
beforeAll(async () => {
  bookerKey = (await createUser(t.prisma)).apiKey;
});

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
  t.app.inject({ method: "POST", url: withKey("/v1/bookings", bookerKey), payload });

async function book(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
  const response = await post(body(eventTypeId, start, extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; uid: string; userId: number };
}

/** The UTC start times GET /slots offers for one event type on `day` (00:00-24:00 UTC). */
async function offered(eventTypeId: number, day: Date, extra = "") {
  const response = await t.app.inject({
    url: withKey(
      `/v1/slots?eventTypeId=${eventTypeId}&startTime=${day.toISOString()}&endTime=${at(day, 24 * 60 - 1).toISOString()}${extra}`,
      bookerKey,
    ),
  });
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(response.json().slots as Record<string, { time: string }[]>)
    .flat()
    .map((slot) => slot.time);
}

const stored = (id: number) => t.prisma.booking.findUniqueOrThrow({ where: { id } });

describe("POST /bookings with rescheduleUid (handleNewBooking.ts)", () => {
  it("cancels the original with v1's marks and books the new slot with fromReschedule, the reason and merged metadata", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    const first = await book(eventType.id, at(monday, 60), { metadata: { source: "web", keep: "yes" } });
    const response = await post(
      body(eventType.id, at(monday, 120), {
        rescheduleUid: first.uid,
        rescheduledBy: "bea@example.com",
        metadata: { source: "api" },
        responses: { name: "Bea Booker", email: "bea@example.com", rescheduleReason: "Clash" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const moved = response.json();
    expect(moved).toMatchObject({
      userId: host.user.id,
      startTime: at(monday, 120).toISOString(),
      status: "ACCEPTED",
      fromReschedule: first.uid,
      metadata: { source: "api", keep: "yes" },
      cancellationReason: "Clash",
      rescheduled: null,
    });
    expect(moved.uid).not.toBe(first.uid);
    expect(await stored(first.id)).toMatchObject({
      status: "CANCELLED",
      rescheduled: true,
      rescheduledBy: "bea@example.com",
    });
    // As GET shows them: the old one cancelled, the new one pointing at it.
    const read = await t.app.inject({ url: withKey(`/v1/bookings/${moved.id}`, host.apiKey) });
    expect(read.json().booking).toMatchObject({ fromReschedule: first.uid, status: "ACCEPTED" });
  });

  it("the original's own time does not block the new booking, nor GET /slots?rescheduleUid= (getBusyTimes.ts)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { length: 60 });
    const monday = futureMonday();
    const first = await book(eventType.id, at(monday, 60));
    const day = at(monday, -9 * 60);
    expect(await offered(eventType.id, day)).not.toContain(at(monday, 60).toISOString());
    expect(await offered(eventType.id, day, `&rescheduleUid=${first.uid}`)).toContain(
      at(monday, 60).toISOString(),
    );
    // An unknown uid blocks nothing more and nothing less, as in v1.
    expect(await offered(eventType.id, day, "&rescheduleUid=nope")).not.toContain(
      at(monday, 60).toISOString(),
    );
    // The original's own start (it overlaps itself): allowed, since it is the one being moved.
    const moved = await post(body(eventType.id, at(monday, 60), { rescheduleUid: first.uid }));
    expect(moved.statusCode, moved.body).toBe(201);
    expect(await stored(first.id)).toMatchObject({ status: "CANCELLED", rescheduled: true });
  });

  it("refuses as v1 (getOriginalRescheduledBooking.ts), changing nothing: unknown 404, cancelled or rescheduled 400, past 400 (docs/adr/0166)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    const cancelled = await book(eventType.id, at(monday, 0));
    await t.app.inject({ method: "DELETE", url: withKey(`/v1/bookings/${cancelled.id}`, host.apiKey) });
    const original = await book(eventType.id, at(monday, 30));
    expect((await post(body(eventType.id, at(monday, 60), { rescheduleUid: original.uid }))).statusCode).toBe(
      201,
    );
    const past = await t.prisma.booking.create({
      data: {
        uid: `past-${Date.now()}`,
        userId: host.user.id,
        eventTypeId: eventType.id,
        title: "Past",
        startTime: new Date(Date.now() - 2 * 3_600_000),
        endTime: new Date(Date.now() - 3_600_000),
      },
    });
    const rejected = await t.prisma.booking.create({
      data: {
        uid: `rejected-${Date.now()}`,
        userId: host.user.id,
        eventTypeId: eventType.id,
        title: "Rejected",
        status: "REJECTED",
        startTime: at(monday, 300),
        endTime: at(monday, 330),
      },
    });
    const before = await t.prisma.booking.findMany({ orderBy: { id: "asc" } });
    for (const [uid, status, message] of [
      ["no-such-uid", 404, "Could not find original booking"],
      [rejected.uid, 404, "Could not find original booking"],
      [cancelled.uid, 400, "cancelled_bookings_cannot_be_rescheduled"],
      [original.uid, 400, "rescheduled_bookings_cannot_be_rescheduled"],
      [past.uid, 400, "past_bookings_cannot_be_rescheduled"],
    ] as const) {
      const response = await post(body(eventType.id, at(monday, 240), { rescheduleUid: uid }));
      expect(response.statusCode, uid).toBe(status);
      expect(response.json(), uid).toEqual({ message });
    }
    expect(await t.prisma.booking.findMany({ orderBy: { id: "asc" } })).toEqual(before);
  });

  it("a refused new slot leaves the original as it was (one transaction)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    const first = await book(eventType.id, at(monday, 60));
    await book(eventType.id, at(monday, 120), { responses: { name: "Other", email: "o@example.com" } });
    const taken = await post(body(eventType.id, at(monday, 120), { rescheduleUid: first.uid }));
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ message: "no_available_users_found_error" });
    expect(await stored(first.id)).toMatchObject({ status: "ACCEPTED", rescheduled: null });
  });

  it("a seated booking is refused (docs/adr/0167)", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 3 });
    const monday = futureMonday();
    const first = await book(eventType.id, at(monday, 60));
    const response = await post(body(eventType.id, at(monday, 120), { rescheduleUid: first.uid }));
    expect(response.statusCode).toBe(400);
    expect(await stored(first.id)).toMatchObject({ status: "ACCEPTED" });
  });
});

describe("rescheduling team event types (handleNewBooking.ts, findQualifiedHosts.ts)", () => {
  async function people(count: number) {
    const users = [];
    for (let i = 0; i < count; i++) {
      const person = await createUser(t.prisma);
      await giveSchedule(t.prisma, person.user.id, { name: `Host ${i + 1}` });
      users.push(person);
    }
    return users.sort((a, b) => a.user.id - b.user.id);
  }

  it("COLLECTIVE: the new booking holds every host again, on their own free time", async () => {
    const users = await people(2);
    const { eventType } = await makeTeamEvent(
      t.prisma,
      "COLLECTIVE",
      users.map(({ user }) => ({ userId: user.id })),
    );
    const monday = futureMonday();
    const first = await book(eventType.id, at(monday, 60));
    const response = await post(body(eventType.id, at(monday, 60 + 15), { rescheduleUid: first.uid }));
    // 09:00 + 75 min is off the 30-minute grid; the same start as before is on it and free again.
    expect(response.statusCode).toBe(400);
    const moved = await post(body(eventType.id, at(monday, 60), { rescheduleUid: first.uid }));
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json()).toMatchObject({ userId: users[0]!.user.id, luckyUsers: [] });
    expect(moved.json().attendees.map((a: { email: string }) => a.email)).toEqual([
      "bea@example.com",
      users[1]!.user.email,
    ]);
  });

  it("ROUND_ROBIN: the original's host is free again and v1's rule picks the host (rescheduleWithSameRoundRobinHost off, docs/adr/0168)", async () => {
    const users = await people(2);
    const { eventType } = await makeTeamEvent(
      t.prisma,
      "ROUND_ROBIN",
      users.map(({ user }) => ({ userId: user.id })),
    );
    const monday = futureMonday();
    const first = await book(eventType.id, at(monday, 60));
    expect(first.userId).toBe(users[0]!.user.id);
    // The first host was booked last, so the second is the least recently booked.
    const moved = await post(body(eventType.id, at(monday, 60), { rescheduleUid: first.uid }));
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json()).toMatchObject({ userId: users[1]!.user.id, luckyUsers: [users[1]!.user.id] });
  });
});

describe("concurrency", () => {
  it("eight parallel reschedules of one booking over HTTP: exactly one wins, the others get v1's refusal", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" }).catch(() => {});
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday(3);
    const first = await book(eventType.id, at(monday, 0));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${base}${withKey("/v1/bookings", bookerKey)}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body(eventType.id, at(monday, 60 + 30 * i), { rescheduleUid: first.uid })),
        }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 201))
      expect(refused).toEqual({
        status: 400,
        body: { message: "rescheduled_bookings_cannot_be_rescheduled" },
      });
    const made = await t.prisma.booking.findMany({ where: { fromReschedule: first.uid } });
    expect(made).toHaveLength(1);
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id, status: "ACCEPTED" } })).toBe(
      1,
    );
  });
});
