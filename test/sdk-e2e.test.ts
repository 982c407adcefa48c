// Both services, listening on 127.0.0.1, driven only through the SDKs (@link-and-schedule/shortener-sdk,
// @link-and-schedule/scheduling-sdk, imported from source): every call is typed by the committed documents.
// Users, tokens and API keys are made with the apps' own modules; the one row no API creates
// (a payment) is written to the database. The redirect is followed with a plain fetch.
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { futureMonday } from "../apps/scheduling/test/booking-helpers.ts";
import { createUser, setupApp } from "../apps/scheduling/test/helpers.ts";
import { makeConnectedCalendar, makePayment } from "../apps/scheduling/test/resource-fixtures.ts";
import { newUser, setupShortener } from "../apps/shortener/test/helpers.ts";
import {
  createSchedulingClient,
  type ErrorBody,
  type paths,
  type SchedulingClient,
} from "../packages/scheduling-sdk/src/index.ts";
import { createShortenerClient, type ShortenerClient } from "../packages/shortener-sdk/src/index.ts";

type Outcome = { data?: unknown; error?: unknown; response: Response };
/** The data of a call that must succeed; a failure shows its status and body. */
function ok<R extends Outcome>(result: R): NonNullable<Extract<R, { error?: undefined }>["data"]> {
  if (result.error !== undefined || !result.response.ok) {
    throw new Error(`${result.response.url}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data as never;
}

const origin = (app: { server: { address(): unknown } }) =>
  `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

describe("shortener through @link-and-schedule/shortener-sdk", () => {
  const ctx = setupShortener();
  let api: ShortenerClient;
  let baseUrl: string;
  beforeAll(async () => {
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = origin(ctx.app);
    api = createShortenerClient({ baseUrl, token: (await newUser(ctx.prisma)).token });
  });

  it("creates (with and without a name), lists, reads, redirects, logs and deletes", async () => {
    const me = ok(await api.GET("/api/me"));
    expect(me.username).toMatch(/@example\.com$/);

    const generated = ok(await api.POST("/api/shorts", { body: { url: "https://example.com/a/long/path" } }));
    expect(generated.name).toMatch(/^[A-Za-z0-9]{7}$/);
    const name = `sdk-${Date.now()}`;
    const named = ok(await api.POST("/api/shorts", { body: { url: "https://example.com/named", name } }));
    expect(named).toMatchObject({
      name,
      url: "https://example.com/named",
      shorturl: `https://sho.rt/${name}`,
    });

    const list = ok(await api.GET("/api/shorts"));
    expect(list.map((short) => short.id)).toEqual([named.id, generated.id]); // newest first
    const page = ok(await api.GET("/api/shorts", { params: { query: { limit: "1", offset: "1" } } }));
    expect(page.map((short) => short.id)).toEqual([generated.id]);
    expect(ok(await api.GET("/api/shorts/{id}", { params: { path: { id: named.id } } }))).toEqual(named);

    // The public redirect, not an API call: a plain fetch that does not follow it.
    const visit = await fetch(`${baseUrl}/${name}`, {
      redirect: "manual",
      headers: { "user-agent": "sdk-e2e", referer: "https://referrer.example/" },
    });
    expect(visit.status).toBe(302);
    expect(visit.headers.get("location")).toBe("https://example.com/named");
    const logs = ok(await api.GET("/api/shorts/{id}/logs", { params: { path: { id: named.id } } }));
    expect(logs).toEqual([
      expect.objectContaining({
        shortID: named.id,
        userAgent: "sdk-e2e",
        referer: "https://referrer.example/",
      }),
    ]);

    const deleted = await api.DELETE("/api/shorts/{id}", { params: { path: { id: named.id } } });
    expect(deleted.error).toBeUndefined();
    expect(deleted.response.status).toBe(204);
    expect(ok(await api.GET("/api/shorts")).map((short) => short.id)).toEqual([generated.id]);
  });

  it("edits, tags, filters, orders, and fetches QR codes (issue 20)", async () => {
    const suffix = Date.now();
    const short = ok(
      await api.POST("/api/shorts", {
        body: { url: "https://example.com/sdk-edit", name: `edit-${suffix}`, tags: ["SDK", "sdk"] },
      }),
    );
    expect(short.tags).toEqual(["sdk"]);
    const path = { params: { path: { id: short.id } } };
    const edited = ok(
      await api.PATCH("/api/shorts/{id}", {
        ...path,
        body: { url: "https://example.com/sdk-edited", name: `edited-${suffix}`, tags: ["sdk", "launch"] },
      }),
    );
    expect(edited).toMatchObject({ name: `edited-${suffix}`, tags: ["sdk", "launch"] });
    const visit = await fetch(`${baseUrl}/edited-${suffix}`, { redirect: "manual" });
    expect(visit.headers.get("location")).toBe("https://example.com/sdk-edited");

    const query = { tag: "LAUNCH", search: "sdk-edited", orderBy: "visits", order: "desc" } as const;
    const found = ok(await api.GET("/api/shorts", { params: { query } }));
    expect(found.map((row) => [row.id, row.visits])).toEqual([[short.id, 1]]);

    const png = await api.GET("/api/shorts/{id}/qr", {
      params: { path: { id: short.id }, query: { format: "png", size: "256" } },
      parseAs: "arrayBuffer",
    });
    expect(png.response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(ok(png)).subarray(1, 4).toString()).toBe("PNG");
    const svg = await api.GET("/api/shorts/{id}/qr", {
      params: { path: { id: short.id }, query: { format: "svg" } },
      parseAs: "text",
    });
    expect(ok(svg)).toMatch(/^<svg [^>]*width="300" height="300"/);

    const taken = await api.PATCH("/api/shorts/{id}", { ...path, body: { name: `edited-${suffix}` } });
    expect(taken.error).toBeUndefined(); // its own name: no conflict
    const bad = await api.PATCH("/api/shorts/{id}", { ...path, body: { tags: ["not a tag"] } });
    if (bad.error?.status !== 400) throw new Error(`expected 400, got ${JSON.stringify(bad.error)}`);
    expect(bad.error.body.status).toBe("Bad Request");
  });

  it("answers errors as typed values: a 404 is plain text, a 409 the JSON error", async () => {
    const missing = await api.GET("/api/shorts/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expect(missing.data).toBeUndefined();
    if (missing.error?.status !== 404) throw new Error(`expected 404, got ${JSON.stringify(missing.error)}`);
    expectTypeOf(missing.error.body).toEqualTypeOf<string>();
    expect(missing.error.body).toBe("Not Found");

    const name = `taken-${Date.now()}`;
    ok(await api.POST("/api/shorts", { body: { url: "https://example.com/", name } }));
    const taken = await api.POST("/api/shorts", { body: { url: "https://example.com/", name } });
    if (taken.error?.status !== 409) throw new Error(`expected 409, got ${JSON.stringify(taken.error)}`);
    expectTypeOf(taken.error.body).toEqualTypeOf<{ status: string; error: string }>();
    expect(taken.error.body).toEqual({ status: "Conflict", error: expect.stringContaining(name) });

    const stranger = createShortenerClient({ baseUrl, token: "shr_not-a-token" });
    const refused = await stranger.GET("/api/me");
    expect(refused.error).toEqual({ status: 401, body: expect.any(String) });
  });
});

describe("scheduling through @link-and-schedule/scheduling-sdk", () => {
  const t = setupApp();
  let host: SchedulingClient;
  let admin: SchedulingClient;
  let baseUrl: string;
  beforeAll(async () => {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = origin(t.app);
    host = createSchedulingClient({ baseUrl, apiKey: (await createUser(t.prisma)).apiKey });
    admin = createSchedulingClient({ baseUrl, apiKey: (await createUser(t.prisma, { admin: true })).apiKey });
  });

  it("answers the public routes without a key", async () => {
    expect(ok(await host.GET("/")).message).toMatch(/Welcome/);
    expect(ok(await host.GET("/health"))).toEqual({ status: "ok" });
  });

  it("runs every resource's CRUD, /me, /slots and both ways of cancelling a booking", async () => {
    const me = ok(await host.GET("/api/v1/me")).user;
    // Ids are the numbers answers carry; memberships' and selected calendars' are composite strings.
    const id = (value: number) => ({ params: { path: { id: value } } });
    const compositeId = (value: string) => ({ params: { path: { id: value } } });

    // users (create and delete are for admins)
    const email = `sdk-${Date.now()}@example.com`;
    const member = ok(
      await admin.POST("/api/v1/users", { body: { email, username: `sdk_${Date.now()}` } }),
    ).user;
    expect(member.email).toBe(email);
    const users = ok(await admin.GET("/api/v1/users", { params: { query: { email: [email] } } }));
    expect(users.users.map((user) => user.id)).toEqual([member.id]);
    expect(ok(await host.GET("/api/v1/users/{id}", id(me.id))).user.email).toBe(me.email);
    expect(
      ok(await host.PATCH("/api/v1/users/{id}", { ...id(me.id), body: { name: "Hope Host" } })).user.name,
    ).toBe("Hope Host");

    // schedules, availabilities
    const schedule = ok(
      await host.POST("/api/v1/schedules", { body: { name: "Office", timeZone: "UTC" } }),
    ).schedule;
    expect(ok(await host.GET("/api/v1/schedules")).schedules.map((row) => row.id)).toContain(schedule.id);
    expect(ok(await host.GET("/api/v1/schedules/{id}", id(schedule.id))).schedule.name).toBe("Office");
    expect(
      ok(await host.PATCH("/api/v1/schedules/{id}", { ...id(schedule.id), body: { name: "Main office" } }))
        .schedule.name,
    ).toBe("Main office");
    const availability = ok(
      await host.POST("/api/v1/availabilities", {
        body: {
          scheduleId: schedule.id,
          startTime: "1970-01-01T18:00:00.000Z",
          endTime: "1970-01-01T19:00:00.000Z",
          days: [6],
        },
      }),
    ).availability;
    expect(ok(await host.GET("/api/v1/availabilities")).availabilities.map((row) => row.id)).toContain(
      availability.id,
    );
    expect(ok(await host.GET("/api/v1/availabilities/{id}", id(availability.id))).availability.days).toEqual([
      6,
    ]);
    const availabilityEdit = { ...id(availability.id), body: { days: [0, 6] } };
    expect(ok(await host.PATCH("/api/v1/availabilities/{id}", availabilityEdit)).availability.days).toEqual([
      0, 6,
    ]);
    ok(await host.DELETE("/api/v1/availabilities/{id}", id(availability.id)));

    // event types, custom inputs
    const slug = `intro-${Date.now()}`;
    const eventType = ok(
      await host.POST("/api/v1/event-types", {
        body: { title: "Intro call", slug, length: 30, scheduleId: schedule.id, minimumBookingNotice: 0 },
      }),
    ).event_type;
    const bySlug = ok(await host.GET("/api/v1/event-types", { params: { query: { slug: [slug] } } }));
    expect(bySlug.event_types.map((row) => row.id)).toEqual([eventType.id]);
    expect(ok(await host.GET("/api/v1/event-types/{id}", id(eventType.id))).event_type.slug).toBe(slug);
    const eventTypeEdit = { ...id(eventType.id), body: { title: "Intro" } };
    expect(ok(await host.PATCH("/api/v1/event-types/{id}", eventTypeEdit)).event_type.title).toBe("Intro");
    const input = ok(
      await host.POST("/api/v1/custom-inputs", {
        body: { eventTypeId: eventType.id, label: "Company", type: "TEXT" },
      }),
    ).event_type_custom_input;
    expect(
      ok(await host.GET("/api/v1/custom-inputs")).event_type_custom_inputs.map((row) => row.id),
    ).toContain(input.id);
    expect(ok(await host.GET("/api/v1/custom-inputs/{id}", id(input.id))).event_type_custom_input.label).toBe(
      "Company",
    );
    const inputEdit = { ...id(input.id), body: { required: true } };
    expect(
      ok(await host.PATCH("/api/v1/custom-inputs/{id}", inputEdit)).event_type_custom_input.required,
    ).toBe(true);
    ok(await host.DELETE("/api/v1/custom-inputs/{id}", id(input.id)));

    // slots, then bookings made from them (v1's create)
    const monday = futureMonday().toISOString().slice(0, 10);
    const tuesday = new Date(futureMonday().getTime() + 86_400_000).toISOString().slice(0, 10);
    const slots = ok(
      await host.GET("/api/v1/slots", {
        params: { query: { eventTypeId: eventType.id, startTime: monday, endTime: tuesday } },
      }),
    ).slots;
    const [first, second] = slots[monday] ?? [];
    expect(first?.time).toBe(`${monday}T09:00:00.000Z`);
    const book = async (start: string) =>
      ok(
        await host.POST("/api/v1/bookings", {
          body: {
            eventTypeId: eventType.id,
            start,
            timeZone: "Europe/Berlin",
            language: "en",
            metadata: {},
            responses: { name: "Bea Booker", email: "bea@example.com" },
          },
        }),
      );
    const booking = await book(first!.time);
    const other = await book(second!.time);
    expect(booking).toMatchObject({ userId: me.id, status: "ACCEPTED", startTime: first!.time });
    const upcoming = ok(
      await host.GET("/api/v1/bookings", {
        params: { query: { status: "upcoming", attendeeEmail: ["bea@example.com"] } },
      }),
    );
    expect(upcoming.bookings.map((row) => row.id).sort()).toEqual([booking.id, other.id].sort());
    expect(ok(await host.GET("/api/v1/bookings/{id}", id(booking.id))).booking.uid).toBe(booking.uid);
    const bookingEdit = { ...id(booking.id), body: { title: "Intro (moved)" } };
    expect(ok(await host.PATCH("/api/v1/bookings/{id}", bookingEdit)).booking.title).toBe("Intro (moved)");

    // attendees, booking references, event references, payments: rows of a booking
    const attendee = ok(
      await host.POST("/api/v1/attendees", {
        body: { bookingId: booking.id, email: "guest@example.com", name: "Guest", timeZone: "Europe/Paris" },
      }),
    ).attendee;
    expect(ok(await host.GET("/api/v1/attendees")).attendees.map((row) => row.id)).toContain(attendee.id);
    expect(ok(await host.GET("/api/v1/attendees/{id}", id(attendee.id))).attendee.email).toBe(
      "guest@example.com",
    );
    const attendeeEdit = { ...id(attendee.id), body: { name: "Guest Renamed" } };
    expect(ok(await host.PATCH("/api/v1/attendees/{id}", attendeeEdit)).attendee.name).toBe("Guest Renamed");
    ok(await host.DELETE("/api/v1/attendees/{id}", id(attendee.id)));

    const reference = ok(
      await host.POST("/api/v1/booking-references", {
        body: { bookingId: booking.id, type: "daily_video", uid: `daily-${Date.now()}` },
      }),
    ).booking_reference;
    expect(
      ok(await host.GET("/api/v1/booking-references")).booking_references.map((row) => row.id),
    ).toContain(reference.id);
    expect(
      ok(await host.GET("/api/v1/booking-references/{id}", id(reference.id))).booking_reference.type,
    ).toBe("daily_video");
    const referenceEdit = { ...id(reference.id), body: { meetingUrl: "https://meet.example.com/x" } };
    expect(
      ok(await host.PATCH("/api/v1/booking-references/{id}", referenceEdit)).booking_reference.meetingUrl,
    ).toBe("https://meet.example.com/x");
    ok(await host.DELETE("/api/v1/booking-references/{id}", id(reference.id)));

    const eventReference = ok(
      await host.POST("/api/v1/event-references", {
        body: {
          bookingId: booking.id,
          dailyurl: "https://meet.example.com/room-1",
          dailytoken: "secret-token",
        },
      }),
    ).event_reference;
    expect(eventReference).not.toHaveProperty("dailytoken");
    expect(ok(await host.GET("/api/v1/event-references")).event_references.map((row) => row.id)).toContain(
      eventReference.id,
    );
    expect(
      ok(await host.GET("/api/v1/event-references/{id}", id(eventReference.id))).event_reference.dailyurl,
    ).toBe("https://meet.example.com/room-1");
    const eventReferenceEdit = {
      ...id(eventReference.id),
      body: { dailyurl: "https://meet.example.com/room-2" },
    };
    expect(
      ok(await host.PATCH("/api/v1/event-references/{id}", eventReferenceEdit)).event_reference.dailyurl,
    ).toBe("https://meet.example.com/room-2");
    ok(await host.DELETE("/api/v1/event-references/{id}", id(eventReference.id)));

    const payment = await makePayment(t.prisma, me.id); // no API creates payments
    expect(ok(await host.GET("/api/v1/payments")).payments.map((row) => row.id)).toContain(payment.id);
    expect(ok(await host.GET("/api/v1/payments/{id}", id(payment.id))).payment).toMatchObject({
      id: payment.id,
      amount: 5000,
      currency: "eur",
    });

    // cancelling: DELETE /bookings/{id} and DELETE /bookings/{id}/cancel (as Raycast calls it)
    const cancelled = ok(
      await host.DELETE("/api/v1/bookings/{id}", {
        // The document marks this body required (it may be null): the reason goes in the query here.
        params: { path: { id: booking.id }, query: { cancellationReason: "Sick" } },
        body: null,
      }),
    );
    expect(cancelled).toMatchObject({ success: true, bookingId: booking.id });
    const cancelledToo = ok(
      await host.DELETE("/api/v1/bookings/{id}/cancel", {
        ...id(other.id),
        body: { cancellationReason: "Busy" },
      }),
    );
    expect(cancelledToo).toMatchObject({ success: true, bookingId: other.id });
    const stored = ok(await host.GET("/api/v1/bookings/{id}", id(other.id))).booking;
    expect(stored.status).toBe("CANCELLED");

    // teams, memberships
    const team = ok(
      await host.POST("/api/v1/teams", { body: { name: "Acme", slug: `acme-${Date.now()}` } }),
    ).team;
    expect(ok(await host.GET("/api/v1/teams")).teams.map((row) => row.id)).toContain(team.id);
    expect(ok(await host.GET("/api/v1/teams/{id}", id(team.id))).team.name).toBe("Acme");
    expect(
      ok(await host.PATCH("/api/v1/teams/{id}", { ...id(team.id), body: { name: "Acme Ltd" } })).team.name,
    ).toBe("Acme Ltd");
    const membership = ok(
      await host.POST("/api/v1/memberships", { body: { teamId: team.id, userId: member.id } }),
    ).membership;
    expect(membership).toMatchObject({ teamId: team.id, userId: member.id, accepted: false, role: "MEMBER" });
    const membershipId = compositeId(`${member.id}_${team.id}`);
    const teamMemberships = ok(
      await host.GET("/api/v1/memberships", { params: { query: { teamId: [team.id] } } }),
    ).memberships;
    expect(teamMemberships.map((row) => row.userId).sort()).toEqual([me.id, member.id].sort());
    expect(ok(await host.GET("/api/v1/memberships/{id}", membershipId)).membership.userId).toBe(member.id);
    const membershipEdit = { ...membershipId, body: { role: "ADMIN" as const } };
    expect(ok(await host.PATCH("/api/v1/memberships/{id}", membershipEdit)).membership.role).toBe("ADMIN");
    ok(await host.DELETE("/api/v1/memberships/{id}", membershipId));
    ok(await host.DELETE("/api/v1/teams/{id}", id(team.id)));

    // destination and selected calendars: a destination is a calendar of a connected account
    const calendarUrl = await makeConnectedCalendar(t.prisma, me.id);
    const destination = ok(
      await host.POST("/api/v1/destination-calendars", {
        body: { integration: "caldav_calendar", externalId: calendarUrl },
      }),
    ).destinationCalendar;
    expect(
      ok(await host.GET("/api/v1/destination-calendars")).destinationCalendars.map((row) => row.id),
    ).toContain(destination.id);
    expect(
      ok(await host.GET("/api/v1/destination-calendars/{id}", id(destination.id))).destinationCalendar
        .externalId,
    ).toBe(calendarUrl);
    const destinationEdit = { ...id(destination.id), body: { primaryEmail: "primary@example.com" } };
    expect(
      ok(await host.PATCH("/api/v1/destination-calendars/{id}", destinationEdit)).destinationCalendar
        .primaryEmail,
    ).toBe("primary@example.com");
    ok(await host.DELETE("/api/v1/destination-calendars/{id}", id(destination.id)));

    const externalId = "team_calendar_x@group.calendar.google.com";
    const selected = ok(
      await host.POST("/api/v1/selected-calendars", { body: { integration: "google_calendar", externalId } }),
    ).selected_calendar;
    expect(selected).toMatchObject({ userId: me.id, integration: "google_calendar", externalId });
    const selectedId = compositeId(`${me.id}_google_calendar_${externalId}`);
    expect(
      ok(await host.GET("/api/v1/selected-calendars")).selected_calendars.map((row) => row.externalId),
    ).toContain(externalId);
    expect(
      ok(await host.GET("/api/v1/selected-calendars/{id}", selectedId)).selected_calendar.externalId,
    ).toBe(externalId);
    const selectedEdit = { ...selectedId, body: { error: "token expired" } };
    expect(
      ok(await host.PATCH("/api/v1/selected-calendars/{id}", selectedEdit)).selected_calendar.error,
    ).toBe("token expired");
    ok(await host.DELETE("/api/v1/selected-calendars/{id}", selectedId));

    // what is left: the event type, the schedule, the member
    ok(await host.DELETE("/api/v1/event-types/{id}", id(eventType.id)));
    ok(await host.DELETE("/api/v1/schedules/{id}", id(schedule.id)));
    expect(ok(await admin.DELETE("/api/v1/users/{id}", id(member.id))).message).toMatch(/deleted/);
    const gone = await host.GET("/api/v1/schedules/{id}", id(schedule.id));
    expect(gone.error?.status).toBe(404);
  });

  it("creates, lists and revokes a calendar feed token, and reads the feed as text/calendar", async () => {
    const created = ok(await host.POST("/api/v1/feed-tokens", { body: { note: "SDK calendar" } }));
    expect(created.token).toMatch(/^feed_/);
    expect(ok(await host.GET("/api/v1/feed-tokens")).feed_tokens.map((token) => token.id)).toContain(
      created.feed_token.id,
    );
    // The feed takes its own token (the client sends no apiKey there) and answers iCalendar text.
    const feed = await host.GET("/api/v1/bookings.ics", {
      params: { query: { feedToken: created.token } },
      parseAs: "text",
    });
    expect(feed.response.status).toBe(200);
    expect(feed.response.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(new URL(feed.response.url).searchParams.has("apiKey")).toBe(false);
    expect(String(feed.data)).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*\r\nEND:VCALENDAR(\r\n)?$/);
    const path = { params: { path: { id: created.feed_token.id } } };
    ok(await host.DELETE("/api/v1/feed-tokens/{id}", path));
    const revoked = await host.GET("/api/v1/bookings.ics", {
      params: { query: { feedToken: created.token } },
      parseAs: "text",
    });
    expect(revoked.error?.status).toBe(401);
  });

  it("types ids as the numbers answers carry: path and query ids are numbers, composite ids strings (tsc --strict)", () => {
    // Checked by the compiler (pnpm typecheck); with ids typed as strings these lines were TS2322.
    type Params<P extends keyof paths, M extends "get" | "delete"> = NonNullable<paths[P][M]>["parameters"];
    expectTypeOf<Params<"/api/v1/event-types/{id}", "get">["path"]>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<NonNullable<Params<"/api/v1/attendees", "get">["query"]>["userId"]>().toEqualTypeOf<
      number | number[] | undefined
    >();
    expectTypeOf<NonNullable<Params<"/api/v1/slots", "get">["query"]>["eventTypeId"]>().toEqualTypeOf<
      number | undefined
    >();
    expectTypeOf<Params<"/api/v1/memberships/{id}", "delete">["path"]>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<Params<"/api/v1/selected-calendars/{id}", "get">["path"]>().toEqualTypeOf<{ id: string }>();
    const read = () => host.GET("/api/v1/event-types/{id}", { params: { path: { id: 6 } } });
    expectTypeOf(read).returns.resolves.toHaveProperty("data");
  });

  it("answers errors as typed values: a 404 is { message }, an unknown key 401", async () => {
    const missing = await host.GET("/api/v1/event-types/{id}", { params: { path: { id: 2147483647 } } });
    expect(missing.data).toBeUndefined();
    if (missing.error?.status !== 404) throw new Error(`expected 404, got ${JSON.stringify(missing.error)}`);
    expectTypeOf(missing.error.body).toEqualTypeOf<ErrorBody>();
    expect(missing.error.body.message).toMatch(/not found/i);

    const invalid = await host.POST("/api/v1/teams", { body: { name: "" } });
    if (invalid.error?.status !== 400) throw new Error(`expected 400, got ${JSON.stringify(invalid.error)}`);
    expect(invalid.error.body.issues?.map((issue) => issue.path)).toEqual(["name"]);

    const stranger = createSchedulingClient({ baseUrl, apiKey: "cal_not-a-key" });
    const refused = await stranger.GET("/api/v1/me");
    expect(refused.error).toEqual({ status: 401, body: { message: "Your API key is not valid." } });
  });
});
