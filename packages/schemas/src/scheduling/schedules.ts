import { z } from "zod";
import { label, listQuery, rowId, timeZone } from "./common.ts";

export const Schedule = z
  .object({
    id: z.int(),
    userId: z.int(),
    name: z.string(),
    timeZone: z.string().nullable(),
    availability: z.array(
      z.object({
        id: z.int(),
        days: z.array(z.int()),
        startTime: z.date(),
        endTime: z.date(),
        date: z.date().nullable(),
      }),
    ),
  })
  .meta({ id: "Schedule", description: "A named set of availabilities" });

export const ScheduleCreateBody = z
  .strictObject({
    name: label(),
    timeZone: timeZone().nullable().optional(),
    userId: rowId().optional().describe("Admins only: the user the schedule is for"),
  })
  .meta({
    id: "ScheduleCreate",
    description: "The schedule starts with one availability: Monday to Friday, 09:00-17:00 (UTC)",
  });

export const ScheduleEditBody = z
  .strictObject({
    name: label().optional(),
    timeZone: timeZone().nullable().optional(),
  })
  .meta({ id: "ScheduleEdit" });

export const ScheduleListQuery = listQuery({});
