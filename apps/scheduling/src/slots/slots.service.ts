// Loads what the slot engine needs for one event type (its rules, its hosts with the schedule
// v1 would use for each, their blocking bookings) and runs it. Takes a Prisma client or a
// transaction client: booking creation checks a start, and picks its hosts, inside the
// transaction that holds the hosts' locks (reserveHosts).

import { Prisma, type PrismaClient } from "@app/db";
import type { DeclaredRefusal } from "@app/schemas/refusals";
import {
  type CalendarBusy,
  type BusyReadOptions as CalendarReadOptions,
  calendarBusy,
  DEFAULT_CALENDAR_STALE_MS,
} from "../calendars/busy.ts";
import { BadRequest, Conflict, NotFound, Unauthorized } from "../errors.ts";
import { pickRoundRobinHost, type RoundRobinHost } from "./round-robin.ts";
import {
  type AvailabilityRule,
  computeTeamSlots,
  DEFAULT_RULES,
  type ExistingBooking,
  type HostInput,
  hostsFreeAt,
  inPeriod,
  type PeriodType,
  type ScheduleInput,
  type Slot,
  type SlotRules,
  slotSpan,
  type TeamSlotWindow,
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

/** What a host brings: their schedules, and what a booking records of them. */
const hostUserSelect = {
  id: true,
  name: true,
  email: true,
  username: true,
  locale: true,
  locked: true,
  ...userScheduleSelect,
} as const satisfies Prisma.UserSelect;

export const eventTypeSelect = {
  id: true,
  title: true,
  length: true,
  userId: true,
  teamId: true,
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
  recurringEvent: true,
  requiresConfirmation: true,
  schedulingType: true,
  isRRWeightsEnabled: true,
  schedule: { select: scheduleSelect },
  team: { select: { name: true } },
  owner: { select: hostUserSelect },
  // By user id: the order ties are broken in, and the first fixed host organizes.
  hosts: {
    select: {
      isFixed: true,
      priority: true,
      weight: true,
      schedule: { select: scheduleSelect },
      user: { select: hostUserSelect },
    },
    orderBy: { userId: "asc" },
  },
} as const satisfies Prisma.EventTypeSelect;

export type SlotEventType = Prisma.EventTypeGetPayload<{ select: typeof eventTypeSelect }>;
export type HostUser = Prisma.UserGetPayload<{ select: typeof hostUserSelect }>;
type StoredSchedule = NonNullable<SlotEventType["schedule"]>;

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

/** The event type, or 404 as v1 answered (`NOT_FOUND`). */
export async function loadEventType(db: Db, where: Prisma.EventTypeWhereInput): Promise<SlotEventType> {
  const eventType = await db.eventType.findFirst({ where, select: eventTypeSelect });
  if (!eventType) throw new NotFound("NOT_FOUND");
  return eventType;
}

/**
 * v1's dynamic group event (`usernameList` of two or more): every user a fixed host, on their
 * own schedule, with v1's defaults for it (cal.com packages/lib/defaultEvents.ts: 30 minutes,
 * 120 minutes' notice, no buffers, no period). 404 when a username is unknown (docs/adr/0159).
 */
export async function loadDynamicGroup(db: Db, usernames: string[]): Promise<SlotEventType> {
  const users = await db.user.findMany({
    where: { username: { in: usernames } },
    select: { ...hostUserSelect, allowDynamicBooking: true },
    orderBy: { id: "asc" },
  });
  if (users.length !== new Set(usernames).size) throw new NotFound("NOT_FOUND");
  if (users.some((user) => user.allowDynamicBooking === false))
    throw new Unauthorized("Some of the users in this group do not allow dynamic booking");
  return {
    id: 0,
    title: "Group Meeting",
    length: 30,
    userId: null,
    teamId: null,
    timeZone: null,
    slotInterval: null,
    minimumBookingNotice: 120,
    beforeEventBuffer: 0,
    afterEventBuffer: 0,
    periodType: "UNLIMITED",
    periodDays: null,
    periodCountCalendarDays: true,
    periodStartDate: null,
    periodEndDate: null,
    seatsPerTimeSlot: null,
    recurringEvent: null,
    requiresConfirmation: false,
    schedulingType: "COLLECTIVE",
    isRRWeightsEnabled: false,
    schedule: null,
    team: null,
    owner: null,
    hosts: users.map(({ allowDynamicBooking: _, ...user }) => ({
      isFixed: true,
      priority: null,
      weight: null,
      schedule: null,
      user,
    })),
  };
}

/** One host as the engine and the booking see them. */
export interface SlotHost extends HostInput, RoundRobinHostFields {
  user: HostUser;
}
type RoundRobinHostFields = Pick<RoundRobinHost, "priority" | "weight">;

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
  return { timeZone, rules: schedule ? schedule.availability.map(toRule) : DEFAULT_RULES };
}

/** A host's schedule for the event type; a locked user has no working hours at all. */
function scheduleOf(
  eventType: SlotEventType,
  user: HostUser,
  hostSchedule: StoredSchedule | null,
): ScheduleInput {
  const schedule = scheduleFor(user, eventType, hostSchedule);
  return user.locked ? { ...schedule, rules: [] } : schedule;
}

// The first instant of year 1 and the first past year 9999: every booking lies between them
// (the schemas take years 1 to 9999), and PostgreSQL refuses year 0.
const FIRST_BOOKABLE = Date.parse("0001-01-01T00:00:00Z");
const PAST_LAST_BOOKABLE = Date.parse("+010000-01-01T00:00:00Z");

/**
 * Bookings that overlap [from - margin, to + margin]. The widened bounds stay within the years a
 * booking can hold: a query at year 1 (or buffers of millennia) would reach year 0 and fail.
 */
function overlapping(from: number, to: number, margin: number) {
  return {
    // Year 10000 itself cannot be sent (Prisma refuses the date): the last instant of 9999 can.
    startTime:
      to + margin < PAST_LAST_BOOKABLE
        ? { lt: new Date(to + margin) }
        : { lte: new Date(PAST_LAST_BOOKABLE - 1) },
    endTime: { gt: new Date(Math.max(from - margin, FIRST_BOOKABLE)) },
  } satisfies Prisma.BookingWhereInput;
}

/** A user's accepted bookings that can reach into [from, to] once padded by the largest buffers. */
export function bookingsAround(db: Db, userId: number, from: number, to: number) {
  const margin = DAY + 24 * 60 * MINUTE;
  return db.booking.findMany({
    where: { userId, status: "ACCEPTED", ...overlapping(from, to, margin) },
    select: { ...bookingSelect, title: true },
    orderBy: { startTime: "asc" },
  });
}

type BookingFields = Prisma.BookingGetPayload<{ select: typeof bookingSelect }>;

/** A booking as the slot engine takes it; `eventTypeId`: the event type being computed, if any. */
export function existingBooking(booking: BookingFields, eventTypeId?: number): ExistingBooking {
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

/** COLLECTIVE and ROUND_ROBIN event types are booked with their host rows (v1: `hosts.length && schedulingType`). */
const isTeamScheduled = (eventType: SlotEventType) =>
  (eventType.schedulingType === "COLLECTIVE" || eventType.schedulingType === "ROUND_ROBIN") &&
  eventType.hosts.length > 0;

/**
 * The event type's hosts, without their bookings yet: its host rows for a team-scheduled one
 * (every COLLECTIVE host fixed), else its owner; none for a team event type without hosts.
 */
export function hostsOf(eventType: SlotEventType): Omit<SlotHost, "bookings">[] {
  if (isTeamScheduled(eventType)) {
    return eventType.hosts.map((host) => ({
      user: host.user,
      fixed: eventType.schedulingType === "COLLECTIVE" || host.isFixed,
      priority: host.priority,
      weight: host.weight,
      schedule: scheduleOf(eventType, host.user, host.schedule),
    }));
  }
  const owner = eventType.owner;
  return owner
    ? [
        {
          user: owner,
          fixed: true,
          priority: null,
          weight: null,
          schedule: scheduleOf(eventType, owner, null),
        },
      ]
    : [];
}

const bookingSelect = {
  id: true,
  uid: true,
  userId: true,
  startTime: true,
  endTime: true,
  eventTypeId: true,
  eventType: { select: { beforeEventBuffer: true, afterEventBuffer: true } },
  _count: { select: { attendees: true } },
} as const satisfies Prisma.BookingSelect;

/**
 * Each host's accepted bookings that can reach into [from, to] once padded by the largest
 * buffers: those they organize and those they attend (v1's getBusyTimes), read in two queries
 * so that each starts from its index (bookings by user and time; attendees by e-mail).
 */
async function withBookings(
  db: Db,
  eventType: SlotEventType,
  hosts: Omit<SlotHost, "bookings">[],
  {
    from,
    to,
    excludeBookingId,
    calendars,
  }: { from: Date; to: Date; excludeBookingId?: number | undefined; calendars: CalendarReadOptions },
): Promise<SlotHost[]> {
  const margin = DAY + (eventType.beforeEventBuffer + eventType.afterEventBuffer + 24 * 60) * MINUTE;
  const where: Prisma.BookingWhereInput = {
    status: "ACCEPTED",
    ...overlapping(from.getTime(), to.getTime(), margin),
    ...(excludeBookingId ? { id: { not: excludeBookingId } } : {}),
  };
  const emails = hosts.map((host) => host.user.email);
  const userIds = hosts.map((host) => host.user.id);
  const [organized, attending, busy] = await Promise.all([
    db.booking.findMany({
      where: { ...where, userId: { in: userIds } },
      select: bookingSelect,
    }),
    // From the attendee rows of those e-mails (their index), to their bookings.
    db.attendee.findMany({
      where: { email: { in: emails }, booking: { is: where } },
      select: { email: true, booking: { select: bookingSelect } },
    }),
    // Their selected calendars' busy times (docs/adr/0247, 0248), over the same padded range.
    calendarBusy(
      db,
      userIds,
      new Date(Math.max(from.getTime() - margin, FIRST_BOOKABLE)),
      new Date(Math.min(to.getTime() + margin, PAST_LAST_BOOKABLE - 1)),
      { ...calendars, merged: true },
    ),
  ]);
  const toInput = (b: BookingFields) => existingBooking(b, eventType.id);
  return hosts.map((host) => {
    const mine = new Map<number, ExistingBooking>();
    for (const b of organized) if (b.userId === host.user.id) mine.set(b.id, toInput(b));
    for (const { email, booking } of attending)
      if (booking && email === host.user.email) mine.set(booking.id, toInput(booking));
    const theirCalendars = mergedBusy(busy.get(host.user.id)?.busy ?? []);
    return { ...host, bookings: [...mine.values(), ...theirCalendars.map(calendarBlock)] };
  });
}

/**
 * A host's calendar busy times with the overlapping and touching ones of a calendar made one:
 * they block nothing more apart (no buffers of their own), and the engine checks each slot
 * against each block, so a calendar's thousand events of a month cost it a thousand checks a
 * slot (a 5-host team's slots over 30 days: p99 213 ms with them apart).
 */
export function mergedBusy(busy: readonly CalendarBusy[]): CalendarBusy[] {
  // Code-unit order of the URLs (not localeCompare, which cost more than the rest together).
  const sorted = [...busy].sort((a, b) =>
    a.calendar === b.calendar ? a.start.getTime() - b.start.getTime() : a.calendar < b.calendar ? -1 : 1,
  );
  const merged: CalendarBusy[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && last.calendar === interval.calendar && interval.start.getTime() <= last.end.getTime()) {
      if (interval.end.getTime() > last.end.getTime())
        merged[merged.length - 1] = { ...last, end: interval.end };
    } else {
      merged.push(interval);
    }
  }
  return merged;
}

/** A calendar's busy interval as the engine takes a booking: it blocks, with no buffers of its own. */
function calendarBlock(busy: CalendarBusy): ExistingBooking {
  return {
    start: busy.start,
    end: busy.end,
    uid: `calendar:${busy.calendar}`,
    beforeBuffer: 0,
    afterBuffer: 0,
    sameEventType: false,
    attendees: 0,
  };
}

function rulesOf(eventType: SlotEventType): SlotRules {
  return { ...eventType, periodType: eventType.periodType as PeriodType };
}

/** A team's grid and RANGE period follow the event's zone (v1); a personal one, its schedule's. */
function eventZone(eventType: SlotEventType, hosts: Omit<SlotHost, "bookings">[]): string | undefined {
  if (!isTeamScheduled(eventType)) return undefined;
  return eventType.timeZone ?? eventType.schedule?.timeZone ?? hosts[0]?.schedule.timeZone;
}

export interface SlotQuery {
  start: Date;
  end: Date;
  now?: Date;
  /** The booker's zone (ROLLING periods end there). */
  timeZone?: string;
  /** A booking that must not block (the one being moved). */
  excludeBookingId?: number;
  /** How old a calendar's copy may be (CALENDAR_STALE_MS); default the setting's. */
  calendarStaleMs?: number;
}

export async function slotsFor(db: Db, eventType: SlotEventType, query: SlotQuery): Promise<Slot[]> {
  const bare = hostsOf(eventType);
  if (bare.length === 0) return [];
  const rules = rulesOf(eventType);
  const window: TeamSlotWindow = {
    from: query.start,
    to: query.end,
    now: query.now ?? new Date(),
    timeZone: query.timeZone,
    eventTimeZone: eventZone(eventType, bare),
  };
  // Only the bookings near what the engine computes: a range past a ROLLING_WINDOW reads none.
  const span = slotSpan(rules, bare, window);
  if (!span) return [];
  const hosts = await withBookings(db, eventType, bare, {
    from: new Date(span[0]),
    to: new Date(span[1]),
    excludeBookingId: query.excludeBookingId,
    calendars: { now: window.now, staleMs: query.calendarStaleMs ?? DEFAULT_CALENDAR_STALE_MS },
  });
  return computeTeamSlots(rules, hosts, window);
}

/** The id of the booking `uid` names, to leave out of the busy times (v1's rescheduleUid); null when none. */
export async function bookingIdOf(db: Db, uid: string | undefined): Promise<number | undefined> {
  if (!uid) return undefined;
  const row = await db.booking.findUnique({ where: { uid }, select: { id: true } });
  return row?.id;
}

export async function findSlots(db: Db, query: SlotQuery & { eventTypeId: number }): Promise<Slot[]> {
  return slotsFor(db, await loadEventType(db, { id: query.eventTypeId }), query);
}

// Any constant works; the second key of each lock is a host's user id. Personal and team
// bookings take the same per-user locks, so a host's bookings of all kinds wait on each other.
const BOOKING_LOCK = 72_797_002;

/**
 * Each host's lock, for this transaction, in user id order: every booking takes its hosts'
 * locks in that one order, so two bookings sharing hosts queue instead of deadlocking. Advisory
 * locks live in PostgreSQL, so they hold across instances.
 */
async function lockHosts(tx: Prisma.TransactionClient, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  // One round trip: unnest yields the array in its order, and each row's lock is taken as the
  // row is produced, so the locks are still taken one after another in id order.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOKING_LOCK}, id) FROM unnest(${ids}::int[]) AS id`;
}

/** Who a booking holds: its organizer, the other hosts (attendees, as v1 records them), the round-robin pick. */
export interface HostAssignment {
  organizer: HostUser;
  others: HostUser[];
  /** Team events: the round-robin host(s) chosen (v1's `luckyUsers`); null for a personal event type. */
  luckyUsers: number[] | null;
  /** v1 names the team in the title of a COLLECTIVE booking and of one with several hosts. */
  teamName: string | null;
}

/**
 * Per round-robin host: their latest accepted booking of this event type and how many they
 * have of it this month (as organizer or attendee), and the event type's total this month.
 * Both walk bookings(eventTypeId, createdAt) from the newest, whatever the history's length.
 */
async function roundRobinHistory(
  tx: Prisma.TransactionClient,
  eventTypeId: number,
  users: HostUser[],
  now: Date,
) {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const theirs = Prisma.sql`b."eventTypeId" = ${eventTypeId} AND b.status = 'ACCEPTED'
    AND (b."userId" = h.id OR EXISTS (SELECT 1 FROM "scheduling"."attendees" a
                                      WHERE a."bookingId" = b.id AND a.email = h.email))`;
  const thisMonth = Prisma.sql`b."createdAt" >= (${month}::timestamptz AT TIME ZONE 'UTC')`;
  const rows = await tx.$queryRaw<
    { userId: number; lastAt: number | null; lastId: number | null; thisMonth: number; total: number }[]
  >`
    SELECT h.id AS "userId", last.at AS "lastAt", last.id AS "lastId",
      (SELECT count(*)::int FROM "scheduling"."bookings" b WHERE ${theirs} AND ${thisMonth}) AS "thisMonth",
      (SELECT count(*)::int FROM "scheduling"."bookings" b
        WHERE b."eventTypeId" = ${eventTypeId} AND b.status = 'ACCEPTED' AND ${thisMonth}) AS "total"
    FROM unnest(${users.map((u) => u.id)}::int[], ${users.map((u) => u.email)}::text[]) AS h(id, email)
    LEFT JOIN LATERAL (
      SELECT (extract(epoch FROM b."createdAt") * 1000)::float8 AS at, b.id FROM "scheduling"."bookings" b
      WHERE ${theirs} ORDER BY b."createdAt" DESC, b.id DESC LIMIT 1) last ON true`;
  return { byUser: new Map(rows.map((row) => [row.userId, row])), total: rows[0]?.total ?? 0 };
}

/** Takes the locks of every host the event type may book, as reserveHosts does (they stack). */
export async function lockEventHosts(tx: Prisma.TransactionClient, eventType: SlotEventType): Promise<void> {
  await lockHosts(
    tx,
    hostsOf(eventType).map((host) => host.user.id),
  );
}

/** The start a booking asks for, and who asks. */
export interface BookingRequest {
  start: Date;
  now: Date;
  /** The booker's zone (the body's `timeZone`): ROLLING periods end there, as in GET /slots. */
  timeZone: string;
  /** A booking that does not block: the one being rescheduled. */
  excludeBookingId?: number;
  /** How old a calendar's copy may be (CALENDAR_STALE_MS); default the setting's. */
  calendarStaleMs?: number;
  /** The hosts' calendars were synchronised for this booking from then on (calendars/sync.ts refreshForBooking). */
  calendarsSyncedSince?: Date;
}

/** The window in which the engine checks one start, for the booker's zone. */
function windowAt(
  eventType: SlotEventType,
  bare: Omit<SlotHost, "bookings">[],
  request: BookingRequest,
): TeamSlotWindow {
  const { start, now, timeZone } = request;
  return { from: start, to: start, now, timeZone, eventTimeZone: eventZone(eventType, bare) };
}

/**
 * v1's validateBookingTimeIsNotOutOfBounds (isOutOfBounds.tsx), which handleNewBooking runs for
 * every booking, a team's or a seat in an existing one included: a start inside the minimum
 * notice, or outside the ROLLING or RANGE period, is 400 `booking_time_out_of_bounds_error`.
 */
export function assertInBounds(eventType: SlotEventType, request: BookingRequest): void {
  const { start, now } = request;
  if (start.getTime() < now.getTime() + Math.max(eventType.minimumBookingNotice, 1) * MINUTE)
    throw new BadRequest("booking_time_out_of_bounds_error");
  const bare = hostsOf(eventType);
  if (!inPeriod(rulesOf(eventType), bare, start, windowAt(eventType, bare, request)))
    throw new BadRequest("booking_time_out_of_bounds_error");
}

/**
 * Inside the booking's transaction: takes the hosts' locks, then checks `start` as v1's
 * handleNewBooking does and picks the hosts. The start must be inside the notice and period
 * (400 `booking_time_out_of_bounds_error`). A personal event type needs its owner free (400
 * `no_available_users_found_error`); a COLLECTIVE one every host, a ROUND_ROBIN one its fixed
 * hosts and one round-robin host, chosen by v1's rule (409 `fixed_hosts_unavailable_for_booking`
 * / `round_robin_host_unavailable_for_booking`). In every case the start must be one of the
 * event type's slots, computed for the booker's zone as GET /slots computes them.
 */
export async function reserveHosts(
  tx: Prisma.TransactionClient,
  eventType: SlotEventType,
  request: BookingRequest,
): Promise<HostAssignment> {
  const { start, now, excludeBookingId } = request;
  const bare = hostsOf(eventType);
  if (bare.length === 0) throw new BadRequest("no_available_users_found_error");
  const rules = rulesOf(eventType);
  const window = windowAt(eventType, bare, request);
  // v1 checks the period with the notice, before availability (isOutOfBounds).
  assertInBounds(eventType, request);
  await lockHosts(
    tx,
    bare.map((host) => host.user.id),
  );
  const hosts = await withBookings(tx, eventType, bare, {
    from: start,
    to: start,
    excludeBookingId,
    calendars: {
      now,
      staleMs: request.calendarStaleMs ?? DEFAULT_CALENDAR_STALE_MS,
      syncedSince: request.calendarsSyncedSince,
    },
  });
  const isSlot = (subset: SlotHost[]) =>
    computeTeamSlots(rules, subset, window).some((slot) => slot.time.getTime() === start.getTime());

  if (!isTeamScheduled(eventType)) {
    if (!isSlot(hosts)) throw new BadRequest("no_available_users_found_error");
    return { organizer: hosts[0]!.user, others: [], luckyUsers: null, teamName: null };
  }
  const free = hostsFreeAt(rules, hosts, start, window);
  const fixed = hosts.filter((host) => host.fixed);
  const roundRobin = hosts.filter((host) => !host.fixed);
  if (hosts.some((host, i) => host.fixed && !free[i]))
    throw new Conflict("fixed_hosts_unavailable_for_booking");
  const freeRoundRobin = hosts.filter((host, i) => !host.fixed && free[i]);
  if (roundRobin.length > 0 && freeRoundRobin.length === 0)
    throw new Conflict("round_robin_host_unavailable_for_booking");
  // Free, but off the grid or outside the period.
  if (!isSlot([...fixed, ...freeRoundRobin])) throw new BadRequest("no_available_users_found_error");

  let lucky: SlotHost | null = null;
  if (freeRoundRobin.length > 0) {
    const history = await roundRobinHistory(
      tx,
      eventType.id,
      freeRoundRobin.map((host) => host.user),
      now,
    );
    lucky = pickRoundRobinHost(
      freeRoundRobin.map((host) => {
        const row = history.byUser.get(host.user.id);
        const lastBooked =
          row?.lastAt != null && row.lastId != null ? ([row.lastAt, row.lastId] as const) : null;
        return { ...host, id: host.user.id, lastBooked, bookingsThisMonth: row?.thisMonth ?? 0 };
      }),
      {
        weightsEnabled: eventType.isRRWeightsEnabled,
        allWeights: roundRobin.map((host) => host.weight),
        bookingsThisMonth: history.total,
      },
    );
  }
  // The first fixed host organizes (v1 puts the fixed hosts before the lucky one).
  const chosen = [...fixed, ...(lucky ? [lucky] : [])].map((host) => host.user);
  return {
    organizer: chosen[0]!,
    others: chosen.slice(1),
    luckyUsers: lucky ? [lucky.user.id] : [],
    teamName:
      eventType.schedulingType === "COLLECTIVE" || chosen.length > 1 ? (eventType.team?.name ?? null) : null,
  };
}

/** What a range query refuses beyond its schema (docs/adr/0214): the bounds compared with each other. */
export function rangeRefusals(
  maxMs: number,
  names: { start: string; end: string } = { start: "startTime", end: "endTime" },
): DeclaredRefusal[] {
  const days = Math.round(maxMs / DAY);
  return [
    {
      status: 400,
      answer: `${names.end} must be after ${names.start}`,
      rule: `${names.end} is after ${names.start}`,
    },
    {
      status: 400,
      answer: `the range may span at most ${days} days`,
      rule: `the range spans at most ${days} days`,
    },
  ];
}

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
