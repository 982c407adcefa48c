import { z } from "zod";
import { listQuery, queryId, repeatable, rowId } from "./common.ts";

export const MembershipRole = z.enum(["MEMBER", "ADMIN", "OWNER"]);

export const Membership = z
  .object({
    id: z.int(),
    teamId: z.int(),
    userId: z.int(),
    accepted: z.boolean(),
    role: MembershipRole,
    disableImpersonation: z.boolean(),
    createdAt: z.date().nullable(),
    updatedAt: z.date().nullable(),
  })
  .meta({ id: "Membership", description: "A user in a team; its API id is <userId>_<teamId>" });

export const MembershipCreateBody = z
  .strictObject({
    teamId: rowId().describe("A team where you are OWNER or ADMIN"),
    userId: rowId().describe("The user to add"),
    accepted: z.boolean().default(false).describe("Only the invited user (or an admin) can accept"),
    role: MembershipRole.default("MEMBER").describe("OWNER can only be given by an OWNER"),
    disableImpersonation: z.boolean().default(false),
  })
  .meta({ id: "MembershipCreate" });

export const MembershipEditBody = z
  .strictObject({
    accepted: z.boolean().optional().describe("Only the member themself (or an admin)"),
    role: MembershipRole.optional().describe("Team OWNER or ADMIN; OWNER is given or taken only by an OWNER"),
    disableImpersonation: z.boolean().optional(),
  })
  .meta({ id: "MembershipEdit" });

export const MembershipListQuery = listQuery({
  teamId: repeatable(queryId()).optional().describe("Repeatable: only these teams"),
});
