// Liveness and readiness for orchestrators: no apiKey, not rate limited, not rewritten. Ready:
// the database and, when REDIS_URL is set, the rate limiter's Redis answer (@app/server/readiness).
import { ErrorResponse } from "@app/schemas/scheduling";
import { unreadyReason } from "@app/server/readiness";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

const Status = z.object({ status: z.string() });

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
        response: { 200: Status, 503: ErrorResponse.describe("Not ready; `message` says why") },
      },
    },
    async (request, reply) => {
      const unready = await unreadyReason(
        { prisma: app.prisma, redis: app.redis ?? undefined, stopping: app.plannedStop.requested },
        request.log,
      );
      if (unready) return reply.code(503).send({ message: unready });
      return { status: "ready" };
    },
  );
}
