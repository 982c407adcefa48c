// Expands one RRULE into the wall-clock readings of its instances inside a range, at a cost
// bounded by that range rather than by how long ago the rule started.
//
// ical.js's RecurIterator is the reference engine: it implements every part of RFC 5545
// §3.3.10, but steps from DTSTART one period at a time at ~50-90 µs a step (a daily rule since
// 1970 asked about 2027 is 20,000 steps, 1.5 s). So:
// - the rules almost every calendar holds (SECONDLY to WEEKLY with at most INTERVAL, COUNT,
//   UNTIL, WKST and plain weekdays in BYDAY) are computed here by arithmetic, starting at the
//   range (the "fast" engine; test/busy-times.test.ts holds it equal to ical.js);
// - every other rule goes to ical.js, started near the range on a DTSTART moved by whole
//   periods, where that provably yields the same instances (below), and bounded by a step
//   budget counted inside the iterator;
// - UNTIL is left to the caller, which compares instants (this module knows no zones).
import ICAL from "ical.js";
import {
  DAY,
  dayOf,
  fieldsOf,
  HOUR,
  MINUTE,
  SECOND,
  type Wall,
  WEEK,
  wallOf,
  weekdayOf,
} from "./wall-clock.ts";

/** What one expansion may still spend; shared by the rules of one calendar object, and spent. */
export interface Budget {
  /** Instances it may still return. */
  occurrences: number;
  /** ical.js iterator steps it may still take (each tests one candidate). */
  steps: number;
}

export type StopReason = "occurrence-limit" | "step-limit" | "invalid-rule";

export interface RuleRun {
  /** Ascending, each once. */
  walls: Wall[];
  /** Set when the expansion stopped early: instances from `at` on are unknown. */
  stop?: { reason: StopReason; at: Wall; detail?: string };
}

export type RuleEngine = "auto" | "ical.js";

const FIXED_PERIOD: Record<string, number> = {
  SECONDLY: SECOND,
  MINUTELY: MINUTE,
  HOURLY: HOUR,
  DAILY: DAY,
  WEEKLY: WEEK,
};
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const NO_OCCURRENCES = "Recurrence rule has no valid occurrences";

const FREQUENCIES = new Set(["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);

/** An RRULE from its jCal value (ical.js's parse result), or undefined if it is not one. */
export function ruleOf(value: unknown): ICAL.Recur | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    const rule = ICAL.Recur.fromData(value as Parameters<typeof ICAL.Recur.fromData>[0]);
    return FREQUENCIES.has(rule.freq) ? rule : undefined;
  } catch {
    return undefined;
  }
}

const list = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/**
 * The instances the rule generates after `start` (its DTSTART, a reading in the event's zone),
 * within [range.lower, range.upper), ascending. `start` itself is not returned: RFC 5545 makes
 * DTSTART the first instance whether the rule generates it or not, so the caller adds it, and
 * COUNT counts it (COUNT=3: DTSTART and the rule's next two).
 */
export function expandRule(
  rule: ICAL.Recur,
  start: Wall,
  isDate: boolean,
  range: { lower: Wall; upper: Wall },
  budget: Budget,
  engine: RuleEngine = "auto",
): RuleRun {
  const interval = Math.max(1, Math.trunc(rule.interval || 1));
  // COUNT below 1 means nothing; it is read as 1: DTSTART alone.
  const count = rule.count === null || rule.count === undefined ? undefined : Math.max(1, rule.count);
  if (count === 1 || range.upper <= start) return { walls: [] };
  const simple = engine === "auto" ? simpleRule(rule, isDate) : undefined;
  if (simple === undefined) return viaIcal(rule, start, isDate, interval, count, range, budget);
  return rule.freq === "WEEKLY"
    ? weekly(start, interval, count, simple, rule.wkst, range, budget)
    : fixedSteps(start, FIXED_PERIOD[rule.freq]! * interval, count, simple, range, budget);
}

/**
 * The weekdays (0 = Sunday) of a rule the fast engine computes exactly as ical.js does, with
 * an empty set for "no BYDAY"; undefined for any other rule.
 */
function simpleRule(rule: ICAL.Recur, isDate: boolean): Set<number> | undefined {
  const period = FIXED_PERIOD[rule.freq];
  if (period === undefined || (isDate && period < DAY)) return undefined;
  const days = new Set<number>();
  for (const [part, values] of Object.entries(rule.parts)) {
    const items = list(values);
    if (items.length === 0) continue;
    if (part !== "BYDAY") return undefined;
    for (const item of items) {
      const day = typeof item === "string" ? WEEKDAYS.indexOf(item) : -1;
      if (day < 0) return undefined; // an ordinal weekday (1MO, -1FR) or garbage
      days.add(day);
    }
  }
  return days;
}

/** Once the budget is spent, the run stops where it is. */
function push(run: RuleRun, wall: Wall, budget: Budget): boolean {
  if (budget.occurrences <= 0) {
    run.stop = { reason: "occurrence-limit", at: wall };
    return false;
  }
  budget.occurrences--;
  run.walls.push(wall);
  return true;
}

/** SECONDLY … DAILY: start + k·step, filtered by BYDAY. */
function fixedSteps(
  start: Wall,
  step: number,
  count: number | undefined,
  days: Set<number>,
  range: { lower: Wall; upper: Wall },
  budget: Budget,
): RuleRun {
  const run: RuleRun = { walls: [] };
  const filtered = days.size > 0;
  // Without a filter the k-th step is the (k+1)-th instance, so COUNT allows a jump too.
  let k = count === undefined || !filtered ? Math.max(1, Math.ceil((range.lower - start) / step)) : 1;
  let matched = 0;
  for (; ; k++) {
    const wall = start + k * step;
    if (wall >= range.upper) break;
    if (count !== undefined && !filtered && k > count - 1) break;
    if (filtered && !days.has(weekdayOf(wall))) {
      // The whole day is filtered out: go on from the first step of the next day.
      k = Math.max(k, Math.ceil((dayOf(wall) + DAY - start) / step) - 1);
      continue;
    }
    if (count !== undefined && filtered && ++matched > count - 1) break;
    if (wall >= range.lower && !push(run, wall, budget)) break;
  }
  return run;
}

/** WEEKLY: the BYDAY days (DTSTART's weekday without one) of every interval-th week, weeks starting on WKST. */
function weekly(
  start: Wall,
  interval: number,
  count: number | undefined,
  days: Set<number>,
  wkst: number,
  range: { lower: Wall; upper: Wall },
  budget: Budget,
): RuleRun {
  const run: RuleRun = { walls: [] };
  const weekStart = (wkst || ICAL.Time.MONDAY) - 1; // ical.js: SUNDAY = 1
  const startDay = dayOf(start);
  const timeOfDay = start - startDay;
  const firstWeek = startDay - ((weekdayOf(start) - weekStart + 7) % 7) * DAY;
  const chosen = days.size > 0 ? days : new Set([weekdayOf(start)]);
  const offsets = [...chosen].map((day) => ((day - weekStart + 7) % 7) * DAY).sort((a, b) => a - b);
  const period = interval * WEEK;
  let matched = 0;
  for (let j = count === undefined ? Math.max(0, Math.floor((range.lower - firstWeek) / period)) : 0; ; j++) {
    const week = firstWeek + j * period;
    if (week >= range.upper) return run;
    for (const offset of offsets) {
      const wall = week + offset + timeOfDay;
      if (wall <= start) continue;
      if (wall >= range.upper) return run;
      if (count !== undefined && ++matched > count - 1) return run;
      if (wall >= range.lower && !push(run, wall, budget)) return run;
    }
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number) => (a / gcd(a, b)) * b;

const STEP_LIMIT = Symbol("step limit");

/** The reading as an ical.js floating time (the engine steps in wall-clock fields only). */
function icalTime(wall: Wall, isDate: boolean): ICAL.Time {
  const f = fieldsOf(wall);
  return new ICAL.Time(
    isDate
      ? { year: f.year, month: f.month, day: f.day, isDate: true }
      : { year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second },
    ICAL.Timezone.localTimezone,
  );
}

const wallOfTime = (time: ICAL.Time): Wall =>
  time.isDate
    ? wallOf(time.year, time.month, time.day)
    : wallOf(time.year, time.month, time.day, time.hour, time.minute, time.second);

/**
 * A DTSTART moved forward by whole periods of the rule, close to `lower`, from which ical.js
 * yields exactly the original instances at and after `lower`.
 * - SECONDLY to WEEKLY: the instances are the periods start + k·interval·period, each filtered
 *   and expanded by calendar facts of its own (its month, weekday, hour…): moving DTSTART by whole
 *   periods keeps them. Only the first period can differ (ical.js returns its DTSTART as an
 *   instance), so the new start's period must end before `lower`.
 * - MONTHLY and YEARLY: which days a month or year holds depends on the calendar, which repeats
 *   exactly every 400 years, and every 28 years between 1901 and 2099: a DTSTART moved by such a
 *   cycle (and a multiple of the interval) is the same instance of the same calendar.
 * With COUNT the instances before the range must be counted: no move.
 */
function movedStart(rule: ICAL.Recur, start: Wall, interval: number, lower: Wall, upper: Wall): Wall {
  const fixed = FIXED_PERIOD[rule.freq];
  if (fixed !== undefined) {
    const period = fixed * interval;
    const periods = Math.floor((lower - period - start) / period);
    return periods > 0 ? start + periods * period : start;
  }
  const months = rule.freq === "MONTHLY" ? interval : rule.freq === "YEARLY" ? interval * 12 : 0;
  if (months === 0) return start;
  const f = fieldsOf(start);
  const targetYear = fieldsOf(lower).year - 1;
  let year = f.year;
  const gregorian = lcm(400 * 12, months) / 12;
  if (targetYear - year >= gregorian) year += Math.floor((targetYear - year) / gregorian) * gregorian;
  const julianLike = lcm(28 * 12, months) / 12;
  const upperYear = fieldsOf(upper).year;
  if (year >= 1901 && upperYear <= 2099 && targetYear - year >= julianLike)
    year += Math.floor((targetYear - year) / julianLike) * julianLike;
  return year === f.year ? start : wallOf(year, f.month, f.day, f.hour, f.minute, f.second);
}

function viaIcal(
  rule: ICAL.Recur,
  start: Wall,
  isDate: boolean,
  interval: number,
  count: number | undefined,
  range: { lower: Wall; upper: Wall },
  budget: Budget,
): RuleRun {
  const run: RuleRun = { walls: [] };
  // COUNT is counted here (RFC 5545: DTSTART is the first instance, generated or not) and
  // UNTIL by the caller, on instants: ical.js compares floating times as if they were UTC.
  const unbounded = rule.clone();
  unbounded.count = null;
  unbounded.until = null;
  const from = count === undefined ? movedStart(rule, start, interval, range.lower, range.upper) : start;
  let reached = from;
  let iterator: ICAL.RecurIterator;
  try {
    iterator = unbounded.iterator(icalTime(from, isDate));
  } catch (error) {
    // A rule with no instance at all (ical.js's own verdict) only has DTSTART.
    if (error instanceof Error && error.message === NO_OCCURRENCES) return run;
    run.stop = { reason: "invalid-rule", at: start, detail: String((error as Error)?.message ?? error) };
    return run;
  }
  // Every candidate ical.js tries passes check_contracting_rules: counting there bounds its
  // loops, even one that never finds an instance (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30).
  const check = iterator.check_contracting_rules;
  iterator.check_contracting_rules = function (this: ICAL.RecurIterator) {
    if (--budget.steps < 0) throw STEP_LIMIT;
    return check.call(this);
  };
  let matched = 0;
  let previous = Number.NEGATIVE_INFINITY;
  for (;;) {
    let next: ICAL.Time | null;
    try {
      next = iterator.next();
    } catch (error) {
      run.stop =
        error === STEP_LIMIT
          ? { reason: "step-limit", at: reached }
          : { reason: "invalid-rule", at: reached, detail: String((error as Error)?.message ?? error) };
      return run;
    }
    if (!next) return run;
    const wall = wallOfTime(next);
    if (wall >= range.upper) return run;
    reached = Math.max(reached, wall);
    if (wall <= start || wall <= previous) continue;
    previous = wall;
    if (count !== undefined && ++matched > count - 1) return run;
    if (wall >= range.lower && !push(run, wall, budget)) return run;
  }
}
