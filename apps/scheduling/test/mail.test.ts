// Booking e-mails (docs/adr/0222, 0223) against a real SMTP server in this process: what a
// booking, a request for confirmation, a cancel and a reschedule send, to whom, in whose time
// zone, with which invite (parsed back by ical.js); the outbox written in the booking's own
// transaction; and a recurring series' invite and cancel. Delivery (retries, the dead state,
// exactly once) and configuration are mail-delivery.test.ts's. Waits are on conditions only.
import type { PrismaClient } from "@app/db";
import ICAL from "ical.js";
import { describe, expect, it, vi } from "vitest";
import type { SchedulingApp } from "../src/app.ts";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, withKey } from "./helpers.ts";
import { inviteOf } from "./mail-helpers.ts";
import { hhmm, mailSuite, parseInvite, to, UNTIL } from "./mail-suite.ts";

let prisma: PrismaClient;
const { smtp, instance, outbox, written, book, bookingBody, host } = mailSuite((_database, madePrisma) => {
  prisma = madePrisma;
});

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
