import type { PrismaClient } from "@app/db";
import type { DeclaredRefusal } from "@app/schemas/refusals";
import {
  EventType,
  EventTypeCreateBody,
  EventTypeEditBody,
  EventTypeListQuery,
} from "@app/schemas/scheduling";
import { BadRequest, Forbidden } from "../errors.ts";
import { listEventTypes } from "./event-types-list.ts";
import { integerId } from "./ids.ts";
import { lockTeams } from "./invariants.ts";
import { type AccessContext, ALL_OPERATIONS, defineResource } from "./resource.ts";
import { schedules } from "./schedules.ts";
import { eventTypeRelations } from "./team-event-types.ts";
import { acceptedRole, teams } from "./teams.ts";

/** Personal event types of these users, and those of every team they belong to. */
export const eventTypesOwnedBy = (userIds: number[]) => ({
  OR: [{ userId: { in: userIds } }, { team: { members: { some: { userId: { in: userIds } } } } }],
});

/** The owner changes a personal event type; an OWNER or ADMIN of its team, a team one. */
export async function authorizeEventTypeChange(
  ctx: AccessContext,
  eventType: { id: number; userId: number | null; teamId: number | null },
): Promise<void> {
  if (ctx.auth.isAdmin || eventType.userId === ctx.auth.userId) return;
  if (eventType.teamId !== null) {
    const role = await acceptedRole(ctx.db, eventType.teamId, ctx.auth.userId);
    if (role === "OWNER" || role === "ADMIN") return;
  }
  throw new Forbidden(`Only the owner (or a team OWNER or ADMIN) can change event type ${eventType.id}`);
}

/** For the resources hanging off an event type (custom inputs, event-level destination calendars). */
export async function authorizeEventTypeChangeById(ctx: AccessContext, eventTypeId: number): Promise<void> {
  const eventType = await ctx.db.eventType.findUniqueOrThrow({
    where: { id: eventTypeId },
    select: { id: true, userId: true, teamId: true },
  });
  await authorizeEventTypeChange(ctx, eventType);
}

type Host = { userId: number; scheduleId?: number | null };

function hostError(index: number, field: string, message: string): BadRequest {
  return new BadRequest(`hosts.${index}.${field}: ${message}`, [
    { path: `hosts.${index}.${field}`, message },
  ]);
}

/**
 * Hosts of a team event type are accepted members of the team; a personal one is hosted by its
 * owner only (nobody is made host of someone else's event). A host's schedule is their own.
 */
async function checkHosts(
  db: PrismaClient,
  owner: { userId: number | null; teamId: number | null },
  hosts: Host[],
) {
  const allowed = new Set<number>();
  if (owner.teamId !== null) {
    const members = await db.membership.findMany({
      where: { teamId: owner.teamId, accepted: true },
      select: { userId: true },
    });
    for (const member of members) allowed.add(member.userId);
  } else if (owner.userId !== null) {
    allowed.add(owner.userId);
  }
  const scheduleIds = hosts.flatMap((host) => (host.scheduleId ? [host.scheduleId] : []));
  const scheduleOwners = new Map(
    (
      await db.schedule.findMany({ where: { id: { in: scheduleIds } }, select: { id: true, userId: true } })
    ).map((schedule) => [schedule.id, schedule.userId]),
  );
  hosts.forEach((host, index) => {
    if (!allowed.has(host.userId)) {
      const who = owner.teamId !== null ? `an accepted member of team ${owner.teamId}` : "the owner";
      throw hostError(index, "userId", `user ${host.userId} is not ${who}`);
    }
    if (host.scheduleId && scheduleOwners.get(host.scheduleId) !== host.userId) {
      throw hostError(index, "scheduleId", `schedule ${host.scheduleId} is not one of user ${host.userId}'s`);
    }
  });
}

/** What a create or an edit refuses beyond the body schema (docs/adr/0214): rules over several fields and stored rows. */
const EVENT_TYPE_REFUSALS: readonly DeclaredRefusal[] = [
  {
    status: 400,
    answer: "must not repeat a userId",
    rule: "hosts name each userId once (uniqueItems compares whole items, not one key of them)",
  },
  {
    status: 400,
    answer: "is not the owner",
    rule: "a personal event type's hosts are its owner",
  },
  {
    status: 400,
    answer: "is not an accepted member of team",
    rule: "a team event type's hosts are accepted members of the team",
  },
  {
    status: 400,
    answer: "is not one of user …'s",
    rule: "a host's scheduleId is one of that host's schedules",
  },
  {
    status: 400,
    answer: "give either userId or teamId, not both",
    rule: "an event type has userId or teamId, not both",
  },
];

export const eventTypes = defineResource({
  path: "event-types",
  refusals: { create: EVENT_TYPE_REFUSALS, edit: EVENT_TYPE_REFUSALS },
  model: "EventType",
  name: "Event type",
  keys: { singular: "event_type", plural: "event_types" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: {
    public: EventType,
    create: EventTypeCreateBody,
    edit: EventTypeEditBody,
    list: EventTypeListQuery,
  },
  relations: eventTypeRelations,
  jsonColumns: [
    "locations",
    "metadata",
    "bookingFields",
    "bookingLimits",
    "durationLimits",
    "recurringEvent",
  ],
  ownerColumn: "userId",
  ownedBy: eventTypesOwnedBy,
  listWhere: (query) => (query.slug ? { slug: { in: query.slug } } : {}),
  sqlList: listEventTypes,
  references: [
    { field: "teamId", resource: teams, need: "change" },
    { field: "scheduleId", resource: schedules, need: "see" },
  ],
  // Under the team's lock, which every membership change takes too: a host cannot stop being
  // an accepted member between checkHosts and the write (invariants.ts), on create or edit.
  lockForChange: (ctx, eventType) => lockTeams(ctx, eventType.teamId === null ? [] : [eventType.teamId]),
  lockForCreate: (ctx, body) => lockTeams(ctx, body.teamId === undefined ? [] : [body.teamId]),
  authorize: (ctx, eventType) => authorizeEventTypeChange(ctx, eventType),
  createData: async ({ hosts, ...body }, ctx) => {
    // A team event type belongs to the team, not to its creator (as in v1).
    const owner = {
      userId: body.teamId === undefined ? (body.userId ?? null) : null,
      teamId: body.teamId ?? null,
    };
    if (hosts) await checkHosts(ctx.db, owner, hosts);
    return { ...body, userId: owner.userId, hosts: hosts ? { create: hosts } : undefined };
  },
  // Without `hosts` the hosts stay as they are (v1 wiped them); with it they are replaced.
  editData: async ({ hosts, ...body }, eventType, ctx) => {
    if (!hosts) return body;
    await checkHosts(ctx.db, eventType, hosts);
    return { ...body, hosts: { deleteMany: {}, create: hosts } };
  },
});
