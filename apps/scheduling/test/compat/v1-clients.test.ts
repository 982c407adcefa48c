// Real cal.com v1 client code, replayed request for request over real HTTP: the same methods,
// paths, query strings, headers and bodies those clients send, asserting on the fields they
// read. Sources (found with the search index; paths are in each client's own repository):
// - PipedreamHQ/pipedream components/cal_com/cal_com.app.mjs (base `https://{domain}/v1/`,
//   `Content-Type: application/json` on every call, `apiKey` query) and its actions
//   create-booking/create-booking.mjs, get-bookable-slots/get-bookable-slots.mjs,
//   get-booking/get-booking.mjs, delete-booking/delete-booking.mjs.
// - n8n-io/n8n packages/nodes-base/credentials/CalApi.credentials.ts (credential test:
//   GET {host}/v1/memberships) and packages/nodes-base/nodes/Cal/CalTrigger.node.ts with
//   GenericFunctions.ts (bare `{host}/event-types`, `apiKey` query).
// - raycast/extensions, the cal-com extension's axios client (base `/v1/`, `apiKey` param):
//   GET /me, GET /event-types, GET /bookings, DELETE /bookings/{id}/cancel?cancellationReason=.
// - cal.com's own apps/api/v1/test/lib/users/_post.integration.test.ts: an admin's POST /users
//   answers a `user` holding email, username and `organizationId: null` (v1's create echoed the
//   whole row; its reads picked schemaUserReadPublic, without it: this server answers it in all).
// None of these clients sent `rescheduleUid` or `allRemainingBookings` to v1 (their reschedule
// and series actions are v2-only); the last block replays their transports (Pipedream's create
// and delete, Raycast's cancel with merged params) with v1's documented keys for both
// (apps/api/v1/pages/api/bookings/_post.ts swagger: `rescheduleUid`; handleCancelBooking.ts:
// `allRemainingBookings`), as a user of those clients' code paths would send them.
import type { AddressInfo } from "node:net";
import { Prisma } from "@app/db";
import { beforeAll, describe, expect, it } from "vitest";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "../booking-helpers.ts";
import { createUser, setupApp } from "../helpers.ts";

const t = setupApp();
let base: string;
let apiKey: string;
let eventTypeId: number;
let hostId: number;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const host = await createUser(t.prisma);
  ({ apiKey } = host);
  hostId = host.user.id;
  eventTypeId = (await makeHost(t.prisma, hostId)).id;
});

/** axios as these clients configure it: JSON content type on every request, params merged into the query. */
async function axiosLike(
  method: string,
  url: string,
  params: Record<string, string | undefined>,
  data?: unknown,
  key = apiKey,
) {
  const query = new URLSearchParams(
    Object.entries({ ...params, apiKey: key }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const response = await fetch(`${base}${url}?${query}`, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json, text/plain, */*" },
    ...(data === undefined ? {} : { body: JSON.stringify(data) }),
  });
  const text = await response.text();
  return { status: response.status, data: text ? JSON.parse(text) : undefined };
}

describe("Pipedream cal_com (v1 actions)", () => {
  it("lists event types and bookings for its option pickers", async () => {
    const eventTypes = await axiosLike("GET", "/v1/event-types", {});
    expect(eventTypes.status).toBe(200);
    expect(eventTypes.data.event_types).toContainEqual(
      expect.objectContaining({ id: eventTypeId, title: "Intro" }),
    );
    const bookings = await axiosLike("GET", "/v1/bookings", {});
    expect(bookings.status).toBe(200);
    expect(Array.isArray(bookings.data.bookings)).toBe(true);
  });

  it("gets bookable slots, creates a booking in one, reads it and deletes it", async () => {
    const monday = futureMonday(6);
    const slots = await axiosLike("GET", "/v1/slots", {
      eventTypeId: String(eventTypeId),
      startTime: monday.toISOString().slice(0, 10),
      endTime: at(monday, 24 * 60)
        .toISOString()
        .slice(0, 10),
      timeZone: "UTC",
      isTeamEvent: "false",
    });
    expect(slots.status, JSON.stringify(slots.data)).toBe(200);
    const day = monday.toISOString().slice(0, 10);
    const first = slots.data.slots[day][0].time as string;
    expect(first).toBe(`${day}T09:00:00+00:00`);

    // create-booking.mjs: the legacy body, `start`/`end` as typed by a person (no offset), title left unset.
    const start = new Date(first);
    const created = await axiosLike(
      "POST",
      "/v1/bookings",
      {},
      {
        eventTypeId,
        name: "Pip Dream",
        email: "pip@example.com",
        start: start.toISOString().slice(0, 19),
        end: at(start, 30).toISOString().slice(0, 19),
        language: "en",
        timeZone: "America/New_York",
        location: "",
        customInputs: [],
        metadata: {},
      },
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    expect(created.data.id).toEqual(expect.any(Number));

    const read = await axiosLike("GET", `/v1/bookings/${created.data.id}`, {});
    expect(read.data.booking).toMatchObject({ id: created.data.id, status: "ACCEPTED" });

    // The same slot again: the error body's `message` is what the action shows.
    const taken = await axiosLike(
      "POST",
      "/v1/bookings",
      {},
      {
        eventTypeId,
        name: "Late",
        email: "late@example.com",
        start: start.toISOString(),
        language: "en",
        timeZone: "UTC",
        location: "",
        customInputs: [],
        metadata: {},
      },
    );
    expect(taken.status).toBe(400);
    expect(taken.data.message).toBe("no_available_users_found_error");

    // delete-booking.mjs: DELETE with the JSON content type and no body; its picker hides CANCELLED ones.
    const deleted = await axiosLike("DELETE", `/v1/bookings/${created.data.id}`, {});
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    const listed = await axiosLike("GET", "/v1/bookings", {});
    const mine = listed.data.bookings.find((b: { id: number }) => b.id === created.data.id);
    expect(mine.status).toBe("CANCELLED");
  });
});

describe("Pipedream cal_com: Get Bookable Slots of a team event (isTeamEvent)", () => {
  it("gets a COLLECTIVE team event's slots with isTeamEvent=true, books one with create-booking, and reads the 409", async () => {
    const teammate = await createUser(t.prisma);
    await giveSchedule(t.prisma, teammate.user.id, { timeZone: "America/New_York", name: "Tea Mate" });
    const { eventType } = await makeTeamEvent(t.prisma, "COLLECTIVE", [
      { userId: hostId },
      { userId: teammate.user.id },
    ]);
    // get-bookable-slots.mjs 0.0.3: `params` = {eventTypeId, startTime, endTime, timeZone, isTeamEvent}
    // as the user typed them (ISO 8601, e.g. 2025-04-01T06:00:00Z); axios writes `true` as "true".
    const monday = futureMonday(8);
    const slots = await axiosLike("GET", "/v1/slots", {
      eventTypeId: String(eventType.id),
      startTime: monday.toISOString().replace(".000", ""),
      endTime: at(monday, 12 * 60)
        .toISOString()
        .replace(".000", ""),
      timeZone: "America/New_York",
      isTeamEvent: "true",
    });
    expect(slots.status, JSON.stringify(slots.data)).toBe(200);
    // The action returns the body unchanged: v1's {slots: {date: [{time}]}}, times in the zone asked for.
    const days = Object.keys(slots.data.slots);
    expect(days).toHaveLength(1);
    const times = slots.data.slots[days[0]!] as { time: string }[];
    // The host works 09:00-17:00 UTC, the teammate 09:00-17:00 New York: only the overlap is offered.
    expect(times.length).toBeGreaterThan(0);
    for (const { time } of times) {
      expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00-0[45]:00$/);
      const hour = new Date(time).getUTCHours();
      expect(hour >= 13 && hour < 17, time).toBe(true);
    }

    // create-booking.mjs on that event type: the legacy body; the action reads `id`, then on a
    // second try the error body's `message`.
    const start = new Date(times[0]!.time);
    const body = {
      eventTypeId: eventType.id,
      name: "Pip Dream",
      email: "pip@example.com",
      start: start.toISOString().slice(0, 19),
      end: at(start, 30).toISOString().slice(0, 19),
      language: "en",
      timeZone: "America/New_York",
      location: "",
      customInputs: [],
      metadata: {},
    };
    const created = await axiosLike("POST", "/v1/bookings", {}, body);
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    expect(created.data).toMatchObject({
      id: expect.any(Number),
      userId: Math.min(hostId, teammate.user.id),
    });
    const again = await axiosLike("POST", "/v1/bookings", {}, body);
    expect(again.status).toBe(409);
    expect(again.data.message).toBe("fixed_hosts_unavailable_for_booking");
  });
});

describe("n8n Cal (v1 trigger and credential)", () => {
  it("passes the credential test on /v1/memberships and lists event types on the bare host path", async () => {
    const credentialTest = await axiosLike("GET", "/v1/memberships", {});
    expect(credentialTest.status).toBe(200);
    expect(Array.isArray(credentialTest.data.memberships)).toBe(true);
    const eventTypes = await axiosLike("GET", "/event-types", {});
    expect(eventTypes.status).toBe(200);
    const option = eventTypes.data.event_types.find((e: { id: number }) => e.id === eventTypeId);
    expect(option).toMatchObject({ id: eventTypeId, title: "Intro" });
  });

  it("passes the credential test with a host typed as the base URL other v1 tools ask for (…/v1, …/api/v1), whose other calls work as they did (ADR 0248)", async () => {
    // CalApi.credentials.ts's test is `{baseURL: host, url: "/v1/memberships"}`: with such a host
    // the prefix comes twice, while the node's own calls (`{host}/event-types`) hit one.
    for (const host of ["/v1", "/api/v1"]) {
      const credentialTest = await axiosLike("GET", `${host}/v1/memberships`, {});
      expect(credentialTest.status, host).toBe(200);
      expect(Array.isArray(credentialTest.data.memberships), host).toBe(true);
      const eventTypes = await axiosLike("GET", `${host}/event-types`, {});
      expect(eventTypes.status, host).toBe(200);
      expect(eventTypes.data.event_types, host).toContainEqual(expect.objectContaining({ id: eventTypeId }));
    }
  });
});

describe("Raycast cal-com extension", () => {
  it("reads /me, event types and bookings with the fields it shows, and cancels with a reason", async () => {
    const me = await axiosLike("GET", "/v1/me", {});
    expect(me.status).toBe(200);
    expect(me.data.user).toMatchObject({
      id: hostId,
      email: expect.any(String),
      timeZone: expect.any(String),
    });
    expect(me.data.user).not.toHaveProperty("passwordHash");

    const eventTypes = await axiosLike("GET", "/v1/event-types", {});
    expect(eventTypes.data.event_types[0]).toHaveProperty("position");

    const start = at(futureMonday(7), 120);
    const booked = await axiosLike(
      "POST",
      "/v1/bookings",
      {},
      {
        eventTypeId,
        start: start.toISOString(),
        timeZone: "Europe/Berlin",
        language: "en",
        metadata: {},
        responses: { name: "Ray Cast", email: "ray@example.com" },
      },
    );
    expect(booked.status).toBe(201);

    const bookings = await axiosLike("GET", "/v1/bookings", {});
    const booking = bookings.data.bookings.find((b: { id: number }) => b.id === booked.data.id);
    for (const field of [
      "id",
      "userId",
      "description",
      "eventTypeId",
      "uid",
      "title",
      "startTime",
      "endTime",
      "attendees",
      "user",
      "payment",
      "metadata",
      "status",
      "responses",
    ]) {
      expect(booking, field).toHaveProperty(field);
    }
    expect(booking.attendees[0]).toMatchObject({ name: "Ray Cast", email: "ray@example.com" });

    const cancelled = await axiosLike("DELETE", `/v1/bookings/${booked.data.id}/cancel`, {
      cancellationReason: "Can't make it",
    });
    expect(cancelled.status, JSON.stringify(cancelled.data)).toBe(200);
    expect(cancelled.data).toMatchObject({ success: true, bookingId: booked.data.id });
    const stored = await t.prisma.booking.findUniqueOrThrow({ where: { id: booked.data.id } });
    expect(stored.cancellationReason).toBe("Can't make it");
  });
});

describe("reschedule and series cancel through the clients' transports", () => {
  it("Pipedream create-booking's legacy body plus v1's `rescheduleUid`: `id` of the new booking, the old one CANCELLED in the picker list", async () => {
    const start = at(futureMonday(9), 60);
    const legacy = (when: Date, extra: Record<string, unknown> = {}) => ({
      eventTypeId,
      name: "Pip Dream",
      email: "pip@example.com",
      start: when.toISOString().slice(0, 19),
      end: at(when, 30).toISOString().slice(0, 19),
      language: "en",
      timeZone: "America/New_York",
      location: "",
      customInputs: [],
      metadata: {},
      ...extra,
    });
    const created = await axiosLike("POST", "/v1/bookings", {}, legacy(start));
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    // get-bookable-slots.mjs with v1's rescheduleUid: the booked start is offered again for the move.
    const day = start.toISOString().slice(0, 10);
    const slots = await axiosLike("GET", "/v1/slots", {
      eventTypeId: String(eventTypeId),
      startTime: day,
      endTime: at(start, 24 * 60)
        .toISOString()
        .slice(0, 10),
      timeZone: "UTC",
      rescheduleUid: created.data.uid,
    });
    expect(slots.status).toBe(200);
    expect(slots.data.slots[day].map((s: { time: string }) => s.time)).toContain(`${day}T10:00:00+00:00`);

    const moved = await axiosLike(
      "POST",
      "/v1/bookings",
      {},
      legacy(at(start, 120), { rescheduleUid: created.data.uid, rescheduleReason: "Travel" }),
    );
    expect(moved.status, JSON.stringify(moved.data)).toBe(201);
    expect(moved.data).toMatchObject({
      id: expect.any(Number),
      fromReschedule: created.data.uid,
      cancellationReason: "Travel",
    });
    // delete-booking.mjs's picker lists GET /v1/bookings and hides CANCELLED ones: the old one is hidden.
    const listed = await axiosLike("GET", "/v1/bookings", {});
    const shown = listed.data.bookings
      .filter((b: { status: string }) => b.status !== "CANCELLED")
      .map((b: { id: number }) => b.id);
    expect(shown).toContain(moved.data.id);
    expect(shown).not.toContain(created.data.id);
    // The action shows the error body's `message` on a second try.
    const again = await axiosLike(
      "POST",
      "/v1/bookings",
      {},
      legacy(at(start, 180), { rescheduleUid: created.data.uid }),
    );
    expect(again.status).toBe(400);
    expect(again.data.message).toBe("rescheduled_bookings_cannot_be_rescheduled");
  });

  it("Raycast's cancel with `allRemainingBookings` merged into its params cancels the rest of a series booked with Pipedream's body", async () => {
    await t.prisma.eventType.update({
      where: { id: eventTypeId },
      data: { recurringEvent: { freq: 2, count: 3, interval: 1 } },
    });
    try {
      const first = at(futureMonday(10), 60);
      const recurringEventId = crypto.randomUUID();
      const ids: number[] = [];
      for (let week = 0; week < 3; week++) {
        const when = at(first, week * 7 * 24 * 60);
        const created = await axiosLike(
          "POST",
          "/v1/bookings",
          {},
          {
            eventTypeId,
            name: "Pip Dream",
            email: "pip@example.com",
            start: when.toISOString(),
            language: "en",
            timeZone: "UTC",
            location: "",
            customInputs: [],
            metadata: {},
            recurringCount: 3,
            recurringEventId,
          },
        );
        expect(created.status, JSON.stringify(created.data)).toBe(201);
        ids.push(created.data.id);
      }
      const cancelled = await axiosLike("DELETE", `/v1/bookings/${ids[1]}/cancel`, {
        cancellationReason: "Course ended",
        allRemainingBookings: "true",
      });
      expect(cancelled.status, JSON.stringify(cancelled.data)).toBe(200);
      expect(cancelled.data).toMatchObject({ success: true, bookingId: ids[1] });
      const bookings = await axiosLike("GET", "/v1/bookings", {});
      const statuses = ids.map(
        (id) => bookings.data.bookings.find((b: { id: number }) => b.id === id).status as string,
      );
      expect(statuses).toEqual(["CANCELLED", "CANCELLED", "CANCELLED"]);
    } finally {
      await t.prisma.eventType.update({
        where: { id: eventTypeId },
        data: { recurringEvent: Prisma.DbNull },
      });
    }
  });
});

describe("cal.com's own v1 users test (_post.integration.test.ts)", () => {
  it("answers a user with organizationId null: on create, as the test reads it, and on every read of users", async () => {
    const admin = await createUser(t.prisma, { admin: true });
    const asAdmin = (method: string, url: string, params: Record<string, string> = {}, data?: unknown) =>
      axiosLike(method, url, params, data, admin.apiKey);
    const email = `org-test-${process.pid}@example.com`;
    const username = `orgtest${process.pid}`;
    const created = await asAdmin("POST", "/v1/users", {}, { email, username });
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    expect(created.data.user).toEqual(expect.objectContaining({ email, username, organizationId: null }));
    const id = created.data.user.id;

    const read = await asAdmin("GET", `/v1/users/${id}`);
    expect(read.data.user).toMatchObject({ id, organizationId: null });
    const listed = await asAdmin("GET", "/v1/users", { email });
    expect(listed.data.users).toEqual([expect.objectContaining({ id, organizationId: null })]);
    const edited = await asAdmin("PATCH", `/v1/users/${id}`, {}, { name: "Org Test" });
    expect(edited.data.user).toMatchObject({ id, name: "Org Test", organizationId: null });
    const me = await asAdmin("GET", "/v1/me");
    expect(me.data.user).toMatchObject({ id: admin.user.id, organizationId: null });
  });
});
