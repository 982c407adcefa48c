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

/**
 * `<userId>_<integration>_<externalId>`, looked up whole: the stored `apiId` column holds every
 * row's id, unique, since no rule can split one when its parts hold `_` (docs/adr/0150).
 */
export const selectedCalendarId = {
  params: selectedCalendarIdParams,
  where: (id: string) => ({ apiId: id }),
  key: formatSelectedCalendarId,
  format: (id: string) => id,
};
