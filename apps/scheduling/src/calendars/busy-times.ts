// One calendar object (the text of a CalDAV resource: a VCALENDAR with one or more VEVENTs) →
// the busy intervals of its host within a window. Pure: no I/O, never throws on what the
// calendar server sent (a malformed object is a result, not an exception).
//
// The rules, RFC 5545 and RFC 4791 (§7.10, §9.9) read strictly, and where cal.com errs:
// - Every VEVENT counts: one object may hold a master, its overrides, and unrelated events.
// - An event ends at DTEND, else DTSTART + DURATION (nominal days on the wall clock, exact
//   hours), else: a DATE event lasts its day; a DATE-TIME event lasts nothing and blocks
//   nothing (RFC 5545 §3.6.1 ends it at its start; a zero-length interval would block the slot
//   around it under an overlap test, which the event never meant).
// - Zones: a TZID uses the object's VTIMEZONE (any name: Outlook's "W. Europe Standard Time");
//   without one, the IANA zone of that name (also after an old path prefix, or a Windows name);
//   else the host's zone, with a warning. `…Z` is UTC. Floating times and all-day (DATE) events
//   are read on the host's clocks (hostTimeZone).
// - Recurrence: DTSTART is always the first instance; RRULE (every FREQ, HOURLY and MINUTELY
//   too), RDATE (DATE, DATE-TIME, PERIOD: a PERIOD's own length), EXDATE (any type, any zone,
//   compared as instants; a DATE EXDATE removes that day), COUNT counting DTSTART, UNTIL
//   compared as an instant (a DATE UNTIL includes its day). An override (RECURRENCE-ID)
//   replaces the master's instance (never both, unlike cal.com) and stands for itself even
//   without its master (a server's expanded reply, or an invitation to one instance);
//   RANGE=THISANDFUTURE moves and resizes the later instances by the override's shift.
// - Free: TRANSP:TRANSPARENT; STATUS:CANCELLED (the master's: the whole series with its
//   overrides; an override's: that instance). TENTATIVE and CONFIRMED block. Outlook's
//   X-MICROSOFT-CDO-BUSYSTATUS is not read: Outlook writes TRANSP to match it, and TRANSP is
//   what RFC 4791 maps to free-busy. Apple's X-APPLE-TRAVEL-DURATION blocks the travel before.
// - The window: an interval is returned when it overlaps [from, to) (start < to, end > from),
//   with its true start and end, not clipped: the caller stores it and a wider window later
//   sees the same interval.
// - Cost: linear in the object (ical.js's parser), plus the rule instances near the window: a
//   rule is never walked from a DTSTART decades back (recurrence.ts). At most maxOccurrences
//   rule instances and maxRuleSteps ical.js steps per object; past them the result says how
//   far it is complete (confirmedUntil) and warns.
import ICAL from "ical.js";
import { type Budget, expandRule, type RuleEngine, ruleOf } from "./recurrence.ts";
import { DAY, dateKey, HOUR, parseValue, type Wall } from "./wall-clock.ts";
import {
  ianaZone,
  type JCalComponent,
  toInstant,
  toWall,
  UTC_ZONE,
  vtimezoneZone,
  type Zone,
  zoneByName,
} from "./zones.ts";

export interface BusyOptions {
  /** The window: intervals overlapping [from, to) are returned. */
  from: Date;
  to: Date;
  /** The IANA zone whose clocks all-day and floating events follow. */
  hostTimeZone: string;
  /**
   * Rule instances expanded per object at most. Default: 10,000, or 100 per recurring series
   * in an object that holds more than 100 (an imported calendar as one object).
   */
  maxOccurrences?: number;
  /** ical.js iterator steps per object at most, for the rules it expands (default 20,000: about a second at worst). */
  maxRuleSteps?: number;
  /** Tests only: "ical.js" expands every rule with ical.js, bypassing the arithmetic engine. */
  ruleEngine?: RuleEngine;
}

export interface BusyInterval {
  start: Date;
  end: Date;
  /** The VEVENT's UID ("" when it has none). */
  uid: string;
  /** The instance of a recurring event: its RECURRENCE-ID as an ISO instant, or `YYYY-MM-DD` for an all-day one. */
  recurrenceId?: string;
}

export type BusyWarningCode =
  /** A TZID with no VTIMEZONE and no known name: read on the host's clocks. */
  | "unknown-time-zone"
  /** maxOccurrences reached: instances after confirmedUntil are missing. */
  | "occurrence-limit"
  /** maxRuleSteps reached: instances after confirmedUntil are missing. */
  | "step-limit"
  /** ical.js refused to expand an RRULE: its instances after confirmedUntil are missing. */
  | "invalid-rule"
  /** A VEVENT without a readable DTSTART, DTEND or DURATION: confirmedUntil is `from`. */
  | "unreadable-event"
  /** DTEND before DTSTART, or a negative DURATION: the event is read as lasting nothing. */
  | "end-before-start";

export interface BusyWarning {
  code: BusyWarningCode;
  uid?: string;
  message: string;
}

/** What the sync keeps about a stored object, to know when it must be expanded again. */
export interface CalendarObjectSummary {
  /** The VEVENTs' UIDs, each once. */
  uids: string[];
  /** A VEVENT has an RRULE or RDATE: a later window may hold instances this one did not. */
  recurs: boolean;
  /** Some time is all-day or floating: the intervals move when the host's zone changes. */
  followsHostZone: boolean;
  /**
   * No interval of the object, in any window and any host zone, lies outside [start, end);
   * `end` null: no end (a rule without COUNT or UNTIL, or one too long to bound cheaply).
   * Null: nothing in the object can block time (all free or cancelled).
   */
  span: { start: Date; end: Date | null } | null;
}

export type BusyTimes =
  | {
      kind: "busy";
      /** Sorted by start, then end. */
      intervals: BusyInterval[];
      warnings: BusyWarning[];
      /**
       * The intervals are complete up to here: `to` unless a limit was reached or an event
       * could not be read. The rest of the window is unknown (fail closed: not free).
       */
      confirmedUntil: Date;
      summary: CalendarObjectSummary;
    }
  | { kind: "invalid"; reason: string };

export type CalendarObjectDescription =
  | { kind: "summary"; summary: CalendarObjectSummary; warnings: BusyWarning[] }
  | { kind: "invalid"; reason: string };

export const DEFAULT_MAX_OCCURRENCES = 10_000;
export const DEFAULT_MAX_RULE_STEPS = 20_000;

/** The busy intervals of one calendar object within [from, to). */
export function busyIntervals(ics: string, options: BusyOptions): BusyTimes {
  const from = options.from.getTime();
  const to = options.to.getTime();
  if (!(from < to)) throw new RangeError("busyIntervals: `from` must be a date before `to`");
  const host = ianaZone(options.hostTimeZone);
  if (!host) throw new RangeError(`busyIntervals: unknown hostTimeZone "${options.hostTimeZone}"`);
  const object = readObject(ics, host);
  if ("invalid" in object) return { kind: "invalid", reason: object.invalid };
  const recurring = object.series.filter(({ master }) => master && master.rules.length > 0).length;
  const maxOccurrences = options.maxOccurrences ?? Math.max(DEFAULT_MAX_OCCURRENCES, 100 * recurring);
  const maxRuleSteps = options.maxRuleSteps ?? Math.max(DEFAULT_MAX_RULE_STEPS, 200 * recurring);
  const run: Run = {
    from,
    to,
    budget: { occurrences: maxOccurrences, steps: maxRuleSteps },
    engine: options.ruleEngine ?? "auto",
    warnings: object.warnings,
    confirmedUntil: to,
    intervals: [],
  };
  try {
    if (object.unreadable.length > 0) run.confirmedUntil = from;
    for (const series of object.series) expandSeries(series, run);
    run.intervals.sort((a, b) => a.start - b.start || a.end - b.end || (a.uid < b.uid ? -1 : 1));
    const summary = summarize(object, { occurrences: maxOccurrences, steps: maxRuleSteps });
    return {
      kind: "busy",
      intervals: run.intervals.map(({ start, end, uid, recurrenceId }) => ({
        start: new Date(start),
        end: new Date(end),
        uid,
        ...(recurrenceId === undefined ? {} : { recurrenceId }),
      })),
      warnings: run.warnings,
      confirmedUntil: new Date(run.confirmedUntil),
      summary,
    };
  } catch (error) {
    // Not expected: an object this module cannot handle is reported as unreadable, so the
    // caller fails closed on it rather than losing its sync.
    return { kind: "invalid", reason: `could not be expanded: ${(error as Error)?.message ?? error}` };
  }
}

/**
 * The summary alone (no window): which UIDs an object holds, whether it recurs, the span of
 * time it can block. Host-zone independent: floating and all-day times widen the span.
 */
export function describeCalendarObject(ics: string, options: { maxOccurrences?: number } = {}) {
  const object = readObject(ics, UTC_ZONE);
  if ("invalid" in object) return { kind: "invalid", reason: object.invalid } as const;
  const maxOccurrences = options.maxOccurrences ?? DEFAULT_MAX_OCCURRENCES;
  const summary = summarize(object, { occurrences: maxOccurrences, steps: DEFAULT_MAX_RULE_STEPS });
  return { kind: "summary", summary, warnings: object.warnings } as const satisfies CalendarObjectDescription;
}

// ---------------------------------------------------------------------------------------------
// Reading the object.

/** A DATE or DATE-TIME value with the zone whose clocks it is read on. */
interface Moment {
  wall: Wall;
  date: boolean;
  zone: Zone;
  /** Read on the host's clocks (all-day or floating). */
  floating: boolean;
}

const instantOf = (moment: Moment) => toInstant(moment.zone, moment.wall);

/** How an event's end follows from its start. */
type EndRule =
  | { kind: "end"; moment: Moment }
  | { kind: "duration"; days: number; exact: number }
  | { kind: "none" };

interface Vevent {
  uid: string;
  start: Moment;
  end: EndRule;
  transparent: boolean;
  cancelled: boolean;
  /** Apple's travel time before the event, in ms. */
  travel: number;
  rules: ICAL.Recur[];
  rdates: Array<{ moment: Moment; end?: EndRule }>;
  exdates: Moment[];
  recurrenceId?: Moment;
  thisAndFuture: boolean;
}

/** A master (or a lone override) with the overrides of its UID. */
interface Series {
  master?: Vevent;
  overrides: Vevent[];
}

interface ReadObject {
  series: Series[];
  uids: string[];
  unreadable: string[];
  warnings: BusyWarning[];
  followsHostZone: boolean;
}

function readObject(ics: string, host: Zone): ReadObject | { invalid: string } {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(ics);
  } catch (error) {
    return { invalid: `does not parse: ${(error as Error)?.message ?? error}` };
  }
  const roots = (
    Array.isArray(parsed) && typeof parsed[0] === "string" ? [parsed] : (parsed as unknown[])
  ) as JCalComponent[];
  if (roots.length === 0) return { invalid: "does not parse: no VCALENDAR in it" };
  const stray = roots.find((root) => root[0] !== "vcalendar");
  if (stray) return { invalid: `not an iCalendar object: it holds a ${String(stray[0]).toUpperCase()}` };

  const definitions = new Map<string, JCalComponent>();
  for (const root of roots)
    for (const component of root[2])
      if (component[0] === "vtimezone") {
        const tzid = component[1].find((property) => property[0] === "tzid")?.[3];
        if (typeof tzid === "string" && !definitions.has(tzid)) definitions.set(tzid, component);
      }
  const reader = new Reader(host, definitions);
  const events: Vevent[] = [];
  const unreadable: string[] = [];
  for (const root of roots)
    for (const component of root[2]) {
      if (component[0] !== "vevent") continue;
      const event = reader.event(component);
      if ("problem" in event) {
        unreadable.push(event.uid);
        reader.warnings.push({
          code: "unreadable-event",
          uid: event.uid,
          message: `${event.problem}: its time is unknown, the window is not confirmed`,
        });
      } else events.push(event);
    }

  // Overrides join the first master of their UID; an override without one stands alone.
  const byUid = new Map<string, Series>();
  const series: Series[] = [];
  for (const event of events.filter((candidate) => !candidate.recurrenceId)) {
    const entry: Series = { master: event, overrides: [] };
    series.push(entry);
    if (!byUid.has(event.uid)) byUid.set(event.uid, entry);
  }
  for (const event of events.filter((candidate) => candidate.recurrenceId)) {
    const entry = byUid.get(event.uid);
    if (entry) entry.overrides.push(event);
    else series.push({ overrides: [event] });
  }
  const uids = [...new Set([...events.map((event) => event.uid), ...unreadable])];
  return { series, uids, unreadable, warnings: reader.warnings, followsHostZone: reader.floating };
}

class Reader {
  readonly warnings: BusyWarning[] = [];
  /** Some value was read on the host's clocks. */
  floating = false;
  private readonly zones = new Map<string, Zone>();

  constructor(
    private readonly host: Zone,
    private readonly definitions: Map<string, JCalComponent>,
  ) {}

  private zone(tzid: string, uid: string): Zone | undefined {
    let zone = this.zones.get(tzid);
    if (!zone) {
      const definition = this.definitions.get(tzid);
      zone = (definition && vtimezoneZone(definition)) || zoneByName(tzid);
      if (!zone) {
        this.warnings.push({
          code: "unknown-time-zone",
          uid,
          message: `TZID "${tzid}" has no VTIMEZONE and names no known zone: read on the host's clocks`,
        });
        return undefined;
      }
      this.zones.set(tzid, zone);
    }
    return zone;
  }

  private moment(value: unknown, params: Record<string, unknown>, uid: string): Moment | undefined {
    const parsed = parseValue(value);
    if (!parsed) return undefined;
    if (parsed.utc) return { wall: parsed.wall, date: false, zone: UTC_ZONE, floating: false };
    const zone = !parsed.date && typeof params.tzid === "string" ? this.zone(params.tzid, uid) : undefined;
    if (zone) return { wall: parsed.wall, date: false, zone, floating: false };
    this.floating = true;
    return { wall: parsed.wall, date: parsed.date, zone: this.host, floating: true };
  }

  event(component: JCalComponent): Vevent | { problem: string; uid: string } {
    const uidProperty = component[1].find((property) => property[0] === "uid");
    const uid = typeof uidProperty?.[3] === "string" ? uidProperty[3] : "";
    const problem = (text: string) => ({ problem: text, uid });
    let start: Moment | undefined;
    let end: EndRule = { kind: "none" };
    let recurrenceId: Moment | undefined;
    const event: Omit<Vevent, "start" | "end"> = {
      uid,
      transparent: false,
      cancelled: false,
      travel: 0,
      rules: [],
      rdates: [],
      exdates: [],
      thisAndFuture: false,
    };
    for (const property of component[1]) {
      const [name, params, type] = property;
      const value = property[3];
      switch (name) {
        case "dtstart":
          start = this.moment(value, params, uid);
          if (!start) return problem(`DTSTART "${String(value)}" is not a date`);
          break;
        case "dtend": {
          const moment = this.moment(value, params, uid);
          if (!moment) return problem(`DTEND "${String(value)}" is not a date`);
          end = { kind: "end", moment };
          break;
        }
        case "duration": {
          const duration = durationOf(value);
          if (!duration) return problem(`DURATION "${String(value)}" is not a duration`);
          // RFC 5545 allows one of them; if both are there, DTEND is the one every client shows.
          if (end.kind !== "end") end = { kind: "duration", ...duration };
          break;
        }
        case "status":
          event.cancelled = String(value).toUpperCase() === "CANCELLED";
          break;
        case "transp":
          event.transparent = String(value).toUpperCase() === "TRANSPARENT";
          break;
        case "x-apple-travel-duration": {
          const duration = durationOf(value);
          event.travel = duration ? Math.max(0, duration.days * DAY + duration.exact) : 0;
          break;
        }
        case "rrule": {
          const rule = ruleOf(value);
          if (!rule) return problem("RRULE is not a rule");
          event.rules.push(rule);
          break;
        }
        case "rdate":
          for (const item of property.slice(3)) {
            if (type === "period" && Array.isArray(item)) {
              const moment = this.moment(item[0], params, uid);
              const until = this.moment(item[1], params, uid);
              const duration = until ? undefined : durationOf(item[1]);
              if (!moment || (!until && !duration))
                return problem(`RDATE period "${item.join("/")}" is not a period`);
              event.rdates.push({
                moment,
                end: until ? { kind: "end", moment: until } : { kind: "duration", ...duration! },
              });
            } else {
              const moment = this.moment(item, params, uid);
              if (!moment) return problem(`RDATE "${String(item)}" is not a date`);
              event.rdates.push({ moment });
            }
          }
          break;
        case "exdate":
          for (const item of property.slice(3)) {
            const moment = this.moment(item, params, uid);
            if (!moment) return problem(`EXDATE "${String(item)}" is not a date`);
            event.exdates.push(moment);
          }
          break;
        case "recurrence-id":
          recurrenceId = this.moment(value, params, uid);
          if (!recurrenceId) return problem(`RECURRENCE-ID "${String(value)}" is not a date`);
          event.thisAndFuture = String(params.range ?? "").toUpperCase() === "THISANDFUTURE";
          break;
      }
    }
    if (!start) return problem("no DTSTART");
    return { ...event, start, end, ...(recurrenceId ? { recurrenceId } : {}) };
  }
}

function durationOf(value: unknown): { days: number; exact: number } | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const duration = ICAL.Duration.fromString(value);
    const sign = duration.isNegative ? -1 : 1;
    return {
      days: sign * (duration.weeks * 7 + duration.days),
      exact: sign * (((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000),
    };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Expanding.

interface Interval {
  start: number;
  end: number;
  uid: string;
  recurrenceId?: string;
}

interface Run {
  from: number;
  to: number;
  budget: Budget;
  engine: RuleEngine;
  warnings: BusyWarning[];
  confirmedUntil: number;
  intervals: Interval[];
}

/** An instance of a series: where it starts, on which clocks. */
interface Instance {
  wall: Wall;
  zone: Zone;
  date: boolean;
  instant: number;
  /** A PERIOD RDATE's own end. */
  end?: number;
}

/** What identifies an instance for RECURRENCE-ID and EXDATE: its instant, or its day if all-day. */
const keyOf = (date: boolean, wall: Wall, instant: number) => (date ? `D${dateKey(wall)}` : String(instant));
const idOf = (date: boolean, wall: Wall, instant: number) =>
  date ? dateKey(wall) : new Date(instant).toISOString();

/**
 * When an instance starting at `instance` ends under `end` (the rule of `event`, whose DTSTART
 * gives DTEND's distance). DTEND's distance is exact (RFC 5545 §3.8.5.3), except between two
 * dates, where it is whole days on the clocks; DURATION's days are on the clocks, its hours exact.
 */
function endOf(end: EndRule, start: Moment, instance: Omit<Instance, "end">): number {
  switch (end.kind) {
    case "none":
      return instance.date ? toInstant(instance.zone, instance.wall + DAY) : instance.instant;
    case "duration":
      return (
        (end.days === 0 ? instance.instant : toInstant(instance.zone, instance.wall + end.days * DAY)) +
        end.exact
      );
    case "end":
      return start.date && end.moment.date
        ? toInstant(instance.zone, instance.wall + (end.moment.wall - start.wall))
        : instance.instant + (instantOf(end.moment) - instantOf(start));
  }
}

/** The longest an instance can last under `end`, for how far before the window one may start. */
function longest(end: EndRule, start: Moment): number {
  switch (end.kind) {
    case "none":
      return start.date ? DAY + 2 * HOUR : 0;
    case "duration":
      return Math.max(0, end.days * DAY + end.exact) + 2 * HOUR;
    case "end":
      return Math.max(0, instantOf(end.moment) - instantOf(start)) + 2 * HOUR;
  }
}

/** The last instant UNTIL allows an instance to start at (RFC 5545: inclusive). */
function untilOf(rule: ICAL.Recur, start: Moment): number {
  if (!rule.until) return Number.POSITIVE_INFINITY;
  const until = parseValue(rule.until.toString());
  if (!until) return Number.POSITIVE_INFINITY;
  if (until.utc) return until.wall;
  // A DATE UNTIL takes in its whole day; a floating one is read on DTSTART's clocks.
  return until.date ? toInstant(start.zone, until.wall + DAY) - 1 : toInstant(start.zone, until.wall);
}

interface RangeOverride {
  at: number;
  shift: number;
  length: number;
  event: Vevent;
}

function rangeOverridesOf(series: Series): RangeOverride[] {
  return series.overrides
    .filter((override) => override.thisAndFuture)
    .map((override) => {
      const at = instantOf(override.recurrenceId!);
      const start = instantOf(override.start);
      const instance = {
        wall: override.start.wall,
        zone: override.start.zone,
        date: override.start.date,
        instant: start,
      };
      return {
        at,
        shift: start - at,
        length: endOf(override.end, override.start, instance) - start,
        event: override,
      };
    })
    .sort((a, b) => a.at - b.at);
}

function warnNegative(run: { warnings: BusyWarning[] }, event: Vevent, warned: Set<Vevent>) {
  if (warned.has(event)) return;
  warned.add(event);
  run.warnings.push({
    code: "end-before-start",
    uid: event.uid,
    message: "ends before it starts: read as lasting nothing",
  });
}

function emit(run: Run, start: number, end: number, uid: string, recurrenceId: string | undefined) {
  if (start < end && start < run.to && end > run.from)
    run.intervals.push(recurrenceId === undefined ? { start, end, uid } : { start, end, uid, recurrenceId });
}

function expandSeries(series: Series, run: Run) {
  const { master, overrides } = series;
  // A cancelled master cancels the whole series, its overrides included.
  if (master?.cancelled) return;
  const negative = new Set<Vevent>();
  for (const override of overrides) {
    if (override.cancelled || override.transparent) continue;
    const start = instantOf(override.start);
    const instance = {
      wall: override.start.wall,
      zone: override.start.zone,
      date: override.start.date,
      instant: start,
    };
    const end = endOf(override.end, override.start, instance);
    if (end < start) warnNegative(run, override, negative);
    const rid = override.recurrenceId!;
    emit(run, start - override.travel, end, override.uid, idOf(rid.date, rid.wall, instantOf(rid)));
  }
  if (!master) return;
  const recurring = master.rules.length > 0 || master.rdates.length > 0;
  const ranges = rangeOverridesOf(series);
  const zone = master.start.zone;
  const startInstant = instantOf(master.start);

  // How far before the window an instance can start and still reach into it, and after.
  const reach =
    Math.max(
      longest(master.end, master.start),
      ...master.rdates.map((rdate) => (rdate.end ? longest(rdate.end, rdate.moment) : 0)),
      ...ranges.map((range) => range.shift + range.length),
    ) + master.travel;
  const ahead = Math.max(0, ...ranges.map((range) => -range.shift)) + master.travel;

  const instances = new Map<string, Instance>();
  const add = (instance: Instance) => {
    const key = keyOf(instance.date, instance.wall, instance.instant);
    if (!instances.has(key)) instances.set(key, instance);
  };
  // RDATEs first: a PERIOD's own length wins over the rule's instance at the same time.
  for (const rdate of master.rdates) {
    const instance = {
      wall: rdate.moment.wall,
      zone: rdate.moment.zone,
      date: rdate.moment.date,
      instant: instantOf(rdate.moment),
    };
    add(rdate.end ? { ...instance, end: endOf(rdate.end, rdate.moment, instance) } : instance);
  }
  add({ wall: master.start.wall, zone, date: master.start.date, instant: startInstant });
  for (const rule of master.rules) {
    const until = untilOf(rule, master.start);
    const lower = run.from - reach - 2 * DAY;
    const upper = Math.min(
      run.to + ahead + 2 * DAY,
      until === Number.POSITIVE_INFINITY ? until : until + 2 * DAY,
    );
    const expansion = expandRule(
      rule,
      master.start.wall,
      master.start.date,
      { lower, upper },
      run.budget,
      run.engine,
    );
    for (const wall of expansion.walls) {
      const instant = toInstant(zone, wall);
      if (instant <= until) add({ wall, zone, date: master.start.date, instant });
    }
    if (expansion.stop) {
      const stoppedAt = toInstant(zone, expansion.stop.at) - ahead;
      run.confirmedUntil = Math.max(run.from, Math.min(run.confirmedUntil, stoppedAt));
      // A spent budget stops every later rule of the object too: one warning says it.
      const spent = expansion.stop.reason !== "invalid-rule";
      if (spent && run.warnings.some((warning) => warning.code === expansion.stop!.reason)) continue;
      run.warnings.push({
        code: expansion.stop.reason,
        uid: master.uid,
        message:
          expansion.stop.reason === "invalid-rule"
            ? `RRULE could not be expanded (${expansion.stop.detail}): instances from ${new Date(stoppedAt).toISOString()} on are unknown`
            : `${expansion.stop.reason === "occurrence-limit" ? "maxOccurrences" : "maxRuleSteps"} reached: instances from ${new Date(stoppedAt).toISOString()} on are missing`,
      });
    }
  }

  const excludedInstants = new Set<number>();
  const excludedDays = new Set<string>();
  for (const exdate of master.exdates) {
    if (exdate.date || master.start.date) excludedDays.add(dateKey(exdate.wall));
    if (!exdate.date) excludedInstants.add(instantOf(exdate));
  }
  const replaced = new Set(
    overrides.map((override) =>
      keyOf(override.recurrenceId!.date, override.recurrenceId!.wall, instantOf(override.recurrenceId!)),
    ),
  );

  for (const [key, instance] of instances) {
    if (replaced.has(key) || excludedInstants.has(instance.instant)) continue;
    if (excludedDays.size > 0) {
      const day = instance.date ? dateKey(instance.wall) : dateKey(toWall(zone, instance.instant));
      if (excludedDays.has(day)) continue;
    }
    // The latest THISANDFUTURE override at or before the instance rules it.
    let range: RangeOverride | undefined;
    for (const candidate of ranges) if (candidate.at <= instance.instant) range = candidate;
    let start: number;
    let end: number;
    let source: Vevent;
    if (range) {
      start = instance.instant + range.shift;
      end = start + range.length;
      source = range.event;
    } else {
      start = instance.instant;
      end = instance.end ?? endOf(master.end, master.start, instance);
      source = master;
    }
    if (source.cancelled || source.transparent) continue;
    if (end < start) warnNegative(run, source, negative);
    emit(
      run,
      start - source.travel,
      end,
      master.uid,
      recurring ? idOf(instance.date, instance.wall, instance.instant) : undefined,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The summary.

/** How much a time read on the host's clocks can move between host zones (UTC−12 to UTC+14). */
const ZONE_SLACK = 26 * HOUR;

function summarize(object: ReadObject, limits: Budget): CalendarObjectSummary {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  const cover = (start: number, end: number, floating: boolean) => {
    low = Math.min(low, start - (floating ? ZONE_SLACK : 0));
    high = Math.max(high, end + (floating ? ZONE_SLACK : 0));
  };
  const span = (event: Vevent, instance: Moment) => {
    const start = instantOf(instance);
    const whole = { wall: instance.wall, zone: instance.zone, date: instance.date, instant: start };
    return [start - event.travel, Math.max(start, endOf(event.end, event.start, whole))] as const;
  };
  for (const { master, overrides } of object.series) {
    if (master?.cancelled) continue;
    for (const override of overrides)
      if (!override.cancelled && !override.transparent)
        cover(...span(override, override.start), override.start.floating);
    if (!master) continue;
    const ranges = rangeOverridesOf({ master, overrides });
    if (master.transparent && !ranges.some((range) => !range.event.cancelled && !range.event.transparent))
      continue;
    const floating = master.start.floating || master.rdates.some((rdate) => rdate.moment.floating);
    const reach =
      Math.max(longest(master.end, master.start), ...ranges.map((range) => range.shift + range.length)) +
      master.travel;
    const earlier = Math.max(0, ...ranges.map((range) => -range.shift));
    const [start, end] = span(master, master.start);
    cover(start - earlier, end, floating);
    for (const rdate of master.rdates) {
      const instant = instantOf(rdate.moment);
      const instance = { wall: rdate.moment.wall, zone: rdate.moment.zone, date: rdate.moment.date, instant };
      const rdateEnd = rdate.end
        ? endOf(rdate.end, rdate.moment, instance)
        : endOf(master.end, master.start, instance);
      cover(instant - master.travel - earlier, Math.max(instant + reach, rdateEnd), floating);
    }
    for (const rule of master.rules) {
      const until = untilOf(rule, master.start);
      if (until !== Number.POSITIVE_INFINITY) {
        cover(start, until + reach, floating);
        continue;
      }
      if (!rule.count) {
        high = Number.POSITIVE_INFINITY;
        continue;
      }
      // COUNT: the last instance, found by expanding the rule to its end (bounded as any expansion).
      const budget = { ...limits };
      const expansion = expandRule(
        rule,
        master.start.wall,
        master.start.date,
        { lower: Number.NEGATIVE_INFINITY, upper: Number.POSITIVE_INFINITY },
        budget,
      );
      const last = expansion.walls.at(-1);
      if (expansion.stop) high = Number.POSITIVE_INFINITY;
      else if (last !== undefined) cover(start, toInstant(master.start.zone, last) + reach, floating);
    }
  }
  const recurs = object.series.some(
    ({ master }) => master && (master.rules.length > 0 || master.rdates.length > 0),
  );
  return {
    uids: object.uids,
    recurs,
    followsHostZone: object.followsHostZone,
    span:
      low === Number.POSITIVE_INFINITY
        ? null
        : { start: new Date(low), end: high === Number.POSITIVE_INFINITY ? null : new Date(high) },
  };
}
