import { Schedule, ScheduleCreateBody, ScheduleEditBody, ScheduleListQuery } from "@app/schemas/scheduling";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource, selectOf } from "./resource.ts";

const availabilityShape = Schedule.shape.availability.element;

/** What v1 gave every new schedule: Monday to Friday, 09:00-17:00 (times are UTC). */
const WORKING_HOURS = {
  days: [1, 2, 3, 4, 5],
  startTime: new Date("1970-01-01T09:00:00Z"),
  endTime: new Date("1970-01-01T17:00:00Z"),
};

export const schedules = defineResource({
  path: "schedules",
  model: "Schedule",
  name: "Schedule",
  keys: { singular: "schedule", plural: "schedules" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: { public: Schedule, create: ScheduleCreateBody, edit: ScheduleEditBody, list: ScheduleListQuery },
  relations: { availability: { select: selectOf(availabilityShape), orderBy: { id: "asc" } } },
  ownerColumn: "userId",
  ownedBy: (userIds) => ({ userId: { in: userIds } }),
  // Deleting needs no hook: users.defaultScheduleId is ON DELETE SET NULL in the database.
  createData: (body) => ({ ...body, availability: { create: WORKING_HOURS } }),
});
