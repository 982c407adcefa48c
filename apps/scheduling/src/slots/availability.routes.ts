// GET /availability: v1's computed availability of a user or a team (availability.service.ts).
import { withRefusals } from "@app/schemas/refusals";
import { AvailabilityQuery, AvailabilityResponse, ErrorResponse } from "@app/schemas/scheduling";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { findAvailability } from "./availability.service.ts";
import { MAX_RANGE_MS } from "./slot-engine.ts";
import { assertValidRange, rangeRefusals } from "./slots.service.ts";

export async function availabilityRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/availability",
    {
      schema: {
        operationId: "getAvailability",
        summary: "Busy times, working hours and free ranges of a user or a team",
        description: withRefusals(
          "As v1: `userId` or `username` answers one user's availability (any apiKey may read it, as a " +
            "booking page shows it; booking titles only for yourself or an admin); `teamId` answers " +
            "`[{userId, availability}]` for every accepted member, to the team's OWNERs and ADMINs. " +
            "The range may span at most 93 days.",
          [
            {
              status: 400,
              answer: "Either username or userId or teamId should be filled in",
              rule: "availability is asked for by userId, username or teamId (v1's rule and message)",
            },
            ...rangeRefusals(MAX_RANGE_MS, { start: "dateFrom", end: "dateTo" }),
          ],
        ),
        tags: ["availability"],
        security: [{ ApiKeyAuth: [] }],
        querystring: AvailabilityQuery,
        response: {
          200: AvailabilityResponse.describe("A user's availability, or a team's members'"),
          400: ErrorResponse.describe("A missing or invalid value, or a range over 93 days"),
          401: ErrorResponse.describe("No apiKey, or one that is unknown or expired"),
          403: ErrorResponse.describe("teamId: you are a member of the team, but not an OWNER or ADMIN"),
          404: ErrorResponse.describe("No such user, event type, or team you belong to"),
          429: ErrorResponse.describe("Rate limit exceeded"),
        },
      },
    },
    async (request) => {
      const query = request.query;
      assertValidRange(query.dateFrom, query.dateTo, MAX_RANGE_MS, { start: "dateFrom", end: "dateTo" });
      return findAvailability(request.db, request.auth, query, request.server.calendars);
    },
  );
}
