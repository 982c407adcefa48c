// The resource table: every /api/v1 resource, each a declarative module, all turned into
// routes by the one factory.
import type { FastifyPluginAsync } from "fastify";
import { attendees } from "./attendees.ts";
import { availabilities } from "./availabilities.ts";
import { bookingReferences } from "./booking-references.ts";
import { bookings } from "./bookings.ts";
import { customInputs } from "./custom-inputs.ts";
import { destinationCalendars } from "./destination-calendars.ts";
import { eventReferences } from "./event-references.ts";
import { eventTypes } from "./event-types.ts";
import { registerResource } from "./factory.ts";
import { feedTokens } from "./feed-tokens.ts";
import { memberships } from "./memberships.ts";
import { payments } from "./payments.ts";
import type { Resource } from "./resource.ts";
import { schedules } from "./schedules.ts";
import { selectedCalendars } from "./selected-calendars.ts";
import { teams } from "./teams.ts";
import { users } from "./users.ts";

export const resources: readonly Resource[] = [
  users,
  eventTypes,
  bookings,
  attendees,
  payments,
  schedules,
  teams,
  memberships,
  availabilities,
  customInputs,
  eventReferences,
  bookingReferences,
  destinationCalendars,
  selectedCalendars,
  feedTokens,
];

/** Every /api/v1 resource route. The app registers this inside its apiKey-authenticated scope. */
export const resourceRoutes: FastifyPluginAsync = async (app) => {
  for (const resource of resources) registerResource(app, resource);
};
