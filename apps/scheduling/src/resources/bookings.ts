import { Booking, BookingEditBody, BookingListQuery } from "@app/schemas/scheduling";
import { BadRequest, Forbidden } from "../errors.ts";
import {
  bookingRelations,
  calendarChange,
  cancelBooking,
  createBooking,
  listBookings,
  lockBookingRow,
  mailStatusChange,
  readBooking,
} from "./booking-operations.ts";
import { eventTypes } from "./event-types.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

/**
 * Bookings follow v1's own semantics (calcom-v1-bookings.md): create, list, read and delete
 * (which cancels) are the resource's custom operations; edit is the generic one with v1's
 * strict body. No API call removes a booking row, as in v1 (docs/adr/0058).
 */
export const bookings = defineResource({
  path: "bookings",
  model: "Booking",
  name: "Booking",
  keys: { singular: "booking", plural: "bookings" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: { public: Booking, edit: BookingEditBody, list: BookingListQuery },
  relations: bookingRelations,
  refusals: {
    edit: [
      {
        status: 400,
        answer: "must be after startTime",
        rule: "endTime is after startTime; a body with one of them is compared with the stored other",
      },
    ],
  },
  jsonColumns: ["metadata", "responses"],
  ownedBy: (userIds) => ({ userId: { in: userIds } }),
  references: [{ field: "eventTypeId", resource: eventTypes, need: "see" }],
  authorize: (ctx, _row, _action, body) => {
    if (body?.userId !== undefined && !ctx.auth.isAdmin) {
      throw new Forbidden("Only admin can change the organizer of a booking");
    }
  },
  // A PATCH out of PENDING sends e-mails (docs/adr/0238): the row is locked first, so of PATCHes
  // racing one finds it PENDING, and they are written in the PATCH's transaction.
  lockForChange: (ctx, booking) => lockBookingRow(ctx.db, booking.id),
  afterChange: async (ctx, before, after, body) => {
    await calendarChange(ctx, before, after);
    await mailStatusChange(ctx, before, after, body?.rejectionReason);
  },
  // The body schema compares the times it holds; one time alone is compared with the stored other.
  // rejectionReason is for the e-mails only: no column holds it.
  editData: ({ rejectionReason: _, ...body }, booking) => {
    const startTime = body.startTime ?? booking.startTime;
    const endTime = body.endTime ?? booking.endTime;
    if (endTime <= startTime) {
      throw new BadRequest("endTime: must be after startTime", [
        { path: "endTime", message: "must be after startTime" },
      ]);
    }
    return body;
  },
  custom: { create: createBooking, list: listBookings, read: readBooking, delete: cancelBooking },
  actions: [{ name: "cancel", method: "DELETE", operationId: "cancelBookingById", operation: cancelBooking }],
});
