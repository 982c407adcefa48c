import {
  DestinationCalendar,
  DestinationCalendarCreateBody,
  DestinationCalendarEditBody,
  DestinationCalendarListQuery,
} from "@app/schemas/scheduling";
import { authorizeEventTypeChangeById, eventTypes, eventTypesOwnedBy } from "./event-types.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

// Either a user's calendar (userId set; one per user) or an event type's (eventTypeId set,
// userId null; one per event type), as in v1. Both uniques are database constraints: 409.
export const destinationCalendars = defineResource({
  path: "destination-calendars",
  model: "DestinationCalendar",
  name: "Destination calendar",
  keys: { singular: "destinationCalendar", plural: "destinationCalendars" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: {
    public: DestinationCalendar,
    create: DestinationCalendarCreateBody,
    edit: DestinationCalendarEditBody,
    list: DestinationCalendarListQuery,
  },
  ownerColumn: "userId",
  ownedBy: (userIds) => ({ OR: [{ userId: { in: userIds } }, { eventType: eventTypesOwnedBy(userIds) }] }),
  references: [{ field: "eventTypeId", resource: eventTypes, need: "change" }],
  authorize: async (ctx, calendar) => {
    if (calendar.eventTypeId !== null) await authorizeEventTypeChangeById(ctx, calendar.eventTypeId);
  },
  createData: (body) => (body.eventTypeId === undefined ? body : { ...body, userId: null }),
});
