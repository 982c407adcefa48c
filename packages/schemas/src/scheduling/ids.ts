// The two composite ids of v1: each has a parser (path parameter → key) and a formatter
// (row → path parameter) that round-trip for every row the API can create.
import { z } from "zod";
import { INT4_MAX } from "./common.ts";

const positiveInt = (value: string) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= INT4_MAX;

/** Membership id `<userId>_<teamId>`, e.g. `12_34`. */
export const membershipIdParams = z.object({
  id: z
    .string()
    .transform((value, ctx) => {
      const [userId = "", teamId = "", ...rest] = value.split("_");
      if (rest.length > 0 || !positiveInt(userId) || !positiveInt(teamId)) {
        ctx.addIssue({ code: "custom", message: "must be <userId>_<teamId>, two positive integers" });
        return z.NEVER;
      }
      return { userId: Number(userId), teamId: Number(teamId) };
    })
    .describe("`<userId>_<teamId>`, e.g. 12_34"),
});

export const formatMembershipId = (row: { userId: number; teamId: number }) => `${row.userId}_${row.teamId}`;

/**
 * A selected calendar's integration ends with `_calendar` (google_calendar, office365_calendar,
 * ics-feed_calendar, ...) and holds no other `_calendar_`: that is what lets the id below be
 * split unambiguously whatever the external id contains.
 */
export const INTEGRATION_PATTERN = /^(?!.*_calendar_)[A-Za-z0-9_-]+_calendar$/;

const CALENDAR_SEPARATOR = "_calendar_";

/**
 * Selected-calendar id `<userId>_<integration>_<externalId>`, parsed as v1 does: the first
 * `_`-segment is the user id; the rest is cut at the first `_calendar_`, whose left side plus
 * `_calendar` is the integration and whose right side (anything, underscores included) is the
 * external id. Example: `7_google_calendar_team_x@group.calendar.google.com`.
 */
export const selectedCalendarIdParams = z.object({
  id: z
    .string()
    .transform((value, ctx) => {
      const cut = value.indexOf("_");
      const userId = cut === -1 ? value : value.slice(0, cut);
      if (!positiveInt(userId)) {
        ctx.addIssue({ code: "custom", message: "userId is not a number" });
        return z.NEVER;
      }
      const rest = value.slice(cut + 1);
      const separator = rest.indexOf(CALENDAR_SEPARATOR);
      if (cut === -1 || separator === -1 || separator === 0) {
        ctx.addIssue({ code: "custom", message: "Missing integration (it ends with _calendar)" });
        return z.NEVER;
      }
      const externalId = rest.slice(separator + CALENDAR_SEPARATOR.length);
      if (externalId === "") {
        ctx.addIssue({ code: "custom", message: "Missing externalId" });
        return z.NEVER;
      }
      return { userId: Number(userId), integration: `${rest.slice(0, separator)}_calendar`, externalId };
    })
    .describe("`<userId>_<integration>_<externalId>`, e.g. 7_google_calendar_me@example.com"),
});

export const formatSelectedCalendarId = (row: { userId: number; integration: string; externalId: string }) =>
  `${row.userId}_${row.integration}_${row.externalId}`;
