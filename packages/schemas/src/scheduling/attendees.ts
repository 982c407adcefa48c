import { z } from "zod";
import { email, label, listQuery, rowId, timeZone } from "./common.ts";

export const Attendee = z
  .object({
    id: z.int(),
    bookingId: z.int().nullable(),
    name: z.string(),
    email: z.string(),
    timeZone: z.string(),
  })
  .meta({ id: "Attendee", description: "A person attending a booking" });

export const AttendeeCreateBody = z
  .strictObject({
    bookingId: rowId().describe("One of your bookings"),
    email: email(),
    name: label(),
    timeZone: timeZone(),
  })
  .meta({ id: "AttendeeCreate" });

export const AttendeeEditBody = z
  .strictObject({
    bookingId: rowId().optional().describe("Moves the attendee to another of your bookings"),
    email: email().optional(),
    name: label().optional(),
    timeZone: timeZone().optional(),
  })
  .meta({ id: "AttendeeEdit" });

export const AttendeeListQuery = listQuery({});
