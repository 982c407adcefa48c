import { z } from "zod";
import { dateTime, listQuery, rowId, text } from "./common.ts";
import { INTEGRATION_PATTERN } from "./ids.ts";

export const SelectedCalendar = z
  .object({
    userId: z.int(),
    integration: z.string(),
    externalId: z.string(),
    credentialId: z.int().nullable(),
    error: z.string().nullable(),
    lastErrorAt: z.date().nullable(),
    createdAt: z.date().nullable(),
    updatedAt: z.date().nullable(),
  })
  .meta({
    id: "SelectedCalendar",
    description: "A calendar checked for conflicts; its API id is <userId>_<integration>_<externalId>",
  });

export const SelectedCalendarCreateBody = z
  .strictObject({
    // The pattern's character class already leaves NUL out.
    integration: z
      .string()
      .max(255)
      .regex(
        INTEGRATION_PATTERN,
        "must end with _calendar (e.g. google_calendar) and hold no other _calendar_",
      )
      .describe("e.g. google_calendar, office365_calendar"),
    externalId: text().min(1).max(1024).describe("The calendar's id in that integration"),
    credentialId: rowId().nullable().optional(),
    userId: rowId().optional().describe("Admins only: the user the calendar is for"),
  })
  .meta({ id: "SelectedCalendarCreate" });

/** integration and externalId make up the id, so they are not editable. */
export const SelectedCalendarEditBody = z
  .strictObject({
    credentialId: rowId().nullable().optional(),
    error: text().max(2048).nullable().optional(),
    lastErrorAt: dateTime().nullable().optional(),
  })
  .meta({ id: "SelectedCalendarEdit" });

export const SelectedCalendarListQuery = listQuery({});
