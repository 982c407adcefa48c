import { z } from "zod";
import { dateTime, listQuery, rowId, text } from "./common.ts";

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
    // Any non-empty string, as v1 took (cal.com's own test posts `google`).
    integration: text()
      .min(1)
      .max(255)
      .describe("e.g. google_calendar, office365_calendar; any non-empty string, as in v1"),
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
