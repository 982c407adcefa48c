// Booking e-mails (docs/adr/0222, 0223) against a real SMTP server in this process: what a
// booking, a request for confirmation, a cancel and a reschedule send, to whom, in whose time
// zone, with which invite (parsed back by ical.js); the outbox written in the booking's own
// transaction; retries after 4xx and refused connections, the dead state after a 5xx or
// MAIL_MAX_ATTEMPTS, a stalled send's timeout, requests that cannot be rendered (given up on, listed,
// blocking nothing), mail:dead and mail:resend; and, with two instances sharing one outbox and
// 20 bookings at once, every e-mail delivered exactly once. Waits are on conditions only.
import { PassThrough, Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import { runCliInProcess } from "@app/testing/cli";
import type { TestDatabase } from "@app/testing/database";
import ICAL from "ical.js";
import { describe, expect, it, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { schedulingCli } from "../src/cli.ts";
import { loadConfig, type SchedulingConfig } from "../src/config.ts";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, REDIS_PREFIX, withKey } from "./helpers.ts";
import { type Delivery, inviteOf, mailTestLifecycle, startSmtp, type TestSmtp } from "./mail-helpers.ts";

/** Generous: a loaded two-core machine; the wait ends as soon as the condition holds. */
const UNTIL = { timeout: 60_000, interval: 25 } as const;
const FROM = "Bookings <bookings@mail.example.test>";

let database: TestDatabase;
let prisma: PrismaClient;
const { opened, servers } = mailTestLifecycle((madeDatabase, madePrisma) => {
  database = madeDatabase;
  prisma = madePrisma;
});

async function smtp(...args: Parameters<typeof startSmtp>): Promise<TestSmtp> {
  const server = await startSmtp(...args);
  servers.push(server);
  return server;
}

function mailConfig(overrides: Partial<SchedulingConfig> = {}): SchedulingConfig {
  return {
    ...loadConfig({}),
    RATE_LIMIT_MAX: 100_000,
    RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX,
    MAIL_FROM: FROM,
    MAIL_RETRY_BASE_MS: 20,
    MAIL_POLL_MS: 50,
    MAIL_SEND_TIMEOUT_MS: 10_000,
    ...overrides,
  };
}

/** An app instance of its own (own pool, own sender) on the test database; logs into `lines`. */
async function instance(overrides: Partial<SchedulingConfig>, lines: string[] = []): Promise<SchedulingApp> {
  const own = createPrisma(database.url, { poolMax: 4, directUrl: database.directUrl });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const app = await buildApp({
    config: mailConfig(overrides),
    prisma: own,
    logger: { level: "info", stream },
  });
  await app.ready();
  opened.push({ app, prisma: own });
  return app;
}

/** The outbox's rows, once the requests the bookings wrote are rendered into them (docs/adr/0236). */
async function outbox() {
  await vi.waitFor(async () => expect(await prisma.mailRequest.count()).toBe(0), UNTIL);
  return prisma.mailOutbox.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/**
 * What the bookings wrote, as [kind, recipient]: the messages of their requests not yet rendered
 * and the outbox's rows, read in one snapshot (a sender may render a request between two reads).
 */
async function written(): Promise<string[][]> {
  const [requests, rows] = await prisma.$transaction(
    [prisma.mailRequest.findMany(), prisma.mailOutbox.findMany()],
    {
      isolationLevel: "RepeatableRead",
    },
  );
  const planned = requests.flatMap((request) =>
    (request.facts as { messages: { kind: string; to: { email: string } }[] }).messages.map((m) => [
      m.kind,
      m.to.email,
    ]),
  );
  return [...planned, ...rows.map((row) => [row.kind, row.recipient])];
}

async function book(app: SchedulingApp, apiKey: string, body: Record<string, unknown>) {
  const response = await app.inject({ method: "POST", url: withKey("/v1/bookings", apiKey), payload: body });
  return response;
}

function bookingBody(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
  return {
    eventTypeId,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "en",
    metadata: {},
    responses: { name: "Bea Booker", email: "bea@example.com", guests: ["gus@example.com"] },
    ...extra,
  };
}

/** Host user with a name, a time zone, a schedule and a 30-minute event type. */
async function host(options: { timeZone?: string; requiresConfirmation?: boolean } = {}) {
  const made = await createUser(prisma);
  const eventType = await makeHost(prisma, made.user.id, {
    requiresConfirmation: options.requiresConfirmation ?? false,
  });
  await prisma.user.update({
    where: { id: made.user.id },
    data: { name: "Hope Host", timeZone: options.timeZone ?? "America/New_York" },
  });
  return { ...made, eventType };
}

const to = (delivery: Delivery) => delivery.envelopeTo.join(",");
const hhmm = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    date,
  );

function parseInvite(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent("vevent")!;
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.getFirstPropertyValue("uid"),
    sequence: event.getFirstPropertyValue("sequence"),
    status: event.getFirstPropertyValue("status"),
    summary: event.getFirstPropertyValue("summary"),
    start: (event.getFirstPropertyValue("dtstart") as unknown as { toJSDate(): Date }).toJSDate(),
    end: (event.getFirstPropertyValue("dtend") as unknown as { toJSDate(): Date }).toJSDate(),
    // A URI's scheme is case-insensitive (ical-generator writes MAILTO:).
    organizer: String(event.getFirstPropertyValue("organizer")).replace(/^mailto:/i, "mailto:"),
    organizerName: event.getFirstProperty("organizer")!.getParameter("cn"),
    attendees: event.getAllProperties("attendee").map((p) => ({
      address: String(p.getFirstValue()).replace(/^mailto:/i, "mailto:"),
      name: p.getParameter("cn"),
      role: p.getParameter("role"),
      partstat: p.getParameter("partstat"),
    })),
  };
}

describe("what a booking sends (v1's handleNewBooking, email-manager)", () => {
  it("a booking: the organizer and each attendee get one e-mail each, text and HTML in their own zone, with a REQUEST invite", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host({ timeZone: "America/New_York" });
    const start = at(futureMonday(), 60);
    const response = await book(app, organizer.apiKey, bookingBody(organizer.eventType.id, start));
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json() as { id: number; uid: string; title: string };
    // The 201 came with its e-mails (written in its transaction: one request, rendered by a sender).
    expect((await written()).sort()).toEqual(
      [
        ["scheduled", organizer.user.email],
        ["scheduled", "bea@example.com"],
        ["scheduled", "gus@example.com"],
      ].sort(),
    );
    // Marked in the claim's transaction, just after the server accepted.
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "SENT")).toBe(true),
      UNTIL,
    );
    const sent = await outbox();
    expect(server.deliveries).toHaveLength(3);
    for (const row of sent) {
      expect(row).toMatchObject({ status: "SENT", attempts: 1, messageId: `<${row.id}@mail.example.test>` });
      expect(row.sentAt).toBeInstanceOf(Date);
    }
    const byRecipient = new Map(server.deliveries.map((d) => [to(d), d]));
    expect([...byRecipient.keys()].sort()).toEqual(
      [organizer.user.email, "bea@example.com", "gus@example.com"].sort(),
    );
    for (const row of sent) expect(byRecipient.get(row.recipient)!.mail.messageId).toBe(row.messageId);

    const hostMail = byRecipient.get(organizer.user.email)!.mail;
    expect(hostMail.from?.text).toContain("bookings@mail.example.test");
    expect(hostMail.subject).toContain(`New event: ${booking.title}`);
    // The organizer's zone (America/New_York), the attendee's (Europe/Berlin, from the booking).
    expect(hostMail.text).toContain(
      `${hhmm(start, "America/New_York")} – ${hhmm(at(start, 30), "America/New_York")}`,
    );
    expect(hostMail.text).toContain("(America/New_York)");
    expect(hostMail.html).toContain("America/New_York");
    const beaMail = byRecipient.get("bea@example.com")!.mail;
    expect(beaMail.subject).toContain(`Confirmed: ${booking.title}`);
    expect(beaMail.text).toContain(
      `${hhmm(start, "Europe/Berlin")} – ${hhmm(at(start, 30), "Europe/Berlin")} (Europe/Berlin)`,
    );
    expect(beaMail.html).toMatch(/<html/);

    const invite = parseInvite(inviteOf(byRecipient.get("bea@example.com")!)!);
    expect(invite).toEqual({
      method: "REQUEST",
      uid: booking.uid,
      sequence: 0,
      status: "CONFIRMED",
      summary: booking.title,
      start,
      end: at(start, 30),
      organizer: `mailto:${organizer.user.email}`,
      organizerName: "Hope Host",
      attendees: [
        {
          address: "mailto:bea@example.com",
          name: "Bea Booker",
          role: "REQ-PARTICIPANT",
          partstat: "ACCEPTED",
        },
        // A guest has no name: the address stands for it.
        {
          address: "mailto:gus@example.com",
          name: "gus@example.com",
          role: "REQ-PARTICIPANT",
          partstat: "ACCEPTED",
        },
      ],
    });
    // Every recipient's invite is the same event.
    for (const delivery of server.deliveries) expect(parseInvite(inviteOf(delivery)!).uid).toBe(booking.uid);
  });

  it("a booker whose language is de gets German words; the organizer, in English, their own", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 420), {
        language: "de",
        responses: { name: "Bea Booker", email: "bea@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const bea = server.deliveries.find((d) => to(d) === "bea@example.com")!.mail;
    expect(bea.subject).toMatch(/^Bestätigt: /);
    expect(bea.text).toContain("Wann:");
    expect(bea.html).toContain('lang="de"');
    const hostMail = server.deliveries.find((d) => to(d) === organizer.user.email)!.mail;
    expect(hostMail.subject).toMatch(/^New event: /);
  });

  it("the default title (v1's event_between_users) is in each recipient's language: a de booker's subject, body and invite in German; the stored title in the organizer's (v1's tOrganizer)", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    await prisma.eventType.update({ where: { id: organizer.eventType.id }, data: { title: "Erstgespräch" } });
    const german = "Erstgespräch zwischen Hope Host und Jörg Deutsch";
    const english = "Erstgespräch between Hope Host and Jörg Deutsch";
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(2), 420), {
        language: "de",
        responses: { name: "Jörg Deutsch", email: "joerg@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json() as { id: number; title: string };
    // The organizer has no locale: v1 stored the title in English ("en", its default).
    expect(booking.title).toBe(english);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const joerg = server.deliveries.find((d) => to(d) === "joerg@example.com")!;
    expect(joerg.mail.subject).toMatch(new RegExp(`^Bestätigt: ${german} – `));
    expect(joerg.mail.text).toContain(`Was:\n  ${german}\n`);
    expect(joerg.mail.html).toContain(`<td>${german}</td>`);
    expect(parseInvite(inviteOf(joerg)!).summary).toBe(german);
    const hostMail = server.deliveries.find((d) => to(d) === organizer.user.email)!;
    expect(hostMail.mail.subject).toMatch(new RegExp(`^New event: ${english} – `));
    expect(hostMail.mail.text).toContain(`What:\n  ${english}\n`);
    expect(parseInvite(inviteOf(hostMail)!).summary).toBe(english);

    // A later change of the booking (its stored title read back) is in German for him too.
    const cancel = await app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${booking.id}/cancel?cancellationReason=Krank`, organizer.apiKey),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    const cancelled = server.deliveries.slice(2).find((d) => to(d) === "joerg@example.com")!;
    expect(cancelled.mail.subject).toMatch(new RegExp(`^Abgesagt: ${german} – `));
    expect(parseInvite(inviteOf(cancelled)!).summary).toBe(german);
  });

  it("an organizer whose locale is de stores the title in German (v1's tOrganizer); one without a name is the host, in each language; a title the client sent stays as sent", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    await prisma.user.update({ where: { id: organizer.user.id }, data: { locale: "de", name: null } });
    await prisma.eventType.update({ where: { id: organizer.eventType.id }, data: { title: "Erstgespräch" } });
    const booked = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(2), 360), {
        language: "en",
        responses: { name: "Bea Booker", email: "bea@example.com" },
      }),
    );
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.json().title).toBe("Erstgespräch zwischen dem Gastgeber und Bea Booker");
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const bea = server.deliveries.find((d) => to(d) === "bea@example.com")!.mail;
    expect(bea.subject).toMatch(/^Confirmed: Erstgespräch between the host and Bea Booker – /);
    const hostMail = server.deliveries.find((d) => to(d) === organizer.user.email)!.mail;
    expect(hostMail.subject).toMatch(/^Neuer Termin: Erstgespräch zwischen dem Gastgeber und Bea Booker – /);

    const titled = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(2), 390), {
        language: "de",
        title: "Kick-off between friends",
        responses: { name: "Jörg Deutsch", email: "joerg@example.com" },
      }),
    );
    expect(titled.statusCode, titled.body).toBe(201);
    expect(titled.json().title).toBe("Kick-off between friends");
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    const joerg = server.deliveries.find((d) => to(d) === "joerg@example.com")!.mail;
    expect(joerg.subject).toMatch(/^Bestätigt: Kick-off between friends – /);
  });

  it("noEmail: true writes no e-mail (v1: noEmail !== true gates them)", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 90), { noEmail: true }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(await outbox()).toEqual([]);
  });

  it("requires confirmation: a request to the organizer, 'awaiting confirmation' to the booker alone, no invite", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host({ requiresConfirmation: true });
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 120)),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const kinds = (await outbox()).map((r) => [r.kind, r.recipient, r.ics]).sort();
    expect(kinds).toEqual(
      [
        ["awaiting", "bea@example.com", null],
        ["request", organizer.user.email, null],
      ].sort(),
    );
    for (const delivery of server.deliveries) expect(inviteOf(delivery)).toBeUndefined();
  });

  it("a COLLECTIVE team event: every host gets the organizer's e-mail, the booker the attendee's", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const [a, b] = [await createUser(prisma), await createUser(prisma)];
    await giveSchedule(prisma, a.user.id);
    await giveSchedule(prisma, b.user.id);
    const { eventType } = await makeTeamEvent(prisma, "COLLECTIVE", [
      { userId: a.user.id },
      { userId: b.user.id },
    ]);
    const response = await book(
      app,
      a.apiKey,
      bookingBody(eventType.id, at(futureMonday(), 150), {
        responses: { name: "Bea Booker", email: "bea@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);
    const rows = (await outbox()).map((r) => [r.recipient, r.subject.split(":")[0]]).sort();
    expect(rows).toEqual(
      [
        [a.user.email, "New event"],
        [b.user.email, "New event"],
        ["bea@example.com", "Confirmed"],
      ].sort(),
    );
  });

  it("a cancel sends cancellations with METHOD:CANCEL, the same UID and SEQUENCE 1; a reschedule keeps the UID, SEQUENCE + 1", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const monday = futureMonday(3);
    const first = (
      await book(app, organizer.apiKey, bookingBody(organizer.eventType.id, at(monday, 60)))
    ).json() as {
      id: number;
      uid: string;
    };
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);

    // Reschedule: the new booking's invite continues the original's event.
    const moved = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 180), { rescheduleUid: first.uid }),
    );
    expect(moved.statusCode, moved.body).toBe(201);
    const second = moved.json() as { id: number; uid: string };
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(6), UNTIL);
    const rescheduled = server.deliveries.slice(3);
    for (const delivery of rescheduled) {
      expect(delivery.mail.subject).toMatch(/^Rescheduled: /);
      const invite = parseInvite(inviteOf(delivery)!);
      expect(invite).toMatchObject({
        method: "REQUEST",
        uid: first.uid,
        sequence: 1,
        start: at(monday, 180),
      });
    }
    const beaMoved = rescheduled.find((d) => to(d) === "bea@example.com")!;
    expect(beaMoved.mail.text).toContain(`Previously:\n  `);
    expect(beaMoved.mail.text).toContain(hhmm(at(monday, 60), "Europe/Berlin"));

    // Cancel the new booking: its event (the original's UID) is cancelled, SEQUENCE 2.
    const cancel = await app.inject({
      method: "DELETE",
      url: withKey(
        `/v1/bookings/${second.id}/cancel?cancellationReason=${encodeURIComponent("Ill")}`,
        organizer.apiKey,
      ),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(9), UNTIL);
    const cancelled = server.deliveries.slice(6);
    expect(cancelled.map(to).sort()).toEqual(
      [organizer.user.email, "bea@example.com", "gus@example.com"].sort(),
    );
    for (const delivery of cancelled) {
      expect(delivery.mail.subject).toMatch(/^Cancelled: /);
      expect(delivery.mail.text).toContain("Reason:\n  Ill");
      const invite = parseInvite(inviteOf(delivery)!);
      expect(invite).toMatchObject({ method: "CANCEL", uid: first.uid, sequence: 2, status: "CANCELLED" });
      expect(invite.attendees.every((a) => a.partstat === "DECLINED")).toBe(true);
    }
    expect(await prisma.bookingInvite.findUnique({ where: { bookingId: second.id } })).toEqual({
      bookingId: second.id,
      icalUid: first.uid,
      sequence: 2,
    });
  });

  it("a ROUND_ROBIN reschedule that changes host: the new host a new event, the old one a cancellation of the original time, the booker the move", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const [a, b] = [await createUser(prisma), await createUser(prisma)];
    await giveSchedule(prisma, a.user.id);
    await giveSchedule(prisma, b.user.id);
    const { eventType } = await makeTeamEvent(prisma, "ROUND_ROBIN", [
      { userId: a.user.id },
      { userId: b.user.id },
    ]);
    const monday = futureMonday(5);
    const first = await book(
      app,
      a.apiKey,
      bookingBody(eventType.id, at(monday, 60), {
        responses: { name: "Bea Booker", email: "bea@example.com" },
      }),
    );
    expect(first.statusCode, first.body).toBe(201);
    const original = first.json() as { uid: string; userId: number };
    const [was, next] = original.userId === a.user.id ? [a, b] : [b, a];
    // The first host is busy at the new time: v1's rule must pick the other.
    await prisma.booking.create({
      data: {
        uid: `busy-${Date.now()}`,
        userId: was.user.id,
        title: "Busy",
        startTime: at(monday, 240),
        endTime: at(monday, 270),
      },
    });
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const moved = await book(
      app,
      a.apiKey,
      bookingBody(eventType.id, at(monday, 240), {
        rescheduleUid: original.uid,
        responses: { name: "Bea Booker", email: "bea@example.com" },
      }),
    );
    expect(moved.statusCode, moved.body).toBe(201);
    expect((moved.json() as { userId: number }).userId).toBe(next.user.id);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(5), UNTIL);
    const byRecipient = new Map(server.deliveries.slice(2).map((d) => [to(d), d]));
    expect(byRecipient.get(next.user.email)!.mail.subject).toMatch(/^New event: /);
    expect(byRecipient.get("bea@example.com")!.mail.subject).toMatch(/^Rescheduled: /);
    const dropped = byRecipient.get(was.user.email)!;
    expect(dropped.mail.subject).toMatch(/^Cancelled: /);
    expect(parseInvite(inviteOf(dropped)!)).toMatchObject({
      method: "CANCEL",
      uid: original.uid,
      sequence: 1,
      start: at(monday, 60),
    });
    expect(parseInvite(inviteOf(byRecipient.get(next.user.email)!)!)).toMatchObject({
      method: "REQUEST",
      uid: original.uid,
      sequence: 1,
      start: at(monday, 240),
    });
  });

  it("a seat taken in an existing booking: the organizer and the new booker alone, invite SEQUENCE + 1 with every seat (createNewSeat)", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const made = await createUser(prisma);
    const eventType = await makeHost(prisma, made.user.id, { seatsPerTimeSlot: 3 });
    const start = at(futureMonday(), 240);
    const first = await book(
      app,
      made.apiKey,
      bookingBody(eventType.id, start, { responses: { name: "Ann", email: "ann@example.com" } }),
    );
    expect(first.statusCode, first.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const second = await book(
      app,
      made.apiKey,
      bookingBody(eventType.id, start, { responses: { name: "Ben", email: "ben@example.com" } }),
    );
    expect(second.statusCode, second.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    const joined = server.deliveries.slice(2);
    expect(joined.map(to).sort()).toEqual([made.user.email, "ben@example.com"].sort());
    const invite = parseInvite(inviteOf(joined[0]!)!);
    expect(invite).toMatchObject({
      method: "REQUEST",
      uid: (first.json() as { uid: string }).uid,
      sequence: 1,
    });
    expect(invite.attendees.map((a) => a.address)).toEqual([
      "mailto:ann@example.com",
      "mailto:ben@example.com",
    ]);
  });

  it("a booking whose transaction rolls back leaves no e-mail", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    // A failure as the booking's e-mails are written (its request, docs/adr/0236), inside its transaction.
    await prisma.$executeRawUnsafe(`
      CREATE FUNCTION "scheduling"."test_refuse_mail"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.facts::text LIKE '%boom@example.com%' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER "test_refuse_mail" BEFORE INSERT ON "scheduling"."mail_requests"
      FOR EACH ROW EXECUTE FUNCTION "scheduling"."test_refuse_mail"()`);
    try {
      const start = at(futureMonday(), 210);
      const response = await book(
        app,
        organizer.apiKey,
        bookingBody(organizer.eventType.id, start, {
          responses: { name: "Boom", email: "boom@example.com" },
        }),
      );
      expect(response.statusCode).toBe(500);
      expect(
        await prisma.booking.count({ where: { eventTypeId: organizer.eventType.id, startTime: start } }),
      ).toBe(0);
      expect(await outbox()).toEqual([]);
      expect(await prisma.mailRequest.count()).toBe(0);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER "test_refuse_mail" ON "scheduling"."mail_requests"`);
      await prisma.$executeRawUnsafe(`DROP FUNCTION "scheduling"."test_refuse_mail"()`);
    }
  });
});

const WEEK_MINUTES = 7 * 24 * 60;

/** The organizer's event type made recurring (weekly, at most 4), and a series' dates POSTed: the first, then the others at once. */
async function series(
  app: SchedulingApp,
  dates: number,
  extra: (i: number) => Record<string, unknown> = () => ({}),
) {
  const organizer = await host();
  await prisma.eventType.update({
    where: { id: organizer.eventType.id },
    // Up to 5 dates; a series books fewer (`dates`), and its e-mails say how many it booked.
    data: { recurringEvent: { freq: 2, count: 5, interval: 1 } },
  });
  const first = at(futureMonday(6), 60);
  const recurringEventId = `series-${organizer.user.id}`;
  const post = (i: number) =>
    book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(first, i * WEEK_MINUTES), {
        recurringEventId,
        recurringCount: dates,
        responses: { name: "Bea Booker", email: "bea@example.com" },
        ...extra(i),
      }),
    );
  // As v1's handleNewRecurringBooking books them: the first date first; the rest here at once.
  const answers = [await post(0)];
  answers.push(...(await Promise.all(Array.from({ length: dates - 1 }, (_, i) => post(i + 1)))));
  for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
  const made = answers
    .map((answer) => answer.json() as { id: number; uid: string; startTime: string })
    .sort((a, b) => a.startTime.localeCompare(b.startTime));
  return { organizer, first, made };
}

/** The invite's series: its RRULE, RECURRENCE-ID, and the starts its occurrences expand to. */
function seriesOf(text: string, limit = 10) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const rrule = vevent.getFirstPropertyValue("rrule") as unknown as {
    freq: string;
    interval: number;
    count: number;
  } | null;
  const recurrenceId = vevent.getFirstPropertyValue("recurrence-id") as unknown as {
    toJSDate(): Date;
  } | null;
  const starts: string[] = [];
  const iterator = new ICAL.Event(vevent).iterator();
  for (let next = iterator.next(); next && starts.length < limit; next = iterator.next())
    starts.push(next.toJSDate().toISOString());
  return {
    rrule: rrule && { freq: rrule.freq, interval: rrule.interval ?? 1, count: rrule.count },
    recurrenceId: recurrenceId?.toJSDate().toISOString() ?? null,
    starts,
  };
}

describe("a recurring series (v1's handleNewRecurringBooking, handleCancelBooking)", () => {
  it("its dates POSTed (the later ones at once): the first date sends one invite whose RRULE repeats recurringCount times (the event type's FREQ and INTERVAL); the later dates none", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const { organizer, made } = await series(app, 3);
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "SENT")).toBe(true),
      UNTIL,
    );
    const rows = await outbox();
    // One set, about the first date: the organizer and the booker.
    expect(rows.map((r) => [r.kind, r.recipient, r.bookingUid]).sort()).toEqual(
      [
        ["scheduled", organizer.user.email, made[0]!.uid],
        ["scheduled", "bea@example.com", made[0]!.uid],
      ].sort(),
    );
    expect(server.deliveries).toHaveLength(2);
    for (const delivery of server.deliveries) {
      const invite = inviteOf(delivery)!;
      expect(parseInvite(invite)).toMatchObject({ method: "REQUEST", uid: made[0]!.uid, sequence: 0 });
      const { rrule, recurrenceId, starts } = seriesOf(invite);
      expect(rrule).toEqual({ freq: "WEEKLY", interval: 1, count: 3 });
      expect(recurrenceId).toBeNull();
      // The calendar's occurrences are the series' bookings.
      expect(starts).toEqual(made.map((b) => new Date(b.startTime).toISOString()));
    }
    const beaMail = server.deliveries.find((d) => to(d) === "bea@example.com")!.mail;
    expect(beaMail.text).toContain("Repeats:\n  Every week, 3 times");
  });

  it("noEmail as sent applies to every date: true on the first sends nothing, false on a later one sends that date's own", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const { made } = await series(app, 3, (i) =>
      i === 0 ? { noEmail: true } : i === 2 ? { noEmail: false } : {},
    );
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const rows = await outbox();
    expect(new Set(rows.map((r) => r.bookingUid))).toEqual(new Set([made[2]!.uid]));
    // v1 gives every date of a series its RRULE (evt.recurringEvent), from that date on.
    const { rrule, starts } = seriesOf(inviteOf(server.deliveries[0]!)!);
    expect(rrule).toEqual({ freq: "WEEKLY", interval: 1, count: 3 });
    expect(starts[0]).toBe(new Date(made[2]!.startTime).toISOString());
  });

  it("allRemainingBookings cancels the series with one set of e-mails: METHOD:CANCEL of the series' event (its UID, SEQUENCE 1, the invite's RRULE: the 3 dates booked, not the event type's 5); one date alone: CANCEL of that occurrence", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const { organizer, made } = await series(app, 3);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const invited = seriesOf(inviteOf(server.deliveries[0]!)!).rrule;
    expect(invited).toEqual({ freq: "WEEKLY", interval: 1, count: 3 });

    const one = await app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${made[1]!.id}/cancel`, organizer.apiKey),
    });
    expect(one.statusCode, one.body).toBe(200);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    for (const delivery of server.deliveries.slice(2)) {
      const invite = inviteOf(delivery)!;
      expect(parseInvite(invite)).toMatchObject({ method: "CANCEL", uid: made[0]!.uid, sequence: 1 });
      const { rrule, recurrenceId } = seriesOf(invite);
      expect(rrule).toBeNull();
      expect(recurrenceId).toBe(new Date(made[1]!.startTime).toISOString());
    }

    const all = await app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${made[0]!.id}/cancel?allRemainingBookings=true`, organizer.apiKey),
    });
    expect(all.statusCode, all.body).toBe(200);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(6), UNTIL);
    const rows = (await outbox()).filter((r) => r.kind === "cancelled");
    expect(rows.map((r) => r.recipient).sort()).toEqual(
      [organizer.user.email, organizer.user.email, "bea@example.com", "bea@example.com"].sort(),
    );
    for (const delivery of server.deliveries.slice(4)) {
      const invite = inviteOf(delivery)!;
      expect(parseInvite(invite)).toMatchObject({ method: "CANCEL", uid: made[0]!.uid, sequence: 2 });
      const { rrule, recurrenceId, starts } = seriesOf(invite);
      // The series that was invited (docs/adr/0245), from its first date: not the event type's 5.
      expect(rrule).toEqual(invited);
      expect(recurrenceId).toBeNull();
      expect(starts).toEqual(made.map((b) => new Date(b.startTime).toISOString()));
      expect(delivery.mail.text).toContain("Repeats:\n  Every week, 3 times");
      expect(delivery.mail.html).toContain("Every week, 3 times");
    }
  });

  it("a date of the series moved by a reschedule that keeps it in the series is still one date: the whole series' cancel says 3 times", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    const { organizer, made } = await series(app, 3);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const last = made[2]!;
    const moved = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(new Date(last.startTime), 120), {
        rescheduleUid: last.uid,
        recurringEventId: `series-${organizer.user.id}`,
        recurringCount: 3,
        responses: { name: "Bea Booker", email: "bea@example.com" },
      }),
    );
    expect(moved.statusCode, moved.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    const all = await app.inject({
      method: "DELETE",
      url: withKey(`/v1/bookings/${made[0]!.id}/cancel?allRemainingBookings=true`, organizer.apiKey),
    });
    expect(all.statusCode, all.body).toBe(200);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(6), UNTIL);
    for (const delivery of server.deliveries.slice(4)) {
      expect(parseInvite(inviteOf(delivery)!)).toMatchObject({ method: "CANCEL", uid: made[0]!.uid });
      expect(seriesOf(inviteOf(delivery)!).rrule).toEqual({ freq: "WEEKLY", interval: 1, count: 3 });
      expect(delivery.mail.text).toContain("Repeats:\n  Every week, 3 times");
    }
  });
});

describe("delivery: retries, the dead state, exactly once", () => {
  it("a 4xx is retried with backoff until the server accepts; delivered once", async () => {
    const server = await smtp("4xx");
    const app = await instance({ SMTP_URL: server.url, MAIL_MAX_ATTEMPTS: 100 });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 240), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(async () => {
      const rows = await outbox();
      expect(rows.every((r) => r.attempts >= 2 && r.status === "PENDING")).toBe(true);
      expect(rows[0]!.lastError).toContain("451");
    }, UNTIL);
    server.mode = "accept";
    // Due now rather than after however long the backoff has grown: the test waits on no clock.
    await prisma.mailOutbox.updateMany({
      where: { status: "PENDING" },
      data: { nextAttemptAt: new Date(0) },
    });
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "SENT")).toBe(true),
      UNTIL,
    );
    expect(server.deliveries.map(to).sort()).toEqual([organizer.user.email, "b@example.com"].sort());
  });

  it("a send the server stalls past MAIL_SEND_TIMEOUT_MS times out and is retried, after a backoff that doubles each attempt; delivered once", async () => {
    const server = await smtp();
    // The first attempt never answered, the next two refused for now, the fourth accepted.
    server.script = ["stall", "4xx", "4xx"];
    const lines: string[] = [];
    const timeoutMs = 2_000;
    const baseMs = 200;
    await instance(
      {
        SMTP_URL: server.url,
        MAIL_SEND_TIMEOUT_MS: timeoutMs,
        MAIL_RETRY_BASE_MS: baseMs,
        MAIL_MAX_ATTEMPTS: 10,
      },
      lines,
    );
    const row = await prisma.mailOutbox.create({
      data: {
        bookingUid: "stalled",
        kind: "scheduled",
        recipient: "s@example.com",
        subject: "Stalled",
        textBody: "t",
        htmlBody: "h",
      },
    });
    await vi.waitFor(async () => {
      expect(await prisma.mailOutbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: "SENT",
        attempts: 4,
        lastError: null,
        messageId: `<${row.id}@mail.example.test>`,
      });
    }, UNTIL);
    expect(server.deliveries.map((d) => d.mail.messageId)).toEqual([`<${row.id}@mail.example.test>`]);
    expect(server.attempts).toBe(4);
    const retries = lines
      .map((line) => JSON.parse(line) as { msg: string; retryInMs?: number; reason?: string })
      .filter((entry) => entry.msg === "mail: not sent; will retry");
    expect(retries.map((entry) => entry.retryInMs)).toEqual([baseMs, baseMs * 2, baseMs * 4]);
    expect(retries[0]!.reason).toMatch(/ETIMEDOUT|timeout/i);
    expect(retries[1]!.reason).toContain("451");
    // As the server saw them: each attempt came no sooner than the previous one's end plus its
    // backoff (the stalled one ended at the timeout); a few ms of leeway for the two clocks' reads.
    const [t1, t2, t3, t4] = server.attemptTimes as [number, number, number, number];
    const leeway = 25;
    expect(t2 - t1).toBeGreaterThanOrEqual(timeoutMs + baseMs - leeway);
    expect(t3 - t2).toBeGreaterThanOrEqual(baseMs * 2 - leeway);
    expect(t4 - t3).toBeGreaterThanOrEqual(baseMs * 4 - leeway);
  });

  it("a 5xx makes the e-mail dead at once; mail:dead lists it, mail:resend --id puts it back and it is sent", async () => {
    const server = await smtp("5xx");
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 270), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "DEAD")).toBe(true),
      UNTIL,
    );
    expect((await outbox()).map((r) => r.attempts)).toEqual([1, 1]);
    const env = { DATABASE_URL: database.url, DATABASE_DIRECT_URL: database.directUrl };
    const listed = await runCliInProcess(schedulingCli, ["mail:dead", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const dead = JSON.parse(listed.stdout) as { id: string; recipient: string; lastError: string }[];
    expect(dead.map((d) => d.recipient).sort()).toEqual([organizer.user.email, "b@example.com"].sort());
    expect(dead[0]!.lastError).toContain("550");
    const table = await runCliInProcess(schedulingCli, ["mail:dead"], env);
    expect(table.stdout).toContain("ATTEMPTS");

    server.mode = "accept";
    const one = await runCliInProcess(schedulingCli, ["mail:resend", "--id", dead[0]!.id, "--json"], env);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ resent: 1 });
    await vi.waitFor(() => expect(server.deliveries.map(to)).toEqual([dead[0]!.recipient]), UNTIL);
    const rest = await runCliInProcess(schedulingCli, ["mail:resend", "--all"], env);
    expect(rest.stdout).toContain("1 e-mail put back");
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const usage = await runCliInProcess(schedulingCli, ["mail:resend"], env);
    expect(usage.code).toBe(2);
  });

  it("booking changes whose e-mails cannot be rendered are given up on, listed by mail:dead, and hold back no newer booking's e-mails", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    // More than a render batch (50) of requests no release here can read (a newer release's
    // format, left by a roll-back), older than the booking's own.
    const UNREADABLE = 60;
    await prisma.mailRequest.createMany({
      data: Array.from({ length: UNREADABLE }, (_, i) => ({
        bookingUid: `unreadable-${i}`,
        messages: 1,
        facts: { v: 3, messages: [{ kind: "scheduled", to: { email: `u${i}@example.com` } }] },
      })),
    });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 420), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(
      () => expect(server.deliveries.map(to).sort()).toEqual([organizer.user.email, "b@example.com"].sort()),
      UNTIL,
    );
    await vi.waitFor(async () => {
      expect(await prisma.mailRequest.count({ where: { failedAt: null } })).toBe(0);
      expect(await prisma.mailRequest.count()).toBe(UNREADABLE);
    }, UNTIL);
    const env = { DATABASE_URL: database.url, DATABASE_DIRECT_URL: database.directUrl };
    const listed = await runCliInProcess(schedulingCli, ["mail:dead", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const dead = JSON.parse(listed.stdout) as {
      id: string;
      kind: string;
      recipient: string;
      lastError: string;
    }[];
    expect(dead).toHaveLength(UNREADABLE);
    for (const entry of dead) {
      expect(entry.kind).toBe("unrendered");
      expect(entry.lastError).toContain("not rendered: a mail request of an unknown version (3)");
    }
    expect(dead.map((entry) => entry.recipient).sort()).toEqual(
      Array.from({ length: UNREADABLE }, (_, i) => `u${i}@example.com`).sort(),
    );
    const table = await runCliInProcess(schedulingCli, ["mail:dead"], env);
    expect(table.stdout).toContain("unrendered");
    // Counted as dead e-mails, none pending.
    const metrics = await app.metrics.metrics();
    expect(metrics).toContain(`mail_outbox_messages{status="dead",service="scheduling"} ${UNREADABLE}`);
    expect(metrics).toContain('mail_outbox_messages{status="pending",service="scheduling"} 0');
    // Put back, it is tried again (still unreadable here: given up on again, listed again).
    const one = await runCliInProcess(schedulingCli, ["mail:resend", "--id", dead[0]!.id, "--json"], env);
    expect(JSON.parse(one.stdout)).toEqual({ resent: 1 });
    await vi.waitFor(async () => {
      const again = await prisma.mailRequest.findUniqueOrThrow({ where: { id: dead[0]!.id } });
      expect(again.failedAt).not.toBeNull();
      expect(again.lastError).toContain("unknown version (3)");
    }, UNTIL);
    expect(server.deliveries).toHaveLength(2);
  });

  it("a refused connection (closed port) is retried MAIL_MAX_ATTEMPTS times, then dead", async () => {
    const closed = await smtp();
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    const app = await instance({ SMTP_URL: closed.url, MAIL_MAX_ATTEMPTS: 3 });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 300), { noEmail: false }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "DEAD")).toBe(true),
      UNTIL,
    );
    for (const row of await outbox()) {
      expect(row.attempts).toBe(3);
      expect(row.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
      expect(row.sentAt).toBeNull();
    }
  });

  it("closing the app waits for the send in flight and records it", async () => {
    const server = await smtp("stall");
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 450), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(() => expect(server.stalledRaw).toHaveLength(1), UNTIL);
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    // Still waiting for the server's answer: the close has not finished.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    await server.releaseStalled(true);
    await closing;
    const rows = await outbox();
    expect(rows.filter((r) => r.status === "SENT")).toHaveLength(1);
    // The other was not started: it waits for the next instance.
    expect(rows.filter((r) => r.status === "PENDING")).toHaveLength(1);
    expect(server.deliveries).toHaveLength(1);
  });

  it("the sender gives way while the instance answers a request, and sends once it is answered", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url, MAIL_GIVE_WAY_MS: 600_000 });
    const organizer = await host();
    // A request in flight: its body is still coming.
    const body = new PassThrough();
    const slow = app.inject({
      method: "POST",
      url: withKey("/v1/bookings", organizer.apiKey),
      headers: { "content-type": "application/json" },
      payload: body,
    });
    await vi.waitFor(() => expect(app.requestsInFlight).toBe(1), UNTIL);
    const monday = futureMonday(5);
    const booked = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 0), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(booked.statusCode, booked.body).toBe(201);
    // Written with the booking, not sent while the other request is in flight (the wait is bounded
    // by MAIL_GIVE_WAY_MS, ten minutes here).
    expect(await written()).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.attempts).toBe(0);
    body.end(
      JSON.stringify(
        bookingBody(organizer.eventType.id, at(monday, 30), {
          responses: { name: "C", email: "c@example.com" },
        }),
      ),
    );
    expect((await slow).statusCode).toBe(201);
    // Both bookings' e-mails, once nothing is in flight.
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    expect(app.requestsInFlight).toBe(0);
  });

  it("the sender gives way at most MAIL_GIVE_WAY_MS: a request in flight for longer does not hold the e-mails back", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url, MAIL_GIVE_WAY_MS: 200 });
    const organizer = await host();
    const body = new PassThrough();
    const slow = app.inject({
      method: "POST",
      url: withKey("/v1/bookings", organizer.apiKey),
      headers: { "content-type": "application/json" },
      payload: body,
    });
    await vi.waitFor(() => expect(app.requestsInFlight).toBe(1), UNTIL);
    const booked = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(5), 60), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(booked.statusCode, booked.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    // Delivered while the other request was still in flight.
    expect(app.requestsInFlight).toBe(1);
    body.end("{}");
    expect((await slow).statusCode).toBe(400);
  });

  it("20 bookings at once over two instances sharing one outbox: every e-mail delivered exactly once", async () => {
    const server = await smtp();
    const [one, two] = [await instance({ SMTP_URL: server.url }), await instance({ SMTP_URL: server.url })];
    const organizers = await Promise.all(Array.from({ length: 4 }, () => host()));
    const monday = futureMonday(4);
    const requests = Array.from({ length: 20 }, (_, i) => {
      const organizer = organizers[i % 4]!;
      const app = i % 2 === 0 ? one : two;
      return book(
        app,
        organizer.apiKey,
        bookingBody(organizer.eventType.id, at(monday, 30 * Math.floor(i / 4)), {
          responses: { name: `Booker ${i}`, email: `booker${i}@example.com` },
        }),
      );
    });
    const responses = await Promise.all(requests);
    for (const response of responses) expect(response.statusCode, response.body).toBe(201);
    // Each booking: its organizer and its booker.
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "SENT")).toBe(true),
      UNTIL,
    );
    const rows = await outbox();
    expect(rows).toHaveLength(40);
    expect(server.deliveries).toHaveLength(40);
    const ids = server.deliveries.map((d) => d.mail.messageId);
    expect(new Set(ids).size).toBe(40);
    expect(ids.sort()).toEqual(rows.map((r) => r.messageId).sort());
    expect(server.attempts).toBe(40);
  });
});

describe("configuration and logs", () => {
  it("/metrics: the pending and dead gauges equal the outbox's rows at each scrape; sent and failures count this instance's attempts", async () => {
    const server = await smtp("5xx");
    const app = await instance({ SMTP_URL: server.url });
    const metric = async (name: string, label = "") => {
      const text = await app.metrics.metrics();
      const line = text
        .split("\n")
        .find((l) => l.startsWith(`${name}{`) && l.includes(label) && !l.startsWith("#"));
      return line === undefined ? undefined : Number(line.split(" ").at(-1));
    };
    const row = (status: "PENDING" | "SENT" | "DEAD", nextAttemptAt = new Date()) => ({
      bookingUid: "metrics",
      kind: "scheduled",
      recipient: "m@example.com",
      subject: "Metrics",
      textBody: "t",
      htmlBody: "h",
      status,
      nextAttemptAt,
    });
    const later = new Date(Date.now() + 3_600_000);
    await prisma.mailOutbox.createMany({
      data: [row("PENDING", later), row("PENDING", later), row("DEAD"), row("SENT")],
    });
    const stored = async () => ({
      pending: await prisma.mailOutbox.count({ where: { status: "PENDING" } }),
      dead: await prisma.mailOutbox.count({ where: { status: "DEAD" } }),
    });
    const scraped = async () => ({
      pending: await metric("mail_outbox_messages", 'status="pending"'),
      dead: await metric("mail_outbox_messages", 'status="dead"'),
    });
    await vi.waitFor(async () => expect(await scraped()).toEqual({ pending: 2, dead: 1 }), UNTIL);
    expect(await scraped()).toEqual(await stored());
    // One due now, refused for good (5xx): dead at once, counted as a failure.
    await prisma.mailOutbox.create({ data: row("PENDING") });
    await vi.waitFor(async () => expect(await stored()).toEqual({ pending: 2, dead: 2 }), UNTIL);
    await vi.waitFor(async () => expect(await scraped()).toEqual({ pending: 2, dead: 2 }), UNTIL);
    expect(await metric("mail_send_failures_total", 'outcome="dead"')).toBe(1);
    // Accepted now: sent, counted.
    server.mode = "accept";
    await prisma.mailOutbox.updateMany({ where: { status: "PENDING" }, data: { nextAttemptAt: new Date() } });
    await vi.waitFor(async () => expect(await stored()).toEqual({ pending: 0, dead: 2 }), UNTIL);
    await vi.waitFor(async () => expect(await scraped()).toEqual({ pending: 0, dead: 2 }), UNTIL);
    expect(await metric("mail_sent_total")).toBe(2);
  });

  it("without SMTP_URL nothing is written and the start-up line says so", async () => {
    const lines: string[] = [];
    const app = await instance({ SMTP_URL: undefined, MAIL_FROM: undefined }, lines);
    expect(app.mail).toBeNull();
    expect(lines.join("\n")).toContain("mail: off (no SMTP_URL)");
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 330)),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(await outbox()).toEqual([]);
  });

  it("the SMTP password is in no log line, whether the server takes it or refuses it", async () => {
    const password = "s3cret-smtp-Passw0rd";
    const server = await smtp("accept", { user: "mailer", pass: password });
    const lines: string[] = [];
    const good = await instance({ SMTP_URL: server.url }, lines);
    const organizer = await host();
    await book(good, organizer.apiKey, bookingBody(organizer.eventType.id, at(futureMonday(), 360)));
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);
    const first = opened.pop()!;
    await first.app.close();
    await first.prisma.$disconnect();
    // A wrong password: refused (535, dead).
    const wrong = server.url.replace(encodeURIComponent(password), `${password}-wrong`);
    const bad = await instance({ SMTP_URL: wrong }, lines);
    await book(bad, organizer.apiKey, bookingBody(organizer.eventType.id, at(futureMonday(), 390)));
    await vi.waitFor(async () => expect((await outbox()).some((r) => r.status === "DEAD")).toBe(true), UNTIL);
    const log = lines.join("\n");
    expect(log).toContain("mail: sent");
    expect(log).toContain("mail: given up");
    expect(log).toContain(`smtp://127.0.0.1:${server.port}`);
    expect(log).not.toContain(password);
    const dead = (await outbox()).filter((r) => r.status === "DEAD");
    for (const row of dead) expect(row.lastError).not.toContain(password);
  });
});
