import { ErrorBody } from "@app/schemas/shortener";
import { unreadyReason } from "@app/server/readiness";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const Status = z.object({ status: z.string() });

/**
 * Liveness and readiness for orchestrators; no auth. Ready: the database answers
 * (@app/server/readiness). Not Redis: it only counts password attempts, which pass uncounted
 * while it is down, and a Redis outage must not take every instance out of the load balancer.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    {
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

  app.get(
    "/ready",
    {
      schema: {
        operationId: "ready",
        tags: ["operations"],
        summary: "The database is reachable, and no stop has been asked for",
        security: [],
        response: { 200: Status, 503: ErrorBody.describe("Not ready; `error` says why") },
      },
    },
    async (request, reply) => {
      const unready = await unreadyReason(
        { prisma: app.prisma, stopping: app.plannedStop.requested },
        request.log,
      );
      if (unready) return reply.code(503).send({ status: "Service Unavailable", error: unready });
      return { status: "ready" };
    },
  );
};
