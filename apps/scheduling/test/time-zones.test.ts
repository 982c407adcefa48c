// The zone conversions read a cached offset per quarter hour (docs/adr/0190): they must say what
// Intl says, to the second, at every offset change of zones with odd offsets and odd rules.
import { describe, expect, it } from "vitest";
import { intlParts, localParts, MINUTE, offsetMinutes } from "../src/slots/time-zones.ts";

const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  // Changes at half past a UTC hour, and a DST of half an hour.
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kathmandu",
  // DST suspended for Ramadan; a whole day skipped; a local mean time of odd seconds.
  "Africa/Casablanca",
  "Pacific/Apia",
  "Europe/Amsterdam",
];
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The offset (ms) Intl gives, as the cache would compute it without a cache. */
function intlOffset(instant: number, zone: string): number {
  const p = intlParts(instant, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/** The instants at which the zone's offset changes between `from` and `to`, to the second. */
function changes(zone: string, from: number, to: number): number[] {
  const found: number[] = [];
  let next = intlOffset(from, zone);
  for (let day = from; day < to; day += DAY) {
    const [offset, after] = [next, intlOffset(day + DAY, zone)];
    next = after;
    if (offset === after) continue;
    // Both ends of a day tell apart one change; a day with two that cancel is not a zone's rule.
    let [low, high] = [day, day + DAY];
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (intlOffset(middle, zone) === intlOffset(low, zone)) low = middle;
      else high = middle;
    }
    found.push(high);
  }
  return found;
}

describe("zone conversions", () => {
  it("say what Intl says around every offset change since 1900, and at random instants", () => {
    const from = Date.UTC(1900, 0, 1);
    const to = Date.UTC(2040, 0, 1);
    const near = [-15 * MINUTE, -MINUTE, -1000, -1, 0, 1, 999, 1000, MINUTE, 15 * MINUTE, HOUR];
    let checked = 0;
    for (const zone of ZONES) {
      const instants = changes(zone, from, to).flatMap((change) => near.map((delta) => change + delta));
      expect(instants.length, zone).toBeGreaterThan(0);
      for (let n = 0; n < 500; n++) instants.push(from + Math.floor(Math.random() * (to - from)));
      for (const instant of instants) {
        const at = `${zone} ${new Date(instant).toISOString()}`;
        expect(localParts(instant, zone), at).toEqual(intlParts(instant, zone));
        expect(offsetMinutes(instant, zone), at).toBe(Math.round(intlOffset(instant, zone) / MINUTE));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5_000);
  });
});
