import {
  Availability,
  AvailabilityCreateBody,
  AvailabilityEditBody,
  AvailabilityListQuery,
} from "@app/schemas/scheduling";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";
import { schedules } from "./schedules.ts";

export const availabilities = defineResource({
  path: "availabilities",
  description: "Allows modifying unique availabilities tied to a schedule.",
  model: "Availability",
  name: "Availability",
  keys: { singular: "availability", plural: "availabilities" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: {
    public: Availability,
    create: AvailabilityCreateBody,
    edit: AvailabilityEditBody,
    list: AvailabilityListQuery,
  },
  ownedBy: (userIds) => ({ schedule: { userId: { in: userIds } } }),
  references: [{ field: "scheduleId", resource: schedules, need: "change" }],
});
