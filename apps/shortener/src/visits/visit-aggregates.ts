// A batch of enriched visits summed by UTC hour, in the app, so the statement that stores the
// batch writes a few aggregate rows instead of making PostgreSQL group the whole batch again.
// The sums grow as visits join the queue (while the batch before them commits), so cutting a
// batch only sorts what was summed.
import type { Enrichment } from "./visit-enrichment.ts";

export interface EnrichedVisit extends Enrichment {
  shortId: string;
  at: Date;
  /** The redirect rule that sent it (1 is the first); null: the short's url; absent: no rules. */
  rule?: number | null;
}

/**
 * `rule` is the redirect rule that sent the visit ("default" or "1".."10"), counted only for the
 * visits of a short with rules (the others would add a row per short and hour for nothing), and
 * per short only: a rule's number means nothing across shorts (visit-log.ts leaves it out of
 * the per-user aggregates).
 */
export const DIMENSIONS = ["browser", "os", "device", "country", "referrer", "rule"] as const;

/** A visit's value of the rule dimension; undefined: the short has no rules, no value. */
export const ruleValue = (rule: number | null | undefined) =>
  rule === undefined ? undefined : rule === null ? "default" : String(rule);
const RULE = DIMENSIONS.indexOf("rule");

export interface BatchAggregates {
  totals: { shortId: string[]; hour: Date[]; visits: number[]; humans: number[] };
  values: {
    shortId: string[];
    hour: Date[];
    dimension: string[];
    value: string[];
    visits: number[];
    humans: number[];
  };
  /** The values summed per UTC day (day as YYYY-MM-DD). */
  dayValues: {
    shortId: string[];
    day: string[];
    dimension: string[];
    value: string[];
    visits: number[];
    humans: number[];
  };
  /** Each visitor of the batch once per short and UTC day, with the hour of its first visit. */
  visitors: { shortId: string[]; day: string[]; visitor: string[]; hour: Date[] };
}

const HOUR = 3_600_000;

interface Sum {
  visits: number;
  humans: number;
}

/** One sum per value, for each dimension in DIMENSIONS' order. */
type DimensionSums = Map<string, Sum>[];

interface HourGroup {
  shortId: string;
  hour: number;
  total: Sum;
  values: DimensionSums;
  day: DayGroup;
}

interface DayGroup {
  shortId: string;
  day: string;
  values: DimensionSums;
  /** Visitor hash → the first hour it came in this batch. */
  visitors: Map<string, number>;
}

const newDimensionSums = (): DimensionSums => DIMENSIONS.map(() => new Map<string, Sum>());

function bump(sums: Map<string, Sum>, value: string, human: number): void {
  const sum = sums.get(value);
  if (sum) {
    sum.visits++;
    sum.humans += human;
  } else sums.set(value, { visits: 1, humans: human });
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** DIMENSIONS' indexes in the order of their names (how rows are sorted). */
const DIMENSION_ORDER = DIMENSIONS.map((_, i) => i).sort((a, b) => byText(DIMENSIONS[a]!, DIMENSIONS[b]!));

/**
 * Sums per (short, hour), per (short, hour, dimension, value), per (short, day, dimension,
 * value), and each visitor once per short and UTC day with the hour it first came in the batch.
 * `sorted()` gives each list in key order: concurrent batches then lock aggregate rows in one order.
 */
export class BatchSums {
  private readonly hours = new Map<string, HourGroup>();
  private readonly days = new Map<string, DayGroup>();
  // Visits of a batch mostly share their short and hour: the last group is looked up once.
  private last: HourGroup | undefined;

  add(shortId: string, at: Date, visit: Enrichment, rule?: number | null): void {
    const hour = Math.floor(at.getTime() / HOUR) * HOUR;
    let group = this.last;
    if (group === undefined || group.hour !== hour || group.shortId !== shortId) {
      group = this.hourGroup(shortId, hour);
      this.last = group;
    }
    const human = visit.isBot ? 0 : 1;
    group.total.visits++;
    group.total.humans += human;
    const values = [visit.browser, visit.os, visit.device, visit.country, visit.referrerHost];
    for (let i = 0; i < values.length; i++) {
      bump(group.values[i]!, values[i]!, human);
      bump(group.day.values[i]!, values[i]!, human);
    }
    if (rule !== undefined) {
      const value = ruleValue(rule)!;
      bump(group.values[RULE]!, value, human);
      bump(group.day.values[RULE]!, value, human);
    }
    const { visitor } = visit;
    if (visitor === null) return;
    const first = group.day.visitors.get(visitor);
    if (first === undefined || hour < first) group.day.visitors.set(visitor, hour);
  }

  private hourGroup(shortId: string, hour: number): HourGroup {
    const key = `${shortId} ${hour}`;
    let group = this.hours.get(key);
    if (group === undefined) {
      const day = new Date(hour).toISOString().slice(0, 10);
      const dayKey = `${shortId} ${day}`;
      let dayGroup = this.days.get(dayKey);
      if (dayGroup === undefined) {
        dayGroup = { shortId, day, values: newDimensionSums(), visitors: new Map() };
        this.days.set(dayKey, dayGroup);
      }
      group = { shortId, hour, total: { visits: 0, humans: 0 }, values: newDimensionSums(), day: dayGroup };
      this.hours.set(key, group);
    }
    return group;
  }

  sorted(): BatchAggregates {
    const result: BatchAggregates = {
      totals: { shortId: [], hour: [], visits: [], humans: [] },
      values: { shortId: [], hour: [], dimension: [], value: [], visits: [], humans: [] },
      dayValues: { shortId: [], day: [], dimension: [], value: [], visits: [], humans: [] },
      visitors: { shortId: [], day: [], visitor: [], hour: [] },
    };
    // Hours of one short sort as numbers; every hour of these years has 13 digits, so this is
    // also the order of their decimal text (the order an earlier version sorted keys in).
    const hours = [...this.hours.values()].sort((a, b) => byText(a.shortId, b.shortId) || a.hour - b.hour);
    for (const group of hours) {
      const hour = new Date(group.hour);
      result.totals.shortId.push(group.shortId);
      result.totals.hour.push(hour);
      result.totals.visits.push(group.total.visits);
      result.totals.humans.push(group.total.humans);
      eachValue(group.values, (dimension, value, sum) => {
        result.values.shortId.push(group.shortId);
        result.values.hour.push(hour);
        result.values.dimension.push(dimension);
        result.values.value.push(value);
        result.values.visits.push(sum.visits);
        result.values.humans.push(sum.humans);
      });
    }
    const days = [...this.days.values()].sort((a, b) => byText(a.shortId, b.shortId) || byText(a.day, b.day));
    for (const group of days) {
      eachValue(group.values, (dimension, value, sum) => {
        result.dayValues.shortId.push(group.shortId);
        result.dayValues.day.push(group.day);
        result.dayValues.dimension.push(dimension);
        result.dayValues.value.push(value);
        result.dayValues.visits.push(sum.visits);
        result.dayValues.humans.push(sum.humans);
      });
      for (const visitor of [...group.visitors.keys()].sort(byText)) {
        result.visitors.shortId.push(group.shortId);
        result.visitors.day.push(group.day);
        result.visitors.visitor.push(visitor);
        result.visitors.hour.push(new Date(group.visitors.get(visitor)!));
      }
    }
    return result;
  }
}

/** Each (dimension, value, sum), dimensions by name, values in text order. */
function eachValue(sums: DimensionSums, each: (dimension: string, value: string, sum: Sum) => void): void {
  for (const i of DIMENSION_ORDER) {
    const values = sums[i]!;
    for (const value of [...values.keys()].sort(byText)) each(DIMENSIONS[i]!, value, values.get(value)!);
  }
}

/** The sums of a whole batch at once. */
export function aggregateBatch(visits: EnrichedVisit[]): BatchAggregates {
  const sums = new BatchSums();
  for (const visit of visits) sums.add(visit.shortId, visit.at, visit, visit.rule);
  return sums.sorted();
}

/**
 * One short's part of a batch's aggregates, as the batch stores it for the fold (visit-log.ts):
 * hours as epoch milliseconds, days as YYYY-MM-DD. t: [hour, visits, humans]; v: [hour,
 * dimension, value, visits, humans]; d: [day, dimension, value, visits, humans]; u: [day,
 * visitor, first hour].
 */
export interface PendingSums {
  t: [number, number, number][];
  v: [number, string, string, number, number][];
  d: [string, string, string, number, number][];
  u: [string, string, number][];
}

/** The batch's aggregates split per short: the shorts in order, and each one's JSON. */
export function pendingPerShort(sums: BatchAggregates): { shortIds: string[]; sums: string[] } {
  const byShort = new Map<string, PendingSums>();
  const of = (shortId: string) => {
    let entry = byShort.get(shortId);
    if (entry === undefined) {
      entry = { t: [], v: [], d: [], u: [] };
      byShort.set(shortId, entry);
    }
    return entry;
  };
  const { totals, values, dayValues, visitors } = sums;
  for (let i = 0; i < totals.shortId.length; i++) {
    of(totals.shortId[i]!).t.push([totals.hour[i]!.getTime(), totals.visits[i]!, totals.humans[i]!]);
  }
  for (let i = 0; i < values.shortId.length; i++) {
    of(values.shortId[i]!).v.push([
      values.hour[i]!.getTime(),
      values.dimension[i]!,
      values.value[i]!,
      values.visits[i]!,
      values.humans[i]!,
    ]);
  }
  for (let i = 0; i < dayValues.shortId.length; i++) {
    of(dayValues.shortId[i]!).d.push([
      dayValues.day[i]!,
      dayValues.dimension[i]!,
      dayValues.value[i]!,
      dayValues.visits[i]!,
      dayValues.humans[i]!,
    ]);
  }
  for (let i = 0; i < visitors.shortId.length; i++) {
    of(visitors.shortId[i]!).u.push([visitors.day[i]!, visitors.visitor[i]!, visitors.hour[i]!.getTime()]);
  }
  const shortIds = [...byShort.keys()];
  return { shortIds, sums: shortIds.map((id) => JSON.stringify(byShort.get(id))) };
}

/**
 * Pending sums of many batches added up (what one fold writes), in the order BatchSums.sorted()
 * gives: concurrent folds and batches lock aggregate rows in one order.
 */
export class PendingMerge {
  private readonly totals = new Map<string, { shortId: string; hour: number; sum: Sum }>();
  private readonly values = new Map<
    string,
    { shortId: string; hour: number; dimension: string; value: string; sum: Sum }
  >();
  private readonly dayValues = new Map<
    string,
    { shortId: string; day: string; dimension: string; value: string; sum: Sum }
  >();
  private readonly visitors = new Map<
    string,
    { shortId: string; day: string; visitor: string; hour: number }
  >();

  add(shortId: string, sums: PendingSums): void {
    for (const [hour, visits, humans] of sums.t) {
      const key = `${shortId} ${hour}`;
      const entry = this.totals.get(key);
      if (entry) addSum(entry.sum, visits, humans);
      else this.totals.set(key, { shortId, hour, sum: { visits, humans } });
    }
    for (const [hour, dimension, value, visits, humans] of sums.v) {
      const key = `${shortId} ${hour} ${dimension} ${value}`;
      const entry = this.values.get(key);
      if (entry) addSum(entry.sum, visits, humans);
      else this.values.set(key, { shortId, hour, dimension, value, sum: { visits, humans } });
    }
    for (const [day, dimension, value, visits, humans] of sums.d) {
      const key = `${shortId} ${day} ${dimension} ${value}`;
      const entry = this.dayValues.get(key);
      if (entry) addSum(entry.sum, visits, humans);
      else this.dayValues.set(key, { shortId, day, dimension, value, sum: { visits, humans } });
    }
    for (const [day, visitor, hour] of sums.u) {
      const key = `${shortId} ${day} ${visitor}`;
      const entry = this.visitors.get(key);
      if (entry === undefined) this.visitors.set(key, { shortId, day, visitor, hour });
      else if (hour < entry.hour) entry.hour = hour;
    }
  }

  sorted(): BatchAggregates {
    const totals = [...this.totals.values()].sort((a, b) => byText(a.shortId, b.shortId) || a.hour - b.hour);
    const values = [...this.values.values()].sort(
      (a, b) =>
        byText(a.shortId, b.shortId) ||
        a.hour - b.hour ||
        byText(a.dimension, b.dimension) ||
        byText(a.value, b.value),
    );
    const dayValues = [...this.dayValues.values()].sort(
      (a, b) =>
        byText(a.shortId, b.shortId) ||
        byText(a.day, b.day) ||
        byText(a.dimension, b.dimension) ||
        byText(a.value, b.value),
    );
    const visitors = [...this.visitors.values()].sort(
      (a, b) => byText(a.shortId, b.shortId) || byText(a.day, b.day) || byText(a.visitor, b.visitor),
    );
    return {
      totals: {
        shortId: totals.map((e) => e.shortId),
        hour: totals.map((e) => new Date(e.hour)),
        visits: totals.map((e) => e.sum.visits),
        humans: totals.map((e) => e.sum.humans),
      },
      values: {
        shortId: values.map((e) => e.shortId),
        hour: values.map((e) => new Date(e.hour)),
        dimension: values.map((e) => e.dimension),
        value: values.map((e) => e.value),
        visits: values.map((e) => e.sum.visits),
        humans: values.map((e) => e.sum.humans),
      },
      dayValues: {
        shortId: dayValues.map((e) => e.shortId),
        day: dayValues.map((e) => e.day),
        dimension: dayValues.map((e) => e.dimension),
        value: dayValues.map((e) => e.value),
        visits: dayValues.map((e) => e.sum.visits),
        humans: dayValues.map((e) => e.sum.humans),
      },
      visitors: {
        shortId: visitors.map((e) => e.shortId),
        day: visitors.map((e) => e.day),
        visitor: visitors.map((e) => e.visitor),
        hour: visitors.map((e) => new Date(e.hour)),
      },
    };
  }
}

function addSum(sum: Sum, visits: number, humans: number): void {
  sum.visits += visits;
  sum.humans += humans;
}
