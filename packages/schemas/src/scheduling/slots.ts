import { z } from "zod";
import { queryInteger } from "../query.ts";
import { baseQuery, queryId, repeatable, SLUG_RULE, slug, TIME_ZONE_RULE, text, timeZone } from "./common.ts";

/** v1 took any date string; here: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time. */
const dateString = (name: string) =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: `${name} must be a valid date string` })
    .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
    .refine(
      (date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999,
      "must fall in the years 1 to 9999",
    )
    .describe("YYYY-MM-DD or an ISO 8601 date-time");

export const SlotsQuery = z
  .strictObject({
    ...baseQuery,
    startTime: dateString("startTime").describe("Start of the range (YYYY-MM-DD or ISO 8601)"),
    endTime: dateString("endTime").describe("End of the range; at most 93 days after startTime"),
    eventTypeId: queryId().optional().describe("The event type"),
    usernameList: repeatable(text().min(1).max(255))
      .optional()
      .describe(
        "With eventTypeSlug: the owner's username (or, with isTeamEvent=true, the team's slug); two or more " +
          "(repeat the key) ask for a dynamic group event of those users",
      ),
    eventTypeSlug: slug().optional().describe(`With usernameList: the event type's slug; ${SLUG_RULE}`),
    isTeamEvent: z
      .enum(["true", "false", "TRUE", "FALSE", "True", "False"])
      .optional()
      .describe("true: the one usernameList entry is a team's slug"),
    timeZone: timeZone()
      .optional()
      .describe(`Zone of the date keys and of each slot's time: ${TIME_ZONE_RULE}`),
    duration: queryInteger(1, 1440).optional().describe("Slot length in minutes (default: the event type's)"),
    rescheduleUid: text()
      .min(1)
      .max(255)
      .optional()
      .describe("The uid of a booking being rescheduled: its own time does not block (as in v1)"),
  })
  .refine(
    (q) => q.eventTypeId !== undefined || (q.usernameList !== undefined && q.eventTypeSlug !== undefined),
    {
      message: "You need to either pass an eventTypeId OR an usernameList/eventTypeSlug combination",
      path: ["eventTypeId"],
    },
  );

export const Slot = z
  .object({
    time: z.string().describe("UTC ISO with ms, or in `timeZone` with its offset when one was given"),
    attendees: z.int().optional().describe("Seated event types: seats taken"),
    bookingUid: z.string().optional().describe("Seated event types: the booking holding the seats"),
  })
  .meta({ id: "Slot" });

export const SlotsResponse = z
  .object({
    slots: z.record(z.string(), z.array(Slot)).describe("Slots by date (YYYY-MM-DD in timeZone, else UTC)"),
  })
  .meta({ id: "Slots" });
