// GET /availability as v1 computed it (apps/api/v1/pages/api/availability/_get.ts and
// getUserAvailability): a user's busy times, working hours, date overrides and free ranges for
// a date range, or those of every accepted member of a team. The ranges come from the slot
// engine (`busyRange`, `freeRanges`), with the schedule and bookings /slots would use, so what
// this reports free is what booking accepts.
import type { Prisma } from "@app/db";
import type { AvailabilityQuery, UserAvailability } from "@app/schemas/scheduling";
import type { z } from "zod";
import { type BusyReadOptions, calendarBusy } from "../calendars/busy.ts";
import { Forbidden, NotFound } from "../errors.ts";
import type { AuthContext } from "../types.ts";
import {
  busyRange,
  freeRanges,
  leavesSeats,
  type Range,
  ruleRange,
  type ScheduleInput,
} from "./slot-engine.ts";
import {
  bookingsAround,
  type Db,
  existingBooking,
  scheduleFor,
  scheduleSelect,
  userScheduleSelect,
} from "./slots.service.ts";
import { offsetMinutes } from "./time-zones.ts";

type Query = z.output<typeof AvailabilityQuery>;
type Availability = z.output<typeof UserAvailability>;

const userSelect = { id: true, ...userScheduleSelect } as const satisfies Prisma.UserSelect;
type AvailabilityUser = Prisma.UserGetPayload<{ select: typeof userSelect }>;

const eventTypeSelect = {
  id: true,
  timeZone: true,
  seatsPerTimeSlot: true,
  schedule: { select: scheduleSelect },
  hosts: { select: { userId: true, schedule: { select: scheduleSelect } } },
} as const satisfies Prisma.EventTypeSelect;
type AvailabilityEventType = Prisma.EventTypeGetPayload<{ select: typeof eventTypeSelect }>;

const DAY_MINUTES = 24 * 60;
const LAST_MINUTE = DAY_MINUTES - 1;
const clampMinute = (minute: number) => Math.max(0, Math.min(LAST_MINUTE, minute));
const shiftDays = (days: number[], by: number) => days.map((day) => (day + by + 7) % 7);

/**
 * v1's getWorkingHours: each weekly rule in minutes past midnight UTC, at the zone's offset on
 * `at`; a rule that crosses midnight in UTC is split, its other part on the neighbouring days
 * (v1 left those days at -1 or 7, and merged pieces of different days: neither is copied).
 */
function utcWorkingHours(schedule: ScheduleInput, at: number, userId: number) {
  const offset = offsetMinutes(at, schedule.timeZone);
  const hours: Availability["workingHours"] = [];
  for (const rule of schedule.rules.filter((r) => !r.date)) {
    const start = rule.start - offset;
    const end = rule.end - offset;
    if (clampMinute(start) !== clampMinute(end)) {
      hours.push({ days: rule.days, startTime: clampMinute(start), endTime: clampMinute(end), userId });
    }
    if (start < 0 || end < 0) {
      const endTime = Math.min(end + DAY_MINUTES, LAST_MINUTE);
      hours.push({ days: shiftDays(rule.days, -1), startTime: start + DAY_MINUTES, endTime, userId });
    } else if (start > LAST_MINUTE || end > LAST_MINUTE) {
      const startTime = Math.max(start - DAY_MINUTES, 0);
      hours.push({ days: shiftDays(rule.days, 1), startTime, endTime: end - DAY_MINUTES, userId });
    }
  }
  return hours.sort((a, b) => a.startTime - b.startTime);
}

/** The schedule's date overrides whose start or end falls in [from, to] (v1's test, both ends included). */
function dateOverrides(schedule: ScheduleInput, from: number, to: number) {
  return schedule.rules.flatMap((rule) => {
    if (!rule.date) return [];
    const [year, month, day] = rule.date.split("-").map(Number) as [number, number, number];
    const [start, end] = ruleRange({ year, month, day }, rule, schedule.timeZone);
    const meets = (t: number) => t >= from && t <= to;
    return meets(start) || meets(end) ? [{ start: new Date(start), end: new Date(end) }] : [];
  });
}

const clip = (ranges: Range[], from: number, to: number) =>
  ranges
    .map(([start, end]): Range => [Math.max(start, from), Math.min(end, to)])
    .filter(([start, end]) => end > start)
    .map(([start, end]) => ({ start: new Date(start), end: new Date(end) }));

async function availabilityOf(
  db: Db,
  user: AvailabilityUser,
  eventType: AvailabilityEventType | null,
  range: { from: number; to: number },
  showTitles: boolean,
  options: BusyReadOptions,
): Promise<Availability> {
  const { from, to } = range;
  const hostSchedule = eventType?.hosts.find((host) => host.userId === user.id)?.schedule ?? null;
  const schedule = scheduleFor(user, eventType, hostSchedule);
  const [rows, calendars] = await Promise.all([
    bookingsAround(db, user.id, from, to),
    calendarBusy(db, [user.id], new Date(from), new Date(to), options),
  ]);
  const seats = { seatsPerTimeSlot: eventType?.seatsPerTimeSlot ?? null };
  const blocking = rows.filter((row) => !leavesSeats(existingBooking(row, eventType?.id), seats));
  const mine = calendars.get(user.id) ?? { busy: [], problems: [] };
  const busy = [
    ...blocking.map((row) => ({
      title: row.title,
      source: undefined,
      range: busyRange(existingBooking(row)),
    })),
    // A calendar's events are not this service's to show: their times and the calendar only.
    ...mine.busy.map((block) => ({
      title: undefined,
      source: block.calendar,
      range: [block.start.getTime(), block.end.getTime()] as Range,
    })),
  ].sort((a, b) => a.range[0] - b.range[0]);
  const free = clip(
    freeRanges(
      schedule,
      busy.map((entry) => entry.range),
      from,
      to,
    ),
    from,
    to,
  );
  const currentSeats = eventType?.seatsPerTimeSlot
    ? await db.booking.findMany({
        where: {
          eventTypeId: eventType.id,
          status: "ACCEPTED",
          startTime: { gte: new Date(from), lte: new Date(to) },
        },
        select: { uid: true, startTime: true, _count: { select: { attendees: true } } },
        orderBy: { startTime: "asc" },
      })
    : null;
  return {
    busy: busy
      .filter(({ range: [start, end] }) => end > from && start < to)
      .map(({ title, source, range: [start, end] }) => ({
        start: new Date(start),
        end: new Date(end),
        ...(showTitles && title !== undefined ? { title } : {}),
        ...(source !== undefined ? { source } : {}),
      })),
    ...(mine.problems.length > 0 ? { calendarProblems: mine.problems } : {}),
    timeZone: schedule.timeZone,
    dateRanges: free,
    oooExcludedDateRanges: free,
    workingHours: utcWorkingHours(schedule, from, user.id),
    dateOverrides: dateOverrides(schedule, from, to),
    currentSeats,
    datesOutOfOffice: {},
  };
}

async function loadEventType(db: Db, id: number | undefined): Promise<AvailabilityEventType | null> {
  if (id === undefined) return null;
  const eventType = await db.eventType.findUnique({ where: { id }, select: eventTypeSelect });
  if (!eventType) throw new NotFound(`Event type with id: ${id} not found`);
  return eventType;
}

/**
 * One user's availability (any caller may read it, as in v1: a booking page shows as much), or a
 * team's: every accepted member's, for the team's OWNERs and ADMINs and for admins. Booking
 * titles (which name the attendees) only for the user themself and admins.
 */
export async function findAvailability(
  db: Db,
  viewer: AuthContext,
  query: Query,
  calendars: { staleMs: number },
) {
  const options: BusyReadOptions = { now: new Date(), staleMs: calendars.staleMs };
  const range = { from: query.dateFrom.getTime(), to: query.dateTo.getTime() };
  const eventType = await loadEventType(db, query.eventTypeId);
  const showTitles = (userId: number) => viewer.isAdmin || userId === viewer.userId;

  if (query.teamId === undefined) {
    const user = await db.user.findFirst({
      where: { id: query.userId, username: query.username },
      select: userSelect,
    });
    if (!user) throw new NotFound("No user found in getUserAvailability");
    return availabilityOf(db, user, eventType, range, showTitles(user.id), options);
  }

  const team = await db.team.findFirst({
    // Like GET /teams/{id}: any membership shows the team; an admin sees every team.
    where: { id: query.teamId, ...(viewer.isAdmin ? {} : { members: { some: { userId: viewer.userId } } }) },
    select: { members: { where: { accepted: true }, select: { userId: true, role: true } } },
  });
  if (!team) throw new NotFound(`Team with id: ${query.teamId} not found`);
  const role = team.members.find((member) => member.userId === viewer.userId)?.role;
  if (!viewer.isAdmin && role !== "OWNER" && role !== "ADMIN") {
    throw new Forbidden(`Only an OWNER or ADMIN of team ${query.teamId} can read its members' availability`);
  }
  const members = await db.user.findMany({
    where: { id: { in: team.members.map((member) => member.userId) } },
    select: userSelect,
    orderBy: { id: "asc" },
  });
  return Promise.all(
    members.map(async (member) => ({
      userId: member.id,
      availability: await availabilityOf(db, member, eventType, range, showTitles(member.id), options),
    })),
  );
}
