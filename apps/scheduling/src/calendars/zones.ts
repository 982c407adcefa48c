// The time zones of calendar objects. A zone knows its offset at any instant; turning a wall
// reading into an instant follows RFC 5545 §3.3.5 for every kind of zone alike: a reading the
// clocks show twice (set back) is the first one, a reading they skip (set forward) is read with
// the offset before the gap (02:30 on a spring-forward night is 03:30 after it).
// Three kinds:
// - UTC;
// - an IANA zone, by Intl's rules (no zone database of our own). The slot engine has the same
//   conversions in slots/time-zones.ts; a folder imports only its own modules and the shared
//   top-level ones, so this folder keeps the few lines it needs;
// - an object's own VTIMEZONE, its observances expanded by the recurrence engine. ical.js's
//   Timezone is not used: it reads the hour before a zone's first listed change as UTC (offset 0),
//   resolves a skipped or repeated reading the other way from RFC 5545, and costs ~20 µs a
//   conversion (plus ~8 ms to build, per object).
import type ICAL from "ical.js";
import { expandRule, ruleOf } from "./recurrence.ts";
import { DAY, HOUR, MINUTE, parseValue, type Wall, wallOf } from "./wall-clock.ts";

export interface Zone {
  /** The TZID as written, or the IANA name. */
  readonly id: string;
  /** Milliseconds the zone's clocks are ahead of UTC at `instant`. */
  offsetAt(instant: number): number;
}

export const UTC_ZONE: Zone = { id: "UTC", offsetAt: () => 0 };

export const toWall = (zone: Zone, instant: number): Wall => instant + zone.offsetAt(instant);

/** The instant at which the zone's clocks show `wall` (RFC 5545 §3.3.5 for skipped and repeated readings). */
export function toInstant(zone: Zone, wall: Wall): number {
  // No zone changes its offset twice within two days: the offsets a day either side are the
  // only candidates.
  const before = zone.offsetAt(wall - DAY);
  const after = zone.offsetAt(wall + DAY);
  const early = wall - before;
  const earlyHolds = zone.offsetAt(early) === before;
  if (before === after && earlyHolds) return early;
  const late = wall - after;
  const lateHolds = zone.offsetAt(late) === after;
  if (earlyHolds && lateHolds) return Math.min(early, late);
  if (earlyHolds) return early;
  if (lateHolds) return late;
  return early; // in the gap: the offset before it
}

// ---------------------------------------------------------------------------------------------
// IANA zones through Intl.

const QUARTER = 15 * MINUTE;
/** Bounds the memory of the offset cache; each entry is one quarter of an hour of one zone. */
const MAX_CACHED_QUARTERS = 200_000;
let cachedQuarters = 0;

class IntlZone implements Zone {
  private readonly quarters = new Map<number, number>();
  constructor(
    readonly id: string,
    private readonly format: Intl.DateTimeFormat,
  ) {}

  private intlOffset(instant: number): number {
    const parts: Record<string, number> = {};
    let beforeChrist = false;
    for (const part of this.format.formatToParts(new Date(instant))) {
      if (part.type === "era") beforeChrist = part.value === "BC";
      else if (part.type !== "literal") parts[part.type] = Number(part.value);
    }
    const year = beforeChrist ? 1 - parts.year! : parts.year!;
    const clock = wallOf(year, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!);
    return clock - Math.floor(instant / 1000) * 1000;
  }

  // A zone's offset is the same all through a quarter of an hour that starts and ends with the
  // same offset (no zone changes twice within minutes); a quarter with a change asks Intl.
  offsetAt(instant: number): number {
    const quarter = Math.floor(instant / QUARTER);
    let offset = this.quarters.get(quarter);
    if (offset === undefined) {
      if (cachedQuarters >= MAX_CACHED_QUARTERS) {
        for (const zone of intlZones.values()) zone?.quarters.clear();
        cachedQuarters = 0;
      }
      const first = this.intlOffset(quarter * QUARTER);
      offset = first === this.intlOffset((quarter + 1) * QUARTER - 1) ? first : Number.NaN;
      this.quarters.set(quarter, offset);
      cachedQuarters++;
    }
    return Number.isNaN(offset) ? this.intlOffset(instant) : offset;
  }
}

const intlZones = new Map<string, IntlZone | null>();

/** The IANA zone of that name (as Intl knows it: links like US/Eastern too), or undefined. */
export function ianaZone(name: string): Zone | undefined {
  let zone = intlZones.get(name);
  if (zone === undefined) {
    try {
      const format = new Intl.DateTimeFormat("en-US", {
        timeZone: name,
        hourCycle: "h23",
        era: "short",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
      zone = new IntlZone(name, format);
    } catch {
      zone = null;
    }
    // Names come from calendar objects: only zones Intl knows are kept, and there are few.
    if (zone || intlZones.size < 10_000) intlZones.set(name, zone);
  }
  return zone ?? undefined;
}

/**
 * Windows zone names (Outlook and Exchange write them as TZIDs) to IANA, from CLDR's
 * windowsZones.xml (territory 001), for an object that names one without its VTIMEZONE.
 */
const WINDOWS_ZONES: Record<string, string> = {
  "Dateline Standard Time": "Etc/GMT+12",
  "UTC-11": "Etc/GMT+11",
  "Aleutian Standard Time": "America/Adak",
  "Hawaiian Standard Time": "Pacific/Honolulu",
  "Marquesas Standard Time": "Pacific/Marquesas",
  "Alaskan Standard Time": "America/Anchorage",
  "UTC-09": "Etc/GMT+9",
  "Pacific Standard Time (Mexico)": "America/Tijuana",
  "UTC-08": "Etc/GMT+8",
  "Pacific Standard Time": "America/Los_Angeles",
  "US Mountain Standard Time": "America/Phoenix",
  "Mountain Standard Time (Mexico)": "America/Mazatlan",
  "Mountain Standard Time": "America/Denver",
  "Central America Standard Time": "America/Guatemala",
  "Central Standard Time": "America/Chicago",
  "Easter Island Standard Time": "Pacific/Easter",
  "Central Standard Time (Mexico)": "America/Mexico_City",
  "Canada Central Standard Time": "America/Regina",
  "SA Pacific Standard Time": "America/Bogota",
  "Eastern Standard Time (Mexico)": "America/Cancun",
  "Eastern Standard Time": "America/New_York",
  "Haiti Standard Time": "America/Port-au-Prince",
  "Cuba Standard Time": "America/Havana",
  "US Eastern Standard Time": "America/Indiana/Indianapolis",
  "Paraguay Standard Time": "America/Asuncion",
  "Atlantic Standard Time": "America/Halifax",
  "Venezuela Standard Time": "America/Caracas",
  "Central Brazilian Standard Time": "America/Cuiaba",
  "SA Western Standard Time": "America/La_Paz",
  "Pacific SA Standard Time": "America/Santiago",
  "Newfoundland Standard Time": "America/St_Johns",
  "E. South America Standard Time": "America/Sao_Paulo",
  "SA Eastern Standard Time": "America/Cayenne",
  "Argentina Standard Time": "America/Argentina/Buenos_Aires",
  "Greenland Standard Time": "America/Godthab",
  "Montevideo Standard Time": "America/Montevideo",
  "UTC-02": "Etc/GMT+2",
  "Azores Standard Time": "Atlantic/Azores",
  "Cape Verde Standard Time": "Atlantic/Cape_Verde",
  UTC: "Etc/UTC",
  "GMT Standard Time": "Europe/London",
  "Greenwich Standard Time": "Atlantic/Reykjavik",
  "Morocco Standard Time": "Africa/Casablanca",
  "W. Europe Standard Time": "Europe/Berlin",
  "Central Europe Standard Time": "Europe/Budapest",
  "Romance Standard Time": "Europe/Paris",
  "Central European Standard Time": "Europe/Warsaw",
  "W. Central Africa Standard Time": "Africa/Lagos",
  "Namibia Standard Time": "Africa/Windhoek",
  "Jordan Standard Time": "Asia/Amman",
  "GTB Standard Time": "Europe/Bucharest",
  "Middle East Standard Time": "Asia/Beirut",
  "Egypt Standard Time": "Africa/Cairo",
  "E. Europe Standard Time": "Europe/Chisinau",
  "Syria Standard Time": "Asia/Damascus",
  "South Africa Standard Time": "Africa/Johannesburg",
  "FLE Standard Time": "Europe/Kiev",
  "Israel Standard Time": "Asia/Jerusalem",
  "Kaliningrad Standard Time": "Europe/Kaliningrad",
  "Arabic Standard Time": "Asia/Baghdad",
  "Turkey Standard Time": "Europe/Istanbul",
  "Arab Standard Time": "Asia/Riyadh",
  "Belarus Standard Time": "Europe/Minsk",
  "Russian Standard Time": "Europe/Moscow",
  "E. Africa Standard Time": "Africa/Nairobi",
  "Iran Standard Time": "Asia/Tehran",
  "Arabian Standard Time": "Asia/Dubai",
  "Azerbaijan Standard Time": "Asia/Baku",
  "Mauritius Standard Time": "Indian/Mauritius",
  "Georgian Standard Time": "Asia/Tbilisi",
  "Caucasus Standard Time": "Asia/Yerevan",
  "Afghanistan Standard Time": "Asia/Kabul",
  "West Asia Standard Time": "Asia/Tashkent",
  "Pakistan Standard Time": "Asia/Karachi",
  "India Standard Time": "Asia/Kolkata",
  "Sri Lanka Standard Time": "Asia/Colombo",
  "Nepal Standard Time": "Asia/Kathmandu",
  "Central Asia Standard Time": "Asia/Almaty",
  "Bangladesh Standard Time": "Asia/Dhaka",
  "Myanmar Standard Time": "Asia/Yangon",
  "SE Asia Standard Time": "Asia/Bangkok",
  "N. Central Asia Standard Time": "Asia/Novosibirsk",
  "China Standard Time": "Asia/Shanghai",
  "North Asia Standard Time": "Asia/Krasnoyarsk",
  "Singapore Standard Time": "Asia/Singapore",
  "W. Australia Standard Time": "Australia/Perth",
  "Taipei Standard Time": "Asia/Taipei",
  "Ulaanbaatar Standard Time": "Asia/Ulaanbaatar",
  "North Asia East Standard Time": "Asia/Irkutsk",
  "Tokyo Standard Time": "Asia/Tokyo",
  "Korea Standard Time": "Asia/Seoul",
  "Yakutsk Standard Time": "Asia/Yakutsk",
  "Cen. Australia Standard Time": "Australia/Adelaide",
  "AUS Central Standard Time": "Australia/Darwin",
  "E. Australia Standard Time": "Australia/Brisbane",
  "AUS Eastern Standard Time": "Australia/Sydney",
  "West Pacific Standard Time": "Pacific/Port_Moresby",
  "Tasmania Standard Time": "Australia/Hobart",
  "Vladivostok Standard Time": "Asia/Vladivostok",
  "Central Pacific Standard Time": "Pacific/Guadalcanal",
  "New Zealand Standard Time": "Pacific/Auckland",
  "UTC+12": "Etc/GMT-12",
  "Fiji Standard Time": "Pacific/Fiji",
  "Tonga Standard Time": "Pacific/Tongatapu",
  "Samoa Standard Time": "Pacific/Apia",
  "Line Islands Standard Time": "Pacific/Kiritimati",
};

/**
 * The zone a TZID names when the object holds no VTIMEZONE for it: an IANA name; the IANA name
 * at the end of an old-style path (Lightning's "/mozilla.org/20050126_1/America/New_York",
 * "/softwarestudio.org/Olson_20011030_5/Europe/London"); a Windows name.
 */
export function zoneByName(tzid: string): Zone | undefined {
  const name = tzid.trim();
  const direct = ianaZone(name);
  if (direct) return direct;
  const segments = name.split("/").filter((segment) => segment !== "");
  for (let take = Math.min(3, segments.length - 1); take >= 1; take--) {
    const zone = ianaZone(segments.slice(-take).join("/"));
    if (zone) return zone;
  }
  const windows = WINDOWS_ZONES[name];
  return windows === undefined ? undefined : ianaZone(windows);
}

// ---------------------------------------------------------------------------------------------
// An object's VTIMEZONE.

type JCalProperty = [string, Record<string, unknown>, string, ...unknown[]];
type JCalComponent = [string, JCalProperty[], JCalComponent[]];

interface Observance {
  /** Its DTSTART: the first onset, a reading of the clocks before it (TZOFFSETFROM). */
  onset: Wall;
  offsetFrom: number;
  offsetTo: number;
  rules: ICAL.Recur[];
  /** UNTIL of each rule, as an instant (Infinity without one). */
  untils: number[];
  rdates: Wall[];
}

interface Transition {
  at: number;
  offset: number;
}

/** Years of transitions computed at once around the instants asked about. */
const COVERAGE_MARGIN = 2 * 366 * DAY;
const YEAR = 366 * DAY;

class VTimezoneZone implements Zone {
  private transitions: Transition[] = [];
  private lower = Number.POSITIVE_INFINITY;
  private upper = Number.NEGATIVE_INFINITY;
  private readonly initial: number;

  constructor(
    readonly id: string,
    private readonly observances: Observance[],
  ) {
    const earliest = observances.reduce((a, b) => (b.onset - b.offsetFrom < a.onset - a.offsetFrom ? b : a));
    this.initial = earliest.offsetFrom;
  }

  offsetAt(instant: number): number {
    if (instant < this.lower || instant >= this.upper) this.cover(instant);
    // The last transition at or before the instant; before the first one, the first
    // observance's TZOFFSETFROM (the clocks before the zone's first listed change).
    let low = 0;
    let high = this.transitions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.transitions[middle]!.at <= instant) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? this.initial : this.transitions[low - 1]!.offset;
  }

  /** Recomputes the transitions over a range that holds the instant and what was covered. */
  private cover(instant: number) {
    this.lower = Math.min(this.lower, instant - COVERAGE_MARGIN);
    this.upper = Math.max(this.upper, instant + COVERAGE_MARGIN);
    const transitions: Transition[] = [];
    // Zone rules are yearly: this budget is never reached by a real one, and bounds a forged one.
    const budget = { occurrences: 100_000, steps: 100_000 };
    for (const observance of this.observances) {
      const add = (wall: Wall) =>
        transitions.push({ at: wall - observance.offsetFrom, offset: observance.offsetTo });
      add(observance.onset);
      for (const rdate of observance.rdates) add(rdate);
      observance.rules.forEach((rule, index) => {
        const until = observance.untils[index]!;
        // A rule that ended before the range still sets the offset in it: its last changes count.
        const upper = Math.min(this.upper + DAY, until + DAY);
        const lower = Math.min(this.lower, upper - YEAR) - DAY;
        for (const wall of expandRule(rule, observance.onset, false, { lower, upper }, budget).walls)
          if (wall - observance.offsetFrom <= until) add(wall);
      });
    }
    this.transitions = transitions.sort((a, b) => a.at - b.at);
  }
}

/** `+01:00`, `-0530`, `+01:00:00` (jCal writes utc-offset values with a colon). */
function parseOffset(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^([+-])(\d{2}):?(\d{2})(?::?(\d{2}))?$/.exec(value);
  if (!match) return undefined;
  const magnitude = Number(match[2]) * HOUR + Number(match[3]) * MINUTE + Number(match[4] ?? 0) * 1000;
  return match[1] === "-" ? -magnitude : magnitude;
}

const first = (component: JCalComponent, name: string) =>
  component[1].find((property) => property[0] === name);

const vtimezones = new Map<string, VTimezoneZone | null>();
const MAX_CACHED_VTIMEZONES = 1000;

/**
 * The zone a VTIMEZONE defines, or undefined when it defines none usable (no observance with
 * DTSTART, TZOFFSETFROM and TZOFFSETTO). Definitions are shared between objects: a calendar's
 * objects repeat the same few, and building one costs its rules' expansion.
 */
export function vtimezoneZone(component: JCalComponent): Zone | undefined {
  const key = JSON.stringify(component);
  let zone = vtimezones.get(key);
  if (zone === undefined) {
    const tzid = first(component, "tzid")?.[3];
    const observances: Observance[] = [];
    for (const sub of component[2]) {
      if (sub[0] !== "standard" && sub[0] !== "daylight") continue;
      const onset = parseValue(first(sub, "dtstart")?.[3]);
      const offsetFrom = parseOffset(first(sub, "tzoffsetfrom")?.[3]);
      const offsetTo = parseOffset(first(sub, "tzoffsetto")?.[3]);
      if (!onset || offsetFrom === undefined || offsetTo === undefined) continue;
      const rules: ICAL.Recur[] = [];
      const untils: number[] = [];
      for (const property of sub[1]) {
        if (property[0] !== "rrule") continue;
        const rule = ruleOf(property[3]);
        if (!rule) continue;
        rules.push(rule);
        const until = rule.until ? parseValue(rule.until.toString()) : undefined;
        // UNTIL in a VTIMEZONE is UTC (RFC 5545 §3.6.5); a local one is read before the change.
        untils.push(until ? (until.utc ? until.wall : until.wall - offsetFrom) : Number.POSITIVE_INFINITY);
      }
      const rdates = sub[1]
        .filter((property) => property[0] === "rdate")
        .flatMap((property) => property.slice(3).map((value) => parseValue(value)?.wall))
        .filter((wall): wall is Wall => wall !== undefined);
      observances.push({ onset: onset.wall, offsetFrom, offsetTo, rules, untils, rdates });
    }
    zone = typeof tzid === "string" && observances.length > 0 ? new VTimezoneZone(tzid, observances) : null;
    if (vtimezones.size >= MAX_CACHED_VTIMEZONES) vtimezones.clear();
    vtimezones.set(key, zone);
  }
  return zone ?? undefined;
}

export type { JCalComponent, JCalProperty };
