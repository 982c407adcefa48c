// Wall-clock readings ("2024-03-31 09:00" on some zone's clocks) as plain numbers: the
// milliseconds such a reading would be if it were UTC. Recurrence rules step in wall-clock
// time (RFC 5545: every Monday at 09:00 stays 09:00 across a DST change), so the rule engine
// works on these and only the zone turns them into instants (zones.ts).

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

/** A reading of a zone's clocks, in ms counted as if UTC: 2024-03-31 02:30 is Date.UTC(2024, 2, 31, 2, 30). */
export type Wall = number;

/**
 * The reading for these fields (a day past the month's end rolls over). Not Date.UTC, which
 * reads the years 0 to 99 as 1900 to 1999.
 */
export function wallOf(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Wall {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

export interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function fieldsOf(wall: Wall): WallFields {
  const date = new Date(wall);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (wall: Wall) => new Date(wall).getUTCDay();

/** Midnight of the reading's day. */
export const dayOf = (wall: Wall) => Math.floor(wall / DAY) * DAY;

/** `2024-03-31`. */
export function dateKey(wall: Wall): string {
  const { year, month, day } = fieldsOf(wall);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface ParsedValue {
  wall: Wall;
  /** A DATE value (a whole day), not a DATE-TIME. */
  date: boolean;
  /** A DATE-TIME in UTC (`…Z`). */
  utc: boolean;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/;
// ical.js reads a DATE written where a DATE-TIME is the default (`DTSTART:20240101`, no
// VALUE=DATE, as some producers write it) as "2024-01-01T::". It is a date.
const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})T::$/;

/** A DATE or DATE-TIME value as ical.js's jCal holds it ("2024-01-01", "2024-01-01T10:00:00Z"). */
export function parseValue(text: unknown): ParsedValue | undefined {
  if (typeof text !== "string") return undefined;
  const match = DATE_TIME.exec(text) ?? BARE_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = match[4] === undefined;
  const [hour, minute, second] = date ? [0, 0, 0] : [Number(match[4]), Number(match[5]), Number(match[6])];
  // A leap second (:60) is read as :59 (RFC 5545 §3.3.5 allows it; nothing schedules on it).
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const wall = wallOf(year, month, day, hour, minute, Math.min(second, 59));
  // 2024-02-30 is no day: the value is malformed, not March 1st.
  if (fieldsOf(wall).day !== day) return undefined;
  return { wall, date, utc: match[7] === "Z" };
}
