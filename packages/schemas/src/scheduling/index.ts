// The scheduling API's schemas: one per concept and resource (create body, edit body,
// public shape, list query). Validation, response serialization, OpenAPI and tests all use these.

export * from "../time-zones.ts";
export * from "./attendees.ts";
export * from "./availabilities.ts";
export * from "./availability.ts";
export * from "./booking-references.ts";
export * from "./bookings.ts";
export * from "./common.ts";
export * from "./custom-inputs.ts";
export * from "./destination-calendars.ts";
export * from "./event-references.ts";
export * from "./event-types.ts";
export * from "./feed-tokens.ts";
export * from "./ids.ts";
export * from "./memberships.ts";
export * from "./payments.ts";
export * from "./schedules.ts";
export * from "./selected-calendars.ts";
export * from "./slots.ts";
export * from "./teams.ts";
export * from "./users.ts";
