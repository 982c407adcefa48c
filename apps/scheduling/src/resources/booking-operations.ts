// The booking operations that follow v1's own semantics rather than generic CRUD
// (calcom-v1-bookings.md): create books a slot of an event type for its owner or its team's
// hosts (slots/slots.service.ts reserveHosts picks them), list takes
// v1's filters, delete (and /cancel) cancels instead of deleting. Wired in bookings.ts.
import { randomUUID } from "node:crypto";
import { Prisma } from "@app/db";
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
import { BadRequest, Conflict, Forbidden } from "../errors.ts";
import { loadEventType, reserveHosts } from "../slots/slots.service.ts";
import { MINUTE } from "../slots/time-zones.ts";
import type { CustomContext, CustomOperation } from "./resource.ts";

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
    const { name, email, location, notes, guests } = body.responses;
    const fullName =
      typeof name === "string" ? name : [name.firstName, name.lastName].filter(Boolean).join(" ");
    const where = typeof location === "object" ? location.optionValue || location.value : location;
    return {
      name: fullName,
      email,
      location: where ?? null,
      notes: notes ?? null,
      guests: guests ?? [],
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
    responses: null,
  };
}

/**
 * The booking transaction waits for its hosts' locks while holding a connection: many bookings
 * of one team queue there, so they get longer than Prisma's defaults (2 s to get a connection,
 * 5 s in all) before giving up.
 */
const BOOKING_TRANSACTION = { maxWait: 10_000, timeout: 20_000 } as const;

const createdInclude = {
  attendees: { orderBy: { id: "asc" } },
  user: { select: { name: true, timeZone: true, username: true } },
  payment: { select: { id: true, success: true, paymentOption: true } },
  references: {
    select: { id: true, type: true, uid: true, meetingId: true, meetingUrl: true, externalCalendarId: true },
  },
} as const;

export const createBooking: CustomOperation = {
  summary: "Book a slot of an event type",
  description:
    "v1's create: the booking is for the event type's owner; its attendee is the booker. A team event type's " +
    "booking holds every COLLECTIVE host, or a ROUND_ROBIN event type's fixed hosts and one round-robin host " +
    "chosen by v1's rule (`luckyUsers`); the first host organizes, the others are attendees after the booker. " +
    "The start must be one of the event type's slots (GET /slots). Answers 201 with the booking itself, flat, " +
    "as v1 did (with 200). With an `Idempotency-Key` header, a retry of the same request within 24 hours " +
    "books nothing and answers the first booking again.",
  body: BookingCreateBody,
  status: 201,
  response: BookingCreated,
  errors: [400, 401, 404, 409, 429],
  idempotent: true,
  async handle(ctx, { body }) {
    const input = body as CreateBody;
    const who = booker(input);
    const eventType = await loadEventType(ctx.db, { id: input.eventTypeId });
    const start = input.start;
    const end = input.end ?? new Date(start.getTime() + eventType.length * MINUTE);
    if (end.getTime() - start.getTime() !== eventType.length * MINUTE)
      throw new BadRequest("Invalid event length");
    const now = new Date();
    if (start.getTime() < now.getTime()) throw new BadRequest("Attempting to book a meeting in the past.");

    const { booking, hosts } = await inTransaction(
      ctx.db,
      async (tx) => {
        // Takes the hosts' locks first: the check and the insert below cannot interleave with
        // another booking of theirs, so two bookers cannot both take a host's last free slot.
        const hosts = await reserveHosts(tx, eventType, start, now);
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
        const seated =
          seats > 0
            ? await tx.booking.findFirst({
                where: { eventTypeId: eventType.id, startTime: start, status: "ACCEPTED" },
                select: { id: true, _count: { select: { attendees: true } } },
              })
            : null;
        if (seated) {
          if (seated._count.attendees + bookers.length > seats)
            throw new Conflict("booking_seats_full_error");
          await tx.attendee.createMany({ data: bookers.map((a) => ({ ...a, bookingId: seated.id })) });
          return {
            booking: await tx.booking.findUniqueOrThrow({
              where: { id: seated.id },
              include: createdInclude,
            }),
            hosts,
          };
        }
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
        const host = hosts.teamName ?? hosts.organizer.name ?? "the host";
        const booking = await tx.booking.create({
          data: {
            uid: randomUUID(),
            userId: hosts.organizer.id,
            eventTypeId: eventType.id,
            title: input.title ?? `${eventType.title} between ${host} and ${who.name}`,
            description: who.notes ?? input.description ?? null,
            startTime: start,
            endTime: end,
            location: who.location,
            status: eventType.requiresConfirmation ? "PENDING" : "ACCEPTED",
            metadata: input.metadata,
            responses: (who.responses as Prisma.InputJsonValue | null) ?? Prisma.DbNull,
            creationSource: "API_V1",
            // Set under the hosts' locks (not at the transaction's start): the round-robin rule
            // orders bookings by it, and so by the order their hosts were taken in.
            createdAt: new Date(),
            attendees: { create: attendees },
          },
          include: createdInclude,
        });
        return { booking, hosts };
      },
      BOOKING_TRANSACTION,
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

type ListQuery = z.output<typeof BookingListQuery>;

export const listBookings: CustomOperation = {
  summary: "List the bookings you organise",
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
  description:
    'As v1: `cancellationReason` (default "Not Provided") and `cancelledBy` come from the query; a JSON body ' +
    "with the same keys is accepted too. The booking's references are removed and its slot is free again.",
  querystring: BookingCancelQuery,
  body: BookingCancelBody,
  response: BookingCancelled,
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { id, query, body }) {
    const q = query as z.output<typeof BookingCancelQuery>;
    const b = (body ?? {}) as NonNullable<z.output<typeof BookingCancelBody>>;
    const row = (await ctx.loadVisible(id)) as { id: number; uid: string; status: string };
    if (row.status === "CANCELLED") throw new BadRequest("This booking has already been cancelled.");
    const reason = q.cancellationReason ?? b.cancellationReason;
    if (reason !== undefined && reason.trim() === "") {
      throw new BadRequest("Cancellation reason is required when you are the host");
    }
    await ctx.db.$transaction([
      ctx.db.booking.update({
        where: { id: row.id },
        data: {
          status: "CANCELLED",
          cancellationReason: reason ?? "Not Provided",
          cancelledBy: q.cancelledBy ?? b.cancelledBy ?? null,
        },
      }),
      ctx.db.bookingReference.deleteMany({ where: { bookingId: row.id } }),
    ]);
    return {
      success: true,
      message: "Booking successfully cancelled.",
      onlyRemovedAttendee: false,
      bookingId: row.id,
      bookingUid: row.uid,
    };
  },
};
