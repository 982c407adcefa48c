import type { MembershipRole } from "@app/db";
import {
  Membership,
  MembershipCreateBody,
  MembershipEditBody,
  MembershipListQuery,
} from "@app/schemas/scheduling";
import type { z } from "zod";
import { Forbidden } from "../errors.ts";
import { membershipId } from "./ids.ts";
import { assertTeamKeepsOwner, endHostingUnlessMember, lockTeams } from "./invariants.ts";
import { type AccessContext, ALL_OPERATIONS, defineResource } from "./resource.ts";
import { acceptedRole, teams } from "./teams.ts";
import { users } from "./users.ts";

const RANK: Record<MembershipRole, number> = { MEMBER: 0, ADMIN: 1, OWNER: 2 };

export const memberships = defineResource({
  path: "memberships",
  model: "Membership",
  name: "Membership",
  keys: { singular: "membership", plural: "memberships" },
  operations: ALL_OPERATIONS,
  id: membershipId,
  schemas: {
    public: Membership,
    create: MembershipCreateBody,
    edit: MembershipEditBody,
    list: MembershipListQuery,
  },
  // `userId` filters by member; a non-admin sees every membership of the teams they are in.
  ownedBy: (userIds) => ({ userId: { in: userIds } }),
  visibleTo: (userId) => ({ team: { members: { some: { userId } } } }),
  listWhere: (query) => (query.teamId ? { teamId: { in: query.teamId } } : {}),
  references: [
    // Adding a member changes the team: OWNER or ADMIN (teams.authorize).
    { field: "teamId", resource: teams, need: "change" },
    // Any existing user can be invited, though the inviter cannot otherwise see them.
    { field: "userId", resource: users, need: "exist" },
  ],
  authorizeCreate: async (ctx, body) => {
    if (ctx.auth.isAdmin) return;
    if (body.accepted) throw new Forbidden("Only the invited user can accept the invite");
    if (body.role === "OWNER" && (await acceptedRole(ctx.db, body.teamId, ctx.auth.userId)) !== "OWNER") {
      throw new Forbidden("Only an OWNER can give the OWNER role");
    }
  },
  lockForChange: (ctx, membership) => lockTeams(ctx, [membership.teamId]),
  authorize: async (ctx, membership, action, body) => {
    await authorizeChange(ctx, membership, action, body);
    // Then, binding on site admins too: a team is never left without an accepted OWNER.
    const after =
      action === "delete"
        ? null
        : { role: body?.role ?? membership.role, accepted: body?.accepted ?? membership.accepted };
    await assertTeamKeepsOwner(ctx, membership, after);
  },
  afterChange: endHostingUnlessMember,
});

/** Who may remove a member or change their membership (403 otherwise). */
async function authorizeChange(
  ctx: AccessContext,
  membership: z.output<typeof Membership>,
  action: "edit" | "delete",
  body?: z.output<typeof MembershipEditBody>,
): Promise<void> {
  if (ctx.auth.isAdmin) return;
  const isSelf = membership.userId === ctx.auth.userId;
  const myRole = await acceptedRole(ctx.db, membership.teamId, ctx.auth.userId);
  if (action === "delete") {
    // Leaving is allowed (the last OWNER excepted: invariants.ts); removing someone else needs a higher role.
    if (isSelf) return;
    if (myRole === null || myRole === "MEMBER" || RANK[myRole] <= RANK[membership.role]) {
      throw new Forbidden("Only an OWNER or ADMIN ranked above the member can remove them");
    }
    return;
  }
  const manages = myRole === "OWNER" || myRole === "ADMIN";
  if (!isSelf && !manages) throw new Forbidden("Only the member or a team OWNER or ADMIN can change this");
  if (body?.accepted !== undefined && !isSelf)
    throw new Forbidden("Only the invited user can accept the invite");
  if (body?.role !== undefined) {
    if (!manages) throw new Forbidden("Only a team OWNER or ADMIN can change roles");
    // The same rank rule as removing someone: a role change could demote, then remove them.
    if (!isSelf && RANK[myRole] <= RANK[membership.role]) {
      throw new Forbidden("Only an OWNER or ADMIN ranked above the member can change their role");
    }
    if ((body.role === "OWNER" || membership.role === "OWNER") && myRole !== "OWNER") {
      throw new Forbidden("Only an OWNER can give or take the OWNER role");
    }
  }
}
