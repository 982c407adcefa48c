// Bookings written into their destination calendar (issue 47), through an outbox as the booking
// e-mails are (docs/adr/0222): a booking change writes a row in its own transaction (a rolled-back
// booking writes nothing); any instance's writer applies it after commit, retries with backoff and
// gives up after CALENDAR_WRITE_MAX_ATTEMPTS (`calendar:dead` lists it, `calendar:resend` puts it
// back). The object's name is the booking's calendar UID: a create is `PUT <uid>.ics` with
// `If-None-Match: *`, so a retry after a crash between the PUT and its record finds the object
// instead of making a second one; a change or a cancel goes with `If-Match` on the ETag just read,
// and a 412 (someone else changed it meanwhile) reads it again. Each object written is a v1
// booking reference (`caldav_calendar`, its UID).
import { type Prisma, type PrismaClient, separatePool } from "@app/db";
import { ICalAttendeeRole, ICalAttendeeStatus } from "ical-generator";
import type pg from "pg";
import { storedCalendarObject } from "../icalendar.ts";
import { describeCalDavError } from "./accounts.ts";
import { CalDavClient, normalizeObjectUrl } from "./caldav-client.ts";
import { type CredentialKeys, openLogin } from "./logins.ts";

type Tx = Prisma.TransactionClient;

/** The NOTIFY channel the outbox's insert trigger wakes writers on (migration 20261207000000). */
export const CALENDAR_WRITES_CHANNEL = "scheduling_calendar_writes";

/** Where a booking's event goes: its event type's destination calendar, else its organizer's (v1's order). */
async function destinationOf(
  tx: Tx,
  booking: { userId: number | null; eventTypeId: number | null },
): Promise<{ credentialId: number; calendarUrl: string } | null> {
  const destination =
    (booking.eventTypeId !== null
      ? await tx.destinationCalendar.findUnique({ where: { eventTypeId: booking.eventTypeId } })
      : null) ??
    (booking.userId !== null
      ? await tx.destinationCalendar.findUnique({ where: { userId: booking.userId } })
      : null);
  if (!destination?.credentialId) return null;
  // The account must still be connected (a disconnected one writes nothing).
  const credential = await tx.credential.findUnique({
    where: { id: destination.credentialId },
    select: { id: true },
  });
  return credential ? { credentialId: credential.id, calendarUrl: destination.externalId } : null;
}

/** The last write a booking's event had (its object's UID and calendar), if any. */
async function lastWriteOf(tx: Tx, bookingId: number) {
  return tx.calendarWrite.findFirst({
    where: { bookingId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { icalUid: true, credentialId: true, calendarUrl: true, op: true },
  });
}

/**
 * Writes, in the booking change's transaction, what its destination calendar must show: `put`
 * (the booking as it now is: created, accepted, moved) or `delete` (cancelled). `originalId`: a
 * reschedule's original, whose object it moves (to another calendar, if the destination changed:
 * a delete there and a put here). Nothing without a connected destination; answers whether any.
 */
export async function enqueueCalendarWrite(
  tx: Tx,
  bookingId: number,
  op: "put" | "delete",
  originalId?: number,
): Promise<boolean> {
  const booking = await tx.booking.findUnique({
    where: { id: bookingId },
    select: { id: true, uid: true, userId: true, eventTypeId: true },
  });
  if (!booking) return false;
  const before = await lastWriteOf(tx, originalId ?? bookingId);
  if (op === "delete") {
    // Only an event that was written (or is about to be) is removed, from where it was written.
    if (!before || before.op === "delete") return false;
    await tx.calendarWrite.create({
      data: {
        bookingId,
        icalUid: before.icalUid,
        op,
        credentialId: before.credentialId,
        calendarUrl: before.calendarUrl,
      },
    });
    return true;
  }
  const destination = await destinationOf(tx, booking);
  const moved =
    before !== null &&
    before.op === "put" &&
    (destination === null ||
      before.credentialId !== destination.credentialId ||
      before.calendarUrl !== destination.calendarUrl);
  if (moved) {
    await tx.calendarWrite.create({
      data: {
        bookingId,
        icalUid: before.icalUid,
        op: "delete",
        credentialId: before.credentialId,
        calendarUrl: before.calendarUrl,
      },
    });
  }
  if (!destination) return moved;
  // The object keeps its UID through reschedules (v1 kept the reference's uid); a new one is the booking's.
  const icalUid = before && !moved ? before.icalUid : booking.uid;
  await tx.calendarWrite.create({ data: { bookingId, icalUid, op, ...destination } });
  return true;
}

export interface CalendarWriterOptions {
  prisma: PrismaClient;
  keys: CredentialKeys | undefined;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** How often due writes are looked for besides the notification each new one sends. */
  pollMs: number;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

interface DueWrite {
  id: string;
  booking_id: number;
  ical_uid: string;
  op: "put" | "delete";
  credential_id: number;
  calendar_url: string;
  attempts: number;
}

const MAX_BACKOFF_MS = 3_600_000;

/** The object a booking's event is in the calendar: `<calendar URL><UID>.ics`. */
export const objectUrl = (calendarUrl: string, uid: string) =>
  normalizeObjectUrl(new URL(`${encodeURIComponent(uid)}.ics`, calendarUrl).href);

export class CalendarWriter {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly pool: pg.Pool;

  constructor(private readonly options: CalendarWriterOptions) {
    // Its own connections: a write holds one while it waits on the calendar server.
    this.pool = separatePool(options.prisma, 2);
  }

  start(): void {
    if (this.running || !this.options.keys) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          while (this.running && (await this.writeOne())) {
            // Due writes first, one after another.
          }
        } catch (error) {
          this.options.log.warn({ err: error }, "calendars: could not look for bookings to write");
        }
        // A retry due before the next poll is not left waiting for it.
        const wait = Math.min(this.options.pollMs, await this.nextDueInMs().catch(() => Infinity));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    })();
  }

  /** How long until the earliest pending write is due (Infinity: none is pending). */
  private async nextDueInMs(): Promise<number> {
    const { rows } = await this.pool.query<{ ms: number | null }>(
      `SELECT greatest(0, extract(epoch FROM min(next_attempt_at) - now()) * 1000)::float8 AS ms
         FROM scheduling.calendar_writes WHERE status = 'PENDING'`,
    );
    return rows[0]?.ms ?? Infinity;
  }

  /** A new write was committed (the caller's own, or a notification): look now. */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.pool.end();
  }

  /**
   * Claims the oldest due write whose booking has no earlier one pending (a booking's changes
   * apply in order), applies it while holding its row, and records the outcome. Answers whether
   * there was one.
   */
  async writeOne(): Promise<boolean> {
    // One connection of the pool, its transaction holding the write's row while it is applied:
    // another instance skips it, and a process that dies mid-write releases it with the connection.
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<DueWrite>(
        `SELECT w.id, w.booking_id, w.ical_uid, w.op, w.credential_id, w.calendar_url, w.attempts
           FROM scheduling.calendar_writes w
          WHERE w.status = 'PENDING' AND w.next_attempt_at <= now()
            AND NOT EXISTS (SELECT 1 FROM scheduling.calendar_writes e
                             WHERE e.ical_uid = w.ical_uid AND e.status = 'PENDING'
                               AND (e.created_at, e.id) < (w.created_at, w.id))
          ORDER BY w.created_at, w.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const write = rows[0];
      if (!write) {
        await client.query("COMMIT");
        return false;
      }
      const failure = await this.apply(write).then(
        () => null,
        (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500),
      );
      if (failure === null) {
        await client.query(
          `UPDATE scheduling.calendar_writes SET status = 'SENT', done_at = now(), last_error = NULL WHERE id = $1`,
          [write.id],
        );
      } else {
        const attempts = write.attempts + 1;
        const dead = attempts >= this.options.maxAttempts;
        const wait = Math.min(this.options.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
        await client.query(
          `UPDATE scheduling.calendar_writes
              SET attempts = $2, last_error = $3, status = $4::scheduling."MailStatus",
                  next_attempt_at = now() + $5 * interval '1 millisecond'
            WHERE id = $1`,
          [write.id, attempts, failure, dead ? "DEAD" : "PENDING", wait],
        );
        this.options.log.warn(
          { bookingId: write.booking_id, calendar: write.calendar_url, attempts, dead, error: failure },
          "calendars: a booking could not be written into its calendar",
        );
      }
      await client.query("COMMIT");
      return true;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  private async apply(write: DueWrite): Promise<void> {
    const credential = await this.options.prisma.credential.findUnique({
      where: { id: write.credential_id },
      select: { id: true, secret: true, keyId: true, type: true },
    });
    if (!credential) throw new Error(`calendar account ${write.credential_id} is no longer connected`);
    if (!this.options.keys) throw new Error("CREDENTIALS_KEY is not set");
    const login = openLogin(this.options.keys, credential);
    const caldav = new CalDavClient({ ...login, timeoutMs: this.options.timeoutMs });
    const url = objectUrl(write.calendar_url, write.ical_uid);
    try {
      if (write.op === "put") await this.put(caldav, url, write);
      else await this.remove(caldav, url);
    } catch (error) {
      throw new Error(describeCalDavError(error, url));
    } finally {
      caldav.close();
    }
    const reference = { type: credential.type, uid: write.ical_uid, externalCalendarId: write.calendar_url };
    if (write.op === "put") {
      // v1's reference row of a CalDAV event: its UID as uid and meetingId, no password or URL.
      const existing = await this.options.prisma.bookingReference.findFirst({
        where: { bookingId: write.booking_id, ...reference },
        select: { id: true },
      });
      if (existing) {
        await this.options.prisma.bookingReference.update({
          where: { id: existing.id },
          data: { deleted: null },
        });
      } else {
        await this.options.prisma.bookingReference.create({
          data: {
            ...reference,
            bookingId: write.booking_id,
            meetingId: write.ical_uid,
            meetingPassword: "",
            meetingUrl: "",
            credentialId: credential.id,
          },
        });
      }
    } else {
      await this.options.prisma.bookingReference.updateMany({ where: reference, data: { deleted: true } });
    }
  }

  /** Creates the object (If-None-Match: *) or replaces it (If-Match: its ETag as read); a 412 reads again. */
  private async put(caldav: CalDavClient, url: string, write: DueWrite): Promise<void> {
    const ics = await this.render(write);
    for (let tries = 0; tries < 5; tries++) {
      const current = await caldav.getObject(url);
      const written =
        current.status === 404
          ? await caldav.putObject(url, ics, { ifNoneMatch: "*" })
          : await caldav.putObject(url, ics, current.etag ? { ifMatch: current.etag } : {});
      if (written.status !== 412) return;
    }
    throw new Error(`${url} kept changing under the write (412 five times)`);
  }

  /** Deletes the object (If-Match: its ETag as read); gone already is done. */
  private async remove(caldav: CalDavClient, url: string): Promise<void> {
    for (let tries = 0; tries < 5; tries++) {
      const current = await caldav.getObject(url);
      if (current.status === 404) return;
      const removed = await caldav.deleteObject(url, current.etag ? { ifMatch: current.etag } : {});
      if (removed.status !== 412) return;
    }
    throw new Error(`${url} kept changing under the delete (412 five times)`);
  }

  /** The booking as its calendar shows it now: rendered at write time, so the latest change wins. */
  private async render(write: DueWrite): Promise<string> {
    const booking = await this.options.prisma.booking.findUniqueOrThrow({
      where: { id: write.booking_id },
      select: {
        title: true,
        description: true,
        location: true,
        startTime: true,
        endTime: true,
        user: { select: { name: true, email: true } },
        attendees: { select: { name: true, email: true }, orderBy: { id: "asc" } },
      },
    });
    // SEQUENCE grows with each write of the object (RFC 5545 §3.8.7.4).
    const sequence = await this.options.prisma.calendarWrite.count({
      where: { icalUid: write.ical_uid, op: "put", status: "SENT" },
    });
    const organizer = booking.user ?? { name: null, email: "nobody@invalid" };
    return storedCalendarObject({
      events: [
        {
          id: write.ical_uid,
          sequence,
          stamp: new Date(),
          start: booking.startTime,
          end: booking.endTime,
          summary: booking.title,
          description: booking.description,
          location: booking.location,
          organizer: { name: organizer.name || organizer.email, email: organizer.email },
          attendees: booking.attendees.map((attendee) => ({
            name: attendee.name || attendee.email,
            email: attendee.email,
            role: ICalAttendeeRole.REQ,
            status: ICalAttendeeStatus.NEEDSACTION,
            rsvp: false,
          })),
        },
      ],
    });
  }
}

/** Writes given up on, oldest first (`calendar:dead`). */
export async function listDeadCalendarWrites(prisma: PrismaClient) {
  return prisma.calendarWrite.findMany({
    where: { status: "DEAD" },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      bookingId: true,
      op: true,
      calendarUrl: true,
      attempts: true,
      lastError: true,
      createdAt: true,
    },
  });
}

/** Puts dead writes back (attempts counted afresh); answers how many. */
export async function resendDeadCalendarWrites(prisma: PrismaClient, which: { id: string } | { all: true }) {
  const { count } = await prisma.calendarWrite.updateMany({
    where: { status: "DEAD", ...("id" in which ? { id: which.id } : {}) },
    data: { status: "PENDING", attempts: 0, nextAttemptAt: new Date(), lastError: null },
  });
  return count;
}
