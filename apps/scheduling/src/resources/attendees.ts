import { Attendee, AttendeeCreateBody, AttendeeEditBody, AttendeeListQuery } from "@app/schemas/scheduling";
import { bookings } from "./bookings.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

export const attendees = defineResource({
  path: "attendees",
  model: "Attendee",
  name: "Attendee",
  keys: { singular: "attendee", plural: "attendees" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: { public: Attendee, create: AttendeeCreateBody, edit: AttendeeEditBody, list: AttendeeListQuery },
  ownedBy: (userIds) => ({ booking: { userId: { in: userIds } } }),
  references: [{ field: "bookingId", resource: bookings, need: "change" }],
});
