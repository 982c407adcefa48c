// The calendar feed (docs/adr/0229): one user's bookings as an RFC 5545 calendar to subscribe
// to, written by ../icalendar.ts as the e-mailed invites are (mail/invite.ts). Each event has the
// UID and SEQUENCE its latest invite had (booking_invites), so a calendar that got the invite by
// e-mail and also subscribes sees one event; a booking that was never mailed (no SMTP_URL) gets
// the same as its invites would have had: its reschedule chain's first uid, one step per move.
import { createHash } from "node:crypto";
import type { Prisma, PrismaClient } from "@app/db";
import { ICalAttendeeRole, ICalAttendeeStatus, type ICalEventData, ICalEventStatus } from "ical-generator";
import { icalendarText } from "../icalendar.ts";

/** How far back the feed reaches: a month of past bookings stays visible. */
export const FEED_PAST_DAYS = 30;
/** The most events one feed holds, the soonest first (a calendar app polls it again and again). */
export const FEED_MAX_EVENTS = 1000;
/** What the feed asks calendar apps to poll at (REFRESH-INTERVAL, X-PUBLISHED-TTL), and its max-age. */
export const FEED_REFRESH_SECONDS = 300;

const DAY_MS = 86_400_000;

const feedSelect = {
  id: true,
  uid: true,
  title: true,
  description: true,
  location: true,
  startTime: true,
  endTime: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { name: true, email: true } },
  attendees: { select: { name: true, email: true }, orderBy: { id: "asc" } },
} as const satisfies Prisma.BookingSelect;

type FeedBooking = Prisma.BookingGetPayload<{ select: typeof feedSelect }>;

export interface CalendarFeed {
  body: string;
  /** A strong validator: the body's hash. */
  etag: string;
  /**
   * The latest change to a booking the feed holds or dropped (a cancel, an attendee's change, an
   * event leaving the window); null with no booking.
   */
  lastModified: Date | null;
}

/**
 * The bookings that are the user's, as v1's GET /bookings answers an admin's `userId` filter for
 * them: those they organise and those where their e-mail is an attendee's (a team event's other
 * hosts, a booking made with their address).
 */
function ownedBy(userId: number, email: string): Prisma.BookingWhereInput {
  return { OR: [{ userId }, { attendees: { some: { email: { equals: email, mode: "insensitive" } } } }] };
}

/** The user's feed as of `now`: accepted and pending bookings ending from FEED_PAST_DAYS ago on. */
export async function calendarFeed(
  db: PrismaClient,
  userId: number,
  now = new Date(),
): Promise<CalendarFeed> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, name: true },
  });
  const cutoff = new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS);
  const owned = ownedBy(userId, user.email);
  const window: Prisma.BookingWhereInput = { AND: [owned, { endTime: { gte: cutoff } }] };
  const shown: Prisma.BookingWhereInput = { status: { in: ["ACCEPTED", "PENDING"] } };
  const [bookings, changed, left] = await Promise.all([
    db.booking.findMany({
      where: { AND: [window, shown] },
      select: feedSelect,
      orderBy: [{ startTime: "asc" }, { id: "asc" }],
      take: FEED_MAX_EVENTS,
    }),
    // Cancelled ones count too: a cancel changes the feed by removing its event. An attendee
    // changed (a seat taken, an edit through /attendees) sets its booking's updatedAt (a trigger).
    db.booking.aggregate({ where: window, _max: { updatedAt: true, createdAt: true } }),
    // The last event to leave the window: the feed changed when it did (it ended FEED_PAST_DAYS ago).
    db.booking.findFirst({
      where: { AND: [owned, shown, { endTime: { lt: cutoff } }] },
      orderBy: { endTime: "desc" },
      select: { endTime: true },
    }),
  ]);
  const events = await calendarEvents(db, bookings);
  const body = icalendarText({
    name: `Bookings of ${user.name || user.email}`,
    ttl: FEED_REFRESH_SECONDS,
    events: events.map(({ booking, uid, sequence }) => feedEvent(booking, uid, sequence)),
  });
  const leftAt = left ? new Date(left.endTime.getTime() + FEED_PAST_DAYS * DAY_MS) : null;
  const latest = [changed._max.updatedAt, changed._max.createdAt, leftAt].filter(
    (d): d is Date => d !== null,
  );
  return {
    body,
    etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`,
    lastModified: latest.length === 0 ? null : new Date(Math.max(...latest.map((d) => d.getTime()))),
  };
}

/** A booking as its feed event: the UID and SEQUENCE its e-mailed invites had. */
function feedEvent(booking: FeedBooking, uid: string, sequence: number): ICalEventData {
  const changedAt = booking.updatedAt ?? booking.createdAt;
  return {
    id: uid,
    sequence,
    // DTSTAMP from the row, not the clock: the same bookings give the same body, and ETag.
    stamp: changedAt,
    created: booking.createdAt,
    lastModified: changedAt,
    start: booking.startTime,
    end: booking.endTime,
    summary: booking.title,
    description: booking.description,
    location: booking.location,
    url: webAddress(booking.location),
    status: booking.status === "PENDING" ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    organizer: booking.user
      ? { name: booking.user.name || booking.user.email, email: booking.user.email }
      : null,
    attendees: booking.attendees.map((person) => ({
      name: person.name || person.email,
      email: person.email,
      role: ICalAttendeeRole.REQ,
      status: booking.status === "PENDING" ? ICalAttendeeStatus.NEEDSACTION : ICalAttendeeStatus.ACCEPTED,
    })),
  };
}

/** A location that is a web address (a video call's link) is also the event's URL. */
function webAddress(location: string | null): string | null {
  if (location === null || !/^https?:\/\//i.test(location)) return null;
  try {
    return new URL(location).href;
  } catch {
    return null;
  }
}

interface EventIdentity {
  booking_id: number;
  uid: string;
  sequence: number;
}

/**
 * Each booking's calendar UID and SEQUENCE: its booking_invites row where it was mailed, else its
 * reschedule chain's (the first booking's uid, and how many moves since), as nextInvite would
 * have written them (mail/outbox.ts).
 */
async function calendarEvents(db: PrismaClient, bookings: FeedBooking[]) {
  if (bookings.length === 0) return [];
  const ids = bookings.map((booking) => booking.id);
  const rows = await db.$queryRaw<EventIdentity[]>`
    WITH RECURSIVE chain AS (
      SELECT b.id AS booking_id, b.uid, b."fromReschedule" AS parent, 0 AS depth
        FROM "scheduling"."bookings" b WHERE b.id = ANY(${ids}::int[])
      UNION ALL
      SELECT chain.booking_id, b.uid, b."fromReschedule", chain.depth + 1
        FROM chain JOIN "scheduling"."bookings" b ON b.uid = chain.parent
       WHERE chain.depth < 1000
    ), root AS (
      SELECT DISTINCT ON (booking_id) booking_id, uid, depth FROM chain ORDER BY booking_id, depth DESC
    )
    SELECT root.booking_id, COALESCE(i.ical_uid, root.uid) AS uid, COALESCE(i.sequence, root.depth)::int AS sequence
      FROM root LEFT JOIN "scheduling"."booking_invites" i ON i.booking_id = root.booking_id`;
  const identity = new Map(rows.map((row) => [row.booking_id, row]));
  return bookings.map((booking) => {
    const found = identity.get(booking.id);
    return { booking, uid: found?.uid ?? booking.uid, sequence: found?.sequence ?? 0 };
  });
}
