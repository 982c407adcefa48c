// Calendar feed tokens (docs/adr/0229): the secret in a subscribed calendar's URL
// (GET /v1/bookings.ics?feedToken=...), made, listed and revoked through /v1/feed-tokens. The
// token itself is answered once, by the create; nothing else ever shows it.
import { z } from "zod";
import { label, listQuery, rowId } from "./common.ts";

export const FeedToken = z
  .object({
    id: z.int(),
    userId: z.int().describe("Whose bookings the feed shows"),
    note: z.string().nullable().describe("What the token is for (a calendar app, a device)"),
    createdAt: z.date(),
    lastUsedAt: z.date().nullable().describe("The feed's last fetch with it, to the minute"),
  })
  .meta({ id: "FeedToken", description: "A calendar feed token, without its secret" });

export const FeedTokenCreateBody = z
  .strictObject({
    note: label().nullable().optional(),
    userId: rowId().optional().describe("Admins only: the user whose feed the token opens"),
  })
  .meta({ id: "FeedTokenCreate" });

export const FeedTokenCreated = z
  .object({
    feed_token: FeedToken,
    token: z.string().describe("The secret: shown this once, stored only as a hash"),
    path: z
      .string()
      .describe(
        "The feed's path and query with the token: prefix your API's origin (in hosted mode, add `&key=` and your license key)",
      ),
    message: z.string(),
  })
  .meta({ id: "FeedTokenCreated" });

export const FeedTokenListQuery = listQuery({});

/** The feed's query: its token, hosted mode's license key, and the /v1 rewrite's marker; never an apiKey. */
export const CalendarFeedQuery = z.strictObject({
  feedToken: z.string().describe("A feed token from POST /v1/feed-tokens (missing, unknown or revoked: 401)"),
  key: z
    .string()
    .optional()
    .describe("Hosted mode: your license key; the token is looked up in your own database"),
  version: z.string().optional().describe("Set by the /v1 rewrite"),
});

export const CalendarFeedHeaders = z.looseObject({
  "if-none-match": z
    .string()
    .optional()
    .describe("An ETag this feed answered: 304 while it is still current"),
  "if-modified-since": z
    .string()
    .optional()
    .describe("Used only without If-None-Match: 304 when no booking in the feed changed since"),
});

/** The feed's body: an RFC 5545 calendar, one VEVENT per booking. */
export const CalendarFeed = z.string().describe("text/calendar (RFC 5545): one VEVENT per booking");
