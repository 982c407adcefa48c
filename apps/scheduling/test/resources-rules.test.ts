// The per-resource rules that are not generic: hosts kept on PATCH, schedule defaults and
// deletion, users' list and admin-only create, write-only tokens, composite selected-calendar
// ids (any integration), duplicates (409), booking times, and values PostgreSQL would refuse (400, never 500).
import { describe, expect, it } from "vitest";
import { setupApp, withKey } from "./helpers.ts";
import {
  type ApiResponse,
  apiClient,
  type Caller,
  makeBooking,
  makeConnectedCalendar,
  makeEventType,
  makeSchedule,
  makeTeam,
  newUser,
  resource,
  SECRET,
  unique,
} from "./resource-fixtures.ts";

const t = setupApp();
const call = apiClient(t);

describe("event types", () => {
  it("keep their hosts on a PATCH without `hosts`, replace them with it, clear them with []", async () => {
    const owner = await newUser(t.prisma);
    const schedule = await makeSchedule(t.prisma, owner.user.id);
    const created = await call("POST", "/api/v1/event-types", owner, {
      title: "Pairing",
      slug: unique("pairing"),
      length: 60,
      hosts: [{ userId: owner.user.id, isFixed: true, scheduleId: schedule.id }],
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body.event_type as { id: number }).id;
    const url = `/api/v1/event-types/${id}`;
    // Answers carry the round-robin fields too (null unless set).
    const hosts = [
      { userId: owner.user.id, isFixed: true, scheduleId: schedule.id, priority: null, weight: null },
    ];
    expect((created.body.event_type as { hosts: unknown }).hosts).toEqual(hosts);

    const renamed = await call("PATCH", url, owner, { title: "Pair programming" });
    expect((renamed.body.event_type as { hosts: unknown }).hosts).toEqual(hosts);
    expect(await t.prisma.host.findMany({ where: { eventTypeId: id } })).toHaveLength(1);

    const replaced = await call("PATCH", url, owner, { hosts: [{ userId: owner.user.id }] });
    expect((replaced.body.event_type as { hosts: unknown }).hosts).toEqual([
      { userId: owner.user.id, isFixed: false, scheduleId: null, priority: null, weight: null },
    ]);
    const cleared = await call("PATCH", url, owner, { hosts: [] });
    expect((cleared.body.event_type as { hosts: unknown }).hosts).toEqual([]);
  });

  it("refuse hosts other than the owner of a personal event type, and another user's schedule", async () => {
    const owner = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const eventType = await makeEventType(t.prisma, owner.user.id);
    const url = `/api/v1/event-types/${eventType.id}`;
    const notHost = await call("PATCH", url, owner, { hosts: [{ userId: other.user.id }] });
    expect(notHost.status).toBe(400);
    const theirSchedule = await makeSchedule(t.prisma, other.user.id);
    const badSchedule = await call("PATCH", url, owner, {
      hosts: [{ userId: owner.user.id, scheduleId: theirSchedule.id }],
    });
    expect(badSchedule.status).toBe(400);
    expect(badSchedule.body.issues).toEqual([expect.objectContaining({ path: "hosts.0.scheduleId" })]);
    const repeated = await call("PATCH", url, owner, {
      hosts: [{ userId: owner.user.id }, { userId: owner.user.id }],
    });
    expect(repeated.status).toBe(400);
    expect(await t.prisma.host.count({ where: { eventTypeId: eventType.id } })).toBe(0);
  });

  it("have slugs unique per owner (409), slugified as v1 did, and filterable", async () => {
    const owner = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const slug = unique("Quick Chat!").toLowerCase();
    const first = await call("POST", "/api/v1/event-types", owner, {
      title: "Chat",
      slug: "Quick Chat!",
      length: 15,
    });
    expect((first.body.event_type as { slug: string }).slug).toBe("quick-chat");
    const clash = await call("POST", "/api/v1/event-types", owner, {
      title: "Chat",
      slug: "quick-chat",
      length: 15,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toEqual(expect.any(String));
    const elsewhere = await call("POST", "/api/v1/event-types", other, {
      title: "Chat",
      slug: "quick-chat",
      length: 15,
    });
    expect(elsewhere.status).toBe(201);

    await call("POST", "/api/v1/event-types", owner, { title: "Other", slug, length: 15 });
    const filtered = await call("GET", "/api/v1/event-types?slug=quick-chat", owner);
    expect((filtered.body.event_types as { slug: string }[]).map((row) => row.slug)).toEqual(["quick-chat"]);
  });

  it("take only the owner's schedule, and clear Json fields with null", async () => {
    const owner = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const theirs = await makeSchedule(t.prisma, other.user.id);
    const refused = await call("POST", "/api/v1/event-types", owner, {
      title: "x",
      slug: unique("x"),
      length: 10,
      scheduleId: theirs.id,
    });
    expect(refused.status).toBe(404);
    const created = await call("POST", "/api/v1/event-types", owner, {
      title: "x",
      slug: unique("x"),
      length: 10,
      metadata: { color: "blue" },
      locations: [{ type: "integrations:daily" }],
      bookingLimits: { PER_DAY: 3 },
    });
    expect(created.body.event_type).toMatchObject({
      metadata: { color: "blue" },
      locations: [{ type: "integrations:daily" }],
      bookingLimits: { PER_DAY: 3 },
    });
    const url = `/api/v1/event-types/${(created.body.event_type as { id: number }).id}`;
    const cleared = await call("PATCH", url, owner, { metadata: null, locations: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.event_type).toMatchObject({
      metadata: null,
      locations: null,
      bookingLimits: { PER_DAY: 3 },
    });
  });
});

describe("schedules", () => {
  it("start with Monday-Friday 09:00-17:00", async () => {
    const owner = await newUser(t.prisma);
    const created = await call("POST", "/api/v1/schedules", owner, { name: "Office" });
    expect(created.status).toBe(201);
    expect(created.body.schedule).toMatchObject({
      userId: owner.user.id,
      name: "Office",
      timeZone: null,
      availability: [
        {
          days: [1, 2, 3, 4, 5],
          startTime: "1970-01-01T09:00:00.000Z",
          endTime: "1970-01-01T17:00:00.000Z",
          date: null,
        },
      ],
    });
  });

  it("when deleted, leave no user pointing at them (defaultScheduleId is cleared)", async () => {
    const owner = await newUser(t.prisma);
    const created = await call("POST", "/api/v1/schedules", owner, { name: "Default" });
    const scheduleId = (created.body.schedule as { id: number }).id;
    const set = await call("PATCH", `/api/v1/users/${owner.user.id}`, owner, {
      defaultScheduleId: scheduleId,
    });
    expect((set.body.user as { defaultScheduleId: number }).defaultScheduleId).toBe(scheduleId);

    expect((await call("DELETE", `/api/v1/schedules/${scheduleId}`, owner)).status).toBe(200);
    const user = await call("GET", `/api/v1/users/${owner.user.id}`, owner);
    expect((user.body.user as { defaultScheduleId: number | null }).defaultScheduleId).toBeNull();
    expect(await t.prisma.user.count({ where: { defaultScheduleId: scheduleId } })).toBe(0);
    expect(await t.prisma.availability.count({ where: { scheduleId } })).toBe(0);
  });

  it("must belong to the user to become their default", async () => {
    const owner = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const theirs = await makeSchedule(t.prisma, other.user.id);
    const response = await call("PATCH", `/api/v1/users/${owner.user.id}`, owner, {
      defaultScheduleId: theirs.id,
    });
    expect(response.status).toBe(400);
    expect(response.body.issues).toEqual([expect.objectContaining({ path: "defaultScheduleId" })]);
    expect(
      (await t.prisma.user.findUniqueOrThrow({ where: { id: owner.user.id } })).defaultScheduleId,
    ).toBeNull();
  });
});

describe("availabilities", () => {
  it("accept HH:mm times and a YYYY-MM-DD date, and return ISO strings", async () => {
    const owner = await newUser(t.prisma);
    const schedule = await makeSchedule(t.prisma, owner.user.id);
    const created = await call("POST", "/api/v1/availabilities", owner, {
      scheduleId: schedule.id,
      startTime: "08:30",
      endTime: "12:15:30",
      date: "2026-12-24",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.availability).toMatchObject({
      scheduleId: schedule.id,
      days: [],
      startTime: "1970-01-01T08:30:00.000Z",
      endTime: "1970-01-01T12:15:30.000Z",
      date: "2026-12-24T00:00:00.000Z",
    });
    for (const bad of [{ days: [7] }, { days: [1, 1] }, { startTime: "25:00" }, { date: "24/12/2026" }]) {
      const response = await call("POST", "/api/v1/availabilities", owner, {
        scheduleId: schedule.id,
        startTime: "08:00",
        endTime: "09:00",
        ...bad,
      });
      expect(response.status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe("users", () => {
  it("list only the caller for a non-admin, with total", async () => {
    const user = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const list = await call("GET", "/api/v1/users", user);
    expect(list.body).toEqual({ users: [expect.objectContaining({ id: user.user.id })], total: 1 });
    const byOtherEmail = await call("GET", `/api/v1/users?email=${other.user.email}`, user);
    expect(byOtherEmail.body).toEqual({ users: [], total: 0 });
    expect((await call("GET", `/api/v1/users/${other.user.id}`, user)).status).toBe(404);
  });

  it("page an admin's list 10 at a time by default, with the total, filtered by repeated email", async () => {
    const admin = await newUser(t.prisma, { admin: true });
    const made = await Promise.all(Array.from({ length: 11 }, () => newUser(t.prisma)));
    const total = await t.prisma.user.count();
    const first = await call("GET", "/api/v1/users", admin);
    expect(first.body.users).toHaveLength(10);
    expect(first.body.total).toBe(total);
    const last = await call("GET", `/api/v1/users?take=10&page=${Math.ceil(total / 10)}`, admin);
    expect((last.body.users as unknown[]).length).toBe(total % 10 || 10);

    const [a, b] = made;
    const filtered = await call(
      "GET",
      `/api/v1/users?email=${encodeURIComponent(a!.user.email.toUpperCase())}&email=${encodeURIComponent(b!.user.email)}`,
      admin,
    );
    expect(filtered.body.total).toBe(2);
    expect((filtered.body.users as { id: number }[]).map((u) => u.id).sort()).toEqual(
      [a!.user.id, b!.user.id].sort(),
    );
    expect((await call("GET", "/api/v1/users?email=not-an-email", admin)).status).toBe(400);
  });

  it("are created by admins only; e-mail and username are unique (409)", async () => {
    const user = await newUser(t.prisma);
    const admin = await newUser(t.prisma, { admin: true });
    const email = `${unique("Made")}@Example.com`;
    const body = { email, username: unique("Made") };
    const refused = await call("POST", "/api/v1/users", user, body);
    expect(refused.status).toBe(403);
    expect(await t.prisma.user.count({ where: { email: email.toLowerCase() } })).toBe(0);

    const created = await call("POST", "/api/v1/users", admin, body);
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({
      email: email.toLowerCase(),
      role: "USER",
      defaultScheduleId: null,
    });
    expect(Object.keys(created.body.user as object)).not.toContain("locked");
    expect((await call("POST", "/api/v1/users", admin, { ...body, username: unique("x") })).status).toBe(409);
    expect(
      (await call("POST", "/api/v1/users", admin, { ...body, email: `${unique("y")}@e.com` })).status,
    ).toBe(409);
  });

  it("cannot change their own role; an admin can", async () => {
    const user = await newUser(t.prisma);
    const admin = await newUser(t.prisma, { admin: true });
    const url = `/api/v1/users/${user.user.id}`;
    expect((await call("PATCH", url, user, { role: "ADMIN", name: "Eve" })).status).toBe(403);
    const stored = await t.prisma.user.findUniqueOrThrow({ where: { id: user.user.id } });
    expect(stored).toMatchObject({ role: "USER", name: null });
    expect((await call("PATCH", url, admin, { role: "ADMIN" })).status).toBe(200);
  });
});

describe("payments", () => {
  it("are read-only: no create, edit or delete route, for anyone", async () => {
    const admin = await newUser(t.prisma, { admin: true });
    for (const [method, url] of [
      ["POST", "/api/v1/payments"],
      ["PATCH", "/api/v1/payments/1"],
      ["DELETE", "/api/v1/payments/1"],
    ] as const) {
      const response = await call(method, url, admin, {});
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe("GET");
    }
  });
});

describe("event references", () => {
  it("never return dailytoken (write-only), and allow one per booking (409)", async () => {
    const owner = await newUser(t.prisma);
    const booking = await makeBooking(t.prisma, owner.user.id);
    const token = `${SECRET}-token-1`;
    const created = await call("POST", "/api/v1/event-references", owner, {
      bookingId: booking.id,
      dailyurl: "https://meet.example.com/a",
      dailytoken: token,
    });
    expect(created.status).toBe(201);
    const reference = created.body.event_reference as { id: number };
    expect(reference).toEqual({
      id: reference.id,
      bookingId: booking.id,
      dailyurl: "https://meet.example.com/a",
    });
    const url = `/api/v1/event-references/${reference.id}`;
    const responses = [
      created,
      await call("GET", url, owner),
      await call("GET", "/api/v1/event-references", owner),
      await call("PATCH", url, owner, { dailytoken: `${SECRET}-token-2` }),
    ];
    for (const response of responses) {
      expect(response.status).toBeLessThan(300);
      expect(response.text).not.toContain("dailytoken");
      expect(response.text).not.toContain(SECRET);
    }
    const stored = await t.prisma.eventReference.findUniqueOrThrow({ where: { id: reference.id } });
    expect(stored.dailytoken).toBe(`${SECRET}-token-2`);

    const second = await call("POST", "/api/v1/event-references", owner, {
      bookingId: booking.id,
      dailyurl: "https://meet.example.com/b",
      dailytoken: "t",
    });
    expect(second.status).toBe(409);
  });
});

describe("selected calendars", () => {
  const calendars = resource("selected-calendars");

  it("are addressed by <userId>_<integration>_<externalId>, whatever the external id holds", async () => {
    const owner = await newUser(t.prisma);
    for (const externalId of [
      "me@example.com",
      "team_calendar_x@group.calendar.google.com",
      "a/b?c#d e%f",
      "ünïcødé_calendar_",
    ]) {
      const created = await call("POST", "/api/v1/selected-calendars", owner, {
        integration: "office365_calendar",
        externalId,
      });
      expect(created.status, created.text).toBe(201);
      const id = `${owner.user.id}_office365_calendar_${externalId}`;
      expect(calendars.idOf(created.body.selected_calendar as object)).toBe(id);
      const url = `/api/v1/selected-calendars/${encodeURIComponent(id)}`;
      const read = await call("GET", url, owner);
      expect(read.status, externalId).toBe(200);
      expect(read.body.selected_calendar).toMatchObject({ externalId, integration: "office365_calendar" });
      const deleted = await call("DELETE", url, owner);
      expect(deleted.body).toEqual({ message: `Selected Calendar with id: ${id} deleted successfully` });
    }
  });

  it("answer 409 for a duplicate and 404 for a missing one", async () => {
    const owner = await newUser(t.prisma);
    const body = { integration: "google_calendar", externalId: "primary" };
    expect((await call("POST", "/api/v1/selected-calendars", owner, body)).status).toBe(201);
    const duplicate = await call("POST", "/api/v1/selected-calendars", owner, body);
    expect(duplicate.status).toBe(409);
    const missing = await call(
      "GET",
      `/api/v1/selected-calendars/${owner.user.id}_google_calendar_other`,
      owner,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(
      `Selected Calendar with id: ${owner.user.id}_google_calendar_other not found`,
    );
  });

  it("take any non-empty integration, as v1 did (cal.com's own selected-calendars _post test posts `google`), each addressed by its id", async () => {
    const owner = await newUser(t.prisma);
    for (const integration of [
      "google",
      "my_app",
      "google_calendar_x",
      "a_calendar_b_calendar",
      "_calendar",
    ]) {
      const created = await call("POST", "/api/v1/selected-calendars", owner, {
        integration,
        externalId: "team_calendar_x@example.com",
      });
      expect(created.status, integration).toBe(201);
      const id = `${owner.user.id}_${integration}_team_calendar_x@example.com`;
      expect(calendars.idOf(created.body.selected_calendar as object)).toBe(id);
      const url = `/api/v1/selected-calendars/${encodeURIComponent(id)}`;
      const read = await call("GET", url, owner);
      expect(read.status, integration).toBe(200);
      expect(read.body.selected_calendar).toMatchObject({ integration });
      expect((await call("PATCH", url, owner, { error: "expired" })).status).toBe(200);
    }
    for (const integration of ["", 7, null, "x".repeat(256)]) {
      const response = await call("POST", "/api/v1/selected-calendars", owner, {
        integration,
        externalId: "primary",
      });
      expect(response.status, String(integration)).toBe(400);
    }
  });

  it("never share an id: of two calendars whose parts join to the same id, only one is created, even at once", async () => {
    const owner = await newUser(t.prisma);
    const [first, second] = await Promise.all([
      call("POST", "/api/v1/selected-calendars", owner, { integration: "a", externalId: "b_c" }),
      call("POST", "/api/v1/selected-calendars", owner, { integration: "a_b", externalId: "c" }),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    expect((first.status === 409 ? first : second).body).toEqual({
      message: "SelectedCalendar with the same apiId already exists",
    });
    const read = await call("GET", `/api/v1/selected-calendars/${owner.user.id}_a_b_c`, owner);
    expect(read.body.selected_calendar).toEqual(
      (first.status === 201 ? first : second).body.selected_calendar,
    );
    expect(await t.prisma.selectedCalendar.count({ where: { userId: owner.user.id } })).toBe(1);
  });
});

describe("destination calendars", () => {
  it("are one per user and one per event type (409), the latter owned through the event type", async () => {
    const owner = await newUser(t.prisma);
    const body = {
      integration: "caldav_calendar",
      externalId: await makeConnectedCalendar(t.prisma, owner.user.id),
    };
    const userLevel = await call("POST", "/api/v1/destination-calendars", owner, body);
    expect(userLevel.body.destinationCalendar).toMatchObject({ userId: owner.user.id, eventTypeId: null });
    expect((await call("POST", "/api/v1/destination-calendars", owner, body)).status).toBe(409);

    const eventType = await makeEventType(t.prisma, owner.user.id);
    const eventLevel = await call("POST", "/api/v1/destination-calendars", owner, {
      ...body,
      eventTypeId: eventType.id,
    });
    expect(eventLevel.status).toBe(201);
    expect(eventLevel.body.destinationCalendar).toMatchObject({ userId: null, eventTypeId: eventType.id });
    const again = await call("POST", "/api/v1/destination-calendars", owner, {
      ...body,
      eventTypeId: eventType.id,
    });
    expect(again.status).toBe(409);
    const listed = await call("GET", "/api/v1/destination-calendars", owner);
    expect(listed.body.destinationCalendars).toHaveLength(2);
  });
});

describe("e-mail addresses (RFC 5321: 64 characters before the @, 254 in all)", () => {
  // What a generator from the served document stored: 136 characters before the @.
  const tooLong = `${"a".repeat(136)}@example.com`;
  const expectRefused = (answer: ApiResponse, path: string) => {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.issues, answer.text).toEqual([
      expect.objectContaining({ path, message: expect.stringMatching(/64 characters before the @/) }),
    ]);
  };

  it("past them are a 400 naming the field in every e-mail field, and nothing is stored", async () => {
    const owner = await newUser(t.prisma);
    const admin = await newUser(t.prisma, { admin: true });

    const calendar = await call("POST", "/api/v1/destination-calendars", owner, {
      integration: "caldav_calendar",
      externalId: await makeConnectedCalendar(t.prisma, owner.user.id),
      primaryEmail: "me@example.com",
    });
    expect(calendar.status, calendar.text).toBe(201);
    const calendarId = (calendar.body.destinationCalendar as { id: number }).id;
    const calendarUrl = `/api/v1/destination-calendars/${calendarId}`;
    expectRefused(await call("PATCH", calendarUrl, owner, { primaryEmail: tooLong }), "primaryEmail");
    const stored = await t.prisma.destinationCalendar.findUniqueOrThrow({ where: { id: calendarId } });
    expect(stored.primaryEmail).toBe("me@example.com");

    expectRefused(await call("PATCH", `/api/v1/users/${owner.user.id}`, owner, { email: tooLong }), "email");
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: owner.user.id } })).email).toBe(
      owner.user.email,
    );
    expectRefused(
      await call("POST", "/api/v1/users", admin, { email: tooLong, username: unique("long") }),
      "email",
    );
    expect(await t.prisma.user.count({ where: { email: tooLong } })).toBe(0);

    const booking = await makeBooking(t.prisma, owner.user.id);
    const attendee = { bookingId: booking.id, email: tooLong, name: "Long", timeZone: "UTC" };
    expectRefused(await call("POST", "/api/v1/attendees", owner, attendee), "email");
    expect(await t.prisma.attendee.count({ where: { bookingId: booking.id } })).toBe(0);

    const eventType = await makeEventType(t.prisma, owner.user.id);
    const bookings = await t.prisma.booking.count();
    const booked = await call("POST", "/api/v1/bookings", owner, {
      eventTypeId: eventType.id,
      start: "2030-01-07T09:00:00Z",
      timeZone: "UTC",
      language: "en",
      responses: { name: "Long", email: tooLong },
    });
    expectRefused(booked, "responses.email");
    expect(await t.prisma.booking.count()).toBe(bookings);
  });

  it("at them are taken: 64 characters before the @, 254 in all; one more is refused", async () => {
    const owner = await newUser(t.prisma);
    const url = `/api/v1/users/${owner.user.id}`;
    const local = `${process.pid}`.padEnd(64, "x");
    const atLocal = await call("PATCH", url, owner, { email: `${local}@example.com` });
    expect(atLocal.status, atLocal.text).toBe(200);
    expectRefused(await call("PATCH", url, owner, { email: `${local}y@example.com` }), "email");
    // 64 + 1 + 189: labels of 63, 63 and 57 characters, then `.com`.
    const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    const whole = `${local}@${domain}`;
    expect(whole).toHaveLength(254);
    const atWhole = await call("PATCH", url, owner, { email: whole });
    expect(atWhole.status, atWhole.text).toBe(200);
    // 255, every label within 63 (the last but one is 58): only the whole length is past.
    const past = await call("PATCH", url, owner, { email: whole.replace(".com", "d.com") });
    expect(past.status, past.text).toBe(400);
    expect(past.body.issues).toEqual([
      { path: "email", message: "must be at most 254 characters (RFC 5321)" },
    ]);
  });
});

describe("values PostgreSQL would refuse", () => {
  it("are a 400, never a 500", async () => {
    const owner = await newUser(t.prisma);
    const booking = await makeBooking(t.prisma, owner.user.id);
    const cases: [string, string, object][] = [
      [
        "POST",
        "/api/v1/attendees",
        { bookingId: booking.id, email: "a@b.co", name: "a\u0000b", timeZone: "UTC" },
      ],
      [
        "POST",
        "/api/v1/attendees",
        { bookingId: 3_000_000_000, email: "a@b.co", name: "A", timeZone: "UTC" },
      ],
      [
        "POST",
        "/api/v1/attendees",
        { bookingId: booking.id, email: "a@b.co", name: "A", timeZone: "Mars/Base" },
      ],
      ["POST", "/api/v1/event-types", { title: "x", slug: "x", length: 10, metadata: { "k\u0000": 1 } }],
      ["POST", "/api/v1/event-types", { title: "x", slug: "x", length: 10, position: 2 ** 31 }],
      [
        "POST",
        "/api/v1/bookings",
        { title: "x", startTime: "2026-13-01T00:00:00Z", endTime: "2026-13-02T00:00:00Z" },
      ],
      [
        "POST",
        "/api/v1/bookings",
        { title: "x", startTime: "0000-01-01T00:00:00Z", endTime: "0000-01-02T00:00:00Z" },
      ],
      [
        "POST",
        "/api/v1/bookings",
        { title: "x", startTime: "9999-12-31T22:00:00-05:00", endTime: "9999-12-31T23:00:00-05:00" },
      ],
      [
        "POST",
        "/api/v1/event-references",
        { bookingId: booking.id, dailyurl: "https://a.example/\u0000", dailytoken: "t" },
      ],
      ["GET", "/api/v1/event-types?slug=%00", {}],
      ["POST", "/api/v1/teams", { name: "   " }],
      ["GET", "/api/v1/attendees?page=99999999999", {}],
    ];
    for (const [method, url, body] of cases) {
      const response = await call(method, url, owner, method === "GET" ? undefined : body);
      expect(response.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
    }
  });

  it("a name or slug of 100,000 characters ending in NUL is refused at once (the patterns were quadratic)", async () => {
    const owner = await newUser(t.prisma);
    const long = `${"a".repeat(100_000)}\u0000`;
    for (const body of [{ name: long }, { name: "Slugged", slug: long }]) {
      const started = performance.now();
      const response = await t.app.inject({
        method: "POST",
        url: withKey("/api/v1/teams", owner.apiKey),
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      // Linear patterns take milliseconds; the quadratic ones took about 20 s each: a bound half
      // of that holds on a loaded machine and still fails them.
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});

describe("lone UTF-16 surrogates (a \\ud800 escape without its pair)", () => {
  const LONE = /lone UTF-16 surrogates/;

  /** The body as raw JSON text, escapes as a client writes them. */
  async function send(method: "POST" | "PATCH", url: string, caller: Caller, json: string) {
    const response = await t.app.inject({
      method,
      url: withKey(url, caller.apiKey),
      headers: { "content-type": "application/json" },
      payload: json,
    });
    return { status: response.statusCode, body: response.json() as { issues?: unknown[] } };
  }

  /** What the requests below could have changed. */
  const snapshot = async (teamId: number, eventTypeId: number) => ({
    team: await t.prisma.team.findUniqueOrThrow({ where: { id: teamId } }),
    eventType: await t.prisma.eventType.findUniqueOrThrow({ where: { id: eventTypeId } }),
    teams: await t.prisma.team.count(),
    eventTypes: await t.prisma.eventType.count(),
    customInputs: await t.prisma.eventTypeCustomInput.count(),
  });

  it("are refused with 400 in every free-form JSON field, keys included (jsonb cannot hold them; were 500s), and nothing changes", async () => {
    const owner = await newUser(t.prisma);
    const team = await makeTeam(t.prisma, owner.user.id);
    const eventType = await makeEventType(t.prisma, owner.user.id);
    const before = await snapshot(team.id, eventType.id);
    const cases: ["POST" | "PATCH", string, string, string][] = [
      ["PATCH", `/api/v1/teams/${team.id}`, String.raw`{"metadata":{"a":"\ud800"}}`, "metadata"],
      ["POST", "/api/v1/teams", String.raw`{"name":"Lone","metadata":{"a":["x\udfff"]}}`, "metadata"],
      ["PATCH", `/api/v1/event-types/${eventType.id}`, String.raw`{"metadata":{"\udc00key":1}}`, "metadata"],
      [
        "PATCH",
        `/api/v1/event-types/${eventType.id}`,
        String.raw`{"locations":[{"type":"inPerson","address":"Main St \ud83d"}]}`,
        "locations",
      ],
      [
        "PATCH",
        `/api/v1/event-types/${eventType.id}`,
        String.raw`{"bookingFields":[{"name":"notes","label":"\ude00\ud83d"}]}`,
        "bookingFields.0",
      ],
      [
        "POST",
        "/api/v1/event-types",
        String.raw`{"title":"Lone","slug":"lone","length":30,"metadata":{"k":"\ud800"}}`,
        "metadata",
      ],
      [
        "POST",
        "/api/v1/custom-inputs",
        `{"eventTypeId":${eventType.id},"label":"Pick","type":"RADIO","options":[{"label":"\\ud800","type":"a"}]}`,
        "options.0.label",
      ],
    ];
    for (const [method, url, json, path] of cases) {
      const response = await send(method, url, owner, json);
      const where = `${method} ${url} ${json}: ${JSON.stringify(response.body)}`;
      expect(response.status, where).toBe(400);
      expect(response.body.issues, where).toEqual([{ path, message: expect.stringMatching(LONE) }]);
    }
    expect(await snapshot(team.id, eventType.id)).toEqual(before);
  });

  it("are refused with 400 in text columns too (PostgreSQL would have stored U+FFFD in their place), as NUL is", async () => {
    const owner = await newUser(t.prisma);
    const team = await makeTeam(t.prisma, owner.user.id);
    const eventType = await makeEventType(t.prisma, owner.user.id);
    const before = await snapshot(team.id, eventType.id);
    const cases: ["POST" | "PATCH", string, string, string][] = [
      ["PATCH", `/api/v1/event-types/${eventType.id}`, String.raw`{"description":"a\ud800b"}`, "description"],
      ["PATCH", `/api/v1/event-types/${eventType.id}`, String.raw`{"title":"\udfff"}`, "title"],
      ["PATCH", `/api/v1/teams/${team.id}`, String.raw`{"bio":"\ud83d"}`, "bio"],
      ["POST", "/api/v1/teams", String.raw`{"name":"Acme \udc00"}`, "name"],
      [
        "POST",
        "/api/v1/custom-inputs",
        `{"eventTypeId":${eventType.id},"label":"Pick \\ud800","type":"TEXT"}`,
        "label",
      ],
    ];
    for (const [method, url, json, path] of cases) {
      const response = await send(method, url, owner, json);
      const where = `${method} ${url} ${json}: ${JSON.stringify(response.body)}`;
      expect(response.status, where).toBe(400);
      expect(response.body.issues, where).toEqual([{ path, message: expect.stringMatching(LONE) }]);
    }
    expect(await snapshot(team.id, eventType.id)).toEqual(before);
  });

  it("keeps a surrogate pair (an emoji), escaped or not, as the one character it is", async () => {
    const owner = await newUser(t.prisma);
    const team = await makeTeam(t.prisma, owner.user.id);
    const eventType = await makeEventType(t.prisma, owner.user.id);
    const teamUrl = `/api/v1/teams/${team.id}`;
    const edited = await send(
      "PATCH",
      teamUrl,
      owner,
      String.raw`{"bio":"\ud83d\ude00","metadata":{"\ud83d\ude00":"😀"}}`,
    );
    expect(edited.status).toBe(200);
    expect(await t.prisma.team.findUniqueOrThrow({ where: { id: team.id } })).toMatchObject({
      bio: "😀",
      metadata: { "😀": "😀" },
    });
    const described = await send(
      "PATCH",
      `/api/v1/event-types/${eventType.id}`,
      owner,
      String.raw`{"description":"x\ud83d\ude00y","locations":[{"type":"inPerson","address":"\ud83d\ude00"}]}`,
    );
    expect(described.status).toBe(200);
    expect(await t.prisma.eventType.findUniqueOrThrow({ where: { id: eventType.id } })).toMatchObject({
      description: "x😀y",
      locations: [{ type: "inPerson", address: "😀" }],
    });
  });
});

describe("free-form JSON fields", () => {
  const nested = (depth: number) => {
    let value: unknown = "leaf";
    for (let i = 0; i < depth; i++) value = { a: value };
    return value as Record<string, unknown>;
  };

  it.each([
    ["nested 3,000 levels deep", nested(3000), "levels deep"],
    ["nested 33 levels deep", nested(33), "levels deep"],
    [
      "with 60,000 keys",
      Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i])),
      "values",
    ],
    ["over 65,536 characters", { text: "x".repeat(70_000) }, "characters"],
  ])("refuses team metadata %s with 400 and stores nothing", async (_label, metadata, message) => {
    const owner = await newUser(t.prisma);
    const before = await t.prisma.team.count();
    const response = await call("POST", "/api/v1/teams", owner, { name: "Deep", metadata });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
    expect(await t.prisma.team.count()).toBe(before);
  });

  it("refuses event-type locations nested too deep, and keeps 32 levels", async () => {
    const owner = await newUser(t.prisma);
    const deep = await call("POST", "/api/v1/event-types", owner, {
      title: "Deep",
      slug: "deep-locations",
      length: 30,
      locations: [{ type: "inPerson", extra: nested(2500) }],
    });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toContain("levels deep");
    const fine = await call("POST", "/api/v1/teams", owner, { name: "Fine", metadata: nested(31) });
    expect(fine.status).toBe(201);
  });
});

describe("links", () => {
  it.each(["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "ftp://example.com/"])(
    "refuses %s as an event-type location link and a booking reference's meetingUrl",
    async (link) => {
      const owner = await newUser(t.prisma);
      const eventType = await call("POST", "/api/v1/event-types", owner, {
        title: "Linked",
        slug: `linked-${Math.random().toString(36).slice(2, 8)}`,
        length: 30,
        locations: [{ type: "link", link }],
      });
      expect(eventType.status).toBe(400);
      expect(eventType.body.issues).toEqual([
        expect.objectContaining({ path: expect.stringContaining("link") }),
      ]);

      const booking = await makeBooking(t.prisma, owner.user.id);
      const reference = await call("POST", "/api/v1/booking-references", owner, {
        type: "daily_video",
        uid: "room",
        bookingId: booking.id,
        meetingUrl: link,
      });
      expect(reference.status).toBe(400);
      expect(await t.prisma.bookingReference.count({ where: { bookingId: booking.id } })).toBe(0);
    },
  );

  it("accepts http(s) links", async () => {
    const owner = await newUser(t.prisma);
    const created = await call("POST", "/api/v1/event-types", owner, {
      title: "Linked",
      slug: "linked-ok",
      length: 30,
      locations: [{ type: "link", link: "https://meet.example.com/room" }],
    });
    expect(created.status, created.text).toBe(201);
  });
});
