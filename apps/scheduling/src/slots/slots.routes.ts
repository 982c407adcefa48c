// GET /slots: the bookable start times of one event type in a range, in v1's shape
// (`{"slots": {"<date>": [{"time": ...}]}}`), computed by the slot engine: a user's or a
// team's event type, by id or by username (team slug) + slug, or a dynamic group of users.
import { withRefusals } from "@app/schemas/refusals";
import { ErrorResponse, SlotsQuery, SlotsResponse } from "@app/schemas/scheduling";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { MAX_RANGE_MS } from "./slot-engine.ts";
import {
  assertValidRange,
  bookingIdOf,
  loadDynamicGroup,
  loadEventType,
  rangeRefusals,
  slotsFor,
} from "./slots.service.ts";
import { dateKey, formatInZone, localDate } from "./time-zones.ts";

export async function slotsRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/slots",
    {
      schema: {
        operationId: "getSlots",
        summary: "Bookable start times of an event type",
        description: withRefusals(
          "As v1: any apiKey may read any event type's slots (a booking page shows them to anyone). " +
            "A COLLECTIVE event type offers a start when every host is free, a ROUND_ROBIN one when its fixed " +
            "hosts and one round-robin host are, each on their own schedule and bookings. Two or more " +
            "`usernameList` entries ask for v1's dynamic group event: 30 minutes (or `duration`) when all are " +
            "free. With `rescheduleUid`, that booking's own time is offered as if it were free (it is what the " +
            "reschedule gives up). The range may span at most 93 days.",
          [
            {
              status: 400,
              answer: "You need to either pass an eventTypeId OR an usernameList/eventTypeSlug combination",
              rule: "slots are asked for by eventTypeId, or by usernameList with eventTypeSlug (v1's rule and message)",
            },
            {
              status: 400,
              answer: "Invalid ISO Date",
              rule: "startTime and endTime are dates JavaScript's Date.parse reads, as v1 read them (no format names its grammar)",
            },
            ...rangeRefusals(MAX_RANGE_MS),
          ],
        ),
        tags: ["slots"],
        security: [{ ApiKeyAuth: [] }],
        querystring: SlotsQuery,
        response: {
          200: SlotsResponse.describe("Slots grouped by date"),
          400: ErrorResponse.describe("A missing or invalid value, or a range over 93 days"),
          401: ErrorResponse.describe(
            "No apiKey, or one that is unknown or expired; or a dynamic group with a user who does not allow " +
              "dynamic booking",
          ),
          404: ErrorResponse.describe("No such event type, user or team (`NOT_FOUND`)"),
          429: ErrorResponse.describe("Rate limit exceeded"),
        },
      },
    },
    async (request) => {
      const query = request.query;
      assertValidRange(query.startTime, query.endTime, MAX_RANGE_MS);
      const usernames = query.usernameList ?? [];
      const [username] = usernames;
      const teamEvent = query.isTeamEvent?.toLowerCase() === "true";
      const eventType =
        query.eventTypeId === undefined && usernames.length > 1
          ? await loadDynamicGroup(request.db, usernames)
          : await loadEventType(
              request.db,
              query.eventTypeId !== undefined
                ? { id: query.eventTypeId }
                : teamEvent
                  ? { slug: query.eventTypeSlug, team: { slug: username } }
                  : { slug: query.eventTypeSlug, owner: { username } },
            );
      const slots = await slotsFor(
        request.db,
        { ...eventType, length: query.duration ?? eventType.length },
        {
          start: query.startTime,
          end: query.endTime,
          timeZone: query.timeZone,
          // An unknown uid leaves every booking in place, as in v1.
          excludeBookingId: await bookingIdOf(request.db, query.rescheduleUid),
          calendarStaleMs: request.server.calendars.staleMs,
        },
      );
      const zone = query.timeZone;
      const byDate: Record<string, { time: string; attendees?: number; bookingUid?: string }[]> = {};
      for (const slot of slots) {
        const instant = slot.time.getTime();
        const key = dateKey(localDate(instant, zone ?? "UTC"));
        const time = zone ? formatInZone(instant, zone) : slot.time.toISOString();
        const day = byDate[key] ?? [];
        day.push({ ...slot, time });
        byDate[key] = day;
      }
      return { slots: byDate };
    },
  );
}
