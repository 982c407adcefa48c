import { ErrorBody, ShortName } from "@app/schemas/shortener";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { NotFound } from "./errors.ts";
import { plainText } from "./openapi.ts";
import { ShortGone } from "./visit-log.ts";

// Header values are cut to their column sizes rather than refused: a visit is a visit.
const MAX_USER_AGENT = 1024;
const MAX_REFERER = 2048;

function headerText(value: string | string[] | undefined, max: number): string {
  const text = Array.isArray(value) ? value.join(", ") : (value ?? "");
  return text.replaceAll("\u0000", "").slice(0, max);
}

/** The public redirect: resolve the name, store the visit, answer 302. */
export const redirectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { shorts, visitLog } = app;

  app.get(
    "/:name",
    {
      // The visit row is the redirect's access log: a log line per visit would only cost
      // throughput (docs/performance.md). Warnings and errors are still logged.
      logLevel: "warn",
      schema: {
        operationId: "followShort",
        tags: ["redirect"],
        summary: "Follow a short URL",
        description:
          "Answers 302 to the target and records one ShortLog row (stored before the answer is sent). " +
          "HEAD answers the same without recording a visit.",
        security: [],
        // A name no short can have is 404 like an unknown one (the error handler answers every
        // invalid path parameter so).
        params: z.object({ name: ShortName.describe("Name of the short; any other value is answered 404") }),
        response: {
          // No body and no content type: `undefined` renders as a response without content.
          302: z
            .undefined()
            .describe("Redirect to the target URL; no body")
            .meta({
              headers: {
                location: { type: "string", format: "uri", description: "The target URL" },
                "cache-control": {
                  type: "string",
                  enum: ["private, no-cache"],
                  description: "A cached redirect would skip the next visit's log row",
                },
              },
            }),
          404: plainText("No short has this name"),
          503: ErrorBody.describe("The database is unavailable; try again shortly"),
        },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const target = await shorts.findTarget(name);
      if (!target) throw new NotFound();
      if (request.method === "GET") {
        try {
          await visitLog.record({
            shortId: target.id,
            ipAddress: request.ip,
            userAgent: headerText(request.headers["user-agent"], MAX_USER_AGENT),
            referer: headerText(request.headers.referer, MAX_REFERER),
          });
        } catch (error) {
          if (error instanceof ShortGone) throw new NotFound();
          throw error;
        }
      }
      // A cached redirect would skip the next visit's log row.
      return reply.header("cache-control", "private, no-cache").redirect(target.url, 302);
    },
  );
};
