import { ErrorBody } from "@app/schemas/shortener";
import { readiness } from "@app/server/readiness";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
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
        response: { 200: Ready, 503: ErrorBody.describe("Not ready; `error` says why") },
      },
    },
    async (request, reply) => {
      const { unready, database } = await readiness(
        { prisma: app.prisma, stopping: app.plannedStop.requested },
        request.log,
      );
      if (unready || !database) {
        return reply.code(503).send({ status: "Service Unavailable", error: unready ?? "stopping" });
      }
      return { status: "ready", database };
    },
  );
};
