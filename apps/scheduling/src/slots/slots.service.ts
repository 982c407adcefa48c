// Loads what the slot engine needs for one event type (its rules, the schedule v1 would use,
// the host's blocking bookings) and runs it. Takes a Prisma client or a transaction client, so
// booking creation can check a start inside the transaction that holds the host's lock.
import type { Prisma, PrismaClient } from "@app/db";
import { BadRequest, NotFound } from "../errors.ts";
import {
  type AvailabilityRule,
  computeSlots,
  DEFAULT_RULES,
  type PeriodType,
  type Slot,
} from "./slot-engine.ts";
import { DAY, MINUTE } from "./time-zones.ts";

export type Db = PrismaClient | Prisma.TransactionClient;

const availabilitySelect = { days: true, startTime: true, endTime: true, date: true } as const;
const scheduleSelect = { timeZone: true, availability: { select: availabilitySelect } } as const;

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

/** v1's choice: the event type's schedule, else the owner's default, else their first, else Mon-Fri 9-17. */
function scheduleOf(eventType: SlotEventType) {
  const owner = eventType.owner;
  const schedule = eventType.schedule ?? owner?.defaultSchedule ?? owner?.schedules[0] ?? null;
  const timeZone = schedule?.timeZone ?? eventType.timeZone ?? owner?.timeZone ?? "UTC";
  const rules = schedule ? schedule.availability.map(toRule) : DEFAULT_RULES;
  return { timeZone, rules };
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
  const schedule = scheduleOf(eventType);
  // Bookings that can reach into the window once padded by the largest buffers.
  const margin = DAY + (eventType.beforeEventBuffer + eventType.afterEventBuffer + 24 * 60) * MINUTE;
  const bookings = await db.booking.findMany({
    where: {
      userId: owner.id,
      status: "ACCEPTED",
      startTime: { lt: new Date(query.end.getTime() + margin) },
      endTime: { gt: new Date(Math.min(query.start.getTime(), now.getTime()) - margin) },
      ...(query.excludeBookingId ? { id: { not: query.excludeBookingId } } : {}),
    },
    select: {
      uid: true,
      startTime: true,
      endTime: true,
      eventTypeId: true,
      eventType: { select: { beforeEventBuffer: true, afterEventBuffer: true } },
      _count: { select: { attendees: true } },
    },
  });
  return computeSlots(
    {
      ...eventType,
      periodType: eventType.periodType as PeriodType,
    },
    schedule,
    bookings.map((b) => ({
      start: b.startTime,
      end: b.endTime,
      uid: b.uid,
      beforeBuffer: b.eventType?.beforeEventBuffer ?? 0,
      afterBuffer: b.eventType?.afterEventBuffer ?? 0,
      sameEventType: b.eventTypeId === eventType.id,
      attendees: b._count.attendees,
    })),
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

export function assertValidRange(start: Date, end: Date, maxMs: number): void {
  if (end.getTime() <= start.getTime()) {
    throw new BadRequest("custom in 'endTime': endTime must be after startTime", [
      { path: "endTime", message: "endTime must be after startTime" },
    ]);
  }
  if (end.getTime() - start.getTime() > maxMs) {
    throw new BadRequest(`custom in 'endTime': the range may span at most ${Math.round(maxMs / DAY)} days`, [
      { path: "endTime", message: `the range may span at most ${Math.round(maxMs / DAY)} days` },
    ]);
  }
}
