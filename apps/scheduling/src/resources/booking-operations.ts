// The booking operations that follow v1's own semantics rather than generic CRUD
// (calcom-v1-bookings.md): create books a slot of an event type for its owner or its team's
// hosts (slots/slots.service.ts reserveHosts picks them), list takes
// v1's filters, delete (and /cancel) cancels instead of deleting. Wired in bookings.ts.
import { randomUUID } from "node:crypto";
import { Prisma } from "@app/db";
import type { DeclaredRefusal } from "@app/schemas/refusals";
import {
  BookingCancelBody,
  BookingCancelled,
  BookingCancelQuery,
  BookingCreateBody,
  BookingCreated,
  BookingExpanded,
  BookingListQuery,
  BookingReadQuery,
} from "@app/schemas/scheduling";
import { inTransaction } from "@app/server/idempotency";
import { z } from "zod";
import { enqueueCalendarWrite } from "../calendars/writes.ts";
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized } from "../errors.ts";
import { defaultTitle, languageOf } from "../mail/messages.ts";
import { enqueueBookingMail, type LoadedBooking } from "../mail/outbox.ts";
import {
  assertInBounds,
  type BookingRequest,
  type Db,
  hostsOf,
  loadDynamicGroup,
  loadEventType,
  lockEventHosts,
  reserveHosts,
  type SlotEventType,
} from "../slots/slots.service.ts";
import { MINUTE } from "../slots/time-zones.ts";
import {
  type AccessContext,
  type CustomContext,
  type CustomOperation,
  LOCKING_TRANSACTION,
} from "./resource.ts";

/** What GET shows of a booking's relations (v1's pick), without secret columns. */
export const bookingRelations = {
  attendees: {
    select: { id: true, email: true, name: true, timeZone: true, locale: true },
    orderBy: { id: "asc" },
  },
  user: { select: { email: true, name: true, timeZone: true, locale: true } },
  payment: { select: { id: true, success: true, paymentOption: true } },
} as const;

const expandedEventType = {
  select: { title: true, slug: true, team: { select: { name: true, slug: true } } },
} as const;

const readSelect = (expandTeam: boolean) => ({
  id: true,
  userId: true,
  description: true,
  eventTypeId: true,
  uid: true,
  title: true,
  startTime: true,
  endTime: true,
  attendees: bookingRelations.attendees,
  user: bookingRelations.user,
  payment: bookingRelations.payment,
  metadata: true,
  status: true,
  responses: true,
  fromReschedule: true,
  cancelledBy: true,
  rescheduledBy: true,
  createdAt: true,
  ...(expandTeam ? { eventType: expandedEventType } : {}),
});

const visibleTo = (ctx: CustomContext) => (ctx.auth.isAdmin ? {} : { userId: ctx.auth.userId });

type CreateBody = z.output<typeof BookingCreateBody>;
const LEGACY_PROPS = [
  "name",
  "email",
  "guests",
  "notes",
  "location",
  "smsReminderNumber",
  "rescheduleReason",
] as const;

/** Who is booking, from v1's modern `responses` or its legacy top-level fields. */
function booker(body: CreateBody) {
  if (body.responses) {
    const mixed = LEGACY_PROPS.filter((key) => Boolean(body[key]));
    if (mixed.length > 0)
      throw new BadRequest(`Legacy Props: ${mixed.join(",")}. They can't be used with \`responses\``);
    if (body.customInputs) {
      throw new BadRequest(
        "Don't use both customInputs and responses. `customInputs` is only there for legacy support.",
      );
    }
    const { name, email, location, notes, guests, rescheduleReason } = body.responses;
    const fullName =
      typeof name === "string" ? name : [name.firstName, name.lastName].filter(Boolean).join(" ");
    const where = typeof location === "object" ? location.optionValue || location.value : location;
    return {
      name: fullName,
      email,
      location: where ?? null,
      notes: notes ?? null,
      guests: guests ?? [],
      rescheduleReason: typeof rescheduleReason === "string" ? rescheduleReason : undefined,
      responses: body.responses,
    };
  }
  if (!body.name || !body.email) {
    throw new BadRequest(
      "Send either `responses` ({name, email, ...}) or the legacy `name` and `email` (with `customInputs`)",
      [{ path: "responses", message: "Required" }],
    );
  }
  return {
    name: body.name,
    email: body.email,
    location: body.location || null,
    notes: body.notes ?? null,
    guests: body.guests ?? [],
    rescheduleReason: body.rescheduleReason,
    responses: null,
  };
}

const createdInclude = {
  attendees: { orderBy: { id: "asc" } },
  // email and locale: for its e-mails (the answer shows neither).
  user: { select: { name: true, timeZone: true, username: true, email: true, locale: true } },
  payment: { select: { id: true, success: true, paymentOption: true } },
  references: {
    select: { id: true, type: true, uid: true, meetingId: true, meetingUrl: true, externalCalendarId: true },
  },
} as const;

/**
 * What a booking create refuses beyond its body schema (docs/adr/0214): v1's rules over the
 * clock, the event type's row, the hosts' schedules and bookings, and the series, with v1's messages.
 */
const CREATE_REFUSALS: readonly DeclaredRefusal[] = [
  {
    status: 400,
    answer: "Attempting to book a meeting in the past",
    rule: "the booking starts in the future",
  },
  {
    status: 400,
    answer: "Invalid event length",
    rule: "end, when sent, is start plus the event type's length",
  },
  {
    status: 400,
    answer: "booking_time_out_of_bounds_error",
    rule: "the start lies in the event type's booking window (after its minimum notice, within its period)",
  },
  {
    status: 400,
    answer: "no_available_users_found_error",
    rule: "the host, or the hosts the team event needs, are free at that time by their schedules and bookings",
  },
  {
    status: 400,
    answer: "eventTypeId 0 books a dynamic group",
    rule: "eventTypeId 0 (v1's dynamic group) comes with eventTypeSlug and two or more usernames in user",
  },
  {
    status: 400,
    answer: "recurringCount",
    rule: "on a recurring event type, a series booking (recurringEventId) sends recurringCount, at most the event type's count",
  },
  {
    status: 400,
    answer: "recurring_event_seats_error",
    rule: "a recurring series cannot book a seated event type",
  },
  {
    status: 400,
    answer: "_bookings_cannot_be_rescheduled",
    rule: "a reschedule (rescheduleUid) replaces a booking that is not cancelled, already rescheduled or over",
  },
  {
    status: 400,
    answer: "seated booking cannot be rescheduled",
    rule: "a reschedule does not replace a seated booking",
  },
];

export const createBooking: CustomOperation = {
  summary: "Book a slot of an event type",
  refusals: CREATE_REFUSALS,
  description:
    "v1's create: the booking is for the event type's owner; its attendee is the booker. A team event type's " +
    "booking holds every COLLECTIVE host, or a ROUND_ROBIN event type's fixed hosts and one round-robin host " +
    "chosen by v1's rule (`luckyUsers`); the first host organizes, the others are attendees after the booker. " +
    "The start must be one of the event type's slots (GET /slots). Answers 201 with the booking itself, flat, " +
    "as v1 did (with 200). With an `Idempotency-Key` header, a retry of the same request within 24 hours " +
    "books nothing and answers the first booking again. `rescheduleUid` moves a booking (the original is " +
    "cancelled with `rescheduled: true` in the same transaction); `recurringEventId` books one date of a series; " +
    "a seated slot with room adds the booker to its booking; `eventTypeId: 0` with `eventTypeSlug` and `user` " +
    "books a dynamic group of users.",
  body: BookingCreateBody,
  status: 201,
  response: BookingCreated,
  errors: [400, 401, 404, 409, 429],
  idempotent: true,
  async prepare(ctx, { body }) {
    // Its hosts' calendars synchronised for this booking, before any transaction (docs/adr/0247).
    if (!ctx.calendars) return;
    // handle's refusals in handle's order: the booker's fields are refused before the event type.
    booker(body as CreateBody);
    const { eventType } = await bookedEventType(ctx.db, body as CreateBody);
    await ctx.calendars.refresh(hostsOf(eventType).map((host) => host.user.id));
  },
  async handle(ctx, { body }) {
    const input = body as CreateBody;
    const who = booker(input);
    const { eventType, dynamic } = await bookedEventType(ctx.db, input);
    // v1 refuses this event type before anything else (handleNewBooking).
    if (eventType.seatsPerTimeSlot && eventType.recurringEvent)
      throw new BadRequest("recurring_event_seats_error");
    const recurringEventId = seriesOf(eventType, input);
    const start = input.start;
    const end = input.end ?? new Date(start.getTime() + eventType.length * MINUTE);
    if (end.getTime() - start.getTime() !== eventType.length * MINUTE)
      throw new BadRequest("Invalid event length");
    const now = new Date();
    if (start.getTime() < now.getTime()) throw new BadRequest("Attempting to book a meeting in the past.");
    // Its hosts' calendars, synchronised for this booking by `prepare` (network work holds no
    // lock): the check inside counts only what that sync confirmed (docs/adr/0247).
    const calendarsSyncedSince = ctx.calendars
      ? await ctx.calendars.refresh(hostsOf(eventType).map((host) => host.user.id))
      : undefined;
    const request: BookingRequest = {
      start,
      now,
      timeZone: input.timeZone,
      ...(ctx.calendars ? { calendarStaleMs: ctx.calendars.staleMs, calendarsSyncedSince } : {}),
    };

    const { booking, hosts } = await inTransaction(
      ctx.db,
      async (tx) => {
        // The original first (its row lock, then the hosts' locks: the order every reschedule
        // takes), so a second reschedule of it waits here and then finds it cancelled.
        const original = input.rescheduleUid ? await lockOriginal(tx, input.rescheduleUid, now) : null;
        if (original && eventType.seatsPerTimeSlot)
          throw new BadRequest(
            "A seated booking cannot be rescheduled through this API: cancel it and book the new slot",
          );
        const bookers = [
          { name: who.name, email: who.email, timeZone: input.timeZone, locale: input.language },
          ...who.guests.map((guest) => ({
            name: "",
            email: guest,
            timeZone: input.timeZone,
            locale: input.language,
          })),
        ];
        const seats = eventType.seatsPerTimeSlot ?? 0;
        if (seats > 0) {
          // Under the hosts' locks, so the seats counted are the seats taken: N bookers racing
          // for the last K seats queue here and exactly K get one.
          await lockEventHosts(tx, eventType);
          const seated = await tx.booking.findFirst({
            where: { eventTypeId: eventType.id, startTime: start, status: "ACCEPTED" },
            select: { id: true, attendees: { select: { email: true } } },
          });
          // v1 (handleNewBooking, handleSeats): a slot that already has its booking is not
          // checked for availability again; the booker takes a seat in it, or is refused. Its
          // notice and period are checked first, as for any booking.
          if (seated) {
            assertInBounds(eventType, request);
            const taken = new Set(seated.attendees.map((a) => a.email.toLowerCase()));
            if (taken.has(who.email.toLowerCase()))
              throw new Conflict("already_signed_up_for_this_booking_error");
            assertSeatsFor(seated.attendees.length + bookers.length, seats);
            await tx.attendee.createMany({ data: bookers.map((a) => ({ ...a, bookingId: seated.id })) });
            if (ctx.writesMail) {
              await enqueueBookingMail(tx, {
                kind: "seated",
                bookingId: seated.id,
                noEmail: input.noEmail === true,
                newAttendees: [who.email],
              });
            }
            return {
              booking: await tx.booking.findUniqueOrThrow({
                where: { id: seated.id },
                include: createdInclude,
              }),
              hosts: { luckyUsers: null },
            };
          }
        }
        // Takes the hosts' locks first: the check and the insert below cannot interleave with
        // another booking of theirs, so two bookers cannot both take a host's last free slot.
        const hosts = await reserveHosts(tx, eventType, { ...request, excludeBookingId: original?.id });
        // v1's order: the booker, their guests, then the team's other hosts.
        const attendees = [
          ...bookers,
          ...hosts.others.map((host) => ({
            name: host.name ?? "",
            email: host.email,
            timeZone: host.timeZone,
            locale: host.locale ?? "en",
          })),
        ];
        // The slot's first booking takes seats as a later one does.
        assertSeatsFor(attendees.length, seats);
        // v1's default title (getEventName), in the organizer's language, as v1 stored it
        // (tOrganizer); each e-mail says it in its recipient's (docs/adr/0246).
        const title =
          input.title ??
          defaultTitle(languageOf(hosts.organizer.locale), {
            eventName: eventType.title,
            host: hosts.teamName || hosts.organizer.name || null,
            attendeeName: who.name,
          });
        if (original) {
          // v1's handleNewBooking: the original is cancelled and marked in the same transaction.
          await tx.booking.update({
            where: { id: original.id },
            data: { status: "CANCELLED", rescheduled: true, rescheduledBy: input.rescheduledBy ?? null },
          });
          await tx.bookingReference.deleteMany({ where: { bookingId: original.id } });
        }
        const rescheduleReason = who.rescheduleReason;
        const booking = await tx.booking.create({
          data: {
            uid: randomUUID(),
            userId: hosts.organizer.id,
            eventTypeId: dynamic ? null : eventType.id,
            dynamicEventSlugRef: dynamic?.slug ?? null,
            dynamicGroupSlugRef: dynamic?.group ?? null,
            title,
            description: who.notes ?? input.description ?? null,
            startTime: start,
            endTime: end,
            location: who.location,
            status: eventType.requiresConfirmation ? "PENDING" : "ACCEPTED",
            // v1 keeps the original's metadata under the new one's.
            metadata: { ...metadataOf(original?.metadata), ...input.metadata } as Prisma.InputJsonObject,
            responses: (who.responses as Prisma.InputJsonValue | null) ?? Prisma.DbNull,
            creationSource: "API_V1",
            // v1 records the reschedule on the new booking: where it came from, and why
            // (in cancellationReason, v1's column for it).
            fromReschedule: original?.uid ?? null,
            cancellationReason: original ? (rescheduleReason ?? null) : null,
            recurringEventId,
            // Set under the hosts' locks (not at the transaction's start): the round-robin rule
            // orders bookings by it, and so by the order their hosts were taken in.
            createdAt: new Date(),
            attendees: { create: attendees },
          },
          include: createdInclude,
        });
        // Into its destination calendar (docs/adr/0247): an accepted booking, or a moved one's
        // event, in this transaction; a pending one once it is accepted.
        if (ctx.calendars && booking.status === "ACCEPTED") {
          await enqueueCalendarWrite(tx, booking.id, "put", original?.id);
        } else if (ctx.calendars && original) {
          await enqueueCalendarWrite(tx, original.id, "delete");
        }
        // In this transaction: a booking that rolls back leaves no e-mail, a 201 has its e-mails.
        if (ctx.writesMail) {
          const noEmail = input.noEmail === true;
          await enqueueBookingMail(
            tx,
            original
              ? {
                  kind: "rescheduled",
                  bookingId: booking.id,
                  noEmail,
                  original: {
                    id: original.id,
                    uid: original.uid,
                    start: original.startTime,
                    end: original.endTime,
                  },
                }
              : {
                  kind: "created",
                  bookingId: booking.id,
                  noEmail: input.noEmail,
                  // A date of a series (docs/adr/0231): its invite repeats recurringCount times.
                  series:
                    recurringEventId && recurrenceCount(eventType) !== null
                      ? { count: input.recurringCount ?? 1 }
                      : undefined,
                },
            // What it just wrote, and the event type it holds: the e-mails read nothing back.
            dynamic ? undefined : mailView(booking, eventType),
          );
        }
        return { booking, hosts };
      },
      LOCKING_TRANSACTION,
    );
    const { user, ...row } = booking;
    return {
      ...row,
      user: {
        email: null,
        name: user?.name ?? null,
        timeZone: user?.timeZone ?? "UTC",
        username: user?.username ?? null,
      },
      paymentRequired: false,
      isDryRun: false,
      ...(hosts.luckyUsers ? { luckyUsers: hosts.luckyUsers } : {}),
    };
  },
};

type CreatedBooking = Prisma.BookingGetPayload<{ include: typeof createdInclude }>;

/** A booking just written, as its e-mails read it (mail/outbox.ts `LoadedBooking`), without a query. */
function mailView(booking: CreatedBooking, eventType: SlotEventType): LoadedBooking {
  return {
    id: booking.id,
    uid: booking.uid,
    title: booking.title,
    description: booking.description,
    location: booking.location,
    startTime: booking.startTime,
    endTime: booking.endTime,
    status: booking.status,
    dynamicGroupSlugRef: booking.dynamicGroupSlugRef,
    recurringEventId: booking.recurringEventId,
    eventTypeId: booking.eventTypeId,
    user: booking.user && {
      name: booking.user.name,
      email: booking.user.email,
      timeZone: booking.user.timeZone,
      locale: booking.user.locale,
    },
    attendees: booking.attendees.map(({ name, email, timeZone, locale }) => ({
      name,
      email,
      timeZone,
      locale,
    })),
    eventType: {
      title: eventType.title,
      schedulingType: eventType.schedulingType,
      recurringEvent: eventType.recurringEvent,
      seatsPerTimeSlot: eventType.seatsPerTimeSlot,
      // Read for a new seat only (v1's createNewSeat), which reads its booking instead.
      seatsShowAttendees: null,
      hosts: eventType.hosts.map((host) => ({ user: { email: host.user.email } })),
    },
  };
}

/**
 * v1's full slot (409 `booking_seats_full_error`): a seated booking's attendees, the booker,
 * their guests and a team's other hosts, are its seats taken (docs/adr/0167). `seats` 0: not seated.
 */
function assertSeatsFor(attendees: number, seats: number): void {
  if (seats > 0 && attendees > seats) throw new Conflict("booking_seats_full_error");
}

/** v1's getUsernameList: a list, or one string of usernames joined by "+" (or spaces). */
const usernamesOf = (user: string | string[] | undefined): string[] =>
  [...new Set((Array.isArray(user) ? user : [user ?? ""]).flatMap((u) => u.split(/[+\s]+/)))].filter(Boolean);

/**
 * The event type a booking is for: the stored one, or for `eventTypeId: 0` v1's dynamic group
 * event of the `user` list (handleNewBooking/getEventType.ts, loadUsers.ts): every user a host,
 * each on their own schedule; one who forbids dynamic booking is v1's 400.
 */
async function bookedEventType(db: Db, input: CreateBody) {
  if (input.eventTypeId !== 0)
    return { eventType: await loadEventType(db, { id: input.eventTypeId }), dynamic: null };
  const usernames = usernamesOf(input.user);
  if (!input.eventTypeSlug || usernames.length < 2) {
    throw new BadRequest(
      "eventTypeId 0 books a dynamic group: send eventTypeSlug and two or more usernames in user",
      [
        ...(input.eventTypeSlug ? [] : [{ path: "eventTypeSlug", message: "Required with eventTypeId 0" }]),
        ...(usernames.length < 2
          ? [{ path: "user", message: "two or more usernames with eventTypeId 0" }]
          : []),
      ],
    );
  }
  try {
    const eventType = await loadDynamicGroup(db, usernames);
    return { eventType, dynamic: { slug: input.eventTypeSlug, group: usernames.join("+") } };
  } catch (error) {
    // GET /slots answered v1's 401 for this; v1's booking answered it with a 400.
    if (error instanceof Unauthorized) throw new BadRequest(error.message);
    throw error;
  }
}

const metadataOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

interface Original {
  id: number;
  uid: string;
  status: string;
  rescheduled: boolean | null;
  startTime: Date;
  endTime: Date;
  metadata: unknown;
}

/**
 * The booking a reschedule replaces, locked for this transaction, or v1's refusal
 * (handleNewBooking/getOriginalRescheduledBooking.ts: only ACCEPTED, PENDING and CANCELLED
 * bookings are found). A past one is refused too (docs/adr/0166).
 */
async function lockOriginal(tx: Prisma.TransactionClient, uid: string, now: Date): Promise<Original> {
  const [original] = await tx.$queryRaw<Original[]>`
    SELECT id, uid, status::text AS status, rescheduled, "startTime", "endTime", metadata FROM "scheduling"."bookings"
     WHERE uid = ${uid} AND status IN ('ACCEPTED', 'PENDING', 'CANCELLED') FOR UPDATE`;
  if (!original) throw new NotFound("Could not find original booking");
  if (original.status === "CANCELLED") {
    throw new BadRequest(
      original.rescheduled
        ? "rescheduled_bookings_cannot_be_rescheduled"
        : "cancelled_bookings_cannot_be_rescheduled",
    );
  }
  if (original.endTime.getTime() <= now.getTime())
    throw new BadRequest("past_bookings_cannot_be_rescheduled");
  return original;
}

/** The event type's recurrence as v1 stored it (event-types validates it on the way in). */
const recurrenceCount = (eventType: SlotEventType): number | null => {
  const rule = eventType.recurringEvent as { count?: unknown } | null;
  return rule && typeof rule.count === "number" ? rule.count : null;
};

/**
 * The series a booking joins: `recurringEventId`, stored as sent. On a recurring event type,
 * `recurringCount` is required and at most the event type's count (v1's documented 400s);
 * elsewhere it is ignored, as v1 ignored it (Pipedream sends it whenever its user set it).
 */
function seriesOf(eventType: SlotEventType, input: CreateBody): string | null {
  if (!input.recurringEventId) return null;
  const count = recurrenceCount(eventType);
  if (count !== null) {
    if (input.recurringCount === undefined)
      throw new BadRequest("Missing recurringCount", [{ path: "recurringCount", message: "Required" }]);
    if (input.recurringCount > count) {
      throw new BadRequest("Invalid recurringCount", [
        {
          path: "recurringCount",
          message: `must be at most the event type's recurringEvent.count (${count})`,
        },
      ]);
    }
  }
  return input.recurringEventId;
}

type ListQuery = z.output<typeof BookingListQuery>;

export const listBookings: CustomOperation = {
  summary: "List the bookings you organise",
  refusals: [
    {
      status: 400,
      answer: "Invalid ISO Date",
      rule: "dateFrom and dateTo are dates JavaScript's Date.parse reads, as v1 read them (no format names its grammar)",
    },
  ],
  description:
    "v1's filters: attendeeEmail (repeatable), dateFrom, dateTo, status=upcoming, sortBy + order, expand=team. " +
    "Admins see every booking and may filter by userId (organizer or attendee).",
  querystring: BookingListQuery,
  response: z.object({ bookings: z.array(BookingExpanded) }),
  errors: [400, 401, 403, 429],
  async handle(ctx, { query }) {
    const q = query as ListQuery;
    if (q.userId && !ctx.auth.isAdmin && q.userId.some((id) => id !== ctx.auth.userId)) {
      throw new Forbidden("Only admins can filter by another user's userId");
    }
    let scope: Prisma.BookingWhereInput = visibleTo(ctx);
    if (q.userId && ctx.auth.isAdmin) {
      // v1: bookings those users organise, and those where one of them is an attendee.
      const users = await ctx.db.user.findMany({ where: { id: { in: q.userId } }, select: { email: true } });
      scope = {
        OR: [
          { userId: { in: q.userId } },
          { attendees: { some: { email: { in: users.map((u) => u.email) } } } },
        ],
      };
    }
    const where: Prisma.BookingWhereInput = {
      AND: [
        scope,
        q.attendeeEmail
          ? { attendees: { some: { email: { in: q.attendeeEmail, mode: "insensitive" } } } }
          : {},
        // `status=upcoming` replaces dateFrom, as in v1.
        q.status === "upcoming"
          ? { startTime: { gte: new Date() } }
          : q.dateFrom
            ? { startTime: { gte: q.dateFrom } }
            : {},
        q.dateTo ? { endTime: { lte: q.dateTo } } : {},
      ],
    };
    const rows = await ctx.db.booking.findMany({
      where,
      select: readSelect(q.expand?.includes("team") ?? false),
      orderBy: q.sortBy ? [{ [q.sortBy]: q.order }, { id: "asc" }] : { id: "asc" },
      skip: (q.page - 1) * q.take,
      take: q.take,
    });
    return { bookings: rows };
  },
};

export const readBooking: CustomOperation = {
  summary: "Get a booking",
  querystring: BookingReadQuery,
  response: z.object({ booking: BookingExpanded }),
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { id, query }) {
    const { expand } = query as z.output<typeof BookingReadQuery>;
    await ctx.loadVisible(id);
    const row = await ctx.db.booking.findUniqueOrThrow({
      where: { id: id as number },
      select: readSelect(expand?.includes("team") ?? false),
    });
    return { booking: row };
  },
};

/** v1's cancel: the row stays, CANCELLED, with the reason; its references go; its slot is free again. */
export const cancelBooking: CustomOperation = {
  summary: "Cancel a booking (the row is kept, status CANCELLED)",
  refusals: [
    { status: 400, answer: "has already been cancelled", rule: "the booking is not cancelled yet" },
    {
      status: 400,
      answer: "Cancellation reason is required when you are the host",
      rule: "a cancellationReason, when sent, is not blank (v1's message)",
    },
  ],
  description:
    'As v1: `cancellationReason` (default "Not Provided") and `cancelledBy` come from the query; a JSON body ' +
    "with the same keys is accepted too. The booking's references are removed and its slot is free again. " +
    "With `allRemainingBookings=true` on a booking of a recurring series, every booking of the series that " +
    "has not started yet is cancelled in one statement instead (past ones stay).",
  querystring: BookingCancelQuery,
  body: BookingCancelBody,
  response: BookingCancelled,
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { id, query, body }) {
    const q = query as z.output<typeof BookingCancelQuery>;
    const b = (body ?? {}) as NonNullable<z.output<typeof BookingCancelBody>>;
    const row = (await ctx.loadVisible(id)) as { id: number; uid: string };
    const reason = q.cancellationReason ?? b.cancellationReason;
    const cancelled = {
      status: "CANCELLED" as const,
      cancellationReason: reason ?? "Not Provided",
      cancelledBy: q.cancelledBy ?? b.cancelledBy ?? null,
    };
    const series = q.allRemainingBookings === "true" ? await seriesToCancel(ctx.db, row.id) : null;
    await inTransaction(
      ctx.db,
      async (tx) => {
        // Its status read under its row lock: of cancels racing, the first to take the lock
        // cancels and the others find it cancelled (as does a reschedule, lockOriginal).
        if ((await lockForCancel(tx, row.id, series)) === "CANCELLED")
          throw new BadRequest("This booking has already been cancelled.");
        if (reason !== undefined && reason.trim() === "") {
          throw new BadRequest("Cancellation reason is required when you are the host");
        }
        const ids = series ? await cancelRemaining(tx, series, cancelled) : [row.id];
        if (!series) {
          await tx.booking.update({ where: { id: row.id }, data: cancelled });
          await tx.bookingReference.deleteMany({ where: { bookingId: row.id } });
        }
        // Out of the calendars they were written into.
        if (ctx.calendars) for (const id of ids) await enqueueCalendarWrite(tx, id, "delete");
        // v1's handleCancelBooking tells the organizer, the hosts and the attendees (noEmail is
        // not a cancel parameter), in the cancel's transaction: once, about the booking named,
        // also when the rest of its series goes with it (docs/adr/0231).
        if (ctx.writesMail && ids.length > 0) {
          await enqueueBookingMail(tx, {
            kind: "cancelled",
            bookingId: row.id,
            reason: cancelled.cancellationReason,
            wholeSeries: series !== null,
          });
        }
      },
      LOCKING_TRANSACTION,
    );
    return {
      success: true,
      message: "Booking successfully cancelled.",
      onlyRemovedAttendee: false,
      bookingId: row.id,
      bookingUid: row.uid,
    };
  },
};

/**
 * A PATCH as the destination calendar sees it (docs/adr/0247): an accepted booking (newly, or
 * changed) is written again, one that stops being accepted is removed.
 */
export async function calendarChange(
  ctx: AccessContext,
  before: { status: string },
  after: { id: number; status: string } | null,
): Promise<void> {
  if (!ctx.calendars || after === null) return;
  if (after.status === "ACCEPTED") await enqueueCalendarWrite(ctx.db, after.id, "put");
  else if (before.status === "ACCEPTED") await enqueueCalendarWrite(ctx.db, after.id, "delete");
}

/** A booking's row locked for the transaction (a PATCH's, docs/adr/0238). */
export async function lockBookingRow(db: Db, id: number): Promise<void> {
  await db.$queryRaw`SELECT id FROM "scheduling"."bookings" WHERE id = ${id} FOR UPDATE`;
}

/**
 * v1's confirm handler as a PATCH reaches it (docs/adr/0238): a PENDING booking set ACCEPTED
 * sends the scheduled e-mails with the invite, set REJECTED the declined e-mail with the reason,
 * in the PATCH's transaction. Any other change sends nothing, as v1's PATCH.
 */
export async function mailStatusChange(
  ctx: AccessContext,
  before: { status: string },
  after: { id: number; status: string } | null,
  rejectionReason: string | undefined,
): Promise<void> {
  if (!ctx.writesMail || after === null || before.status !== "PENDING") return;
  if (after.status === "ACCEPTED")
    await enqueueBookingMail(ctx.db, { kind: "accepted", bookingId: after.id });
  if (after.status === "REJECTED") {
    await enqueueBookingMail(ctx.db, {
      kind: "rejected",
      bookingId: after.id,
      reason: rejectionReason ?? null,
    });
  }
}

type Series = { recurringEventId: string; eventTypeId: number };

/**
 * The series a cancel with allRemainingBookings reaches: v1 cancels one only when the booking
 * has a recurringEventId and its event type is recurring (handleCancelBooking); else null.
 */
async function seriesToCancel(db: Db, id: number): Promise<Series | null> {
  const row = await db.booking.findUniqueOrThrow({
    where: { id },
    select: { recurringEventId: true, eventTypeId: true, eventType: { select: { recurringEvent: true } } },
  });
  const { recurringEventId, eventTypeId } = row;
  if (!recurringEventId || eventTypeId === null || row.eventType?.recurringEvent == null) return null;
  return { recurringEventId, eventTypeId };
}

/**
 * Locks the booking a cancel names, with the rest of its series when it cancels that too (all
 * in id order, the order every such cancel takes, so two never wait on each other in a cycle),
 * and answers the booking's status as the lock found it.
 */
async function lockForCancel(tx: Db, id: number, series: Series | null): Promise<string | undefined> {
  const rows = await tx.$queryRaw<{ id: number; status: string }[]>`
    SELECT id, status::text AS status FROM "scheduling"."bookings"
     WHERE id = ${id} OR ("recurringEventId" = ${series?.recurringEventId ?? null}
                          AND "eventTypeId" = ${series?.eventTypeId ?? null})
     ORDER BY id FOR UPDATE`;
  return rows.find((row) => row.id === id)?.status;
}

/**
 * v1's allRemainingBookings: every booking of the series (of this event type) that starts from
 * now on, cancelled in one statement, with their references gone; past ones are kept as they are.
 * Answers the ids it cancelled.
 */
async function cancelRemaining(
  tx: Db,
  row: Series,
  data: { status: "CANCELLED"; cancellationReason: string; cancelledBy: string | null },
): Promise<number[]> {
  const remaining: Prisma.BookingWhereInput = {
    recurringEventId: row.recurringEventId,
    eventTypeId: row.eventTypeId,
    startTime: { gte: new Date() },
    status: { not: "CANCELLED" },
  };
  // Under the locks lockForCancel took: the bookings read here are the ones updated.
  const ids = (
    await tx.booking.findMany({ where: remaining, select: { id: true }, orderBy: { id: "asc" } })
  ).map((booking) => booking.id);
  await tx.bookingReference.deleteMany({ where: { booking: { is: remaining } } });
  await tx.booking.updateMany({ where: remaining, data });
  return ids;
}
