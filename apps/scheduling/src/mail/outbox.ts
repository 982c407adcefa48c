// The mail outbox (docs/adr/0222): what a booking change writes, in its own transaction (a
// rolled-back booking leaves no row; the insert's trigger wakes every sender at commit), and
// what `mail:dead` / `mail:resend` read and put back. The change writes one request (its
// messages decided, not rendered: docs/adr/0236); the sender (sender.ts) renders it into the
// outbox's rows (requests.ts) and sends them.
import { type Prisma, type PrismaClient, uuidv7 } from "@app/db";
import type { InviteEvent, Recurrence } from "./invite.ts";
import { type MailKind, type MessageFacts, type Recipient, titleParts } from "./messages.ts";
import { type MailPlan, type StoredMessage, storePlan } from "./requests.ts";

/** The NOTIFY channel the outbox's insert trigger (and `mail:resend`) wakes senders on. */
export const MAIL_CHANNEL = "scheduling_mail";

type Tx = Prisma.TransactionClient;

/** What happened to a booking, as its e-mails tell it. */
export type BookingChange =
  | {
      kind: "created";
      bookingId: number;
      /** As sent: a series' later dates default to true (docs/adr/0231), every other booking to false. */
      noEmail: boolean | undefined;
      /** A date of a series (recurringEventId on a recurring event type): the series' recurringCount. */
      series?: { count: number } | undefined;
    }
  | {
      kind: "rescheduled";
      bookingId: number;
      noEmail: boolean;
      original: { id: number; uid: string; start: Date; end: Date };
    }
  | {
      kind: "cancelled";
      bookingId: number;
      reason: string | null;
      /** allRemainingBookings: one set of e-mails cancels the whole series (docs/adr/0231). */
      wholeSeries?: boolean;
    }
  /** Bookers who took seats in a seated booking that already existed (v1's createNewSeat). */
  | { kind: "seated"; bookingId: number; noEmail: boolean; newAttendees: string[] }
  /** A PENDING booking set ACCEPTED or REJECTED (v1's confirm handler, docs/adr/0238). */
  | { kind: "accepted"; bookingId: number }
  | { kind: "rejected"; bookingId: number; reason: string | null };

const bookingSelect = {
  id: true,
  uid: true,
  title: true,
  description: true,
  location: true,
  startTime: true,
  endTime: true,
  status: true,
  dynamicGroupSlugRef: true,
  recurringEventId: true,
  eventTypeId: true,
  user: { select: { name: true, email: true, timeZone: true, locale: true } },
  attendees: { select: { name: true, email: true, timeZone: true, locale: true }, orderBy: { id: "asc" } },
  eventType: {
    select: {
      title: true,
      schedulingType: true,
      recurringEvent: true,
      seatsPerTimeSlot: true,
      seatsShowAttendees: true,
      hosts: { select: { user: { select: { email: true } } } },
    },
  },
} as const satisfies Prisma.BookingSelect;

/** The booking as its e-mails need it (what the caller holds already, or read here). */
export type LoadedBooking = Prisma.BookingGetPayload<{ select: typeof bookingSelect }>;

/**
 * Writes the e-mails a booking change sends (v1's rules, docs/adr/0223) as one request of the
 * outbox (rendered by a sender, docs/adr/0236), and moves the booking's calendar event on (its
 * UID, SEQUENCE + 1). Call inside the change's transaction; `loaded`: the booking as the change
 * wrote it, when the caller holds it (else it is read here). Answers how many messages it wrote.
 */
export async function enqueueBookingMail(
  tx: Tx,
  change: BookingChange,
  loaded?: LoadedBooking,
): Promise<number> {
  const booking =
    loaded ??
    (await tx.booking.findUniqueOrThrow({
      where: { id: change.bookingId },
      select: bookingSelect,
    }));
  const rule = booking.recurringEventId ? recurrenceOf(booking.eventType?.recurringEvent) : null;
  const series =
    rule && (change.kind === "created" ? change.series : change.kind === "cancelled") ? rule : null;
  // A series' calendar event is its first date's (docs/adr/0231): a cancel moves that one on.
  const seriesEvent = series && change.kind === "cancelled" ? await nextSeriesInvite(tx, booking) : null;
  const invite = seriesEvent ?? (await nextInvite(tx, change, booking.uid));
  let noEmail = change.kind === "rescheduled" || change.kind === "seated" ? change.noEmail : false;
  if (change.kind === "created") {
    // v1's handleNewRecurringBooking: the series' first date sends the e-mails, its later ones
    // none, unless noEmail was sent (then as sent, for every date).
    noEmail = change.noEmail ?? (series !== null && !(await isFirstOfSeries(tx, booking)));
  }
  if (noEmail) return 0;
  const { organizer, hosts, isHost } = await sidesOf(tx, booking);
  // A new seat tells only its own booker (v1's sendScheduledSeatsEmails), the others heard before.
  const joined = change.kind === "seated" ? new Set(change.newAttendees.map((e) => e.toLowerCase())) : null;
  const attendees = booking.attendees.filter(
    (a) => !isHost(a.email) && (joined === null || joined.has(a.email.toLowerCase())),
  );
  const pending = booking.status === "PENDING";
  // v1's AttendeeScheduledEmail, which every attendee e-mail extends: on a seated event type an
  // attendee's e-mail and invite list that attendee and the team's hosts only. Only a new seat's
  // e-mail passes seatsShowAttendees (createNewSeat); every other path leaves it unset.
  const listsEveryone =
    !booking.eventType?.seatsPerTimeSlot ||
    (change.kind === "seated" && booking.eventType.seatsShowAttendees === true);
  const facts: Omit<MessageFacts, "kind"> = {
    title: booking.title,
    // A default title (v1's event name: the event type, the host, the booker) is read by each
    // recipient in their language; any other stays as stored (docs/adr/0246).
    titleParts:
      titleParts(booking.title, booking.eventType?.title ?? null, booking.attendees[0]?.name ?? "") ??
      undefined,
    description: booking.description,
    location: booking.location,
    start: booking.startTime,
    end: booking.endTime,
    organizer,
    attendees: booking.attendees.map(({ name, email }) => ({ name, email })),
    ...(change.kind === "rescheduled"
      ? { previous: { start: change.original.start, end: change.original.end } }
      : {}),
    ...(change.kind === "cancelled" || change.kind === "rejected" ? { reason: change.reason } : {}),
  };
  // What repeats: a series' invite (created: recurringCount times from this date); a whole
  // series cancelled: the series that was invited, its dates booked from its first one (not
  // the event type's count, which v1's cancel carried: docs/adr/0245).
  let repeat: Recurrence | undefined;
  let occurrence: Date | undefined;
  if (series && change.kind === "created")
    repeat = { ...series, count: change.series?.count ?? series.count };
  if (series && seriesEvent && change.kind === "cancelled") {
    if (change.wholeSeries) repeat = { ...series, count: await seriesDates(tx, booking) };
    else occurrence = booking.startTime;
  }
  if (repeat) facts.recurrence = repeat;
  const inviteFacts: InviteEvent = {
    uid: invite.icalUid,
    sequence: invite.sequence,
    method: change.kind === "cancelled" ? "CANCEL" : "REQUEST",
    title: booking.title,
    description: booking.description,
    location: booking.location,
    start: seriesEvent && repeat ? seriesEvent.start : booking.startTime,
    end: seriesEvent && repeat ? seriesEvent.end : booking.endTime,
    organizer,
    attendees: booking.attendees.map(({ name, email }) => ({ name, email })),
    stamp: new Date(),
    repeat,
    occurrence,
  };
  const plan: MailPlan = { facts, event: inviteFacts, messages: [] };
  const organizerSide = [organizer, ...hosts].filter((r) => r.email !== "");
  const messages = plan.messages;
  // Decided here, rendered by the sender (requests.ts): the same messages, in the same order.
  const add = (
    kind: MailKind,
    side: "organizer" | "attendee",
    to: Recipient,
    invite: StoredMessage["invite"],
    about: StoredMessage["about"] = "change",
  ) => {
    if (messages.some((message) => message.to.email.toLowerCase() === to.email.toLowerCase())) return;
    const { name, email, timeZone, locale } = to;
    const message: StoredMessage = { kind, side, to: { name, email, timeZone, locale }, invite, about };
    if (side === "attendee" && !listsEveryone) {
      const self = email.toLowerCase();
      message.shows = booking.attendees
        .filter((a) => a.email.toLowerCase() === self || isHost(a.email))
        .map((a) => ({ name: a.name, email: a.email }));
    }
    messages.push(message);
  };
  if (change.kind === "rejected") {
    // v1's sendDeclinedEmails: each attendee, without an invite (the event was never confirmed,
    // so no calendar holds it); the organizer's side, who declined it, gets none.
    for (const to of attendees) add("declined", "attendee", to, null);
  } else if (change.kind !== "cancelled" && pending) {
    // v1: a booking that needs confirmation asks the organizer (and a team's hosts), and tells
    // the booker alone that it waits; no invite until it is confirmed.
    for (const to of organizerSide) add("request", "organizer", to, null);
    if (attendees[0]) add("awaiting", "attendee", attendees[0], null);
  } else if (change.kind === "rescheduled" && booking.eventType?.schedulingType === "ROUND_ROBIN") {
    // v1's round-robin reschedule may change hosts: those kept hear of the move, a new one of a
    // new event, one dropped of a cancellation (of the original time, with a CANCEL invite).
    const original = await tx.booking.findUniqueOrThrow({
      where: { id: change.original.id },
      select: bookingSelect,
    });
    const before = await sidesOf(tx, original);
    const was = [before.organizer, ...before.hosts].filter((r) => r.email !== "");
    const had = new Set(was.map((r) => r.email.toLowerCase()));
    const has = new Set(organizerSide.map((r) => r.email.toLowerCase()));
    for (const to of organizerSide)
      add(had.has(to.email.toLowerCase()) ? "rescheduled" : "scheduled", "organizer", to, "event");
    plan.dropped = { ...inviteFacts, method: "CANCEL", start: original.startTime, end: original.endTime };
    plan.original = { ...facts, start: original.startTime, end: original.endTime, previous: undefined };
    for (const to of was)
      if (!has.has(to.email.toLowerCase())) add("cancelled", "organizer", to, "dropped", "original");
    for (const to of attendees) add("rescheduled", "attendee", to, "event");
  } else {
    // A confirmation sends what a booking confirmed by default sends (v1's handleConfirmation:
    // sendScheduledEmailsAndSMS), with the invite.
    const kind: MailKind =
      change.kind === "created" || change.kind === "seated" || change.kind === "accepted"
        ? "scheduled"
        : change.kind;
    for (const to of organizerSide) add(kind, "organizer", to, "event");
    for (const to of attendees) add(kind, "attendee", to, "event");
  }
  if (messages.length > 0) {
    // In SQL: under the hosts' locks, where Prisma's createMany cost twice the insert itself
    // (measured 0.9-2.4 ms against 0.5-0.7 ms a booking, docs/performance.md).
    await tx.$executeRaw`
      INSERT INTO "scheduling"."mail_requests" ("id", "booking_uid", "messages", "facts")
      VALUES (${uuidv7()}::uuid, ${booking.uid}, ${messages.length}, ${JSON.stringify(storePlan(plan))}::jsonb)`;
  }
  return messages.length;
}

/**
 * The calendar event's next state: a new booking starts its own (UID = its uid, SEQUENCE 0); a
 * reschedule continues the original's (same UID, SEQUENCE + 1, as v1's iCalUID/iCalSequence); a
 * cancel, a new seat (the attendees changed) or a confirmation (the feed's TENTATIVE event is
 * CONFIRMED) moves its booking's on by one. Stored for the next change. A rejection sends no
 * invite and leaves it where it was.
 */
async function nextInvite(
  tx: Tx,
  change: BookingChange,
  uid: string,
): Promise<{ icalUid: string; sequence: number }> {
  if (change.kind === "rejected") {
    const current = await tx.bookingInvite.findUnique({ where: { bookingId: change.bookingId } });
    return { icalUid: current?.icalUid ?? uid, sequence: current?.sequence ?? 0 };
  }
  if (change.kind === "cancelled" || change.kind === "seated" || change.kind === "accepted") {
    const current = await tx.bookingInvite.findUnique({ where: { bookingId: change.bookingId } });
    const next = { icalUid: current?.icalUid ?? uid, sequence: (current?.sequence ?? 0) + 1 };
    await tx.bookingInvite.upsert({
      where: { bookingId: change.bookingId },
      create: { bookingId: change.bookingId, ...next },
      update: { sequence: next.sequence },
    });
    return next;
  }
  let next: { icalUid: string; sequence: number };
  if (change.kind === "rescheduled") {
    const original = await tx.bookingInvite.findUnique({ where: { bookingId: change.original.id } });
    next = { icalUid: original?.icalUid ?? change.original.uid, sequence: (original?.sequence ?? 0) + 1 };
  } else {
    // A new booking's event is its own (UID = its uid, SEQUENCE 0), which is what every reader
    // takes for a booking without a row (the next change, the calendar feed): nothing to store.
    return { icalUid: uid, sequence: 0 };
  }
  await tx.bookingInvite.create({ data: { bookingId: change.bookingId, ...next } });
  return next;
}

/** The event type's recurrence as stored (event-types validates it on the way in), or null. */
function recurrenceOf(stored: unknown): Recurrence | null {
  const rule = stored as { freq?: unknown; interval?: unknown; count?: unknown } | null;
  if (!rule || typeof rule.count !== "number" || typeof rule.freq !== "number") return null;
  return {
    freq: rule.freq,
    interval: typeof rule.interval === "number" ? rule.interval : 1,
    count: rule.count,
  };
}

/** Whether no other booking of its series (same recurringEventId and event type) existed before it. */
async function isFirstOfSeries(tx: Tx, booking: LoadedBooking): Promise<boolean> {
  const earlier = await tx.booking.count({
    where: {
      recurringEventId: booking.recurringEventId,
      eventTypeId: booking.eventTypeId,
      id: { not: booking.id },
    },
  });
  return earlier === 0;
}

/**
 * How many dates a series booked (its invite's COUNT: each date POSTed with its recurringCount),
 * whatever became of them since: a date moved by a reschedule is counted once, a cancelled one
 * still counts (the invite announced it).
 */
async function seriesDates(tx: Tx, booking: LoadedBooking): Promise<number> {
  const [row] = await tx.$queryRaw<{ dates: number }[]>`
    SELECT count(*)::int AS dates FROM "scheduling"."bookings" b
     WHERE b."recurringEventId" = ${booking.recurringEventId} AND b."eventTypeId" = ${booking.eventTypeId}
       AND NOT EXISTS (
         SELECT 1 FROM "scheduling"."bookings" moved
          WHERE moved.uid = b."fromReschedule"
            AND moved."recurringEventId" = b."recurringEventId" AND moved."eventTypeId" = b."eventTypeId")`;
  return row?.dates ?? 1;
}

/**
 * The series' calendar event, moved on by one: its first date's (UID = that booking's, as its
 * invite announced the whole series), SEQUENCE + 1, with that date's times for a whole-series CANCEL.
 */
async function nextSeriesInvite(tx: Tx, booking: LoadedBooking) {
  const first = await tx.booking.findFirstOrThrow({
    where: { recurringEventId: booking.recurringEventId, eventTypeId: booking.eventTypeId },
    orderBy: { id: "asc" },
    select: { id: true, uid: true, startTime: true, endTime: true },
  });
  const current = await tx.bookingInvite.findUnique({ where: { bookingId: first.id } });
  const next = { icalUid: current?.icalUid ?? first.uid, sequence: (current?.sequence ?? 0) + 1 };
  await tx.bookingInvite.upsert({
    where: { bookingId: first.id },
    create: { bookingId: first.id, ...next },
    update: { sequence: next.sequence },
  });
  return { ...next, start: first.startTime, end: first.endTime };
}

/**
 * The booking's organizer side: its organizer, and its other hosts among its attendees (v1's
 * team members, who get the organizer's e-mail); everyone else on it gets the attendee's.
 */
async function sidesOf(tx: Tx, booking: LoadedBooking) {
  const organizer: Recipient = booking.user
    ? {
        name: booking.user.name ?? "",
        email: booking.user.email,
        timeZone: booking.user.timeZone,
        locale: booking.user.locale,
      }
    : { name: "", email: "", timeZone: "UTC", locale: null };
  const hostEmails = await hostEmailsOf(tx, booking);
  const isHost = (email: string) => hostEmails.has(email.toLowerCase());
  return { organizer, hosts: booking.attendees.filter((a) => isHost(a.email)), isHost };
}

/** The e-mail addresses of the booking's other hosts: its team event type's, or its dynamic group's users. */
async function hostEmailsOf(tx: Tx, booking: LoadedBooking): Promise<Set<string>> {
  const emails = (booking.eventType?.hosts ?? []).map((host) => host.user.email);
  if (booking.dynamicGroupSlugRef) {
    const users = await tx.user.findMany({
      where: { username: { in: booking.dynamicGroupSlugRef.split("+") } },
      select: { email: true },
    });
    emails.push(...users.map((user) => user.email));
  }
  const organizer = booking.user?.email.toLowerCase();
  return new Set(emails.map((email) => email.toLowerCase()).filter((email) => email !== organizer));
}

export interface DeadMail {
  id: string;
  bookingUid: string;
  /** The message's kind; `unrendered` for a booking change whose e-mails could not be rendered (docs/adr/0241). */
  kind: string;
  /** Its recipient; an unrendered change's recipients, comma-separated, as far as they can be read. */
  recipient: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
}

/** The recipients a stored request names, as far as its JSON can be read. */
function recipientsOf(facts: unknown): string {
  const messages = (facts as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return "";
  return messages
    .map((message) => (message as { to?: { email?: unknown } } | null)?.to?.email)
    .filter((email): email is string => typeof email === "string")
    .join(", ");
}

/**
 * What `mail:dead` lists, oldest first: dead e-mails, and booking changes whose e-mails could not
 * be rendered (one entry per change, by the request's id: docs/adr/0241).
 */
export async function listDeadMail(prisma: PrismaClient): Promise<DeadMail[]> {
  const [rows, requests] = await Promise.all([
    prisma.mailOutbox.findMany({
      where: { status: "DEAD" },
      select: {
        id: true,
        bookingUid: true,
        kind: true,
        recipient: true,
        attempts: true,
        lastError: true,
        createdAt: true,
      },
    }),
    prisma.mailRequest.findMany({
      where: { failedAt: { not: null } },
      select: { id: true, bookingUid: true, facts: true, lastError: true, createdAt: true },
    }),
  ]);
  const unrendered = requests.map((request) => ({
    id: request.id,
    bookingUid: request.bookingUid,
    kind: "unrendered",
    recipient: recipientsOf(request.facts),
    attempts: 1,
    lastError: request.lastError,
    createdAt: request.createdAt,
  }));
  return [...rows, ...unrendered].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
}

/**
 * Puts dead e-mails back (one by id, or all): pending, due now, with their attempts counted
 * afresh; a booking change whose e-mails could not be rendered is put back to be rendered again
 * (by a release that can, docs/adr/0241). Wakes the senders. Answers how many were put back (one
 * that is not dead is not touched).
 */
export async function resendDeadMail(
  prisma: PrismaClient,
  which: { id: string } | { all: true },
): Promise<number> {
  const only = "id" in which ? { id: which.id } : {};
  return prisma.$transaction(async (tx) => {
    const { count: rows } = await tx.mailOutbox.updateMany({
      where: { status: "DEAD", ...only },
      data: { status: "PENDING", attempts: 0, nextAttemptAt: new Date(), lastError: null },
    });
    const { count: requests } = await tx.mailRequest.updateMany({
      where: { failedAt: { not: null }, ...only },
      data: { failedAt: null, lastError: null },
    });
    const count = rows + requests;
    if (count > 0) await tx.$executeRaw`SELECT pg_notify(${MAIL_CHANNEL}, '')`;
    return count;
  });
}
