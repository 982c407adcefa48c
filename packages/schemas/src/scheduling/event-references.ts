import { z } from "zod";
import { httpUrl, label, listQuery, rowId } from "./common.ts";

/** `dailytoken` is write-only: it is accepted below and deliberately absent here. */
export const EventReference = z
  .object({
    id: z.int(),
    bookingId: z.int(),
    dailyurl: z.string(),
  })
  .meta({ id: "EventReference", description: "The video meeting of a booking (one per booking)" });

export const EventReferenceCreateBody = z
  .strictObject({
    bookingId: rowId().describe("One of your bookings, without an event reference yet"),
    dailyurl: httpUrl().describe("The meeting room's URL"),
    dailytoken: label(2048).describe("The meeting token; stored, never returned"),
  })
  .meta({ id: "EventReferenceCreate" });

export const EventReferenceEditBody = z
  .strictObject({
    dailyurl: httpUrl().optional(),
    dailytoken: label(2048).optional().describe("Stored, never returned"),
  })
  .meta({ id: "EventReferenceEdit" });

export const EventReferenceListQuery = listQuery({});
