// Loads what the slot engine needs for one event type (its rules, the schedule v1 would use,
// the host's blocking bookings) and runs it. Takes a Prisma client or a transaction client, so
// booking creation can check a start inside the transaction that holds the host's lock.
import type { Prisma, PrismaClient } from "@app/db";
import { BadRequest, NotFound } from "../errors.ts";
import {
  type AvailabilityRule,
  computeSlots,
  DEFAULT_RULES,
  type ExistingBooking,
  type PeriodType,
  type ScheduleInput,
  type Slot,
} from "./slot-engine.ts";
import { DAY, MINUTE } from "./time-zones.ts";

export type Db = PrismaClient | Prisma.TransactionClient;

const availabilitySelect = { days: true, startTime: true, endTime: true, date: true } as const;
export const scheduleSelect = { timeZone: true, availability: { select: availabilitySelect } } as const;

/** What a user's own schedules contribute when the event type names none. */
export const userScheduleSelect = {
  timeZone: true,
  defaultSchedule: { select: scheduleSelect },
  schedules: { select: scheduleSelect, orderBy: { id: "asc" }, take: 1 },
} as const satisfies Prisma.UserSelect;

type ScheduleRow = Prisma.ScheduleGetPayload<{ select: typeof scheduleSelect }>;
type ScheduleOwner = Prisma.UserGetPayload<{ select: typeof userScheduleSelect }>;

export const eventTypeSelect = {
  id: true,
  title: true,
  length: true,
  userId: true,
  timeZone: true,
  slotInterval: true,
  minimumBookingNotice: true,
  beforeEventBuffer: true,
  afterEventBuffer: true,
  periodType: true,
  periodDays: true,
  periodCountCalendarDays: true,
  periodStartDate: true,
  periodEndDate: true,
  seatsPerTimeSlot: true,
  requiresConfirmation: true,
  schedule: { select: scheduleSelect },
  owner: {
    select: {
      id: true,
      name: true,
      timeZone: true,
      locked: true,
      defaultSchedule: { select: scheduleSelect },
      schedules: { select: scheduleSelect, orderBy: { id: "asc" }, take: 1 },
    },
  },
} as const satisfies Prisma.EventTypeSelect;

export type SlotEventType = Prisma.EventTypeGetPayload<{ select: typeof eventTypeSelect }>;

const minutesOf = (time: Date) => time.getUTCHours() * 60 + time.getUTCMinutes();

function toRule(row: {
  days: number[];
  startTime: Date;
  endTime: Date;
  date: Date | null;
}): AvailabilityRule {
  return {
    days: row.days,
    start: minutesOf(row.startTime),
    end: minutesOf(row.endTime),
    date: row.date ? row.date.toISOString().slice(0, 10) : null,
  };
}

/** The event type, or 404 as v1 answered (`NOT_FOUND`). Team event types have no owner and no slots yet. */
export async function loadEventType(db: Db, where: Prisma.EventTypeWhereInput): Promise<SlotEventType> {
  const eventType = await db.eventType.findFirst({ where, select: eventTypeSelect });
  if (!eventType) throw new NotFound("NOT_FOUND");
  return eventType;
}

/**
 * v1's choice: the event type's schedule, else the host's own for it, else the user's default,
 * else their first, else Monday-Friday 09:00-17:00 (in the event type's zone, else the user's).
 */
export function scheduleFor(
  user: ScheduleOwner | null,
  eventType: { schedule: ScheduleRow | null; timeZone: string | null } | null,
  hostSchedule: ScheduleRow | null = null,
): ScheduleInput {
  const schedule = eventType?.schedule ?? hostSchedule ?? user?.defaultSchedule ?? user?.schedules[0] ?? null;
  const timeZone = schedule?.timeZone ?? eventType?.timeZone ?? user?.timeZone ?? "UTC";
  const rules = schedule ? schedule.availability.map(toRule) : DEFAULT_RULES;
  return { timeZone, rules };
}

/** A user's accepted bookings that can reach into [from, to] once padded by the largest buffers. */
export function bookingsAround(db: Db, userId: number, from: number, to: number, excludeBookingId?: number) {
  const margin = DAY + 24 * 60 * MINUTE;
  return db.booking.findMany({
    where: {
      userId,
      status: "ACCEPTED",
      startTime: { lt: new Date(to + margin) },
      endTime: { gt: new Date(from - margin) },
      ...(excludeBookingId ? { id: { not: excludeBookingId } } : {}),
    },
    select: {
      uid: true,
      title: true,
      startTime: true,
      endTime: true,
      eventTypeId: true,
      eventType: { select: { beforeEventBuffer: true, afterEventBuffer: true } },
      _count: { select: { attendees: true } },
    },
    orderBy: { startTime: "asc" },
  });
}

type BookingRow = Awaited<ReturnType<typeof bookingsAround>>[number];

/** A booking as the slot engine takes it; `eventTypeId`: the event type being computed, if any. */
export function existingBooking(booking: BookingRow, eventTypeId?: number): ExistingBooking {
  return {
    start: booking.startTime,
    end: booking.endTime,
    uid: booking.uid,
    beforeBuffer: booking.eventType?.beforeEventBuffer ?? 0,
    afterBuffer: booking.eventType?.afterEventBuffer ?? 0,
    sameEventType: booking.eventTypeId === eventTypeId,
    attendees: booking._count.attendees,
  };
}

export interface SlotQuery {
  start: Date;
  end: Date;
  now?: Date;
  /** The booker's zone (ROLLING periods end there). */
  timeZone?: string;
  /** A booking that must not block (the one being moved). */
  excludeBookingId?: number;
}

export async function slotsFor(db: Db, eventType: SlotEventType, query: SlotQuery): Promise<Slot[]> {
  const owner = eventType.owner;
  if (!owner || owner.locked) return [];
  const now = query.now ?? new Date();
  const schedule = scheduleFor(owner, eventType);
  // The largest buffers of the event type being booked reach further still.
  const margin = (eventType.beforeEventBuffer + eventType.afterEventBuffer) * MINUTE;
  const bookings = await bookingsAround(
    db,
    owner.id,
    Math.min(query.start.getTime(), now.getTime()) - margin,
    query.end.getTime() + margin,
    query.excludeBookingId,
  );
  return computeSlots(
    {
      ...eventType,
      periodType: eventType.periodType as PeriodType,
    },
    schedule,
    bookings.map((booking) => existingBooking(booking, eventType.id)),
    { from: query.start, to: query.end, now, timeZone: query.timeZone },
  );
}

export async function findSlots(db: Db, query: SlotQuery & { eventTypeId: number }): Promise<Slot[]> {
  return slotsFor(db, await loadEventType(db, { id: query.eventTypeId }), query);
}

/** True exactly when `start` is one of the event type's slots (the grid, hours, bookings, notice, period). */
export async function isBookableStart(
  db: Db,
  eventType: SlotEventType,
  start: Date,
  options: { now?: Date; excludeBookingId?: number } = {},
): Promise<boolean> {
  const slots = await slotsFor(db, eventType, { ...options, start, end: start });
  return slots.some((slot) => slot.time.getTime() === start.getTime());
}

/** `start` < `end`, at most `maxMs` apart; the names are the query's own (startTime/endTime, dateFrom/dateTo). */
export function assertValidRange(
  start: Date,
  end: Date,
  maxMs: number,
  names: { start: string; end: string } = { start: "startTime", end: "endTime" },
): void {
  const days = Math.round(maxMs / DAY);
  const refuse = (message: string) => {
    throw new BadRequest(`custom in '${names.end}': ${message}`, [{ path: names.end, message }]);
  };
  if (end.getTime() <= start.getTime()) refuse(`${names.end} must be after ${names.start}`);
  if (end.getTime() - start.getTime() > maxMs) refuse(`the range may span at most ${days} days`);
}
