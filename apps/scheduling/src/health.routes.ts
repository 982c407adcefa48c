// Liveness and readiness for orchestrators: no apiKey, not rate limited, not rewritten.

import { ErrorResponse } from "@app/schemas/scheduling";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

const Status = z.object({ status: z.string() });
// A readiness probe must answer within the orchestrator's own timeout.
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Pings on the rate limiter's own client give up after a few ms (rate-limit.ts), so one busy
 * moment of this process could fail a ping; a load balancer taking that for an outage would
 * take every instance out at once (docs/adr/0164). Redis counts as unreachable when this many
 * pings in a row fail: a dead or frozen Redis fails them all, still well within the probe's time.
 */
const REDIS_PINGS = 3;

async function pingRedis(redis: NonNullable<FastifyInstance["redis"]>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await redis.ping();
      return;
    } catch (error) {
      if (attempt >= REDIS_PINGS) throw error;
    }
  }
}

function withinProbeTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("no answer in time")), PROBE_TIMEOUT_MS).unref(),
    ),
  ]);
}

export async function healthRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    "/health",
    {
      config: { public: true },
      schema: {
        operationId: "health",
        tags: ["operations"],
        summary: "The process is up",
        security: [],
        response: { 200: Status },
      },
    },
    async () => ({ status: "ok" }),
  );

  routes.get(
    "/ready",
    {
      config: { public: true },
      schema: {
        operationId: "ready",
        tags: ["operations"],
        summary: "The database (and Redis, when REDIS_URL is set) is reachable",
        security: [],
        response: { 200: Status, 503: ErrorResponse.describe("Not ready; `message` says why") },
      },
    },
    async (request, reply) => {
      try {
        await withinProbeTimeout(app.prisma.$queryRaw`SELECT 1`);
      } catch (error) {
        request.log.warn({ err: error }, "database not reachable");
        return reply.code(503).send({ message: "database unreachable" });
      }
      if (app.redis) {
        try {
          await withinProbeTimeout(pingRedis(app.redis));
        } catch (error) {
          request.log.warn({ err: error }, "Redis not reachable");
          return reply.code(503).send({ message: "Redis unreachable" });
        }
      }
      return { status: "ready" };
    },
  );
}
