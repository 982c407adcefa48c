import { z } from "zod";
import { dateTime, label, listQuery, rowId, text } from "./common.ts";

export const BookingStatus = z.enum(["ACCEPTED", "PENDING", "CANCELLED", "REJECTED"]);

export const Booking = z
  .object({
    id: z.int(),
    uid: z.string(),
    userId: z.int().nullable(),
    eventTypeId: z.int().nullable(),
    title: z.string(),
    description: z.string().nullable(),
    startTime: z.date(),
    endTime: z.date(),
    status: BookingStatus,
    createdAt: z.date(),
  })
  .meta({
    id: "Booking",
    description: "A booked meeting; its attendees, references and payments hang off it",
  });

const endsAfterStart = (body: { startTime?: Date; endTime?: Date }) =>
  !body.startTime || !body.endTime || body.endTime > body.startTime;

export const BookingCreateBody = z
  .strictObject({
    title: label(),
    startTime: dateTime(),
    endTime: dateTime(),
    eventTypeId: rowId().nullable().optional().describe("One of the owner's event types"),
    description: text().max(10_000).nullable().optional(),
    status: BookingStatus.default("ACCEPTED"),
    userId: rowId().optional().describe("Admins only: the user the booking is for"),
  })
  .refine(endsAfterStart, { message: "must be after startTime", path: ["endTime"] })
  .meta({ id: "BookingCreate" });

/** endTime > startTime is also checked against the stored times when only one is sent. */
export const BookingEditBody = z
  .strictObject({
    title: label().optional(),
    startTime: dateTime().optional(),
    endTime: dateTime().optional(),
    eventTypeId: rowId().nullable().optional(),
    description: text().max(10_000).nullable().optional(),
    status: BookingStatus.optional(),
  })
  .refine(endsAfterStart, { message: "must be after startTime", path: ["endTime"] })
  .meta({ id: "BookingEdit" });

export const BookingListQuery = listQuery({});
