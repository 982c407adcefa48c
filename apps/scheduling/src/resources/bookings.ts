import { randomUUID } from "node:crypto";
import { Booking, BookingCreateBody, BookingEditBody, BookingListQuery } from "@app/schemas/scheduling";
import { BadRequest } from "../errors.ts";
import { eventTypes } from "./event-types.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

export const bookings = defineResource({
  path: "bookings",
  model: "Booking",
  name: "Booking",
  keys: { singular: "booking", plural: "bookings" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: { public: Booking, create: BookingCreateBody, edit: BookingEditBody, list: BookingListQuery },
  ownerColumn: "userId",
  ownedBy: (userIds) => ({ userId: { in: userIds } }),
  references: [{ field: "eventTypeId", resource: eventTypes, need: "see" }],
  createData: (body) => ({ ...body, uid: randomUUID() }),
  // The body schema compares the times it holds; one time alone is compared with the stored other.
  editData: (body, booking) => {
    const startTime = body.startTime ?? booking.startTime;
    const endTime = body.endTime ?? booking.endTime;
    if (endTime <= startTime) {
      throw new BadRequest("endTime: must be after startTime", [
        { path: "endTime", message: "must be after startTime" },
      ]);
    }
    return body;
  },
});
