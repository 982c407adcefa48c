// The calendar feed (docs/adr/0229) through the real app: feed tokens made, listed and revoked
// through the API and the CLI (shown once, stored as a hash), and GET /v1/bookings.ics parsed
// back by ical.js, an independent parser: every field, cancels leaving, reschedules moving with
// their UID, the validators (304), refusals that say nothing of the token, other users' bookings
// never reachable, an e-mailed invite's UID and SEQUENCE, and hosted mode's tenants.
import { createHash } from "node:crypto";
import { createPrisma, type PrismaClient } from "@app/db";
import { runCliInProcess } from "@app/testing/cli";
import { createTestDatabase, secretScan, type TestDatabase } from "@app/testing/database";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { schedulingCli } from "../src/cli.ts";
import { FEED_PAST_DAYS } from "../src/feed/calendar-feed.ts";
import { redactUrl } from "../src/logger.ts";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp, testConfig, withKey } from "./helpers.ts";
import { hostedUrl, newTenantSecret, registerTenant } from "./hosted-helpers.ts";
import { inviteOf, startSmtp, type TestSmtp } from "./mail-helpers.ts";

const t = setupApp();
const DAY = 86_400_000;

interface Created {
  feed_token: { id: number; userId: number; note: string | null; createdAt: string; lastUsedAt: null };
  token: string;
  path: string;
  message: string;
}

async function createToken(app: SchedulingApp, apiKey: string, body: object = {}, url = "/v1/feed-tokens") {
  const response = await app.inject({ method: "POST", url: withKey(url, apiKey), payload: body });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json() as Created;
  // From here on, any log line or answer that holds it fails the file.
  secretScan.remember(created.token);
  return created;
}

const feedUrl = (token: string) => `/v1/bookings.ics?feedToken=${encodeURIComponent(token)}`;

function fetchFeed(app: SchedulingApp, token: string, headers: Record<string, string> = {}) {
  return app.inject({ url: feedUrl(token), headers });
}

type Time = { toJSDate(): Date; zone: { tzid: string } };

function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((event) => {
    const start = event.getFirstPropertyValue("dtstart") as unknown as Time;
    const end = event.getFirstPropertyValue("dtend") as unknown as Time;
    return {
      uid: event.getFirstPropertyValue("uid"),
      sequence: event.getFirstPropertyValue("sequence"),
      status: event.getFirstPropertyValue("status"),
      summary: event.getFirstPropertyValue("summary"),
      description: event.getFirstPropertyValue("description"),
      location: event.getFirstPropertyValue("location"),
      url: event.getFirstPropertyValue("url"),
      start: start.toJSDate(),
      end: end.toJSDate(),
      zones: [start.zone.tzid, end.zone.tzid],
      stamp: (event.getFirstPropertyValue("dtstamp") as unknown as Time | null)?.toJSDate() ?? null,
      // A URI's scheme is case-insensitive (ical-generator writes MAILTO:).
      organizer: String(event.getFirstPropertyValue("organizer")).replace(/^mailto:/i, "mailto:"),
      organizerName: event.getFirstProperty("organizer")?.getParameter("cn"),
      attendees: event.getAllProperties("attendee").map((p) => ({
        address: String(p.getFirstValue()).replace(/^mailto:/i, "mailto:"),
        name: p.getParameter("cn"),
        partstat: p.getParameter("partstat"),
      })),
    };
  });
}

function bookingBody(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
  return {
    eventTypeId,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "en",
    metadata: {},
    responses: { name: "Bea Booker", email: "bea@example.com", location: "https://meet.example.com/bea" },
    ...extra,
  };
}

async function book(app: SchedulingApp, apiKey: string, body: Record<string, unknown>) {
  const response = await app.inject({ method: "POST", url: withKey("/v1/bookings", apiKey), payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; uid: string; title: string };
}

/** A named host with a 30-minute event type. */
async function host(prisma: PrismaClient, name = "Hope Host", eventType = {}) {
  const made = await createUser(prisma);
  const type = await makeHost(prisma, made.user.id, eventType);
  await prisma.user.update({ where: { id: made.user.id }, data: { name } });
  return { ...made, eventType: type };
}

describe("feed tokens through the API", () => {
  it("a create answers the token once; only its SHA-256 is stored; list and read never show it", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    const created = await createToken(t.app, apiKey, { note: "Phone calendar" });
    expect(created).toEqual({
      feed_token: {
        id: expect.any(Number),
        userId: user.id,
        note: "Phone calendar",
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
      token: expect.stringMatching(/^feed_[A-Za-z0-9_-]{43}$/),
      path: `/v1/bookings.ics?feedToken=${created.token}`,
      message: "Feed token created successfully",
    });
    const [row] = await t.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT * FROM "scheduling"."calendar_feed_tokens" WHERE id = ${created.feed_token.id}`;
    expect(row!.hashed_token).toBe(createHash("sha256").update(created.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(5));

    const list = await t.app.inject({ url: withKey("/v1/feed-tokens", apiKey) });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ feed_tokens: [created.feed_token] });
    const read = await t.app.inject({ url: withKey(`/v1/feed-tokens/${created.feed_token.id}`, apiKey) });
    expect(read.json()).toEqual({ feed_token: created.feed_token });
    // Never logged: the feed's URL is redacted like apiKey and key.
    expect(redactUrl(feedUrl(created.token))).toBe("/v1/bookings.ics?feedToken=[redacted]");
  });

  it("revoking (DELETE) refuses the token at once; the feed answers it as it answers a made-up one", async () => {
    const { apiKey } = await createUser(t.prisma);
    const { feed_token, token } = await createToken(t.app, apiKey);
    expect((await fetchFeed(t.app, token)).statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/feed-tokens/${feed_token.id}`, apiKey),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: `Feed token with id: ${feed_token.id} deleted successfully` });
    const after = await fetchFeed(t.app, token);
    const madeUp = await fetchFeed(t.app, `feed_${"A".repeat(43)}`);
    const missing = await t.app.inject({ url: "/v1/bookings.ics" });
    for (const answer of [after, madeUp, missing]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ message: "No valid feed token" });
      // Refused before the rate limit: no budget is spent, no header tells of a user.
      expect(answer.headers["x-ratelimit-remaining"]).toBeUndefined();
    }
    expect(await t.prisma.calendarFeedToken.count({ where: { id: feed_token.id } })).toBe(0);
    // Gone from the list; a second revoke finds nothing.
    expect((await t.app.inject({ url: withKey("/v1/feed-tokens", apiKey) })).json()).toEqual({
      feed_tokens: [],
    });
    const again = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/feed-tokens/${feed_token.id}`, apiKey),
    });
    expect(again.statusCode).toBe(404);
  });

  it("each user's own: another's tokens are not seen, read or revoked; an admin makes one for a user", async () => {
    const alice = await createUser(t.prisma);
    const bob = await createUser(t.prisma);
    const admin = await createUser(t.prisma, { admin: true });
    const mine = await createToken(t.app, alice.apiKey);
    expect((await t.app.inject({ url: withKey("/v1/feed-tokens", bob.apiKey) })).json()).toEqual({
      feed_tokens: [],
    });
    const read = await t.app.inject({ url: withKey(`/v1/feed-tokens/${mine.feed_token.id}`, bob.apiKey) });
    expect(read.statusCode).toBe(404);
    const revoke = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/feed-tokens/${mine.feed_token.id}`, bob.apiKey),
    });
    expect(revoke.statusCode).toBe(404);
    const forOther = await t.app.inject({
      method: "POST",
      url: withKey("/v1/feed-tokens", bob.apiKey),
      payload: { userId: alice.user.id },
    });
    expect(forOther.statusCode).toBe(403);
    const byAdmin = await createToken(t.app, admin.apiKey, { userId: bob.user.id, note: "for Bob" });
    expect(byAdmin.feed_token.userId).toBe(bob.user.id);
    // The admin's list filter, as on every user-owned resource.
    const filtered = await t.app.inject({
      url: withKey(`/v1/feed-tokens?userId=${alice.user.id}`, admin.apiKey),
    });
    expect(filtered.json()).toEqual({ feed_tokens: [mine.feed_token] });
    expect(await t.prisma.calendarFeedToken.count({ where: { userId: alice.user.id } })).toBe(1);
  });

  it("bad input gets a 4xx and makes no token", async () => {
    const { apiKey } = await createUser(t.prisma);
    const admin = await createUser(t.prisma, { admin: true });
    const before = await t.prisma.calendarFeedToken.count();
    const post = (key: string, payload: unknown) =>
      t.app.inject({ method: "POST", url: withKey("/v1/feed-tokens", key), payload: payload as object });
    const refused = [
      [await post(apiKey, { note: "" }), 400],
      [await post(apiKey, { note: "   " }), 400],
      [await post(apiKey, { note: "x".repeat(256) }), 400],
      [await post(apiKey, { token: "feed_mine" }), 400],
      [await post(apiKey, { userId: "1" }), 400],
      [await post(admin.apiKey, { userId: 2_000_000_000 }), 404],
      [await t.app.inject({ method: "POST", url: "/v1/feed-tokens", payload: {} }), 401],
      [await t.app.inject({ url: withKey("/v1/feed-tokens/abc", apiKey) }), 400],
    ] as const;
    for (const [response, status] of refused) expect(response.statusCode, response.body).toBe(status);
    expect(await t.prisma.calendarFeedToken.count()).toBe(before);
  });

  it("parallel creates each get their own token", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createToken(t.app, apiKey, { note: `device ${i}` })),
    );
    expect(new Set(created.map((c) => c.token)).size).toBe(12);
    expect(new Set(created.map((c) => c.feed_token.id)).size).toBe(12);
    expect(await t.prisma.calendarFeedToken.count({ where: { userId: user.id } })).toBe(12);
    const answers = await Promise.all(created.map((c) => fetchFeed(t.app, c.token)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
  });
});

describe("GET /v1/bookings.ics", () => {
  it("serves the user's bookings as an iCalendar ical.js reads, every field in place", async () => {
    const organizer = await host(t.prisma, "Hope Host");
    const other = await host(t.prisma, "Otto Other");
    const stranger = await host(t.prisma, "Sam Stranger");
    const monday = futureMonday();
    const own = await book(t.app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 60)));
    // Booked with the organizer's own address on another host's event type: theirs too (as attendee).
    const attending = await book(
      t.app,
      other.apiKey,
      bookingBody(other.eventType.id, at(monday, 180), {
        responses: { name: "Hope Host", email: organizer.user.email.toUpperCase(), location: "Room 4" },
      }),
    );
    // Neither organised nor attended by them.
    await book(t.app, stranger.apiKey, bookingBody(stranger.eventType.id, at(monday, 60)));
    // Ended 10 days ago: in; ended FEED_PAST_DAYS + 1 days ago: out.
    const recent = await t.prisma.booking.create({
      data: {
        uid: `recent-${organizer.user.id}`,
        userId: organizer.user.id,
        title: "Recent",
        startTime: new Date(Date.now() - 10 * DAY - 3_600_000),
        endTime: new Date(Date.now() - 10 * DAY),
        status: "PENDING",
      },
    });
    await t.prisma.booking.create({
      data: {
        uid: `old-${organizer.user.id}`,
        userId: organizer.user.id,
        title: "Old",
        startTime: new Date(Date.now() - (FEED_PAST_DAYS + 1) * DAY - 3_600_000),
        endTime: new Date(Date.now() - (FEED_PAST_DAYS + 1) * DAY),
      },
    });
    const { token } = await createToken(t.app, organizer.apiKey);

    const response = await fetchFeed(t.app, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("private, max-age=300");
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(new Date(String(response.headers["last-modified"])).getTime()).not.toBeNaN();
    // Counted in the token's user's rate-limit budget.
    expect(response.headers["x-ratelimit-remaining"]).toBeDefined();
    // Times in UTC, as the raw text says (ical.js reads them as such).
    expect(response.body).toContain(
      `DTSTART:${at(monday, 60)
        .toISOString()
        .replace(/[-:]|\.\d{3}/g, "")}`,
    );
    expect(response.body).not.toMatch(/^METHOD:/m);

    const events = parseFeed(response.body);
    expect(events.map((e) => e.summary)).toEqual(["Recent", own.title, attending.title]);
    const [pending, first, second] = events;
    expect(first).toEqual({
      uid: own.uid,
      sequence: 0,
      status: "CONFIRMED",
      summary: own.title,
      description: null,
      location: "https://meet.example.com/bea",
      url: "https://meet.example.com/bea",
      start: at(monday, 60),
      end: at(monday, 90),
      zones: ["UTC", "UTC"],
      stamp: expect.any(Date),
      organizer: `mailto:${organizer.user.email}`,
      organizerName: "Hope Host",
      attendees: [{ address: "mailto:bea@example.com", name: "Bea Booker", partstat: "ACCEPTED" }],
    });
    expect(second).toMatchObject({
      uid: attending.uid,
      location: "Room 4",
      url: null,
      organizer: `mailto:${other.user.email}`,
      organizerName: "Otto Other",
      attendees: [{ address: `mailto:${organizer.user.email.toUpperCase()}`, name: "Hope Host" }],
    });
    expect(pending).toMatchObject({ uid: recent.uid, status: "TENTATIVE", sequence: 0 });
    expect(pending!.attendees).toEqual([]);

    // The other host's feed has the booking they organise, not the organizer's own.
    const theirs = parseFeed((await fetchFeed(t.app, (await createToken(t.app, other.apiKey)).token)).body);
    expect(theirs.map((e) => e.uid)).toEqual([attending.uid]);
    // Fetching recorded the use.
    const [stored] = await t.prisma.calendarFeedToken.findMany({ where: { userId: organizer.user.id } });
    expect(stored!.lastUsedAt).not.toBeNull();
  });

  it("a cancelled booking leaves; a rescheduled one moves, with the same UID and a higher SEQUENCE", async () => {
    const organizer = await host(t.prisma);
    const monday = futureMonday(3);
    const kept = await book(t.app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 0)));
    const cancelled = await book(
      t.app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 60)),
    );
    const moved = await book(t.app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 120)));
    const { token } = await createToken(t.app, organizer.apiKey);
    const before = await fetchFeed(t.app, token);
    expect(parseFeed(before.body).map((e) => e.uid)).toEqual([kept.uid, cancelled.uid, moved.uid]);

    const cancel = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${cancelled.id}/cancel`, organizer.apiKey),
    });
    expect(cancel.statusCode).toBe(200);
    const once = await book(
      t.app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 240), { rescheduleUid: moved.uid }),
    );
    const twice = await book(
      t.app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 300), { rescheduleUid: once.uid }),
    );
    const after = await fetchFeed(t.app, token);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const events = parseFeed(after.body);
    expect(events.map((e) => [e.uid, e.sequence, e.start.toISOString()])).toEqual([
      [kept.uid, 0, at(monday, 0).toISOString()],
      // Its second move: the original's UID, SEQUENCE 2, at the newest time only.
      [moved.uid, 2, at(monday, 300).toISOString()],
    ]);
    expect(twice.uid).not.toBe(moved.uid);
  });

  it("answers 304 to its ETag (and, without one, to a date not before its Last-Modified) until a booking changes", async () => {
    const organizer = await host(t.prisma);
    const monday = futureMonday(4);
    const booking = await book(t.app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 60)));
    const { token } = await createToken(t.app, organizer.apiKey);
    const first = await fetchFeed(t.app, token);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers["last-modified"]);

    // The same body twice: the same validator; HEAD answers the headers alone.
    expect((await fetchFeed(t.app, token)).headers.etag).toBe(etag);
    const head = await t.app.inject({ method: "HEAD", url: feedUrl(token) });
    expect([head.statusCode, head.headers.etag, head.body]).toEqual([200, etag, ""]);
    for (const headers of <Record<string, string>[]>[
      { "if-none-match": etag },
      { "if-none-match": `"other", W/${etag}` },
      { "if-none-match": "*" },
      { "if-modified-since": lastModified },
    ]) {
      const answer = await fetchFeed(t.app, token, headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(304);
      expect(answer.body).toBe("");
      expect(answer.headers.etag).toBe(etag);
      expect(answer.headers["cache-control"]).toBe("private, max-age=300");
    }
    // If-None-Match decides when sent: a stale ETag is a 200 whatever the date says.
    const stale = await fetchFeed(t.app, token, {
      "if-none-match": '"stale"',
      "if-modified-since": lastModified,
    });
    expect(stale.statusCode).toBe(200);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await fetchFeed(t.app, token, { "if-modified-since": earlier })).statusCode).toBe(200);
    expect((await fetchFeed(t.app, token, { "if-modified-since": "yesterday" })).statusCode).toBe(200);

    // An edit changes the feed: the old ETag gets the new body.
    const edit = await t.app.inject({
      method: "PATCH",
      url: withKey(`/v1/bookings/${booking.id}`, organizer.apiKey),
      payload: { title: "Renamed" },
    });
    expect(edit.statusCode).toBe(200);
    const changed = await fetchFeed(t.app, token, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseFeed(changed.body)[0]!.summary).toBe("Renamed");
  });

  it("Last-Modified moves with every attendee change (a seat taken, an attendee added, edited, moved or removed): If-Modified-Since alone gets the new feed", async () => {
    const organizer = await host(t.prisma, "Hope Host", { seatsPerTimeSlot: 3 });
    const monday = futureMonday(5);
    const seated = await book(t.app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 60)));
    const other = await book(t.app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 120)));
    // A booking's own transaction adding its attendees leaves its updatedAt as the insert set it.
    const stamped = new Date("2000-01-03T10:00:00Z");
    const fresh = await t.prisma.booking.create({
      data: {
        uid: `fresh-${organizer.user.id}`,
        userId: organizer.user.id,
        title: "Fresh",
        startTime: stamped,
        endTime: stamped,
        createdAt: stamped,
        updatedAt: stamped,
        attendees: { create: [{ email: "eve@example.com", name: "Eve", timeZone: "UTC" }] },
      },
    });
    expect((await t.prisma.booking.findUniqueOrThrow({ where: { id: fresh.id } })).updatedAt).toEqual(
      stamped,
    );
    const { token } = await createToken(t.app, organizer.apiKey);
    /**
     * The bookings as last changed an hour ago, and the feed a client fetched then (Last-Modified
     * has whole seconds: a change within the same second as the fetch could not be told apart).
     */
    const fetchedAnHourAgo = async () => {
      const anHourAgo = new Date(Math.floor((Date.now() - 3_600_000) / 1000) * 1000);
      await t.prisma.booking.updateMany({
        where: { id: { in: [seated.id, other.id] } },
        data: { createdAt: anHourAgo, updatedAt: anHourAgo },
      });
      const feed = await fetchFeed(t.app, token);
      expect(feed.headers["last-modified"]).toBe(anHourAgo.toUTCString());
      const since = { "if-modified-since": anHourAgo.toUTCString() };
      expect((await fetchFeed(t.app, token, since)).statusCode).toBe(304);
      return since;
    };
    const attendeesOf = async (since: Record<string, string>) => {
      const answer = await fetchFeed(t.app, token, since);
      expect(answer.statusCode).toBe(200);
      expect(Date.parse(String(answer.headers["last-modified"]))).toBeGreaterThan(
        Date.parse(since["if-modified-since"]!),
      );
      return parseFeed(answer.body).map((event) => event.attendees.map((a) => a.address).sort());
    };

    // A seat taken in the existing booking (v1's createNewSeat).
    let since = await fetchedAnHourAgo();
    await book(
      t.app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 60), {
        responses: { name: "Carl Second", email: "carl@example.com" },
      }),
    );
    expect(await attendeesOf(since)).toEqual([
      ["mailto:bea@example.com", "mailto:carl@example.com"],
      ["mailto:bea@example.com"],
    ]);
    // Added through /attendees.
    since = await fetchedAnHourAgo();
    const added = await t.app.inject({
      method: "POST",
      url: withKey("/v1/attendees", organizer.apiKey),
      payload: { bookingId: seated.id, email: "dora@example.com", name: "Dora", timeZone: "UTC" },
    });
    expect(added.statusCode, added.body).toBe(201);
    const dora = (added.json() as { attendee: { id: number } }).attendee.id;
    expect((await attendeesOf(since))[0]).toContain("mailto:dora@example.com");
    // Edited.
    since = await fetchedAnHourAgo();
    const edited = await t.app.inject({
      method: "PATCH",
      url: withKey(`/v1/attendees/${dora}`, organizer.apiKey),
      payload: { email: "dora.new@example.com" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await attendeesOf(since))[0]).toContain("mailto:dora.new@example.com");
    // Moved to the other booking: both change.
    since = await fetchedAnHourAgo();
    const moved = await t.app.inject({
      method: "PATCH",
      url: withKey(`/v1/attendees/${dora}`, organizer.apiKey),
      payload: { bookingId: other.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await attendeesOf(since)).toEqual([
      ["mailto:bea@example.com", "mailto:carl@example.com"],
      ["mailto:bea@example.com", "mailto:dora.new@example.com"],
    ]);
    const both = await t.prisma.booking.findMany({ where: { id: { in: [seated.id, other.id] } } });
    for (const booking of both) expect(booking.updatedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Removed.
    since = await fetchedAnHourAgo();
    const removed = await t.app.inject({
      method: "DELETE",
      url: withKey(`/v1/attendees/${dora}`, organizer.apiKey),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await attendeesOf(since))[1]).toEqual(["mailto:bea@example.com"]);
  });

  it("Last-Modified is no earlier than when the last event left the window (it ended FEED_PAST_DAYS ago)", async () => {
    const organizer = await host(t.prisma);
    const twoHoursAgo = new Date(Math.floor((Date.now() - 7_200_000) / 1000) * 1000);
    const stamps = { createdAt: twoHoursAgo, updatedAt: twoHoursAgo };
    await t.prisma.booking.create({
      data: {
        uid: `kept-${organizer.user.id}`,
        userId: organizer.user.id,
        title: "Kept",
        startTime: new Date(Date.now() + DAY),
        endTime: new Date(Date.now() + DAY + 1_800_000),
        ...stamps,
      },
    });
    // In the feed a client fetched two hours ago; it left a minute ago.
    const leftAt = Date.now() - 60_000;
    await t.prisma.booking.create({
      data: {
        uid: `gone-${organizer.user.id}`,
        userId: organizer.user.id,
        title: "Gone",
        startTime: new Date(leftAt - FEED_PAST_DAYS * DAY - 1_800_000),
        endTime: new Date(leftAt - FEED_PAST_DAYS * DAY),
        ...stamps,
      },
    });
    const { token } = await createToken(t.app, organizer.apiKey);
    const feed = await fetchFeed(t.app, token, { "if-modified-since": twoHoursAgo.toUTCString() });
    expect(feed.statusCode).toBe(200);
    expect(parseFeed(feed.body).map((event) => event.summary)).toEqual(["Kept"]);
    expect(feed.headers["last-modified"]).toBe(new Date(leftAt).toUTCString());
  });

  it("takes only the feed token: an API key neither opens it nor may ride along; other methods are refused", async () => {
    const { apiKey } = await createUser(t.prisma);
    const { token } = await createToken(t.app, apiKey);
    const withApiKey = await t.app.inject({ url: withKey("/v1/bookings.ics", apiKey) });
    expect(withApiKey.statusCode).toBe(401);
    expect(withApiKey.json()).toEqual({ message: "No valid feed token" });
    const both = await t.app.inject({ url: withKey(feedUrl(token), apiKey) });
    expect(both.statusCode).toBe(400);
    const repeated = await t.app.inject({ url: `${feedUrl(token)}&feedToken=${encodeURIComponent(token)}` });
    expect(repeated.statusCode).toBe(401);
    const post = await t.app.inject({ method: "POST", url: feedUrl(token), payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe("GET");
    // A locked user's feed stops, as their API keys do.
    const locked = await createUser(t.prisma);
    const lockedToken = (await createToken(t.app, locked.apiKey)).token;
    await t.prisma.user.update({ where: { id: locked.user.id }, data: { locked: true } });
    expect((await fetchFeed(t.app, lockedToken)).statusCode).toBe(401);
    // The feed token opens nothing else.
    const asKey = await t.app.inject({ url: withKey("/v1/me", token) });
    expect(asKey.statusCode).toBe(401);
  });
});

describe("pnpm scheduling feed-token:create / feed-token:list / feed-token:revoke", () => {
  const cli = (...args: string[]) =>
    runCliInProcess(schedulingCli, args, { DATABASE_URL: t.databaseUrl, DATABASE_DIRECT_URL: t.directUrl });

  it("creates (shown once), lists (never the secret) and revokes a token", async () => {
    const { user } = await createUser(t.prisma, { email: `cli-feed-${process.pid}@example.com` });
    const created = await cli("feed-token:create", "--user", user.email, "--note", "laptop", "--json");
    expect(created.code, created.stderr).toBe(0);
    const issued = JSON.parse(created.stdout) as { id: number; userId: number; token: string; path: string };
    secretScan.remember(issued.token);
    expect(issued).toEqual({
      id: expect.any(Number),
      userId: user.id,
      token: expect.stringMatching(/^feed_/),
      path: `/v1/bookings.ics?feedToken=${issued.token}`,
    });
    expect((await fetchFeed(t.app, issued.token)).statusCode).toBe(200);
    const byId = await cli("feed-token:create", "--user", String(user.id));
    expect(byId.code).toBe(0);
    expect(byId.stdout).toMatch(/^Feed token \d+ for user \d+ \(shown once\): feed_/);
    secretScan.remember(/feed_[A-Za-z0-9_-]{43}/.exec(byId.stdout)![0]);

    const listed = await cli("feed-token:list", "--user", user.email, "--json");
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as {
      id: number;
      note: string | null;
      lastUsedAt: string | null;
    }[];
    expect(rows.map((r) => [r.id, r.note])).toEqual([
      [issued.id, "laptop"],
      [expect.any(Number), null],
    ]);
    expect(rows[0]!.lastUsedAt).not.toBeNull();
    expect(listed.stdout).not.toContain(issued.token.slice(5));
    const table = await cli("feed-token:list");
    expect(table.stdout).toContain("LAST USED");
    expect(table.stdout).not.toContain("feed_");

    const revoked = await cli("feed-token:revoke", "--id", String(issued.id));
    expect(revoked).toMatchObject({ code: 0, stdout: "Feed token revoked\n" });
    expect((await fetchFeed(t.app, issued.token)).statusCode).toBe(401);
  });

  it("refuses bad flags (2) and unknown users or tokens (1) in one line, changing nothing", async () => {
    const before = await t.prisma.calendarFeedToken.count();
    for (const [args, code, message] of [
      [["feed-token:create"], 2, "--user is required"],
      [["feed-token:create", "--user", "not an address"], 2, "--user must be"],
      [["feed-token:create", "--user", "nobody@example.com"], 1, "No user with e-mail nobody@example.com"],
      [["feed-token:create", "--user", "99999999"], 1, "No user with id 99999999"],
      [["feed-token:revoke", "--id", "x"], 2, "--id must be a feed token id"],
      [["feed-token:revoke", "--id", "999999"], 1, "No feed token has id 999999"],
    ] as const) {
      const result = await cli(...args);
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stderr.split("\n")[0]).toContain(message);
      expect(result.stdout).toBe("");
    }
    expect(await t.prisma.calendarFeedToken.count()).toBe(before);
  });
});

describe("with e-mail on", () => {
  let smtp: TestSmtp;
  let app: SchedulingApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    app = await buildApp({
      config: testConfig({
        SMTP_URL: smtp.url,
        MAIL_FROM: "Bookings <b@mail.example.test>",
        MAIL_POLL_MS: 50,
      }),
      prisma: t.prisma,
    });
    secretScan.watch(app);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it("a feed event has the UID and SEQUENCE of the booking's latest e-mailed invite", async () => {
    const organizer = await host(t.prisma);
    const monday = futureMonday(5);
    const first = await book(app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 60)));
    const moved = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 120), { rescheduleUid: first.uid }),
    );
    const { token } = await createToken(app, organizer.apiKey);
    const [event] = parseFeed((await fetchFeed(app, token)).body);
    const invite = await t.prisma.bookingInvite.findUniqueOrThrow({ where: { bookingId: moved.id } });
    expect(event).toMatchObject({ uid: invite.icalUid, sequence: invite.sequence });
    expect(event).toMatchObject({ uid: first.uid, sequence: 1 });
    // And as the e-mail carried it, parsed from the message the SMTP server got.
    await expect
      .poll(() => smtp.deliveries.find((d) => inviteOf(d)?.includes("SEQUENCE:1")), { timeout: 60_000 })
      .toBeDefined();
    const mailed = inviteOf(smtp.deliveries.find((d) => inviteOf(d)?.includes("SEQUENCE:1"))!)!;
    const vevent = new ICAL.Component(ICAL.parse(mailed)).getFirstSubcomponent("vevent")!;
    expect([vevent.getFirstPropertyValue("uid"), vevent.getFirstPropertyValue("sequence")]).toEqual([
      event!.uid,
      event!.sequence,
    ]);
  });

  it("the feed and an e-mailed invite are RFC 5545 text to the end: every line, END:VCALENDAR included, ends with CRLF, none is longer than 75 octets", async () => {
    const organizer = await host(t.prisma, "Hope Höst-Überlänge");
    // Long enough, and in bytes of 2 and 4 octets, that SUMMARY and DESCRIPTION are folded.
    const title = `Erstgespräch über Größen und Maße 📅 ${"äöü ".repeat(20)}`.trim();
    const booked = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(6), 60), {
        title,
        responses: {
          name: "Jörg Deutsch",
          email: "joerg@example.com",
          notes: `Zeile eins\nZeile zwei\r\n${"Notiz ".repeat(30)}`,
        },
      }),
    );
    const { token } = await createToken(app, organizer.apiKey);
    const feed = await fetchFeed(app, token);
    expect(feed.statusCode, feed.body).toBe(200);
    await expect
      .poll(() => smtp.deliveries.find((d) => inviteOf(d)?.includes(booked.uid)), { timeout: 60_000 })
      .toBeDefined();
    const invite = inviteOf(smtp.deliveries.find((d) => inviteOf(d)?.includes(booked.uid))!)!;
    for (const text of [feed.body, invite]) {
      expect(text.slice(-15)).toBe("END:VCALENDAR\r\n");
      // Split after each CRLF: what is left over has no line break of its own (no bare LF or CR).
      const lines = text.split("\r\n");
      expect(lines.pop()).toBe("");
      for (const line of lines) {
        expect(line).not.toMatch(/[\r\n]/);
        expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
      }
      // The folding was exercised, and unfolds back to the title.
      expect(lines.some((line) => line.startsWith(" "))).toBe(true);
      const summary = parseFeed(text).find((e) => e.uid === booked.uid)!.summary;
      expect(summary).toBe(title);
    }
  });
});

describe("rate limit", () => {
  let app: SchedulingApp;
  beforeAll(async () => {
    app = await buildApp({ config: testConfig({ RATE_LIMIT_MAX: 3 }), prisma: t.prisma });
    secretScan.watch(app);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("a fetch spends the token's user's budget, shared with their API key; refused tokens spend none", async () => {
    const { apiKey } = await createUser(t.prisma);
    const { token } = await createToken(app, apiKey);
    for (let i = 0; i < 5; i++) expect((await fetchFeed(app, `feed_${"B".repeat(43)}`)).statusCode).toBe(401);
    expect((await fetchFeed(app, token)).headers["x-ratelimit-remaining"]).toBe("1");
    expect((await fetchFeed(app, token)).statusCode).toBe(200);
    const over = await fetchFeed(app, token);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: "Rate limit exceeded" });
    expect((await app.inject({ url: withKey("/v1/me", apiKey) })).statusCode).toBe(429);
  });
});

describe("hosted mode", () => {
  const TENANT_SECRET = newTenantSecret();
  let tenantDb: TestDatabase;
  let tenantPrisma: PrismaClient;
  let app: SchedulingApp;
  beforeAll(async () => {
    tenantDb = await createTestDatabase();
    tenantPrisma = createPrisma(tenantDb.url, { poolMax: 2, directUrl: tenantDb.directUrl });
    app = await buildApp({ config: testConfig({ HOSTED_MODE: "on", TENANT_SECRET }), prisma: t.prisma });
    // Its answers are checked for tokens and license keys too (the file's scan asserts at the end).
    secretScan.watch(app);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await tenantPrisma?.$disconnect();
    await tenantDb?.drop();
  });

  it("the feed URL carries the license key: the token is the tenant's, found in the tenant's database only", async () => {
    // Its direct URL: tenant clients open their own pools, not through the test PgBouncer.
    const tenant = await registerTenant(t.prisma, TENANT_SECRET, tenantDb.directUrl);
    secretScan.remember(tenant.licenseKey);
    const organizer = await host(tenantPrisma);
    const created = await app.inject({
      method: "POST",
      url: hostedUrl("/v1/bookings", organizer.apiKey, tenant.licenseKey),
      payload: bookingBody(organizer.eventType.id, at(futureMonday(6), 60)),
    });
    expect(created.statusCode, created.body).toBe(201);
    const response = await app.inject({
      method: "POST",
      url: hostedUrl("/v1/feed-tokens", organizer.apiKey, tenant.licenseKey),
      payload: {},
    });
    expect(response.statusCode).toBe(201);
    const { token, path } = response.json() as Created;
    secretScan.remember(token);
    // The license key is not echoed back: the subscriber adds it.
    expect(path).toBe(`/v1/bookings.ics?feedToken=${token}`);
    const feed = await app.inject({ url: `${path}&key=${encodeURIComponent(tenant.licenseKey)}` });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(parseFeed(feed.body).map((e) => e.uid)).toEqual([(created.json() as { uid: string }).uid]);
    expect(await tenantPrisma.calendarFeedToken.count()).toBe(1);
    // Without the license key the default database has no such token; a default token means nothing there.
    expect((await app.inject({ url: feedUrl(token) })).statusCode).toBe(401);
    const { apiKey } = await createUser(t.prisma);
    const mainToken = await createToken(app, apiKey);
    const crossed = await app.inject({
      url: `/v1/bookings.ics?${new URLSearchParams({ feedToken: mainToken.token, key: tenant.licenseKey })}`,
    });
    expect(crossed.statusCode).toBe(401);
    const badLicense = await app.inject({
      url: `/v1/bookings.ics?${new URLSearchParams({ feedToken: token, key: "nope" })}`,
    });
    expect(badLicense.statusCode).toBe(401);
  });
});
