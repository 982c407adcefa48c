// Prometheus metrics of one service: its requests (by route pattern, method and status, with
// latency histograms) and its database pool, in a registry of its own (both services share one
// process under `pnpm start`). Served on a separate port, so they are never public by accident.
import { createServer, type Server } from "node:http";
import type { PrismaClient } from "@app/db";
import { poolStats } from "@app/db";
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export { Counter, Gauge, Histogram, type Registry };

// Process-wide metrics (CPU, memory, event loop) once per process, whichever service asks first.
let defaultMetricsRegistered = false;

/** A registry for `service`, with the database pool's use read at every scrape. */
export function createRegistry(service: string, prisma: PrismaClient): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (!defaultMetricsRegistered) {
    collectDefaultMetrics({ register: registry });
    defaultMetricsRegistered = true;
  }
  const pool = new Gauge({
    name: "db_pool_connections",
    help: "Database pool connections by state (total, idle, waiting requests, max)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const stats = poolStats(prisma);
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });
  void pool;
  return registry;
}

/** The request-duration histogram, for answers given outside Fastify's hooks (hot-path.ts). */
export interface RequestDurations {
  observe(route: string, method: string, statusCode: number, seconds: number): void;
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface DurationSeries {
  labels: { route: string; method: string; status_code: string };
  /** Observations per bucket (not cumulative); the last one is past every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds`, exported exactly as prom-client's Histogram exports it, but
 * observed at a Map lookup: prom-client validates and hashes the labels object of every
 * observation, about 1 µs of the redirect's CPU on every request (docs/performance.md).
 */
class RequestDurationHistogram implements RequestDurations {
  readonly name = "http_request_duration_seconds";
  readonly help = "Time from the request's arrival to the response, by route, method and status";
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, DurationSeries>();

  observe(route: string, method: string, statusCode: number, seconds: number): void {
    const key = `${statusCode} ${method} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = {
        labels: { route, method, status_code: String(statusCode) },
        counts: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /** prom-client's text export reads this: the series' labels as shared labels, after `le`. */
  async getForPromString() {
    const values = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (const [i, bound] of DURATION_BUCKETS.entries()) {
        cumulative += counts[i]!;
        values.push({
          labels: { le: bound },
          sharedLabels: labels,
          value: cumulative,
          metricName: `${this.name}_bucket`,
          exemplar: null,
        });
      }
      values.push({
        labels: { le: "+Inf" },
        sharedLabels: labels,
        value: count,
        metricName: `${this.name}_bucket`,
        exemplar: null,
      });
      const total = { labels: {}, sharedLabels: labels, exemplar: undefined };
      values.push({ ...total, value: sum, metricName: `${this.name}_sum` });
      values.push({ ...total, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON export (and getSingleMetric readers): each value's labels whole. */
  async get() {
    const metric = await this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ labels, sharedLabels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }

  reset(): void {
    this.series.clear();
  }
}

/** Counts and times every request by its route pattern (never the raw URL: ids would explode the series). */
export function instrumentRequests(app: FastifyInstance, registry: Registry): RequestDurations {
  const durations = new RequestDurationHistogram();
  registry.registerMetric(durations as unknown as Parameters<Registry["registerMetric"]>[0]);
  app.addHook("onResponse", (request, reply, done) => {
    durations.observe(
      request.routeOptions.url ?? "(unmatched)",
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  return durations;
}

/** Serves `GET /metrics` on its own listener; resolves with the server (close it on shutdown). */
export async function serveMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    }
    // As on the services' own ports: a method the path does not offer is 405 with Allow.
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { "content-type": "text/plain", allow: "GET" }).end("Method Not Allowed");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => response.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
