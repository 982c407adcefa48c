// The invariants no sequence of API calls may break, kept in one place:
// - every team keeps at least one accepted OWNER (the last one hands over first, or deletes the team);
// - a user's deletion never leaves a team without an accepted OWNER;
// - the installation keeps at least one ADMIN;
// - the hosts of a team's event types are accepted members of the team (event-types checks
//   them on the way in; a membership that ends or is no longer accepted takes its hosting along).
// The memberships and users modules call these before a change; a refusal is 409 with what to do.
// Each check holds under concurrency because the change runs under the locks below (the
// resource's `lockForChange`): every change that could remove a team's last OWNER, or a
// team's member, locks the team's row first, every change that could remove the last ADMIN
// locks the ADMIN rows.
import type { MembershipRole } from "@app/db";
import { Conflict } from "../errors.ts";
import type { AccessContext } from "./resource.ts";

async function otherAcceptedOwners(ctx: AccessContext, teamId: number, userId: number): Promise<number> {
  return ctx.db.membership.count({
    where: { teamId, role: "OWNER", accepted: true, userId: { not: userId } },
  });
}

/** Locks these teams' rows (ascending, so two changes never wait on each other in a cycle). */
export async function lockTeams(ctx: AccessContext, teamIds: number[]): Promise<void> {
  const ids = [...new Set(teamIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await ctx.db
    .$queryRaw`SELECT "id" FROM "scheduling"."teams" WHERE "id" = ANY(${ids}::int[]) ORDER BY "id" FOR UPDATE`;
}

/** Locks what a change of this user may break: the teams they own, and the ADMIN rows. */
export async function lockUserInvariants(ctx: AccessContext, user: { id: number }): Promise<void> {
  const owned = await ctx.db.membership.findMany({
    where: { userId: user.id, role: "OWNER", accepted: true },
    select: { teamId: true },
  });
  await lockTeams(
    ctx,
    owned.map((membership) => membership.teamId),
  );
  await ctx.db
    .$queryRaw`SELECT "id" FROM "scheduling"."users" WHERE "role" = 'ADMIN' ORDER BY "id" FOR UPDATE`;
}

interface MembershipState {
  role: MembershipRole;
  accepted: boolean;
}

/** A membership is removed (`after` null) or changed to `after`: a role, or no longer accepted. */
export async function assertTeamKeepsOwner(
  ctx: AccessContext,
  membership: { teamId: number; userId: number } & MembershipState,
  after: MembershipState | null,
): Promise<void> {
  const isOwner = (state: MembershipState | null) => state?.role === "OWNER" && state.accepted;
  if (!isOwner(membership) || isOwner(after)) return;
  if ((await otherAcceptedOwners(ctx, membership.teamId, membership.userId)) > 0) return;
  throw new Conflict(
    `Team ${membership.teamId} would have no OWNER: make another member OWNER first, or delete the team`,
  );
}

/**
 * A membership was removed, or changed to `after`: unless it is still accepted, its user no
 * longer hosts the team's event types (in the change's transaction, under the team's lock).
 */
export async function endHostingUnlessMember(
  ctx: AccessContext,
  membership: { teamId: number; userId: number },
  after: { accepted: boolean } | null,
): Promise<void> {
  if (after?.accepted) return;
  await ctx.db.host.deleteMany({
    where: { userId: membership.userId, eventType: { teamId: membership.teamId } },
  });
}

/** A user is deleted: refused while they are the last accepted OWNER of a team, or the last ADMIN. */
export async function assertUserDeletable(
  ctx: AccessContext,
  user: { id: number; role: string },
): Promise<void> {
  const owned = await ctx.db.membership.findMany({
    where: { userId: user.id, role: "OWNER", accepted: true },
    select: { teamId: true },
  });
  for (const { teamId } of owned) {
    if ((await otherAcceptedOwners(ctx, teamId, user.id)) === 0) {
      throw new Conflict(
        `User ${user.id} is the last OWNER of team ${teamId}: make another member OWNER or delete the team first`,
      );
    }
  }
  await assertAdminRemains(ctx, user, "USER");
}

/** A user's role becomes `newRole` (or the user goes): the installation keeps an ADMIN. */
export async function assertAdminRemains(
  ctx: AccessContext,
  user: { id: number; role: string },
  newRole: string,
) {
  if (user.role !== "ADMIN" || newRole === "ADMIN") return;
  const others = await ctx.db.user.count({ where: { role: "ADMIN", id: { not: user.id } } });
  if (others === 0) throw new Conflict("This is the last ADMIN: make another user ADMIN first");
}
