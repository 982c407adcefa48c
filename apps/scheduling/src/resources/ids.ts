// The three id formats of v1 paths. Parsing lives with the schemas (it is API contract);
// here each format also says which row a key names.
import {
  formatMembershipId,
  formatSelectedCalendarId,
  intIdParams,
  membershipIdParams,
  selectedCalendarIdParams,
} from "@app/schemas/scheduling";

export const integerId = {
  params: intIdParams,
  where: (id: number) => ({ id }),
  key: (row: { id: number }) => row.id,
  format: (id: number) => String(id),
};

/** `<userId>_<teamId>`. */
export const membershipId = {
  params: membershipIdParams,
  where: (key: { userId: number; teamId: number }) => ({ userId: key.userId, teamId: key.teamId }),
  key: (row: { userId: number; teamId: number }) => ({ userId: row.userId, teamId: row.teamId }),
  format: formatMembershipId,
};

type CalendarKey = { userId: number; integration: string; externalId: string };

/** `<userId>_<integration>_<externalId>`; see selectedCalendarIdParams for the split. */
export const selectedCalendarId = {
  params: selectedCalendarIdParams,
  where: (key: CalendarKey) => ({
    userId: key.userId,
    integration: key.integration,
    externalId: key.externalId,
  }),
  key: (row: CalendarKey) => ({
    userId: row.userId,
    integration: row.integration,
    externalId: row.externalId,
  }),
  format: formatSelectedCalendarId,
};
