// GET /v1/bookings.ics?feedToken=...: the token's user's bookings as a calendar to subscribe to
// (docs/adr/0229). The auth hook opens it with the feed token (route config `feedToken`), in the
// database hosted mode's `key` chose; the rate limit counts it in that user's budget.
import { CalendarFeedHeaders, CalendarFeedQuery, ErrorResponse } from "@app/schemas/scheduling";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { otherMedia } from "../openapi.ts";
import {
  type CalendarFeed,
  calendarFeed,
  FEED_MAX_EVENTS,
  FEED_PAST_DAYS,
  FEED_REFRESH_SECONDS,
} from "./calendar-feed.ts";

const CACHE_CONTROL = `private, max-age=${FEED_REFRESH_SECONDS}`;

const validators = {
  etag: { type: "string", description: "A hash of the body: send it back in If-None-Match" },
  "last-modified": {
    type: "string",
    description: "The latest change to a booking the feed holds or dropped (absent with none)",
  },
  "cache-control": { type: "string", enum: [CACHE_CONTROL] },
};

/**
 * RFC 9110 §13.2.2: If-None-Match decides when sent (a listed ETag, weakly compared, or `*`);
 * only without it If-Modified-Since does, to the second.
 */
function notModified(request: FastifyRequest, feed: CalendarFeed): boolean {
  const { "if-none-match": ifNoneMatch, "if-modified-since": ifModifiedSince } = request.headers;
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
    return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === feed.etag);
  }
  if (ifModifiedSince === undefined || feed.lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(feed.lastModified.getTime() / 1000) * 1000 <= since;
}

export async function calendarFeedRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/bookings.ics",
    {
      config: { feedToken: true },
      schema: {
        operationId: "getBookingsCalendarFeed",
        summary: "Your bookings as a calendar feed (iCalendar), opened by a feed token",
        description:
          "A calendar app subscribes to this URL with a token from POST /v1/feed-tokens (never an API key). One " +
          "VEVENT per accepted (CONFIRMED) or pending (TENTATIVE) booking you organise or attend, ending at most " +
          `${FEED_PAST_DAYS} days ago, the soonest ${FEED_MAX_EVENTS} at most; cancelled and rejected bookings ` +
          "leave it, a rescheduled one appears at its new time with the same UID and a higher SEQUENCE (those of " +
          "its e-mailed invites). Times are UTC. Answers ETag and Last-Modified; If-None-Match (or, without it, " +
          "If-Modified-Since) answers 304 while nothing changed.",
        tags: ["bookings"],
        // No security scheme: its token is the documented `feedToken` parameter (openapi.ts).
        security: [],
        querystring: CalendarFeedQuery,
        headers: CalendarFeedHeaders,
        response: {
          200: otherMedia("The calendar (RFC 5545)", {
            "text/calendar": {
              schema: { type: "string", description: "VCALENDAR with one VEVENT per booking" },
            },
          }).meta({ headers: validators }),
          304: z
            .undefined()
            .describe("Not modified: the ETag (or the date) you sent is still current; no body")
            .meta({ headers: validators }),
          400: ErrorResponse.describe("An unknown query key (an apiKey included), or a repeated one"),
          401: ErrorResponse.describe(
            "No feed token, or one that is unknown or revoked, or its user is locked",
          ),
          429: ErrorResponse.describe("Rate limit exceeded (the token's user's budget)"),
        },
      },
    },
    async (request, reply) => {
      const feed = await calendarFeed(request.db, request.auth.userId);
      void reply.header("etag", feed.etag).header("cache-control", CACHE_CONTROL);
      if (feed.lastModified) void reply.header("last-modified", feed.lastModified.toUTCString());
      if (notModified(request, feed)) return reply.code(304).send();
      return reply.type("text/calendar; charset=utf-8").send(feed.body);
    },
  );
}
