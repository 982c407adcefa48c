import { z } from "zod";
import { httpUrl, jsonObject, label, listQuery, rowId, SLUG_RULE, slug, text, timeZone } from "./common.ts";

export const WeekDay = z.enum(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]);

export const color = () =>
  z
    .string()
    // No `i` flag: a document's pattern carries no flags, so the letters' cases are spelled out.
    .regex(/^#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/, "must be a #rgb or #rrggbb colour");

export const Team = z
  .object({
    id: z.int(),
    name: z.string(),
    slug: z.string().nullable(),
    logoUrl: z.string().nullable(),
    bio: z.string().nullable(),
    hideBranding: z.boolean(),
    hideTeamProfileLink: z.boolean(),
    isPrivate: z.boolean(),
    hideBookATeamMember: z.boolean(),
    createdAt: z.date(),
    metadata: z.unknown(),
    theme: z.string().nullable(),
    brandColor: z.string().nullable(),
    darkBrandColor: z.string().nullable(),
    timeFormat: z.int().nullable(),
    timeZone: z.string(),
    weekStart: z.string(),
  })
  .meta({ id: "Team", description: "A team; its members are memberships" });

const settings = {
  name: label(),
  slug: slug().nullable().describe(`Unique regardless of case; ${SLUG_RULE}`),
  logoUrl: httpUrl().nullable(),
  bio: text().max(10_000).nullable(),
  hideBranding: z.boolean(),
  hideTeamProfileLink: z.boolean(),
  isPrivate: z.boolean(),
  hideBookATeamMember: z.boolean(),
  metadata: jsonObject().nullable(),
  theme: text().max(255).nullable(),
  brandColor: color().nullable(),
  darkBrandColor: color().nullable(),
  timeFormat: z.union([z.literal(12), z.literal(24)]).nullable(),
  timeZone: timeZone(),
  weekStart: WeekDay,
};

const { name, ...optionalSettings } = settings;

export const TeamCreateBody = z
  .strictObject({
    name,
    ...z.object(optionalSettings).partial().shape,
    ownerId: rowId().optional().describe("Admins only: the user who becomes the team's OWNER"),
  })
  .meta({ id: "TeamCreate", description: "The creator (or ownerId) becomes the team's accepted OWNER" });

export const TeamEditBody = z.strictObject(settings).partial().meta({ id: "TeamEdit" });

export const TeamListQuery = listQuery({});
