// The one place where the shortener's model becomes Shlink's JSON (docs/adr/0263): short URLs,
// visits, pagination, domains' redirects. What the model does not keep (a visit's region, city
// and position; an orphan visit's URLs) is filled here, so the rest of /rest never invents a field.

/** A short as /rest reads it (shlink-queries.ts), with its visit sums. */
export interface ShortUrlRow {
  id: string;
  name: string;
  url: string;
  /** null: the default domain. */
  domainHost: string | null;
  createdAt: Date;
  tags: string[] | null;
  validFrom: Date | null;
  validUntil: Date | null;
  maxVisits: number | null;
  title: string | null;
  hasRules: boolean;
  forwardQuery: boolean;
  crawlable: boolean;
  visits: number;
  humans: number;
}

/** A visit row (short_logs) as /rest reads it. */
export interface VisitRow {
  createdAt: Date;
  referer: string;
  userAgent: string;
  isBot: boolean;
  country: string;
  /** The URL visited and the one the visit was sent to (docs/adr/0271); null: not kept. */
  visitedUrl: string | null;
  redirectUrl: string | null;
}

export interface VisitsSummary {
  total: number;
  nonBots: number;
  bots: number;
}

/** ATOM, as Shlink writes dates: seconds, and the offset (+00:00: every date is UTC here). */
export const atom = (date: Date) => `${date.toISOString().slice(0, 19)}+00:00`;
const atomOrNull = (date: Date | null) => (date === null ? null : atom(date));

export const summary = (visits: number, humans: number): VisitsSummary => ({
  total: visits,
  nonBots: humans,
  bots: visits - humans,
});

/** What Shlink answers for a short URL, the short URL's own link built as the existing API builds it. */
export function shortUrlView(row: ShortUrlRow, shortBaseUrl: string) {
  const scheme = new URL(shortBaseUrl).protocol;
  return {
    shortCode: row.name,
    shortUrl:
      row.domainHost === null ? `${shortBaseUrl}/${row.name}` : `${scheme}//${row.domainHost}/${row.name}`,
    longUrl: row.url,
    dateCreated: atom(row.createdAt),
    tags: row.tags ?? [],
    meta: {
      validSince: atomOrNull(row.validFrom),
      validUntil: atomOrNull(row.validUntil),
      maxVisits: row.maxVisits,
    },
    domain: row.domainHost,
    title: row.title,
    crawlable: row.crawlable,
    forwardQuery: row.forwardQuery,
    visitsSummary: summary(row.visits, row.humans),
    hasRedirectRules: row.hasRules,
  };
}
export type ShortUrlView = ReturnType<typeof shortUrlView>;

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
// A visit's `visitLocation` by country code, written once per code: the model keeps the country
// only (no region, city or position).
const locations = new Map<string, string>([["", "null"]]);
function locationJson(country: string): string {
  let json = locations.get(country);
  if (json === undefined) {
    json = JSON.stringify({
      countryCode: country,
      countryName: countryNames.of(country) ?? country,
      regionName: "",
      cityName: "",
      latitude: 0,
      longitude: 0,
      timezone: "",
      isEmpty: false,
    });
    locations.set(country, json);
  }
  return json;
}
const text = (value: string | null) => (value === null ? "null" : JSON.stringify(value));

/**
 * A visit as Shlink shows it (its `Visit` in the /rest document), as JSON text. A page holds up
 * to 5,000: written as text, not made as objects and serialized through the response schema,
 * it costs a tenth as much (docs/adr/0286). The document still describes every answer: the
 * tests check each one against it.
 */
export function visitJson(row: VisitRow, orphanType?: OrphanType): string {
  return (
    `{"referer":${text(row.referer)},"date":"${atom(row.createdAt)}","userAgent":${text(row.userAgent)},` +
    `"visitLocation":${locationJson(row.country)},"potentialBot":${row.isBot},` +
    `"visitedUrl":${text(row.visitedUrl)},"redirectUrl":${text(row.redirectUrl)}` +
    `${orphanType === undefined ? "" : `,"type":"${orphanType}"`}}`
  );
}

/** Shlink's visits block (`VisitList`) as JSON text: the visits, then the pagination block. */
export function visitListJson(visits: string[], page: ReturnType<typeof pagination>): string {
  return `{"visits":{"data":[${visits.join(",")}],"pagination":${JSON.stringify(page)}}}`;
}

/** Shlink's orphan visit types, and the model's orphan kinds they are (visits/orphan-visits.ts). */
export const ORPHAN_TYPES = {
  base_url: "root",
  invalid_short_url: "name",
  // Every path the service does not serve is an unknown name to the model: none is counted apart.
  regular_404: null,
} as const;
export type OrphanType = keyof typeof ORPHAN_TYPES;

/** Shlink's pagination block; `itemsPerPage` null: every item on one page. */
export function pagination(page: number, itemsPerPage: number | null, totalItems: number, inPage: number) {
  const perPage = itemsPerPage ?? Math.max(totalItems, 1);
  return {
    currentPage: page,
    pagesCount: itemsPerPage === null ? 1 : Math.ceil(totalItems / perPage),
    itemsPerPage: perPage,
    itemsInCurrentPage: inPage,
    totalItems,
  };
}

/** A domain's not-found redirects: the model redirects a root and an unknown name, no other 404. */
export function notFoundRedirects(domain: { rootUrl: string | null; notFoundUrl: string | null }) {
  return {
    baseUrlRedirect: domain.rootUrl,
    regular404Redirect: null,
    invalidShortUrlRedirect: domain.notFoundUrl,
  };
}
