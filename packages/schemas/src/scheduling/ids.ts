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
 * Selected-calendar id `<userId>_<integration>_<externalId>`, e.g.
 * `7_google_calendar_team_x@group.calendar.google.com`. Any integration is accepted, as in v1
 * (`google`, `google_calendar`, `my_app`), and both it and the external id may hold `_`, so no
 * rule can split an id into its parts: the server looks the whole id up instead (it is a stored,
 * unique column), and the pattern only says what every id has: a user id, then two non-empty
 * parts joined by `_`.
 */
const SELECTED_CALENDAR_ID = new RegExp(`^(${INT_ID_RANGE})_[\\s\\S]+_[\\s\\S]+$`);

export const selectedCalendarIdParams = z.object({
  id: z
    .string()
    .regex(
      SELECTED_CALENDAR_ID,
      "must be <userId>_<integration>_<externalId>: a user id, then an integration and an external id",
    )
    .describe("`<userId>_<integration>_<externalId>`, e.g. 7_google_calendar_me@example.com"),
});

export const formatSelectedCalendarId = (row: { userId: number; integration: string; externalId: string }) =>
  `${row.userId}_${row.integration}_${row.externalId}`;
