// The default domain (docs/adr/0219): the row of shortener.domains with the nil id and no host,
// standing for whichever host SHORT_BASE_URL names. Shared by shorts/ (cache keys, short URLs)
// and domains/ (the Host a request names).

/** The default domain's id: the migration that added domains inserted its row under it. */
export const DEFAULT_DOMAIN_ID = "00000000-0000-0000-0000-000000000000";

/** A short's domain as the shorts service needs it: its id, and its host (null: the default's). */
export interface DomainRef {
  id: string;
  host: string | null;
}

export const DEFAULT_DOMAIN: DomainRef = { id: DEFAULT_DOMAIN_ID, host: null };

/** The host a base URL names, lower case, without its port: the default domain's. */
export const hostOf = (baseUrl: string) => new URL(baseUrl).hostname.toLowerCase();
