// Bookings through the API as v1 had them: booking a slot, the list filters, reading,
// editing, cancelling, ownership, and two bookers racing for one slot.
import { describe, expect, it } from "vitest";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

async function post(apiKey: string, body: unknown) {
  return t.app.inject({ method: "POST", url: withKey("/v1/bookings", apiKey), payload: body as object });
}

function v1Body(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
  return {
    eventTypeId,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "de",
    metadata: {},
    responses: {
      name: "Bea Booker",
      email: "bea@example.com",
      location: { value: "inPerson", optionValue: "Main St 1" },
    },
    ...extra,
  };
}

describe("POST /bookings", () => {
  it("refuses a NUL anywhere in responses or in a metadata key with 400 (jsonb cannot hold it; were 500s)", async () => {
    const host = await createUser(t.prisma);
    const booker = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const start = at(futureMonday(), 60);
    for (const extra of [{ field: "a\u0000b" }, { "key\u0000": "v" }, { nested: { list: ["\u0000"] } }]) {
      const body = v1Body(eventType.id, start);
      const response = await post(booker.apiKey, { ...body, responses: { ...body.responses, ...extra } });
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(response.json().issues).toEqual([
        { path: "responses", message: "must not contain NUL characters or lone UTF-16 surrogates" },
      ]);
    }
    const key = await post(booker.apiKey, v1Body(eventType.id, start, { metadata: { "k\u0000": "v" } }));
    expect(key.statusCode).toBe(400);
    expect(key.json().issues).toEqual([expect.objectContaining({ path: "metadata.k\u0000" })]);
    expect((await post(booker.apiKey, v1Body(eventType.id, start))).statusCode).toBe(201);
  });

  it("refuses a lone UTF-16 surrogate in responses, metadata or a text field with 400 (were 500s, or U+FFFD stored)", async () => {
    const host = await createUser(t.prisma);
    const booker = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const start = at(futureMonday(), 90);
    const body = v1Body(eventType.id, start);
    const cases: [object, string][] = [
      [{ responses: { ...body.responses, field: "a\ud800b" } }, "responses"],
      [{ responses: { ...body.responses, "key\udfff": "v" } }, "responses"],
      [{ metadata: { k: "\ud83d" } }, "metadata.k"],
      [{ description: "x\ud800" }, "description"],
    ];
    for (const [extra, path] of cases) {
      // JSON.stringify writes a lone surrogate as its \uXXXX escape, as any client would send it.
      const response = await post(booker.apiKey, { ...body, ...extra });
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(response.json().issues).toEqual([
        expect.objectContaining({ path, message: expect.stringMatching(/lone UTF-16 surrogates/) }),
      ]);
    }
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(0);
    expect((await post(booker.apiKey, v1Body(eventType.id, start, { description: "😀" }))).statusCode).toBe(
      201,
    );
  });

  it("books a slot for the event type's owner, with the booker as attendee, flat as v1 answered", async () => {
    const host = await createUser(t.prisma);
    const booker = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const start = at(futureMonday(), 60);
    const response = await post(booker.apiKey, v1Body(eventType.id, start));
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      id: expect.any(Number),
      uid: expect.any(String),
      userId: host.user.id,
      eventTypeId: eventType.id,
      title: "Intro between Hope Host and Bea Booker",
      startTime: start.toISOString(),
      endTime: at(start, 30).toISOString(),
      location: "Main St 1",
      status: "ACCEPTED",
      creationSource: "API_V1",
      user: { email: null, name: "Hope Host", timeZone: expect.any(String) },
      attendees: [
        expect.objectContaining({
          name: "Bea Booker",
          email: "bea@example.com",
          timeZone: "Europe/Berlin",
          locale: "de",
        }),
      ],
      payment: [],
      references: [],
      paymentRequired: false,
      isDryRun: false,
    });
    // The host reads it in v1's read shape; the booker (another user) does not see it.
    const read = await t.app.inject({ url: withKey(`/v1/bookings/${body.id}`, host.apiKey) });
    expect(read.json().booking).toMatchObject({
      id: body.id,
      responses: { name: "Bea Booker" },
      payment: [],
    });
    expect((await t.app.inject({ url: withKey(`/v1/bookings/${body.id}`, booker.apiKey) })).statusCode).toBe(
      404,
    );
  });

  it("takes v1's legacy shape (top-level name/email, customInputs) and an offset-less start as UTC", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { requiresConfirmation: true });
    const start = at(futureMonday(), 90);
    const response = await post(host.apiKey, {
      eventTypeId: eventType.id,
      name: "Lee Legacy",
      email: "lee@example.com",
      start: start.toISOString().replace(".000Z", ""),
      end: at(start, 30).toISOString().replace(".000Z", ""),
      language: "en",
      timeZone: "UTC",
      location: "",
      customInputs: [],
      metadata: {},
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      startTime: start.toISOString(),
      status: "PENDING",
      responses: null,
    });
  });

  it.each([
    ["a string eventTypeId", { eventTypeId: "7" }, "eventTypeId must be a number"],
    ["a wrong length", { end: "END+45" }, "Invalid event length"],
    ["a start in the past", { start: "2001-01-01T09:00:00Z" }, "Attempting to book a meeting in the past."],
    ["a start off the grid", { start: "START+7" }, "no_available_users_found_error"],
    ["a start outside working hours", { start: "START-180" }, "no_available_users_found_error"],
    ["legacy props with responses", { name: "Mix" }, "Legacy Props: name"],
    ["no booker at all", { responses: undefined }, "responses"],
    ["an invalid time zone", { timeZone: "Mars/Olympus" }, "timeZone"],
    ["a non-string metadata value", { metadata: { n: 1 } }, "metadata"],
    ["an unknown key", { colour: "red" }, "colour"],
  ])("refuses %s with 400 and books nothing", async (_label, change, message) => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const start = at(futureMonday(), 120);
    const body: Record<string, unknown> = { ...v1Body(eventType.id, start), ...change };
    if (body.end === "END+45") body.end = at(start, 45).toISOString();
    if (body.start === "START+7") body.start = at(start, 7).toISOString();
    if (body.start === "START-180") body.start = at(start, -180).toISOString();
    const response = await post(host.apiKey, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(0);
  });

  it("answers 404 for an unknown event type", async () => {
    const { apiKey } = await createUser(t.prisma);
    const response = await post(apiKey, v1Body(2_000_000_000, futureMonday()));
    expect(response.statusCode).toBe(404);
  });

  it("refuses a slot already taken, and frees it again when that booking is cancelled", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const start = at(futureMonday(), 150);
    const first = await post(host.apiKey, v1Body(eventType.id, start));
    expect(first.statusCode).toBe(201);
    const overlapping = await post(host.apiKey, v1Body(eventType.id, start));
    expect(overlapping.statusCode).toBe(400);
    expect(overlapping.json().message).toBe("no_available_users_found_error");

    const cancel = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${first.json().id}?cancellationReason=Sick`, host.apiKey),
      headers: { "content-type": "application/json" },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toEqual({
      success: true,
      message: "Booking successfully cancelled.",
      onlyRemovedAttendee: false,
      bookingId: first.json().id,
      bookingUid: first.json().uid,
    });
    const stored = await t.prisma.booking.findUniqueOrThrow({ where: { id: first.json().id } });
    expect(stored).toMatchObject({ status: "CANCELLED", cancellationReason: "Sick" });
    expect((await post(host.apiKey, v1Body(eventType.id, start))).statusCode).toBe(201);
  });

  it("lets exactly one of two simultaneous bookings of a single-seat slot through", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const start = at(futureMonday(3), 60);
    await t.app.listen({ port: 0, host: "127.0.0.1" }).catch(() => {});
    const address = t.app.server.address() as { port: number };
    const book = () =>
      fetch(`http://127.0.0.1:${address.port}${withKey("/v1/bookings", host.apiKey)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(v1Body(eventType.id, start)),
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 6 }, book));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(1);
  });

  it("seats several bookers in one seated slot until it is full", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id, { seatsPerTimeSlot: 2 });
    const start = at(futureMonday(), 240);
    const one = await post(host.apiKey, v1Body(eventType.id, start));
    const two = await post(
      host.apiKey,
      v1Body(eventType.id, start, { responses: { name: "Two", email: "two@example.com" } }),
    );
    const three = await post(
      host.apiKey,
      v1Body(eventType.id, start, { responses: { name: "Three", email: "3@example.com" } }),
    );
    expect([one.statusCode, two.statusCode, three.statusCode]).toEqual([201, 201, 409]);
    expect(three.json()).toEqual({ message: "booking_seats_full_error" });
    expect(two.json().id).toBe(one.json().id);
    expect(two.json().attendees).toHaveLength(2);
  });
});

/** The start times GET /slots offers in [from, to], as instants (ms), for a booker in `timeZone`. */
async function offered(apiKey: string, eventTypeId: number, from: Date, to: Date, timeZone: string) {
  const response = await t.app.inject({
    url: withKey(
      `/v1/slots?eventTypeId=${eventTypeId}&startTime=${from.toISOString()}&endTime=${to.toISOString()}&timeZone=${timeZone}`,
      apiKey,
    ),
  });
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(response.json().slots as Record<string, { time: string }[]>)
    .flat()
    .map((slot) => Date.parse(slot.time));
}

/** Makes every day, all day (UTC), the event type's hours: only its period limits its slots. */
async function allWeek(eventTypeId: number, userId: number) {
  const schedule = await t.prisma.schedule.create({
    data: {
      userId,
      name: "Always",
      timeZone: "UTC",
      availability: {
        create: {
          days: [0, 1, 2, 3, 4, 5, 6],
          startTime: new Date("1970-01-01T00:00:00Z"),
          endTime: new Date("1970-01-01T23:59:00Z"),
        },
      },
    },
  });
  await t.prisma.eventType.update({ where: { id: eventTypeId }, data: { scheduleId: schedule.id } });
}

// calcom-v1-bookings.md §2.4 and §6.3 step 11: a ROLLING period ends at the end of its last day
// in the booker's zone, a RANGE period spans its dates in the event's zone, for /slots and for
// booking alike; a start outside the period is 400 booking_time_out_of_bounds_error.
describe("POST /bookings and the event type's period (isOutOfBounds.tsx)", () => {
  it("ROLLING: counts the days in the booker's zone (the body's timeZone), as /slots does", {
    timeout: 60_000,
  }, async () => {
    const HOUR = 3_600_000;
    const zones = [
      ["Pacific/Kiritimati", 14],
      ["UTC", 0],
    ] as const;
    // The period counts from today: start clear of a midnight in either zone, so that the test
    // and the server agree on the day throughout.
    const toMidnight = (offsetHours: number) => 24 * HOUR - ((Date.now() + offsetHours * HOUR) % (24 * HOUR));
    const wait = Math.min(...zones.map(([, offsetHours]) => toMidnight(offsetHours)));
    if (wait < 20_000) await new Promise((resolve) => setTimeout(resolve, wait + 1000));
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    await allWeek(eventType.id, host.user.id);
    await t.prisma.eventType.update({
      where: { id: eventType.id },
      data: { periodType: "ROLLING", periodDays: 3, periodCountCalendarDays: true },
    });
    // Today in each zone, and the end of the third day after it: a zone's midnight, as an instant.
    const limitIn = (offsetHours: number) => {
      const today = new Date(Date.now() + offsetHours * HOUR).toISOString().slice(0, 10);
      return new Date(Date.parse(`${today}T00:00:00Z`) + 4 * 24 * HOUR - offsetHours * HOUR);
    };
    for (const [timeZone, offsetHours] of zones) {
      const limit = limitIn(offsetHours);
      const times = await offered(host.apiKey, eventType.id, at(limit, -120), at(limit, 120), timeZone);
      expect(times, timeZone).toContain(at(limit, -30).getTime());
      expect(
        times.filter((time) => time >= limit.getTime()),
        timeZone,
      ).toEqual([]);

      const outside = await post(host.apiKey, v1Body(eventType.id, limit, { timeZone }));
      expect(outside.statusCode, `${timeZone} ${outside.body}`).toBe(400);
      expect(outside.json()).toEqual({ message: "booking_time_out_of_bounds_error" });
      const inside = await post(host.apiKey, v1Body(eventType.id, at(limit, -30), { timeZone }));
      expect(inside.statusCode, `${timeZone} ${inside.body}`).toBe(201);
    }
  });

  it("RANGE of a personal event type: a free start outside the dates is 400 booking_time_out_of_bounds_error", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    await t.prisma.eventType.update({
      where: { id: eventType.id },
      data: { periodType: "RANGE", periodStartDate: monday, periodEndDate: monday },
    });
    for (const start of [at(monday, 24 * 60 + 60), at(monday, -3 * 24 * 60 + 60)]) {
      const refused = await post(host.apiKey, v1Body(eventType.id, start));
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toEqual({ message: "booking_time_out_of_bounds_error" });
    }
    expect(await t.prisma.booking.count({ where: { eventTypeId: eventType.id } })).toBe(0);
    expect((await post(host.apiKey, v1Body(eventType.id, at(monday, 60)))).statusCode).toBe(201);
  });
});

describe("GET /bookings", () => {
  it("filters as v1: attendeeEmail, dateFrom/dateTo, status=upcoming, sortBy/order, expand=team", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday(4);
    const a = (await post(host.apiKey, v1Body(eventType.id, at(monday, 0)))).json();
    const b = (
      await post(
        host.apiKey,
        v1Body(eventType.id, at(monday, 60), { responses: { name: "Cy", email: "cy@example.com" } }),
      )
    ).json();
    const list = async (query: string) =>
      (await t.app.inject({ url: withKey(`/v1/bookings?${query}`, host.apiKey) })).json().bookings as {
        id: number;
      }[];
    expect((await list("")).map((r) => r.id)).toEqual([a.id, b.id]);
    expect((await list("attendeeEmail=cy@example.com")).map((r) => r.id)).toEqual([b.id]);
    expect(
      (await list("attendeeEmail=cy@example.com&attendeeEmail=bea@example.com")).map((r) => r.id),
    ).toEqual([a.id, b.id]);
    expect((await list(`dateFrom=${at(monday, 30).toISOString()}`)).map((r) => r.id)).toEqual([b.id]);
    expect((await list(`dateTo=${at(monday, 30).toISOString()}`)).map((r) => r.id)).toEqual([a.id]);
    expect((await list("status=upcoming")).map((r) => r.id)).toEqual([a.id, b.id]);
    expect((await list("sortBy=createdAt&order=desc")).map((r) => r.id)).toEqual([b.id, a.id]);
    const expanded = await list("expand=team");
    expect(expanded[0]).toMatchObject({ eventType: { title: "Intro", slug: eventType.slug, team: null } });
    for (const bad of [
      "status=past",
      "sortBy=title",
      "attendeeEmail=nope",
      "dateFrom=yesterday",
      "expand=user",
    ]) {
      expect((await t.app.inject({ url: withKey(`/v1/bookings?${bad}`, host.apiKey) })).statusCode).toBe(400);
    }
  });

  it("shows a user only the bookings they organise; an admin sees every booking", async () => {
    const host = await createUser(t.prisma);
    const stranger = await createUser(t.prisma);
    const admin = await createUser(t.prisma, { admin: true });
    const eventType = await makeHost(t.prisma, host.user.id);
    const booked = (await post(stranger.apiKey, v1Body(eventType.id, at(futureMonday(5), 0)))).json();
    const ids = async (apiKey: string) =>
      (
        (await t.app.inject({ url: withKey("/v1/bookings?take=100", apiKey) })).json().bookings as {
          id: number;
        }[]
      ).map((r) => r.id);
    expect(await ids(host.apiKey)).toContain(booked.id);
    expect(await ids(stranger.apiKey)).not.toContain(booked.id);
    expect(await ids(admin.apiKey)).toContain(booked.id);
  });
});

describe("editing and cancelling", () => {
  it("edits with v1's strict body; only an admin may change the organizer", async () => {
    const host = await createUser(t.prisma);
    const other = await createUser(t.prisma);
    const admin = await createUser(t.prisma, { admin: true });
    const eventType = await makeHost(t.prisma, host.user.id);
    const booking = (await post(host.apiKey, v1Body(eventType.id, at(futureMonday(), 300)))).json();
    const patch = (apiKey: string, payload: object) =>
      t.app.inject({ method: "PATCH", url: withKey(`/v1/bookings/${booking.id}`, apiKey), payload });
    expect((await patch(host.apiKey, { title: "Renamed" })).json().booking.title).toBe("Renamed");
    expect((await patch(host.apiKey, { start: "2030-01-01T00:00:00Z" })).statusCode).toBe(400);
    const refused = await patch(host.apiKey, { userId: other.user.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only admin can change the organizer of a booking");
    expect((await patch(admin.apiKey, { userId: other.user.id })).json().booking.userId).toBe(other.user.id);
  });

  it("DELETE /bookings/{id}/cancel cancels as Raycast calls it; a second cancel is refused; strangers get 404", async () => {
    const host = await createUser(t.prisma);
    const stranger = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const booking = (await post(host.apiKey, v1Body(eventType.id, at(futureMonday(), 330)))).json();
    await t.prisma.bookingReference.create({
      data: { bookingId: booking.id, type: "daily_video", uid: "room" },
    });
    const cancel = (apiKey: string, query = "") =>
      t.app.inject({ method: "DELETE", url: withKey(`/v1/bookings/${booking.id}/cancel${query}`, apiKey) });
    expect((await cancel(stranger.apiKey)).statusCode).toBe(404);
    expect((await cancel(host.apiKey, "?cancellationReason=")).statusCode).toBe(400);
    const done = await cancel(host.apiKey);
    expect(done.statusCode, done.body).toBe(200);
    expect(await t.prisma.booking.findUniqueOrThrow({ where: { id: booking.id } })).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "Not Provided",
    });
    expect(await t.prisma.bookingReference.count({ where: { bookingId: booking.id } })).toBe(0);
    const again = await cancel(host.apiKey);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe("This booking has already been cancelled.");
    const wrongMethod = await t.app.inject({
      method: "POST",
      url: withKey(`/v1/bookings/${booking.id}/cancel`, host.apiKey),
    });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe("DELETE");
  });

  it("cancels once when eight cancels race: one 200, seven 400 already cancelled, the winner's reason kept", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const series = await t.prisma.eventType.create({
      data: {
        userId: host.user.id,
        title: "Weekly",
        slug: `weekly-${process.pid}`,
        length: 30,
        recurringEvent: { freq: 2, count: 3, interval: 1 },
      },
    });
    const book = (eventTypeId: number, week: number, recurringEventId: string | null = null) =>
      t.prisma.booking.create({
        data: {
          uid: `race-${process.pid}-${Math.random().toString(36).slice(2)}`,
          userId: host.user.id,
          eventTypeId,
          title: "Raced",
          startTime: futureMonday(week + 2),
          endTime: at(futureMonday(week + 2), 30),
          recurringEventId,
        },
      });
    const recurringEventId = `series-${process.pid}`;
    const cases = [
      { booking: await book(eventType.id, 0), query: "" },
      { booking: await book(eventType.id, 1), query: "" },
      // A series: the named booking is locked as well before the statement that cancels them all.
      { booking: await book(series.id, 0, recurringEventId), query: "&allRemainingBookings=true" },
    ];
    await book(series.id, 1, recurringEventId);
    for (const { booking, query } of cases) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.app.inject({
            method: "DELETE",
            url: withKey(`/v1/bookings/${booking.id}?cancellationReason=race${i}${query}`, host.apiKey),
          }),
        ),
      );
      const report = answers.map((answer) => `${answer.statusCode} ${answer.body}`).join("\n");
      expect(answers.map((answer) => answer.statusCode).sort(), report).toEqual([200, ...Array(7).fill(400)]);
      const winner = answers.findIndex((answer) => answer.statusCode === 200);
      expect(answers[winner]!.json().message).toBe("Booking successfully cancelled.");
      for (const answer of answers.filter((_, i) => i !== winner)) {
        expect(answer.json()).toEqual({ message: "This booking has already been cancelled." });
      }
      expect(await t.prisma.booking.findUniqueOrThrow({ where: { id: booking.id } })).toMatchObject({
        status: "CANCELLED",
        cancellationReason: `race${winner}`,
      });
    }
    expect(await t.prisma.booking.count({ where: { recurringEventId, status: "CANCELLED" } })).toBe(2);
  });
});
