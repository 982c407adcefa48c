import {
  DestinationCalendar,
  DestinationCalendarCreateBody,
  DestinationCalendarEditBody,
  DestinationCalendarListQuery,
} from "@app/schemas/scheduling";
import { CREDENTIAL_INVALID, connectedCalendarFor } from "../calendars/accounts.ts";
import { BadRequest } from "../errors.ts";
import { authorizeEventTypeChangeById, eventTypes, eventTypesOwnedBy } from "./event-types.ts";
import { integerId } from "./ids.ts";
import { type AccessContext, ALL_OPERATIONS, defineResource } from "./resource.ts";

// Either a user's calendar (userId set; one per user) or an event type's (eventTypeId set,
// userId null; one per event type), as in v1. Both uniques are database constraints: 409.
// As v1: `integration` is a calendar account the user connected (calendar:connect) and
// `externalId` one of its calendars; the row keeps that account's id, and bookings are written
// there (docs/adr/0247). The URL is stored as the account's calendar has it (normalised).

const REFUSALS = [
  {
    status: 400,
    answer: CREDENTIAL_INVALID,
    rule:
      "integration is the type of a calendar account the user connected (caldav_calendar, apple_calendar), " +
      "and externalId the URL of one of its calendars (compared after normalisation: a trailing slash, a default port)",
  },
];
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
  refusals: {
    create: REFUSALS,
    edit: [
      ...REFUSALS,
      {
        status: 400,
        answer: "required with",
        rule: "integration and externalId are changed together",
      },
    ],
  },
  createData: async (body, ctx) => {
    // The account is the acting user's (an admin's userId, else the caller).
    const owner = body.userId ?? ctx.auth.userId;
    const calendar = await connectedCalendarFor(ctx.db, owner, body.integration, body.externalId);
    if (!calendar) throw new BadRequest(CREDENTIAL_INVALID);
    const row = { ...body, externalId: calendar.url, credentialId: calendar.credentialId };
    return body.eventTypeId === undefined ? row : { ...row, userId: null };
  },
  editData: async (body, row, ctx) => {
    if (body.integration === undefined && body.externalId === undefined) return body;
    if (body.externalId === undefined) throw new BadRequest("External Id is required with integration value");
    if (body.integration === undefined)
      throw new BadRequest("Integration value is required with external ID");
    const owner = row.userId ?? (await ownerOfEventType(ctx, row.eventTypeId));
    const calendar = await connectedCalendarFor(ctx.db, owner, body.integration, body.externalId);
    if (!calendar) throw new BadRequest(CREDENTIAL_INVALID);
    return { ...body, externalId: calendar.url, credentialId: calendar.credentialId };
  },
});

/** An event type's destination calendar belongs to the event type's owner. */
async function ownerOfEventType(ctx: AccessContext, id: number | null): Promise<number> {
  if (id === null) return ctx.auth.userId;
  const eventType = await ctx.db.eventType.findUnique({ where: { id }, select: { userId: true } });
  return eventType?.userId ?? ctx.auth.userId;
}
