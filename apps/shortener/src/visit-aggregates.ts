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
  visitors: { shortId: string[]; hour: Date[]; visitor: string[] };
}

const HOUR = 3_600_000;
const SEPARATOR = "\u0000";

/**
 * Sums per (short, hour), per (short, hour, dimension, value) and the distinct visitors per
 * (short, hour), each sorted by key: concurrent batches then lock aggregate rows in one order.
 */
export function aggregateBatch(visits: EnrichedVisit[]): BatchAggregates {
  const totals = new Map<string, { visits: number; humans: number }>();
  const values = new Map<string, { visits: number; humans: number }>();
  const visitors = new Set<string>();
  for (const visit of visits) {
    const hour = Math.floor(visit.at.getTime() / HOUR) * HOUR;
    const human = visit.isBot ? 0 : 1;
    const key = `${visit.shortId}${SEPARATOR}${hour}`;
    const total = totals.get(key) ?? { visits: 0, humans: 0 };
    total.visits++;
    total.humans += human;
    totals.set(key, total);
    const dimensionValues = [visit.browser, visit.os, visit.device, visit.country, visit.referrerHost];
    DIMENSIONS.forEach((dimension, i) => {
      const valueKey = `${key}${SEPARATOR}${dimension}${SEPARATOR}${dimensionValues[i]}`;
      const sum = values.get(valueKey) ?? { visits: 0, humans: 0 };
      sum.visits++;
      sum.humans += human;
      values.set(valueKey, sum);
    });
    visitors.add(`${key}${SEPARATOR}${visit.visitor}`);
  }
  const sorted = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const result: BatchAggregates = {
    totals: { shortId: [], hour: [], visits: [], humans: [] },
    values: { shortId: [], hour: [], dimension: [], value: [], visits: [], humans: [] },
    visitors: { shortId: [], hour: [], visitor: [] },
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
  for (const key of [...visitors].sort()) {
    const [shortId, hour, visitor] = key.split(SEPARATOR) as [string, string, string];
    result.visitors.shortId.push(shortId);
    result.visitors.hour.push(new Date(Number(hour)));
    result.visitors.visitor.push(visitor);
  }
  return result;
}
