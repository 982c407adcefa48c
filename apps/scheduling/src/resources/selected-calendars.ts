import {
  SelectedCalendar,
  SelectedCalendarCreateBody,
  SelectedCalendarEditBody,
  SelectedCalendarListQuery,
} from "@app/schemas/scheduling";
import { selectedCalendarId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

export const selectedCalendars = defineResource({
  path: "selected-calendars",
  model: "SelectedCalendar",
  name: "Selected Calendar",
  keys: { singular: "selected_calendar", plural: "selected_calendars" },
  operations: ALL_OPERATIONS,
  id: selectedCalendarId,
  schemas: {
    public: SelectedCalendar,
    create: SelectedCalendarCreateBody,
    edit: SelectedCalendarEditBody,
    list: SelectedCalendarListQuery,
  },
  ownerColumn: "userId",
  ownedBy: (userIds) => ({ userId: { in: userIds } }),
});
