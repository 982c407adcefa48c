// A batch of enriched visits summed by UTC hour, in the app, so the statement that stores the
// batch writes a few aggregate rows instead of making PostgreSQL group the whole batch again.
import type { Enrichment } from "./visit-enrichment.ts";

export interface EnrichedVisit extends Enrichment {
  shortId: string;
  at: Date;
}

export const DIMENSIONS = ["browser", "os", "device", "country", "referrer"] as const;

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
const SEPARATOR = "\u0000";

/**
 * Sums per (short, hour), per (short, hour, dimension, value), and each visitor once per short
 * and UTC day with the hour it first came in this batch, each sorted by key: concurrent batches then lock aggregate rows in one order.
 */
export function aggregateBatch(visits: EnrichedVisit[]): BatchAggregates {
  const totals = new Map<string, { visits: number; humans: number }>();
  const values = new Map<string, { visits: number; humans: number }>();
  const dayValues = new Map<string, { visits: number; humans: number }>();
  const visitors = new Map<string, number>();
  for (const visit of visits) {
    const hour = Math.floor(visit.at.getTime() / HOUR) * HOUR;
    const human = visit.isBot ? 0 : 1;
    const key = `${visit.shortId}${SEPARATOR}${hour}`;
    const total = totals.get(key) ?? { visits: 0, humans: 0 };
    total.visits++;
    total.humans += human;
    totals.set(key, total);
    const day = new Date(hour).toISOString().slice(0, 10);
    const dimensionValues = [visit.browser, visit.os, visit.device, visit.country, visit.referrerHost];
    DIMENSIONS.forEach((dimension, i) => {
      for (const [map, prefix] of [
        [values, key],
        [dayValues, `${visit.shortId}${SEPARATOR}${day}`],
      ] as const) {
        const valueKey = `${prefix}${SEPARATOR}${dimension}${SEPARATOR}${dimensionValues[i]}`;
        const sum = map.get(valueKey) ?? { visits: 0, humans: 0 };
        sum.visits++;
        sum.humans += human;
        map.set(valueKey, sum);
      }
    });
    const visitorKey = `${visit.shortId}${SEPARATOR}${day}${SEPARATOR}${visit.visitor}`;
    visitors.set(visitorKey, Math.min(visitors.get(visitorKey) ?? hour, hour));
  }
  const sorted = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const result: BatchAggregates = {
    totals: { shortId: [], hour: [], visits: [], humans: [] },
    values: { shortId: [], hour: [], dimension: [], value: [], visits: [], humans: [] },
    dayValues: { shortId: [], day: [], dimension: [], value: [], visits: [], humans: [] },
    visitors: { shortId: [], day: [], visitor: [], hour: [] },
  };
  for (const [key, sum] of sorted(totals)) {
    const [shortId, hour] = key.split(SEPARATOR) as [string, string];
    result.totals.shortId.push(shortId);
    result.totals.hour.push(new Date(Number(hour)));
    result.totals.visits.push(sum.visits);
    result.totals.humans.push(sum.humans);
  }
  for (const [key, sum] of sorted(values)) {
    const [shortId, hour, dimension, value] = key.split(SEPARATOR) as [string, string, string, string];
    result.values.shortId.push(shortId);
    result.values.hour.push(new Date(Number(hour)));
    result.values.dimension.push(dimension);
    result.values.value.push(value);
    result.values.visits.push(sum.visits);
    result.values.humans.push(sum.humans);
  }
  for (const [key, sum] of sorted(dayValues)) {
    const [shortId, day, dimension, value] = key.split(SEPARATOR) as [string, string, string, string];
    result.dayValues.shortId.push(shortId);
    result.dayValues.day.push(day);
    result.dayValues.dimension.push(dimension);
    result.dayValues.value.push(value);
    result.dayValues.visits.push(sum.visits);
    result.dayValues.humans.push(sum.humans);
  }
  for (const [key, hour] of sorted(visitors)) {
    const [shortId, day, visitor] = key.split(SEPARATOR) as [string, string, string];
    result.visitors.shortId.push(shortId);
    result.visitors.day.push(day);
    result.visitors.visitor.push(visitor);
    result.visitors.hour.push(new Date(hour));
  }
  return result;
}
