import {
  BookingReference,
  BookingReferenceCreateBody,
  BookingReferenceEditBody,
  BookingReferenceListQuery,
} from "@app/schemas/scheduling";
import { bookings } from "./bookings.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

export const bookingReferences = defineResource({
  path: "booking-references",
  model: "BookingReference",
  name: "Booking reference",
  keys: { singular: "booking_reference", plural: "booking_references" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: {
    public: BookingReference,
    create: BookingReferenceCreateBody,
    edit: BookingReferenceEditBody,
    list: BookingReferenceListQuery,
  },
  ownedBy: (userIds) => ({ booking: { userId: { in: userIds } } }),
  references: [{ field: "bookingId", resource: bookings, need: "change" }],
});
