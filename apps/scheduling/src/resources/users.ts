import {
  USER_FIXED_FIELDS,
  User,
  UserCreateBody,
  UserEditBody,
  UserListQuery,
} from "@app/schemas/scheduling";
import { BadRequest, Forbidden } from "../errors.ts";
import { integerId } from "./ids.ts";
import { assertAdminRemains, assertUserDeletable, lockUserInvariants } from "./invariants.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

export const users = defineResource({
  path: "users",
  model: "User",
  name: "User",
  keys: { singular: "user", plural: "users" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: { public: User, create: UserCreateBody, edit: UserEditBody, list: UserListQuery },
  fixed: USER_FIXED_FIELDS,
  refusals: {
    edit: [
      {
        status: 400,
        answer: "is not one of user …'s schedules",
        rule: "defaultScheduleId names one of the user's own schedules",
      },
    ],
  },
  // A non-admin's list holds only themself.
  ownedBy: (userIds) => ({ id: { in: userIds } }),
  listWhere: (query) => (query.email ? { email: { in: query.email } } : {}),
  countTotal: true,
  authorizeCreate: (ctx) => {
    if (!ctx.auth.isAdmin) throw new Forbidden("Only admins can create users");
  },
  lockForChange: lockUserInvariants,
  authorize: async (ctx, user, action, body) => {
    if (body?.role !== undefined && !ctx.auth.isAdmin) throw new Forbidden("Only admins can change a role");
    if (action === "delete") await assertUserDeletable(ctx, user);
    if (body?.role !== undefined) await assertAdminRemains(ctx, user, body.role);
  },
  editData: async (body, user, ctx) => {
    if (typeof body.defaultScheduleId === "number") {
      const schedule = await ctx.db.schedule.findFirst({
        where: { id: body.defaultScheduleId, userId: user.id },
        select: { id: true },
      });
      if (!schedule) {
        const message = `Schedule ${body.defaultScheduleId} is not one of user ${user.id}'s schedules`;
        throw new BadRequest(message, [{ path: "defaultScheduleId", message }]);
      }
    }
    return body;
  },
});
