import { z } from "zod";
import { baseQuery, email, label, pagination, repeatable, rowId, text, timeZone } from "./common.ts";
import { color, WeekDay } from "./teams.ts";

export const Locale = z.enum([
  "en",
  "fr",
  "it",
  "ru",
  "es",
  "de",
  "pt",
  "ro",
  "nl",
  "pt-BR",
  "es-419",
  "ko",
  "ja",
  "pl",
  "ar",
  "iw",
  "zh-CN",
  "zh-TW",
  "cs",
  "sr",
  "sv",
  "vi",
  "bn",
]);

/**
 * The user's fields no column holds, with the value each always has: v1's `organizationId`
 * (cal.com's own v1 tests read it); this server has no organizations (docs/adr/0249).
 */
export const USER_FIXED_FIELDS = { organizationId: null } as const;

const theme = () => z.enum(["dark", "light"]).nullable();

/** The fields v1 returned: no password hash, 2FA secret, lock flag or metadata. */
export const User = z
  .object({
    id: z.int(),
    username: z.string().nullable(),
    name: z.string().nullable(),
    email: z.string(),
    emailVerified: z.date().nullable(),
    bio: z.string().nullable(),
    timeZone: z.string(),
    weekStart: z.string(),
    endTime: z.int(),
    bufferTime: z.int(),
    appTheme: z.string().nullable(),
    theme: z.string().nullable(),
    defaultScheduleId: z.int().nullable(),
    locale: z.string().nullable(),
    timeFormat: z.int().nullable(),
    hideBranding: z.boolean(),
    brandColor: z.string().nullable(),
    darkBrandColor: z.string().nullable(),
    allowDynamicBooking: z.boolean().nullable(),
    createdDate: z.date(),
    verified: z.boolean().nullable(),
    invitedTo: z.int().nullable(),
    role: z.enum(["USER", "ADMIN"]),
    organizationId: z
      .int()
      .nullable()
      .describe("The user's organization in v1; always null here, a server without organizations"),
  })
  .meta({ id: "SchedulingUser", description: "A user (a non-admin sees only themself)" });

const profile = {
  name: text().max(255).trim().nullable(),
  bio: text().max(10_000).nullable(),
  timeZone: timeZone(),
  weekStart: WeekDay,
  theme: theme(),
  appTheme: theme(),
  locale: Locale.nullable(),
  hideBranding: z.boolean(),
  timeFormat: z.union([z.literal(12), z.literal(24)]).nullable(),
  brandColor: color().nullable(),
  darkBrandColor: color().nullable(),
  allowDynamicBooking: z.boolean().nullable(),
  role: z.enum(["USER", "ADMIN"]).describe("Admins only"),
};

const userEmail = () => email().toLowerCase().describe("Stored lower-cased; unique");
const username = () => label().toLowerCase().describe("Stored lower-cased; unique");

export const UserCreateBody = z
  .strictObject({
    email: userEmail(),
    username: username(),
    ...z.object(profile).partial().shape,
  })
  .meta({ id: "SchedulingUserCreate", description: "Admins only" });

export const UserEditBody = z
  .strictObject({
    email: userEmail(),
    username: username(),
    ...profile,
    defaultScheduleId: rowId().nullable().describe("One of the user's own schedules"),
  })
  .partial()
  .meta({ id: "SchedulingUserEdit" });

export const UserListQuery = z.strictObject({
  ...baseQuery,
  ...pagination(10),
  email: repeatable(email().toLowerCase()).optional().describe("Repeatable: only these e-mail addresses"),
});
