// Booking e-mails of a status change and of seats (docs/adr/0238), against a real SMTP server
// in this process: a PENDING booking PATCHed to ACCEPTED sends v1's scheduled e-mails with the
// invite (every property of which is checked once), to REJECTED the declined e-mail with the
// reason; nothing else a PATCH does sends, a rolled-back PATCH sends nothing, racing PATCHes
// send once. noEmail on a reschedule and on a seat join; what a seat holder's e-mail and invite
// list (v1's seatsShowAttendees). Waits are on conditions only.
import { Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import type { TestDatabase } from "@app/testing/database";
import ICAL from "ical.js";
import { describe, expect, it, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { loadConfig, type SchedulingConfig } from "../src/config.ts";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, REDIS_PREFIX, withKey } from "./helpers.ts";
import { type Delivery, inviteOf, mailTestLifecycle, startSmtp, type TestSmtp } from "./mail-helpers.ts";

/** Generous: a loaded two-core machine; the wait ends as soon as the condition holds. */
const UNTIL = { timeout: 60_000, interval: 25 } as const;

let database: TestDatabase;
let prisma: PrismaClient;
const { opened, servers } = mailTestLifecycle((madeDatabase, madePrisma) => {
  database = madeDatabase;
  prisma = madePrisma;
});

/** An SMTP server, and an app instance (own pool, own sender) sending to it. */
async function mailing(): Promise<{ server: TestSmtp; app: SchedulingApp }> {
  const server = await startSmtp();
  servers.push(server);
  const own = createPrisma(database.url, { poolMax: 4, directUrl: database.directUrl });
  const config: SchedulingConfig = {
    ...loadConfig({}),
    RATE_LIMIT_MAX: 100_000,
    RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX,
    SMTP_URL: server.url,
    MAIL_FROM: "Bookings <bookings@mail.example.test>",
    MAIL_RETRY_BASE_MS: 20,
    MAIL_POLL_MS: 50,
  };
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const app = await buildApp({ config, prisma: own, logger: { level: "warn", stream: quiet } });
  await app.ready();
  opened.push({ app, prisma: own });
  return { server, app };
}

/** The outbox's rows, once every request written is rendered into them (docs/adr/0236). */
async function outbox() {
  await vi.waitFor(async () => expect(await prisma.mailRequest.count()).toBe(0), UNTIL);
  return prisma.mailOutbox.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** What the changes wrote, as "kind recipient": unrendered requests' messages and the outbox's rows, in one snapshot. */
async function written(): Promise<string[]> {
  const [requests, rows] = await prisma.$transaction(
    [prisma.mailRequest.findMany(), prisma.mailOutbox.findMany()],
    { isolationLevel: "RepeatableRead" },
  );
  const planned = requests.flatMap((request) =>
    (request.facts as { messages: { kind: string; to: { email: string } }[] }).messages.map(
      (m) => `${m.kind} ${m.to.email}`,
    ),
  );
  return [...planned, ...rows.map((row) => `${row.kind} ${row.recipient}`)].sort();
}

/** The host: a name, a zone, a schedule and a 30-minute event type. */
async function host(eventType: { requiresConfirmation?: boolean; seatsPerTimeSlot?: number } = {}) {
  const made = await createUser(prisma);
  const created = await makeHost(prisma, made.user.id, eventType);
  await prisma.user.update({
    where: { id: made.user.id },
    data: { name: "Hope Host", timeZone: "America/New_York" },
  });
  return { ...made, eventType: created };
}

type Booked = { id: number; uid: string; title: string; status: string };

async function book(
  app: SchedulingApp,
  apiKey: string,
  eventTypeId: number,
  start: Date,
  extra: Record<string, unknown> = {},
): Promise<Booked> {
  const response = await app.inject({
    method: "POST",
    url: withKey("/v1/bookings", apiKey),
    payload: {
      eventTypeId,
      start: start.toISOString(),
      timeZone: "Europe/Berlin",
      language: "en",
      metadata: {},
      responses: { name: "Bea Booker", email: "bea@example.com", guests: ["gus@example.com"] },
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Booked;
}

function patch(app: SchedulingApp, apiKey: string, id: number, payload: Record<string, unknown>) {
  return app.inject({ method: "PATCH", url: withKey(`/v1/bookings/${id}`, apiKey), payload });
}

const to = (delivery: Delivery) => delivery.envelopeTo.join(",");
const mailto = (value: unknown) => String(value).replace(/^mailto:/i, "mailto:");

/** The invite's event, summed up: method, UID, SEQUENCE and its ATTENDEE addresses. */
function inviteSummary(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent("vevent")!;
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.getFirstPropertyValue("uid"),
    sequence: event.getFirstPropertyValue("sequence"),
    attendees: event.getAllProperties("attendee").map((p) => mailto(p.getFirstValue())),
  };
}

/** The "Who:" block of a message's text: the organizer and the attendees it lists. */
const whoOf = (text: string) =>
  text
    .split("Who:\n")[1]!
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim());

describe("a PENDING booking confirmed or declined by PATCH (v1's confirm handler)", () => {
  it("ACCEPTED: the organizer and each attendee get the scheduled e-mail with a REQUEST invite, SEQUENCE 1; every property of the invite as written", async () => {
    const { server, app } = await mailing();
    const organizer = await host({ requiresConfirmation: true });
    const start = at(futureMonday(), 60);
    const booking = await book(app, organizer.apiKey, organizer.eventType.id, start, {
      responses: {
        name: "Bea Booker",
        email: "bea@example.com",
        guests: ["gus@example.com"],
        notes: "Bring the plans",
        location: "Room 4, Main Street 1",
      },
    });
    expect(booking.status).toBe("PENDING");
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);

    const before = new Date(Math.floor(Date.now() / 1000) * 1000);
    const accepted = await patch(app, organizer.apiKey, booking.id, { status: "ACCEPTED" });
    const after = new Date();
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((accepted.json() as { booking: Booked }).booking.status).toBe("ACCEPTED");
    // The 200 came with its e-mails: written in the PATCH's transaction.
    expect((await written()).filter((m) => m.startsWith("scheduled"))).toEqual(
      [`scheduled ${organizer.user.email}`, "scheduled bea@example.com", "scheduled gus@example.com"].sort(),
    );
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(5), UNTIL);
    const byRecipient = new Map(server.deliveries.slice(2).map((d) => [to(d), d]));
    expect([...byRecipient.keys()].sort()).toEqual(
      [organizer.user.email, "bea@example.com", "gus@example.com"].sort(),
    );
    expect(byRecipient.get(organizer.user.email)!.mail.subject).toMatch(/^New event: /);
    expect(byRecipient.get("bea@example.com")!.mail.subject).toMatch(/^Confirmed: /);
    expect(byRecipient.get("gus@example.com")!.mail.subject).toMatch(/^Confirmed: /);

    // Every property of the calendar and of its event, exactly as ical.js reads them back.
    const calendar = new ICAL.Component(ICAL.parse(inviteOf(byRecipient.get("bea@example.com")!)!));
    expect(calendar.getAllProperties().map((p) => p.toJSON())).toEqual([
      ["version", {}, "text", "2.0"],
      ["prodid", {}, "text", "-//app//scheduling//EN"],
      ["method", {}, "text", "REQUEST"],
    ]);
    const events = calendar.getAllSubcomponents();
    expect(events.map((c) => c.name)).toEqual(["vevent"]);
    const properties = events[0]!
      .getAllProperties()
      .map((p) => p.toJSON() as [string, object, string, string]);
    const stamp = properties.find(([name]) => name === "dtstamp")!;
    expect(stamp.slice(0, 3)).toEqual(["dtstamp", {}, "date-time"]);
    // DTSTAMP: when the invite was written, in the PATCH (to the second, in UTC).
    const stamped = new Date(stamp[3]);
    expect(stamp[3]).toMatch(/Z$/);
    expect(stamped.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(stamped.getTime()).toBeLessThanOrEqual(after.getTime());
    const iso = (date: Date) => date.toISOString().replace(/\.000Z$/, "Z");
    expect(
      properties.map(([name, params, type, value]) => [
        name,
        params,
        type,
        name === "dtstamp"
          ? "(checked)"
          : name === "attendee" || name === "organizer"
            ? mailto(value)
            : value,
      ]),
    ).toEqual([
      ["uid", {}, "text", booking.uid],
      // The pending booking's event (the feed's TENTATIVE one) moved on by one.
      ["sequence", {}, "integer", 1],
      ["dtstamp", {}, "date-time", "(checked)"],
      ["dtstart", {}, "date-time", iso(start)],
      ["dtend", {}, "date-time", iso(at(start, 30))],
      ["summary", {}, "text", booking.title],
      ["location", {}, "text", "Room 4, Main Street 1"],
      ["description", {}, "text", "Bring the plans"],
      ["organizer", { cn: "Hope Host" }, "cal-address", `mailto:${organizer.user.email}`],
      [
        "attendee",
        { role: "REQ-PARTICIPANT", partstat: "ACCEPTED", cn: "Bea Booker" },
        "cal-address",
        "mailto:bea@example.com",
      ],
      [
        "attendee",
        { role: "REQ-PARTICIPANT", partstat: "ACCEPTED", cn: "gus@example.com" },
        "cal-address",
        "mailto:gus@example.com",
      ],
      ["status", {}, "text", "CONFIRMED"],
    ]);
    // Every recipient's invite is that same event.
    for (const delivery of byRecipient.values())
      expect(inviteSummary(inviteOf(delivery)!)).toMatchObject({ uid: booking.uid, sequence: 1 });
    expect(await prisma.bookingInvite.findUnique({ where: { bookingId: booking.id } })).toEqual({
      bookingId: booking.id,
      icalUid: booking.uid,
      sequence: 1,
    });
  });

  it("REJECTED: the attendees get the declined e-mail with the reason, no invite; the organizer nothing", async () => {
    const { server, app } = await mailing();
    const organizer = await host({ requiresConfirmation: true });
    const booking = await book(app, organizer.apiKey, organizer.eventType.id, at(futureMonday(), 120), {
      responses: { name: "Bea Booker", email: "bea@example.com", guests: ["gus@example.com"] },
      language: "de",
    });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const rejected = await patch(app, organizer.apiKey, booking.id, {
      status: "REJECTED",
      rejectionReason: "Fully booked that day",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const answer = (rejected.json() as { booking: Record<string, unknown> }).booking;
    expect(answer.status).toBe("REJECTED");
    // The reason is the e-mail's: no column holds it, the answer does not show it.
    expect(answer).not.toHaveProperty("rejectionReason");
    expect((await written()).filter((m) => m.startsWith("declined"))).toEqual([
      "declined bea@example.com",
      "declined gus@example.com",
    ]);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    const declined = server.deliveries.slice(2);
    expect(declined.map(to).sort()).toEqual(["bea@example.com", "gus@example.com"]);
    for (const delivery of declined) {
      // The booking's language is de: German words.
      expect(delivery.mail.subject).toMatch(/^Abgelehnt: /);
      expect(delivery.mail.text).toContain("Ihre Buchungsanfrage wurde abgelehnt.");
      expect(delivery.mail.text).toContain("Grund:\n  Fully booked that day");
      expect(delivery.mail.html).toContain("Fully booked that day");
      expect(inviteOf(delivery)).toBeUndefined();
    }
    // No invite went out: the event stays where it was.
    expect(await prisma.bookingInvite.findUnique({ where: { bookingId: booking.id } })).toBeNull();
    const rows = (await outbox()).filter((r) => r.kind === "declined");
    expect(rows.every((r) => r.ics === null)).toBe(true);
  });

  it("REJECTED without a reason: the declined e-mail has no Reason line", async () => {
    const { server, app } = await mailing();
    const organizer = await host({ requiresConfirmation: true });
    const booking = await book(app, organizer.apiKey, organizer.eventType.id, at(futureMonday(), 150), {
      responses: { name: "Bea Booker", email: "bea@example.com" },
    });
    expect((await patch(app, organizer.apiKey, booking.id, { status: "REJECTED" })).statusCode).toBe(200);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);
    const bea = server.deliveries.filter((d) => to(d) === "bea@example.com").at(-1)!.mail;
    expect(bea.subject).toMatch(/^Declined: /);
    expect(bea.text).toContain("Your booking request has been declined.");
    expect(bea.text).not.toContain("Reason:");
  });

  it("only a move out of PENDING to ACCEPTED or REJECTED sends: other edits, other statuses, a second ACCEPTED send nothing", async () => {
    const { app } = await mailing();
    const organizer = await host({ requiresConfirmation: true });
    const monday = futureMonday(3);
    const pending = await book(app, organizer.apiKey, organizer.eventType.id, at(monday, 60));
    const other = await book(app, organizer.apiKey, organizer.eventType.id, at(monday, 120));
    const created = await written();
    expect(created).toHaveLength(4);

    let expected = created;
    const quiet = async (id: number, body: Record<string, unknown>, apiKey = organizer.apiKey) => {
      const response = await patch(app, apiKey, id, body);
      expect(response.statusCode, response.body).toBe(200);
      expect(await written()).toEqual(expected);
    };
    // A PENDING booking edited but left PENDING, or set CANCELLED (the cancel routes tell people).
    await quiet(pending.id, { title: "Renamed", status: "PENDING" });
    await quiet(other.id, { status: "CANCELLED" });
    // Confirmed once: its e-mails; after that, neither ACCEPTED again nor REJECTED sends.
    const first = await patch(app, organizer.apiKey, pending.id, { status: "ACCEPTED" });
    expect(first.statusCode, first.body).toBe(200);
    expected = await written();
    expect(expected.filter((m) => m.startsWith("scheduled"))).toHaveLength(3);
    await quiet(pending.id, { status: "ACCEPTED" });
    await quiet(pending.id, { status: "REJECTED", rejectionReason: "Too late" });
    // A booking that never needed confirmation.
    const plain = await host();
    const accepted = await book(app, plain.apiKey, plain.eventType.id, at(monday, 180));
    expected = await written();
    await quiet(accepted.id, { status: "ACCEPTED" }, plain.apiKey);
    await quiet(accepted.id, { status: "REJECTED" }, plain.apiKey);
  });

  it("two PATCHes to ACCEPTED at once: one set of e-mails (the row is locked, the second finds it ACCEPTED)", async () => {
    const { app } = await mailing();
    const organizer = await host({ requiresConfirmation: true });
    const booking = await book(app, organizer.apiKey, organizer.eventType.id, at(futureMonday(), 240));
    const answers = await Promise.all([
      patch(app, organizer.apiKey, booking.id, { status: "ACCEPTED" }),
      patch(app, organizer.apiKey, booking.id, { status: "ACCEPTED" }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect((await written()).filter((m) => m.startsWith("scheduled"))).toEqual(
      [`scheduled ${organizer.user.email}`, "scheduled bea@example.com", "scheduled gus@example.com"].sort(),
    );
    expect(await prisma.bookingInvite.findUnique({ where: { bookingId: booking.id } })).toMatchObject({
      sequence: 1,
    });
  });

  it("a PATCH whose transaction rolls back leaves the booking PENDING and no e-mail", async () => {
    const { app } = await mailing();
    const organizer = await host({ requiresConfirmation: true });
    const booking = await book(app, organizer.apiKey, organizer.eventType.id, at(futureMonday(), 300), {
      responses: { name: "Boom", email: "boom-patch@example.com" },
    });
    const before = await written();
    // A failure as the PATCH's e-mails are written (its request), inside its transaction.
    await prisma.$executeRawUnsafe(`
      CREATE FUNCTION "scheduling"."test_refuse_status_mail"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.facts::text LIKE '%boom-patch@example.com%' AND NEW.facts::text LIKE '%"scheduled"%'
        THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER "test_refuse_status_mail" BEFORE INSERT ON "scheduling"."mail_requests"
      FOR EACH ROW EXECUTE FUNCTION "scheduling"."test_refuse_status_mail"()`);
    try {
      const response = await patch(app, organizer.apiKey, booking.id, { status: "ACCEPTED" });
      expect(response.statusCode).toBe(500);
      expect((await prisma.booking.findUniqueOrThrow({ where: { id: booking.id } })).status).toBe("PENDING");
      expect(await written()).toEqual(before);
      expect(await prisma.bookingInvite.findUnique({ where: { bookingId: booking.id } })).toBeNull();
    } finally {
      await prisma.$executeRawUnsafe(
        `DROP TRIGGER "test_refuse_status_mail" ON "scheduling"."mail_requests"`,
      );
      await prisma.$executeRawUnsafe(`DROP FUNCTION "scheduling"."test_refuse_status_mail"()`);
    }
    // The same PATCH once the failure is gone: confirmed, with its e-mails.
    const again = await patch(app, organizer.apiKey, booking.id, { status: "ACCEPTED" });
    expect(again.statusCode, again.body).toBe(200);
    expect((await written()).filter((m) => m.startsWith("scheduled"))).toEqual(
      [`scheduled ${organizer.user.email}`, "scheduled boom-patch@example.com"].sort(),
    );
  });
});

describe("noEmail on a reschedule and on a seat join (v1: noEmail !== true gates them)", () => {
  it("a reschedule with noEmail: true writes no e-mail (the invite still moves on); without it, the rescheduled e-mails", async () => {
    const { app } = await mailing();
    const organizer = await host();
    const monday = futureMonday(4);
    const first = await book(app, organizer.apiKey, organizer.eventType.id, at(monday, 60));
    const created = await written();
    expect(created).toEqual(
      [`scheduled ${organizer.user.email}`, "scheduled bea@example.com", "scheduled gus@example.com"].sort(),
    );
    const quiet = await book(app, organizer.apiKey, organizer.eventType.id, at(monday, 120), {
      rescheduleUid: first.uid,
      noEmail: true,
    });
    expect(await written()).toEqual(created);
    expect(await prisma.bookingInvite.findUnique({ where: { bookingId: quiet.id } })).toEqual({
      bookingId: quiet.id,
      icalUid: first.uid,
      sequence: 1,
    });
    const told = await book(app, organizer.apiKey, organizer.eventType.id, at(monday, 180), {
      rescheduleUid: quiet.uid,
    });
    const rows = (await outbox()).filter((r) => r.kind === "rescheduled");
    expect(rows.map((r) => r.recipient).sort()).toEqual(
      [organizer.user.email, "bea@example.com", "gus@example.com"].sort(),
    );
    for (const row of rows) {
      expect(row.bookingUid).toBe(told.uid);
      expect(inviteSummary(row.ics!)).toMatchObject({ method: "REQUEST", uid: first.uid, sequence: 2 });
    }
  });

  it("a seat join with noEmail: true writes no e-mail (the invite still moves on); without it, the organizer and the new booker", async () => {
    const { app } = await mailing();
    const organizer = await host({ seatsPerTimeSlot: 4 });
    const start = at(futureMonday(), 360);
    const seat = (name: string, extra: Record<string, unknown> = {}) =>
      book(app, organizer.apiKey, organizer.eventType.id, start, {
        responses: { name, email: `${name.toLowerCase()}@example.com` },
        ...extra,
      });
    const first = await seat("Ann");
    const created = await written();
    expect(created).toEqual([`scheduled ${organizer.user.email}`, "scheduled ann@example.com"].sort());
    expect((await seat("Ben", { noEmail: true })).id).toBe(first.id);
    expect(await written()).toEqual(created);
    expect(await prisma.attendee.count({ where: { bookingId: first.id } })).toBe(2);
    expect(await prisma.bookingInvite.findUnique({ where: { bookingId: first.id } })).toMatchObject({
      sequence: 1,
    });
    await seat("Cid");
    expect(await written()).toEqual(
      [...created, `scheduled ${organizer.user.email}`, "scheduled cid@example.com"].sort(),
    );
    const cid = (await outbox()).find((r) => r.recipient === "cid@example.com")!;
    expect(inviteSummary(cid.ics!)).toMatchObject({ uid: first.uid, sequence: 2 });
  });
});

describe("what a seat holder's e-mail lists (v1's AttendeeScheduledEmail, createNewSeat's seatsShowAttendees)", () => {
  it("seatsShowAttendees unset: a new seat's e-mail and invite list its holder alone; the organizer's list every seat; the first booking's each list their own", async () => {
    const { server, app } = await mailing();
    const organizer = await host({ seatsPerTimeSlot: 4 });
    const start = at(futureMonday(), 420);
    const first = await book(app, organizer.apiKey, organizer.eventType.id, start, {
      responses: { name: "Ann", email: "ann@example.com", guests: ["gus@example.com"] },
    });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);
    const created = new Map(server.deliveries.map((d) => [to(d), d]));
    expect(inviteSummary(inviteOf(created.get(organizer.user.email)!)!).attendees).toEqual([
      "mailto:ann@example.com",
      "mailto:gus@example.com",
    ]);
    // v1 passes no seatsShowAttendees on a first booking: each attendee sees themself alone.
    expect(inviteSummary(inviteOf(created.get("ann@example.com")!)!).attendees).toEqual([
      "mailto:ann@example.com",
    ]);
    expect(inviteSummary(inviteOf(created.get("gus@example.com")!)!).attendees).toEqual([
      "mailto:gus@example.com",
    ]);
    expect(whoOf(created.get("ann@example.com")!.mail.text!)).toEqual([
      `Hope Host <${organizer.user.email}> (organizer)`,
      "Ann <ann@example.com>",
    ]);

    const joined = await book(app, organizer.apiKey, organizer.eventType.id, start, {
      responses: { name: "Ben", email: "ben@example.com" },
    });
    expect(joined.id).toBe(first.id);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(5), UNTIL);
    const seated = new Map(server.deliveries.slice(3).map((d) => [to(d), d]));
    expect([...seated.keys()].sort()).toEqual([organizer.user.email, "ben@example.com"].sort());
    const ben = seated.get("ben@example.com")!;
    expect(inviteSummary(inviteOf(ben)!)).toEqual({
      method: "REQUEST",
      uid: first.uid,
      sequence: 1,
      attendees: ["mailto:ben@example.com"],
    });
    expect(whoOf(ben.mail.text!)).toEqual([
      `Hope Host <${organizer.user.email}> (organizer)`,
      "Ben <ben@example.com>",
    ]);
    expect(ben.mail.html).not.toContain("ann@example.com");
    expect(ben.raw).not.toContain("ann@example.com");
    const hostMail = seated.get(organizer.user.email)!;
    expect(inviteSummary(inviteOf(hostMail)!).attendees).toEqual([
      "mailto:ann@example.com",
      "mailto:gus@example.com",
      "mailto:ben@example.com",
    ]);
    expect(whoOf(hostMail.mail.text!)).toContain("Ann <ann@example.com>");
  });

  it("seatsShowAttendees true: a new seat's e-mail and invite list every seat", async () => {
    const { server, app } = await mailing();
    const organizer = await host({ seatsPerTimeSlot: 3 });
    await prisma.eventType.update({
      where: { id: organizer.eventType.id },
      data: { seatsShowAttendees: true },
    });
    const start = at(futureMonday(), 450);
    const first = await book(app, organizer.apiKey, organizer.eventType.id, start, {
      responses: { name: "Ann", email: "ann@example.com" },
    });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    await book(app, organizer.apiKey, organizer.eventType.id, start, {
      responses: { name: "Ben", email: "ben@example.com" },
    });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    const ben = server.deliveries.slice(2).find((d) => to(d) === "ben@example.com")!;
    expect(inviteSummary(inviteOf(ben)!)).toEqual({
      method: "REQUEST",
      uid: first.uid,
      sequence: 1,
      attendees: ["mailto:ann@example.com", "mailto:ben@example.com"],
    });
    expect(whoOf(ben.mail.text!)).toEqual([
      `Hope Host <${organizer.user.email}> (organizer)`,
      "Ann <ann@example.com>",
      "Ben <ben@example.com>",
    ]);
  });

  it("a seated COLLECTIVE event: a seat holder's invite lists them and the team's other host, as v1 adds the team's members", async () => {
    const { server, app } = await mailing();
    const [a, b] = [await createUser(prisma), await createUser(prisma)];
    await giveSchedule(prisma, a.user.id);
    await giveSchedule(prisma, b.user.id);
    const { eventType } = await makeTeamEvent(prisma, "COLLECTIVE", [
      { userId: a.user.id },
      { userId: b.user.id },
    ]);
    await prisma.eventType.update({ where: { id: eventType.id }, data: { seatsPerTimeSlot: 4 } });
    const start = at(futureMonday(), 270);
    const first = await book(app, a.apiKey, eventType.id, start, {
      responses: { name: "Ann", email: "ann@example.com" },
    });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);
    await book(app, a.apiKey, eventType.id, start, { responses: { name: "Ben", email: "ben@example.com" } });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(6), UNTIL);
    const seated = new Map(server.deliveries.slice(3).map((d) => [to(d), d]));
    expect([...seated.keys()].sort()).toEqual([a.user.email, b.user.email, "ben@example.com"].sort());
    expect(inviteSummary(inviteOf(seated.get("ben@example.com")!)!)).toMatchObject({
      uid: first.uid,
      attendees: [`mailto:${b.user.email}`, "mailto:ben@example.com"],
    });
    // The hosts, the organizer's side, see every seat.
    for (const email of [a.user.email, b.user.email])
      expect(inviteSummary(inviteOf(seated.get(email)!)!).attendees).toEqual([
        "mailto:ann@example.com",
        `mailto:${b.user.email}`,
        "mailto:ben@example.com",
      ]);
  });
});
