// The visit log's in-app sums (pure logic): compared with a plain GROUP BY written out in
// JavaScript, on random batches, including their order (the order aggregate rows are locked in).
import { describe, expect, it } from "vitest";
import {
  aggregateBatch,
  BatchSums,
  DIMENSIONS,
  type EnrichedVisit,
  ruleValue,
} from "../src/visits/visit-aggregates.ts";

const HOUR = 3_600_000;
const SHORTS = [
  "0193b3a4-0000-7000-8000-000000000002",
  "0193b3a4-0000-7000-8000-000000000001",
  "0000aaaa-0000-7000-8000-000000000003",
];

/** A seeded generator: the same batches on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

function batch(next: () => number, size: number): EnrichedVisit[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  // Four hours across a UTC midnight: two days.
  const start = Date.UTC(2026, 10, 24, 22);
  return Array.from({ length: size }, () => ({
    shortId: pick(SHORTS),
    at: new Date(start + Math.floor(next() * 4 * HOUR)),
    ipAddress: "192.0.2.1",
    isBot: next() < 0.3,
    browser: pick(["Chrome", "Firefox", "", "Édge"]),
    os: pick(["Linux", "Mac OS", ""]),
    device: pick(["desktop", "mobile", "bot", ""]),
    country: pick(["FR", "US", ""]),
    referrerHost: pick(["", "a.com", "b.org", "a.co"]),
    // null: an imported visit that counts no visitor (a later one of its visitor that day).
    visitor: pick(["-123", "45", "-9223372036854775808", "7", null]),
    rule: pick([null, undefined, 1, 2, 10]),
  }));
}

/** What the statement's GROUP BYs would give, each list sorted by its whole key as text. */
function groupBy(visits: EnrichedVisit[]) {
  const hourOf = (v: EnrichedVisit) => Math.floor(v.at.getTime() / HOUR) * HOUR;
  const dayOf = (v: EnrichedVisit) => new Date(hourOf(v)).toISOString().slice(0, 10);
  const sum = <K extends unknown[]>(key: (v: EnrichedVisit) => K[]) => {
    const sums = new Map<string, { key: K; visits: number; humans: number }>();
    for (const v of visits) {
      for (const k of key(v)) {
        const text = k.join("\u0000");
        const s = sums.get(text) ?? { key: k, visits: 0, humans: 0 };
        s.visits++;
        s.humans += v.isBot ? 0 : 1;
        sums.set(text, s);
      }
    }
    return [...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
  };
  const values = (v: EnrichedVisit) => [
    v.browser,
    v.os,
    v.device,
    v.country,
    v.referrerHost,
    ruleValue(v.rule),
  ];
  // The rule dimension only for the visits of a short with rules (rule not undefined).
  const keyed = (v: EnrichedVisit, at: string) =>
    DIMENSIONS.flatMap((d, i) => (values(v)[i] === undefined ? [] : [[v.shortId, at, d, values(v)[i]!]]));
  const firstHour = new Map<string, { key: [string, string, string]; hour: number }>();
  for (const v of visits) {
    if (v.visitor === null) continue;
    const text = [v.shortId, dayOf(v), v.visitor].join("\u0000");
    const seen = firstHour.get(text);
    if (!seen || hourOf(v) < seen.hour)
      firstHour.set(text, { key: [v.shortId, dayOf(v), v.visitor], hour: hourOf(v) });
  }
  return {
    totals: sum((v) => [[v.shortId, String(hourOf(v))]]),
    values: sum((v) => keyed(v, String(hourOf(v)))),
    dayValues: sum((v) => keyed(v, dayOf(v))),
    visitors: [...firstHour].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s),
  };
}

describe("the visit log's batch sums", () => {
  it("equal a GROUP BY of the batch, in the same order, on 500 random batches", () => {
    const next = random(18);
    for (let round = 0; round < 500; round++) {
      const visits = batch(next, 1 + Math.floor(next() * 80));
      const got = aggregateBatch(visits);
      const want = groupBy(visits);
      expect(got.totals).toEqual({
        shortId: want.totals.map((s) => s.key[0]),
        hour: want.totals.map((s) => new Date(Number(s.key[1]))),
        visits: want.totals.map((s) => s.visits),
        humans: want.totals.map((s) => s.humans),
      });
      const valueColumns = (sums: typeof want.values, time: "hour" | "day") => ({
        shortId: sums.map((s) => s.key[0]),
        [time]: sums.map((s) => (time === "hour" ? new Date(Number(s.key[1])) : s.key[1])),
        dimension: sums.map((s) => s.key[2]),
        value: sums.map((s) => s.key[3]),
        visits: sums.map((s) => s.visits),
        humans: sums.map((s) => s.humans),
      });
      expect(got.values).toEqual(valueColumns(want.values, "hour"));
      expect(got.dayValues).toEqual(valueColumns(want.dayValues, "day"));
      expect(got.visitors).toEqual({
        shortId: want.visitors.map((s) => s.key[0]),
        day: want.visitors.map((s) => s.key[1]),
        visitor: want.visitors.map((s) => s.key[2]),
        hour: want.visitors.map((s) => new Date(s.hour)),
      });
    }
  });

  it("sum as visits join as they do all at once", () => {
    const next = random(7);
    const visits = batch(next, 200);
    const sums = new BatchSums();
    for (const v of visits) sums.add(v.shortId, v.at, v, v.rule);
    expect(sums.sorted()).toEqual(aggregateBatch(visits));
  });
});
