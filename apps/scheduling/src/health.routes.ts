// Liveness and readiness for orchestrators: no apiKey, not rate limited, not rewritten. Ready:
// the database and, when REDIS_URL is set, the rate limiter's Redis answer (@app/server/readiness).
import { ErrorResponse } from "@app/schemas/scheduling";
import { readiness } from "@app/server/readiness";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

const Status = z.object({ status: z.string() });
const Ready = z.object({
  status: z.string(),
  database: z
    .enum(["leader", "no leader"])
    .describe(
      "The role of the database reached: leader (it takes writes), or no leader (none reached, or a replica: a " +
        "failover between leaders). With no leader the service stays ready for DATABASE_WAIT_MS, its requests " +
        "waiting for one; then /ready answers 503",
    ),
});

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
        summary:
          "The database (and Redis, when REDIS_URL is set) is reachable, and no stop has been asked for",
        security: [],
        response: { 200: Ready, 503: ErrorResponse.describe("Not ready; `message` says why") },
      },
    },
    async (request, reply) => {
      const { unready, database } = await readiness(
        { prisma: app.prisma, redis: app.redis ?? undefined, stopping: app.plannedStop.requested },
        request.log,
      );
      if (unready || !database) return reply.code(503).send({ message: unready ?? "stopping" });
      return { status: "ready", database };
    },
  );
}
