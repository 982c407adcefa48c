// GET /availability: a user's (or a team's members') working hours, busy times and free ranges
// for a date range, computed; v1's query and answer (apps/api/v1/pages/api/availability/_get.ts,
// getUserAvailability). Not the `availabilities` resource, which stores a schedule's rules.
import { z } from "zod";
import { baseQuery, queryId, text } from "./common.ts";

/** A date-time without an offset, `T` or a space before the time (v1's own example: `2023-05-14 00:00:00`). */
const LOCAL_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?$/;

/** v1 read these with dayjs, on a server in UTC: a time without an offset is UTC. */
const instant = (name: string) =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true }), z.string().regex(LOCAL_DATE_TIME)], {
      error: `${name} must be a date (YYYY-MM-DD) or a date-time`,
    })
    .transform((value) =>
      value.length === 10
        ? new Date(`${value}T00:00:00Z`)
        : LOCAL_DATE_TIME.test(value)
          ? new Date(`${value.replace(" ", "T")}Z`)
          : new Date(value),
    )
    .refine(
      (date) => !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999,
      "must be a real date in the years 1 to 9999",
    )
    .describe(
      "YYYY-MM-DD (midnight UTC), or a date-time: with Z or an offset, or without one (read as UTC, " +
        "`T` or a space before the time, as v1 took `2023-05-14 00:00:00`)",
    );

export const AvailabilityQuery = z
  .strictObject({
    ...baseQuery,
    userId: queryId().optional().describe("The user (or `username`, or `teamId`)"),
    username: text().min(1).max(255).optional().describe("The user's username"),
    teamId: queryId()
      .optional()
      .describe("A team: every accepted member's availability (team OWNERs and ADMINs, and admins, only)"),
    dateFrom: instant("dateFrom").describe("Start of the range"),
    dateTo: instant("dateTo").describe("End of the range; at most 93 days after dateFrom"),
    eventTypeId: queryId()
      .optional()
      .describe("Use this event type's schedule, and list its seated bookings in `currentSeats`"),
  })
  .refine((q) => q.userId !== undefined || q.username !== undefined || q.teamId !== undefined, {
    message: "Either username or userId or teamId should be filled in.",
    path: ["userId"],
  });

const TimeRange = z.object({ start: z.date(), end: z.date() });

export const UserAvailability = z
  .object({
    busy: z
      .array(
        z.object({
          start: z.date(),
          end: z.date(),
          title: z
            .string()
            .optional()
            .describe("A booking's title: only for your own availability (or an admin's view)"),
          source: z
            .string()
            .optional()
            .describe(
              "A connected calendar's busy time: the calendar's URL (its events' titles are not shown). " +
                "Absent for a booking",
            ),
        }),
      )
      .describe(
        "Accepted bookings, each padded by its event type's buffers, and the busy times of the user's " +
          "selected calendars, in start order",
      ),
    calendarProblems: z
      .array(
        z.object({
          calendar: z.string().describe("The calendar's URL"),
          since: z.date().nullable().describe("Since when it fails to synchronise; null if it never did"),
          reason: z.string().describe("Why its busy times are not confirmed"),
        }),
      )
      .optional()
      .describe(
        "Selected calendars whose busy times are not confirmed for the range (they could not be read " +
          "recently enough, or their recurring events are not expanded that far): the user is busy " +
          "for that time. Absent when there is none",
      ),
    timeZone: z.string().describe("The zone of the schedule used"),
    dateRanges: z.array(TimeRange).describe("Free: working hours minus busy times, within the range"),
    oooExcludedDateRanges: z
      .array(TimeRange)
      .describe("The same as dateRanges: this server keeps no out-of-office entries"),
    workingHours: z
      .array(
        z.object({
          days: z.array(z.int().min(0).max(6)).describe("0 = Sunday, in UTC"),
          startTime: z.int().describe("Minutes past midnight UTC"),
          endTime: z.int().describe("Minutes past midnight UTC (1439 = until midnight)"),
          userId: z.int(),
        }),
      )
      .describe("The weekly rules in UTC, at the zone's offset on dateFrom (as v1's getWorkingHours)"),
    dateOverrides: z.array(TimeRange).describe("Date overrides of the schedule that meet the range"),
    currentSeats: z
      .array(
        z.object({
          uid: z.string(),
          startTime: z.date(),
          _count: z.object({ attendees: z.int() }),
        }),
      )
      .nullable()
      .describe("With a seated eventTypeId: its accepted bookings in the range and their seats taken"),
    datesOutOfOffice: z.object({}).describe("Always empty: this server keeps no out-of-office entries"),
  })
  .meta({ id: "UserAvailability" });

export const TeamAvailability = z
  .array(z.object({ userId: z.int(), availability: UserAvailability }))
  .meta({ id: "TeamAvailability", description: "One entry per accepted member, by user id" });

export const AvailabilityResponse = z.union([UserAvailability, TeamAvailability]);
