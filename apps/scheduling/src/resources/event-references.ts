import {
  EventReference,
  EventReferenceCreateBody,
  EventReferenceEditBody,
  EventReferenceListQuery,
} from "@app/schemas/scheduling";
import { bookings } from "./bookings.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

// dailytoken is write-only without a hook: the public shape (and so the select) leaves it out.
export const eventReferences = defineResource({
  path: "event-references",
  model: "EventReference",
  name: "Event reference",
  keys: { singular: "event_reference", plural: "event_references" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: {
    public: EventReference,
    create: EventReferenceCreateBody,
    edit: EventReferenceEditBody,
    list: EventReferenceListQuery,
  },
  ownedBy: (userIds) => ({ booking: { userId: { in: userIds } } }),
  references: [{ field: "bookingId", resource: bookings, need: "change" }],
});
