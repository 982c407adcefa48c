import { z } from "zod";
import { httpUrl, label, listQuery, rowId, text } from "./common.ts";

const optionalText = () => text().max(2048).nullable().optional();

export const BookingReference = z
  .object({
    id: z.int(),
    type: z.string(),
    bookingId: z.int().nullable(),
    uid: z.string(),
    meetingId: z.string().nullable(),
    meetingPassword: z.string().nullable(),
    meetingUrl: z.string().nullable(),
    deleted: z.boolean().nullable(),
  })
  .meta({ id: "BookingReference", description: "A booking's record in an external calendar or video app" });

const fields = {
  type: label().describe("e.g. google_calendar, daily_video"),
  uid: label(2048).describe("The external system's id of the event"),
  bookingId: rowId().describe("One of your bookings"),
  meetingId: optionalText(),
  thirdPartyRecurringEventId: optionalText(),
  meetingPassword: optionalText(),
  meetingUrl: httpUrl().nullable().optional().describe("http(s) only: clients open it"),
  externalCalendarId: optionalText(),
  deleted: z.boolean().nullable().optional(),
  credentialId: rowId().nullable().optional(),
};

export const BookingReferenceCreateBody = z.strictObject(fields).meta({ id: "BookingReferenceCreate" });

export const BookingReferenceEditBody = z.strictObject(fields).partial().meta({ id: "BookingReferenceEdit" });

export const BookingReferenceListQuery = listQuery({});
