// The two composite ids of v1: each has a parser (path parameter → key) and a formatter
// (row → path parameter) that round-trip for every row the API can create.
import { z } from "zod";
import { INT_ID_RANGE } from "./common.ts";

/** `<userId>_<teamId>`, each an integer id (1 to 2147483647, no leading zeros). */
const MEMBERSHIP_ID = new RegExp(`^(${INT_ID_RANGE})_(${INT_ID_RANGE})$`);

/** Membership id `<userId>_<teamId>`, e.g. `12_34`. */
export const membershipIdParams = z.object({
  id: z
    .string()
    .regex(MEMBERSHIP_ID, "must be <userId>_<teamId>, two whole numbers from 1 to 2147483647")
    .transform((value) => {
      const [, userId, teamId] = MEMBERSHIP_ID.exec(value)!;
      return { userId: Number(userId), teamId: Number(teamId) };
    })
    .describe("`<userId>_<teamId>`, e.g. 12_34; each from 1 to 2147483647"),
});

export const formatMembershipId = (row: { userId: number; teamId: number }) => `${row.userId}_${row.teamId}`;

/**
 * A selected calendar's integration ends with `_calendar` (google_calendar, office365_calendar,
 * ics-feed_calendar, ...) and holds no other `_calendar_`: that is what lets the id below be
 * split unambiguously whatever the external id contains.
 */
export const INTEGRATION_PATTERN = /^(?!.*_calendar_)[A-Za-z0-9_-]+_calendar$/;

/**
 * Selected-calendar id `<userId>_<integration>_<externalId>`, parsed as v1 does: the first
 * `_`-segment is the user id; the rest is cut at the first `_calendar_`, whose left side plus
 * `_calendar` is the integration and whose right side (anything, underscores included) is the
 * external id. Example: `7_google_calendar_team_x@group.calendar.google.com`. The expression
 * says exactly that (each character of the integration's left side is checked not to start
 * `_calendar_`), so the document's `pattern` and the server agree on every id.
 */
const SELECTED_CALENDAR_ID = new RegExp(
  `^(${INT_ID_RANGE})_((?:(?!_calendar_)[\\s\\S])+)_calendar_([\\s\\S]+)$`,
);

export const selectedCalendarIdParams = z.object({
  id: z
    .string()
    .regex(
      SELECTED_CALENDAR_ID,
      "must be <userId>_<integration>_<externalId>: a user id, an integration ending in _calendar, an external id",
    )
    .transform((value) => {
      const [, userId, integration, externalId] = SELECTED_CALENDAR_ID.exec(value)!;
      return { userId: Number(userId), integration: `${integration}_calendar`, externalId: externalId! };
    })
    .describe("`<userId>_<integration>_<externalId>`, e.g. 7_google_calendar_me@example.com"),
});

export const formatSelectedCalendarId = (row: { userId: number; integration: string; externalId: string }) =>
  `${row.userId}_${row.integration}_${row.externalId}`;
