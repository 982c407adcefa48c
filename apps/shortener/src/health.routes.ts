import { ErrorBody } from "@app/schemas/shortener";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const Status = z.object({ status: z.string() });

/** Liveness and readiness for orchestrators; no auth. */
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
        summary: "The database is reachable",
        security: [],
        response: { 200: Status, 503: ErrorBody.describe("Not ready; `error` says why") },
      },
    },
    async (request, reply) => {
      try {
        await app.prisma.$queryRaw`SELECT 1`;
        return { status: "ready" };
      } catch (error) {
        request.log.warn({ err: error }, "database not reachable");
        return reply.code(503).send({ status: "Service Unavailable", error: "database unreachable" });
      }
    },
  );
};
