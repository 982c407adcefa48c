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

/** Counts and times every request by its route pattern (never the raw URL: ids would explode the series). */
export function instrumentRequests(app: FastifyInstance, registry: Registry): RequestDurations {
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from the request's arrival to the response, by route, method and status",
    labelNames: ["route", "method", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const durations: RequestDurations = {
    observe: (route, method, statusCode, seconds) =>
      duration.observe({ route, method, status_code: String(statusCode) }, seconds),
  };
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
