import { z } from "zod";
import { calendarDate, listQuery, rowId, timeOfDay } from "./common.ts";

const days = z
  .array(z.int().min(0).max(6))
  .max(7)
  .refine((list) => new Set(list).size === list.length, "must not repeat a day")
  .meta({ uniqueItems: true })
  .describe("Week days, 0 = Sunday ... 6 = Saturday; each at most once");

export const Availability = z
  .object({
    id: z.int(),
    scheduleId: z.int().nullable(),
    days: z.array(z.int()),
    startTime: z.date().describe("Time of day (UTC) on 1970-01-01"),
    endTime: z.date().describe("Time of day (UTC) on 1970-01-01"),
    date: z.date().nullable().describe("Set for a one-day override"),
  })
  .meta({ id: "Availability", description: "A weekly (or one-day) slot of a schedule" });

export const AvailabilityCreateBody = z
  .strictObject({
    scheduleId: rowId().describe("One of your schedules"),
    startTime: timeOfDay(),
    endTime: timeOfDay(),
    days: days.default([]),
    date: calendarDate().nullable().optional(),
  })
  .meta({ id: "AvailabilityCreate" });

export const AvailabilityEditBody = z
  .strictObject({
    scheduleId: rowId().optional().describe("Moves the slot to another of your schedules"),
    startTime: timeOfDay().optional(),
    endTime: timeOfDay().optional(),
    days: days.optional(),
    date: calendarDate().nullable().optional(),
  })
  .meta({ id: "AvailabilityEdit" });

export const AvailabilityListQuery = listQuery({});
