// The slot engine: which start times an event type offers, computed as v1 did (calcom-v1-
// bookings.md §6.3) from the schedule, the event type's rules and the host's bookings. Pure:
// no I/O, no clock (`now` is an input), so it is tested with plain tables. GET /slots and
// booking creation both use it, so a booking is accepted exactly when its start is a slot.
import {
  addDays,
  DAY,
  dateKey,
  type LocalDate,
  localDate,
  MINUTE,
  offsetMinutes,
  weekday,
  zonedInstant,
} from "./time-zones.ts";

export type PeriodType = "UNLIMITED" | "ROLLING" | "ROLLING_WINDOW" | "RANGE";

/** The event type's slot-relevant fields, as stored. */
export interface SlotRules {
  length: number;
  slotInterval?: number | null;
  minimumBookingNotice: number;
  beforeEventBuffer: number;
  afterEventBuffer: number;
  periodType: PeriodType;
  periodDays?: number | null;
  periodCountCalendarDays?: boolean | null;
  periodStartDate?: Date | null;
  periodEndDate?: Date | null;
  seatsPerTimeSlot?: number | null;
}

/** A weekly rule (`days`: 0 = Sunday) or, with `date` (YYYY-MM-DD), a date override. Minutes past midnight. */
export interface AvailabilityRule {
  days: number[];
  start: number;
  end: number;
  date?: string | null;
}

export interface ScheduleInput {
  timeZone: string;
  rules: AvailabilityRule[];
}

/** A booking of the host that may block time. */
export interface ExistingBooking {
  start: Date;
  end: Date;
  uid: string;
  /** Its own event type's buffers (0 when it has none). */
  beforeBuffer: number;
  afterBuffer: number;
  /** Of the event type being computed: a seated booking there may still have seats. */
  sameEventType: boolean;
  attendees: number;
}

export interface SlotWindow {
  from: Date;
  to: Date;
  now: Date;
  /** The booker's zone: where ROLLING periods end. Default: the schedule's. */
  timeZone?: string;
}

export interface Slot {
  time: Date;
  /** Seated event types: seats already taken at this start, and the booking that holds them. */
  attendees?: number;
  bookingUid?: string;
}

/** v1's fallback when the host has no schedule at all: Monday to Friday, 09:00-17:00. */
export const DEFAULT_RULES: AvailabilityRule[] = [{ days: [1, 2, 3, 4, 5], start: 9 * 60, end: 17 * 60 }];

export type Range = [number, number];

function merge(ranges: Range[]): Range[] {
  const sorted = ranges.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: Range[] = [];
  for (const range of sorted) {
    const last = out.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else out.push([range[0], range[1]]);
  }
  return out;
}

/** `ranges` (in order, apart: merged) less `busy`, in one pass over both. */
function subtract(ranges: Range[], busy: Range[]): Range[] {
  const blocks = merge(busy);
  const free: Range[] = [];
  let first = 0;
  for (const [start, end] of ranges) {
    // A block that ends by this range's start ends before every later range's too.
    while (first < blocks.length && blocks[first]![1] <= start) first++;
    let from = start;
    for (let b = first; b < blocks.length && blocks[b]![0] < end && from < end; b++) {
      const [blockStart, blockEnd] = blocks[b]!;
      if (blockStart > from) free.push([from, blockStart]);
      from = Math.max(from, blockEnd);
    }
    if (from < end) free.push([from, end]);
  }
  return free;
}

/** The schedule's working ranges on the local dates `first`..`last`: overrides replace a date's weekly rules. */
function workingRanges(schedule: ScheduleInput, first: LocalDate, last: LocalDate): Range[] {
  const overrides = new Map<string, AvailabilityRule[]>();
  for (const rule of schedule.rules) {
    if (rule.date) overrides.set(rule.date, [...(overrides.get(rule.date) ?? []), rule]);
  }
  const ranges: Range[] = [];
  // Compared as numbers: as text, "10000-01-01" sorts before "9999-12-31" and the loop never ended.
  const ordinal = ({ year, month, day }: LocalDate) => (year * 100 + month) * 100 + day;
  for (let date = first; ordinal(date) <= ordinal(last); date = addDays(date, 1)) {
    const key = dateKey(date);
    // An override that starts where it ends blocks the whole date.
    const rules =
      overrides.get(key) ?? schedule.rules.filter((r) => !r.date && r.days.includes(weekday(date)));
    for (const rule of rules) ranges.push(ruleRange(date, rule, schedule.timeZone));
  }
  return merge(ranges);
}

/** One rule's hours on one local date. */
export function ruleRange(date: LocalDate, rule: AvailabilityRule, timeZone: string): Range {
  // 23:59 means "until midnight", as in v1.
  const end = rule.end === 23 * 60 + 59 ? 24 * 60 : rule.end;
  return [zonedInstant(date, rule.start, timeZone), zonedInstant(date, end, timeZone)];
}

/** v1's grid alignment: the first of 60, 30, 20, 15, 10, 5 minutes that divides the step. */
function alignmentOf(step: number): number {
  return [60, 30, 20, 15, 10, 5].find((a) => step % a === 0) ?? 1;
}

/** `instant` rounded up to a whole multiple of `minutes` past the hour, on the zone's clock. */
function alignUp(instant: number, minutes: number, timeZone: string): number {
  const local = instant + offsetMinutes(instant, timeZone) * MINUTE;
  const unit = minutes * MINUTE;
  return instant + ((unit - (local % unit)) % unit);
}

function endOfLocalDay(date: LocalDate, timeZone: string): number {
  return zonedInstant(addDays(date, 1), 0, timeZone) - 1;
}

/**
 * Days enough to pass year 9999 from any today: a longer period allows every bookable date, and
 * counting it out would overflow Date (or take minutes, day by day).
 */
const ROLLING_DAYS_CAP = 10_000 * 366;

const isBusinessDay = (date: LocalDate) => ![0, 6].includes(weekday(date));

/** The date `days` Monday-to-Friday days after `date` (v1's businessDaysAdd). */
function addBusinessDays(date: LocalDate, days: number): LocalDate {
  if (days <= 0) return date;
  // Any 7 days in a row hold 5 business days. The last 1-5 are counted one by one, so that
  // the count ends on a business day, not on the weekend after it.
  const weeks = Math.floor((days - 1) / 5);
  let result = addDays(date, weeks * 7);
  for (let counted = weeks * 5; counted < days; ) {
    result = addDays(result, 1);
    if (isBusinessDay(result)) counted++;
  }
  return result;
}

/**
 * The end of the `days`-th calendar (or, with periodCountCalendarDays false, business) day after
 * today in the zone: where a ROLLING period ends, and a ROLLING_WINDOW's search.
 */
function rollingLimit(
  rules: Pick<SlotRules, "periodCountCalendarDays">,
  days: number,
  now: number,
  timeZone: string,
): number {
  const capped = Math.min(days, ROLLING_DAYS_CAP);
  const today = localDate(now, timeZone);
  const last =
    rules.periodCountCalendarDays === false ? addBusinessDays(today, capped) : addDays(today, capped);
  return endOfLocalDay(last, timeZone);
}

/**
 * v1 looked for a ROLLING_WINDOW's bookable dates on 61 dates from the booker's today, business
 * dates only when periodCountCalendarDays is false (cal.com packages/lib/constants.ts
 * ROLLING_WINDOW_PERIOD_MAX_DAYS_TO_CHECK = 30 + 31; isOutOfBounds.tsx getRollingWindowEndDate).
 * The window ends by the last of them, found or not, so nothing past it is computed: a range years
 * ahead costs nothing, and a schedule without slots for years ends the search there. (Finding
 * none, v1 let the date after them through; that is not copied.)
 */
const ROLLING_WINDOW_DATES = 61;

/**
 * One host of the event type (calcom-v1-bookings.md §6.3 steps 3-6): their schedule, the
 * bookings that may block them, and whether they must be free.
 */
export interface HostInput {
  schedule: ScheduleInput;
  bookings: ExistingBooking[];
  /**
   * Fixed hosts (every COLLECTIVE host, a ROUND_ROBIN event type's `isFixed` ones, a personal
   * event type's owner) must all be free; of the others (round-robin hosts), one suffices.
   */
  fixed: boolean;
}

export interface TeamSlotWindow extends SlotWindow {
  /** The event's zone: the grid's "past the hour" and RANGE periods. Default: the first host's schedule's. */
  eventTimeZone?: string;
}

/** What every host's computation shares: the window, the grid, the notice. */
interface Frame {
  zone: string;
  bookerZone: string;
  now: number;
  earliest: number;
  length: number;
  step: number;
  alignment: number;
  computeFrom: number;
  from: number;
  to: number;
}

function frameOf(rules: SlotRules, hosts: Pick<HostInput, "schedule">[], window: TeamSlotWindow): Frame {
  const zone = window.eventTimeZone ?? hosts[0]?.schedule.timeZone ?? "UTC";
  const bookerZone = window.timeZone ?? zone;
  const now = window.now.getTime();
  const step = Math.max(rules.slotInterval || rules.length, 1);
  const rollingWindow = rules.periodType === "ROLLING_WINDOW";
  return {
    zone,
    bookerZone,
    now,
    // v1 keeps at least a minute of notice.
    earliest: now + Math.max(rules.minimumBookingNotice, 1) * MINUTE,
    length: rules.length * MINUTE,
    step,
    alignment: alignmentOf(step),
    // ROLLING_WINDOW counts bookable days from today, so it needs the days before `from` too, and
    // none past its search.
    computeFrom: rollingWindow ? Math.min(window.from.getTime(), now) : window.from.getTime(),
    from: window.from.getTime(),
    to: rollingWindow
      ? Math.min(window.to.getTime(), rollingLimit(rules, ROLLING_WINDOW_DATES - 1, now, bookerZone))
      : window.to.getTime(),
  };
}

/**
 * The instants the engine computes `window`'s slots over, [first, last], or null when it computes
 * none: the bookings that can block them are the ones near this span.
 */
export function slotSpan(
  rules: SlotRules,
  hosts: Pick<HostInput, "schedule">[],
  window: TeamSlotWindow,
): Range | null {
  const frame = frameOf(rules, hosts, window);
  return frame.to < frame.from ? null : [frame.computeFrom, frame.to];
}

/** A booking of the seated event type being computed that still has a seat: it blocks nothing. */
export function leavesSeats(booking: ExistingBooking, rules: Pick<SlotRules, "seatsPerTimeSlot">): boolean {
  const seats = rules.seatsPerTimeSlot ?? 0;
  return seats > 0 && booking.sameEventType && booking.attendees < seats;
}

/**
 * The time a booking takes from its host: itself padded by its own event type's buffers and, when
 * an event type is being booked, by that one's buffers on the facing sides (both stay clear).
 */
export function busyRange(
  booking: Pick<ExistingBooking, "start" | "end" | "beforeBuffer" | "afterBuffer">,
  facing: Pick<SlotRules, "beforeEventBuffer" | "afterEventBuffer"> = {
    beforeEventBuffer: 0,
    afterEventBuffer: 0,
  },
): Range {
  return [
    booking.start.getTime() - (booking.beforeBuffer + facing.afterEventBuffer) * MINUTE,
    booking.end.getTime() + (booking.afterBuffer + facing.beforeEventBuffer) * MINUTE,
  ];
}

/**
 * When the host is free around [from, to]: the schedule's working ranges on the local dates from
 * the day before `from` to the day after `to` (a slot may start late and run past midnight),
 * minus `busy`, merged and in order. Not clipped to [from, to].
 */
export function freeRanges(schedule: ScheduleInput, busy: Range[], from: number, to: number): Range[] {
  const first = addDays(localDate(from, schedule.timeZone), -1);
  const last = addDays(localDate(to, schedule.timeZone), 1);
  return subtract(workingRanges(schedule, first, last), busy);
}

/** One host's free time around [from, to] (hours minus padded bookings), and their seated bookings with room. */
function hostAvailability(rules: SlotRules, host: HostInput, from: number, to: number) {
  const seated = new Map<number, ExistingBooking>();
  const busy: Range[] = [];
  for (const booking of host.bookings) {
    if (leavesSeats(booking, rules)) seated.set(booking.start.getTime(), booking);
    else busy.push(busyRange(booking, rules));
  }
  return { free: freeRanges(host.schedule, busy, from, to), seated };
}

/** The parts of `ranges` that lie inside `within` (sorted, merged); `ranges` may overlap. */
function clip(ranges: Range[], within: Range[]): Range[] {
  const out: Range[] = [];
  for (const [start, end] of ranges) {
    for (const [from, to] of within) {
      if (to <= start) continue;
      if (from >= end) break;
      out.push([Math.max(start, from), Math.min(end, to)]);
    }
  }
  return out;
}

/**
 * v1's getAggregatedAvailability: the fixed hosts' free time intersected, each round-robin
 * host's free time kept as its own ranges (a slot must fit one host, not a union of two),
 * clipped to the fixed hosts'. Unlike v1, fixed hosts with no common free time leave no slots
 * (v1 then fell back to the round-robin hosts alone and refused the booking; docs/adr/0157).
 */
function aggregate(hosts: { free: Range[]; fixed: boolean }[]): Range[] {
  const fixed = hosts.filter((host) => host.fixed);
  const roundRobin = hosts.filter((host) => !host.fixed);
  const anyOfThem = roundRobin.flatMap((host) => host.free);
  if (fixed.length === 0) return anyOfThem;
  const together = fixed.slice(1).reduce((acc, host) => clip(acc, host.free), fixed[0]!.free);
  return roundRobin.length > 0 ? clip(anyOfThem, together) : together;
}

/** Start times on the grid inside the ranges, past the notice, in the window. */
function cut(ranges: Range[], frame: Frame): number[] {
  const starts: number[] = [];
  for (const [start, end] of ranges) {
    for (
      let t = alignUp(start, frame.alignment, frame.zone);
      t + frame.length <= end;
      t += frame.step * MINUTE
    )
      starts.push(t);
  }
  return [...new Set(starts)]
    .sort((a, b) => a - b)
    .filter((t) => t >= frame.earliest && t >= frame.computeFrom && t <= frame.to);
}

/**
 * The first and last instants of a ROLLING or RANGE period (calcom-v1-bookings.md §6.3 step
 * 11): ROLLING ends with its last day in the booker's zone, RANGE spans its dates in the event's
 * zone. Null for the other period types.
 */
function periodBounds(rules: SlotRules, frame: Frame): Range | null {
  switch (rules.periodType) {
    case "ROLLING":
      return [-Infinity, rollingLimit(rules, rules.periodDays ?? 0, frame.now, frame.bookerZone)];
    case "RANGE": {
      const startDate = rules.periodStartDate;
      const endDate = rules.periodEndDate;
      return [
        startDate ? zonedInstant(utcDate(startDate), 0, frame.zone) : -Infinity,
        endDate ? endOfLocalDay(utcDate(endDate), frame.zone) : Infinity,
      ];
    }
    default:
      return null;
  }
}

/** The event type's period (calcom-v1-bookings.md §6.3 step 11). */
function withinPeriod(slots: number[], rules: SlotRules, frame: Frame): number[] {
  if (rules.periodType === "ROLLING_WINDOW") {
    // The first `periodDays` dates that have a slot, from today on.
    const day = (t: number) => dateKey(localDate(t, frame.bookerZone));
    const allowed = new Set([...new Set(slots.map(day))].slice(0, rules.periodDays ?? 0));
    return slots.filter((t) => allowed.has(day(t)));
  }
  const bounds = periodBounds(rules, frame);
  return bounds ? slots.filter((t) => t >= bounds[0] && t <= bounds[1]) : slots;
}

/**
 * Whether `start` lies inside the event type's ROLLING or RANGE period, counted as /slots counts
 * it (v1's isOutOfBounds, which a booking checks before availability). A ROLLING_WINDOW counts
 * bookable days, so only the slots themselves can tell.
 */
export function inPeriod(
  rules: SlotRules,
  hosts: Pick<HostInput, "schedule">[],
  start: Date,
  window: TeamSlotWindow,
): boolean {
  const bounds = periodBounds(rules, frameOf(rules, hosts, window));
  return !bounds || (start.getTime() >= bounds[0] && start.getTime() <= bounds[1]);
}

/** The slots of an event type with these hosts: fixed ones all free, and one round-robin host if any. */
export function computeTeamSlots(rules: SlotRules, hosts: HostInput[], window: TeamSlotWindow): Slot[] {
  const frame = frameOf(rules, hosts, window);
  if (hosts.length === 0 || frame.to < frame.from) return [];
  const seated = new Map<number, ExistingBooking>();
  const perHost = hosts.map((host) => {
    const { free, seated: seats } = hostAvailability(rules, host, frame.computeFrom, frame.to);
    for (const [start, booking] of seats) seated.set(start, booking);
    return { free, fixed: host.fixed };
  });
  return withinPeriod(cut(aggregate(perHost), frame), rules, frame)
    .filter((t) => t >= frame.from)
    .map((t) => {
      const booking = seated.get(t);
      return booking
        ? { time: new Date(t), attendees: booking.attendees, bookingUid: booking.uid }
        : { time: new Date(t) };
    });
}

/** The slots of a single host's event type. */
export function computeSlots(
  rules: SlotRules,
  schedule: ScheduleInput,
  bookings: ExistingBooking[],
  window: SlotWindow,
): Slot[] {
  return computeTeamSlots(rules, [{ schedule, bookings, fixed: true }], window);
}

/**
 * For each host, whether they alone could hold [start, start + length]: inside their working
 * hours, clear of their padded bookings (v1's ensureAvailableUsers). Grid, notice and period
 * are the event type's, checked with computeTeamSlots.
 */
export function hostsFreeAt(
  rules: SlotRules,
  hosts: HostInput[],
  start: Date,
  window: TeamSlotWindow,
): boolean[] {
  const from = start.getTime();
  const to = from + rules.length * MINUTE;
  // Around the window itself, not the frame: whether a host is free does not depend on the period.
  return hosts.map((host) =>
    hostAvailability(rules, host, window.from.getTime(), window.to.getTime()).free.some(
      ([s, e]) => s <= from && to <= e,
    ),
  );
}

/** A `@db.Date` value (midnight UTC) as the calendar date it names. */
function utcDate(date: Date): LocalDate {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The largest span a query may cover: a hostile range must not burn CPU. */
export const MAX_RANGE_DAYS = 93;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * DAY;
