import { z } from "zod";
import { email, label, listQuery, rowId, text } from "./common.ts";

export const DestinationCalendar = z
  .object({
    id: z.int(),
    integration: z.string(),
    externalId: z.string(),
    primaryEmail: z.string().nullable(),
    userId: z.int().nullable(),
    eventTypeId: z.int().nullable(),
  })
  .meta({
    id: "DestinationCalendar",
    description: "Where new bookings are written: a user's (userId set) or an event type's (eventTypeId set)",
  });

export const DestinationCalendarCreateBody = z
  .strictObject({
    integration: label().describe("e.g. google_calendar"),
    externalId: text().min(1).max(1024).describe("The calendar's id in that integration"),
    primaryEmail: email().nullable().optional(),
    eventTypeId: rowId()
      .optional()
      .describe("One of the owner's event types; without it the calendar is the user's own"),
    userId: rowId().optional().describe("Admins only: the user the calendar is for"),
  })
  .meta({ id: "DestinationCalendarCreate" });

export const DestinationCalendarEditBody = z
  .strictObject({
    integration: label().optional(),
    externalId: text().min(1).max(1024).optional(),
    primaryEmail: email().nullable().optional(),
  })
  .meta({ id: "DestinationCalendarEdit" });

export const DestinationCalendarListQuery = listQuery({});
