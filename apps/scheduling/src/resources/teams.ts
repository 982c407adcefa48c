import type { MembershipRole, PrismaClient } from "@app/db";
import { Team, TeamCreateBody, TeamEditBody, TeamListQuery } from "@app/schemas/scheduling";
import { Forbidden } from "../errors.ts";
import { integerId } from "./ids.ts";
import { lockTeams } from "./invariants.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";
import { listTeamEventTypes } from "./team-event-types.ts";

/** The caller's role in a team, counting only an accepted membership (an invite grants nothing yet). */
export async function acceptedRole(
  db: PrismaClient,
  teamId: number,
  userId: number,
): Promise<MembershipRole | null> {
  const membership = await db.membership.findFirst({
    where: { teamId, userId, accepted: true },
    select: { role: true },
  });
  return membership?.role ?? null;
}

export const teams = defineResource({
  path: "teams",
  model: "Team",
  name: "Team",
  keys: { singular: "team", plural: "teams" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: { public: Team, create: TeamCreateBody, edit: TeamEditBody, list: TeamListQuery },
  jsonColumns: ["metadata"],
  // v1 named the admin's "create it for this user" field ownerId.
  actAs: "ownerId",
  // Any membership, accepted or not, shows the team (an invitee must see what they join).
  ownedBy: (userIds) => ({ members: { some: { userId: { in: userIds } } } }),
  // An edit or delete waits for a concurrent one to commit and then reads the team again: once
  // it is deleted that is a 404, not a 403 from the memberships its deletion took along.
  lockForChange: (ctx, team) => lockTeams(ctx, [team.id]),
  authorize: async (ctx, team, action) => {
    if (ctx.auth.isAdmin) return;
    const role = await acceptedRole(ctx.db, team.id, ctx.auth.userId);
    if (action === "delete" && role !== "OWNER") {
      throw new Forbidden(`Only an OWNER of team ${team.id} can delete it`);
    }
    if (role !== "OWNER" && role !== "ADMIN") {
      throw new Forbidden(`This needs the OWNER or ADMIN role in team ${team.id}`);
    }
  },
  actions: [
    {
      name: "event-types",
      method: "GET",
      operationId: "listEventTypesByTeamId",
      operation: listTeamEventTypes,
    },
  ],
  // A nested write: the team and its OWNER membership are one statement, so one transaction.
  createData: (body, ctx) => ({
    ...body,
    members: { create: { userId: ctx.auth.userId, role: "OWNER", accepted: true } },
  }),
});
