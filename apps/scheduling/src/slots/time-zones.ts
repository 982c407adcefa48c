// Wall-clock time in an IANA zone ↔ instants, with Intl only (no zone database of our own).
// Every conversion goes through the zone's offset at that instant, so DST changes are exact.

export const MINUTE = 60_000;
export const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      // Year 0 and before are "1 BC" and so on: without the era they read as years 1, 2, ...
      era: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** True for a zone Intl knows (v1: "Invalid timezone. Must be a valid IANA timezone string."). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(instant: number, timeZone: string): LocalParts {
  const local = new Date(instant + offsetMs(instant, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** Minutes the zone is ahead of UTC at `instant` (+60 for Berlin in winter). */
export function offsetMinutes(instant: number, timeZone: string): number {
  return Math.round(offsetMs(instant, timeZone) / MINUTE);
}

/** What Intl says the zone's clock shows at `instant`, to the second (year 0 is 1 BC). */
export function intlParts(instant: number, timeZone: string): LocalParts {
  const values: Record<string, number> = {};
  let beforeChrist = false;
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type === "era") beforeChrist = part.value === "BC";
    else if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return {
    year: beforeChrist ? 1 - values.year! : values.year!,
    month: values.month!,
    day: values.day!,
    hour: values.hour!,
    minute: values.minute!,
    second: values.second!,
  };
}

/** The zone's clock at `instant` less UTC's, in ms (whole seconds), from Intl. */
function intlOffsetMs(instant: number, timeZone: string): number {
  const p = intlParts(instant, timeZone);
  const clock = utcMidnight(p) + ((p.hour * 60 + p.minute) * 60 + p.second) * 1000;
  return clock - Math.floor(instant / 1000) * 1000;
}

// A slot query converts thousands of instants, and Intl's formatToParts was most of its time
// (docs/adr/0190). A zone's offset is the same all through a quarter of an hour that starts and
// ends with the same offset: no zone changes its offset twice within minutes. A quarter with a
// change in it asks Intl for each instant.
const QUARTER = 15 * MINUTE;
const CHANGES = Number.NaN;
const offsets = new Map<string, Map<number, number>>();
let cachedQuarters = 0;
/** Bounds the memory that queries over many zones and ranges can take; each quarter is 2 Intl calls. */
const MAX_CACHED_QUARTERS = 200_000;

function offsetMs(instant: number, timeZone: string): number {
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  const quarter = Math.floor(instant / QUARTER);
  let offset = zone.get(quarter);
  if (offset === undefined) {
    if (cachedQuarters >= MAX_CACHED_QUARTERS) {
      for (const quarters of offsets.values()) quarters.clear();
      cachedQuarters = 0;
    }
    const first = intlOffsetMs(quarter * QUARTER, timeZone);
    offset = first === intlOffsetMs((quarter + 1) * QUARTER - 1, timeZone) ? first : CHANGES;
    zone.set(quarter, offset);
    cachedQuarters++;
  }
  return Number.isNaN(offset) ? intlOffsetMs(instant, timeZone) : offset;
}

/** A calendar date, as the zone sees it. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export const dateKey = ({ year, month, day }: LocalDate) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

export function localDate(instant: number, timeZone: string): LocalDate {
  const { year, month, day } = localParts(instant, timeZone);
  return { year, month, day };
}

/**
 * Midnight UTC of the date (a day past the month's end rolls over). Not Date.UTC: it reads the
 * years 0 to 99 as 1900 to 1999, and the slot engine works in year 1 too.
 */
function utcMidnight({ year, month, day }: LocalDate): number {
  return new Date(0).setUTCFullYear(year, month - 1, day);
}

export function addDays({ year, month, day }: LocalDate, days: number): LocalDate {
  const date = new Date(utcMidnight({ year, month, day: day + days }));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday, as v1's availability `days`. */
export const weekday = (date: LocalDate) => new Date(utcMidnight(date)).getUTCDay();

/**
 * The instant at which the zone's clock shows `minutes` past midnight of `date`. A wall time
 * that a DST change skips maps to the instant an hour later, as clocks do.
 */
export function zonedInstant(date: LocalDate, minutes: number, timeZone: string): number {
  const wall = utcMidnight(date) + minutes * MINUTE;
  const first = wall - offsetMinutes(wall, timeZone) * MINUTE;
  return wall - offsetMinutes(first, timeZone) * MINUTE;
}

/** `2024-01-02T10:00:00+01:00`: how v1 rendered a slot when the query named a time zone. */
export function formatInZone(instant: number, timeZone: string): string {
  const p = localParts(instant, timeZone);
  const offset = offsetMinutes(instant, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${dateKey(p)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
