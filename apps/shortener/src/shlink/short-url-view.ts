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
  /** UTC, as PostgreSQL writes a timestamp: "2026-01-02 03:04:05.678" (fraction optional). */
  createdAt: string;
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
/** ATOM of a UTC timestamp as PostgreSQL writes it ("2026-01-02 03:04:05.678"). */
const atomOfText = (utc: string) => `${utc.slice(0, 10)}T${utc.slice(11, 19)}+00:00`;
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

/**
 * JSON written into one Buffer as it goes: a list of thousands of items is encoded once, as the
 * bytes it is sent as, without a string per item or the joined one (docs/adr/0286).
 */
class JsonBytes {
  private buffer: Buffer;
  private length = 0;

  /** `expected`: about how many bytes it will hold (grown by doubling past it). */
  constructor(expected: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(expected, 1024));
  }

  /** Text that is already JSON. */
  raw(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.length + text.length * 3 > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + text.length * 3));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length);
  }

  /** A string as a JSON string (or null); most need no escape and are copied as they are. */
  string(value: string | null): void {
    if (value === null) this.raw("null");
    else if (PLAIN.test(value)) {
      this.raw('"');
      this.raw(value);
      this.raw('"');
    } else this.raw(JSON.stringify(value));
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
// What JSON.stringify would copy as it is: printable ASCII but the quote and the backslash
// (control characters, non-ASCII and lone surrogates go through it, which escapes those).
const PLAIN = /^[ !#-[\]-~]*$/;

/**
 * Shlink's visits block (`VisitList` in the /rest document) as JSON bytes: each visit as
 * `Visit` (the model keeps its country only), `orphanType` when the list is of orphan visits,
 * then the pagination block. The document still describes the answer (the tests check every
 * one against it); it is written here rather than by the response schema's serializer, which
 * cost several times as much on a page of 5,000 (docs/adr/0286).
 */
export function visitListJson<R extends VisitRow>(
  rows: readonly R[],
  page: ReturnType<typeof pagination>,
  orphanType?: (row: R) => OrphanType,
): Buffer {
  // A visit is 300-500 bytes, most of it the user agent and the URLs.
  const json = new JsonBytes(rows.length * 512 + 256);
  json.raw('{"visits":{"data":[');
  rows.forEach((row, i) => {
    json.raw(i === 0 ? '{"referer":' : ',{"referer":');
    json.string(row.referer);
    json.raw(`,"date":"${atomOfText(row.createdAt)}","userAgent":`);
    json.string(row.userAgent);
    json.raw(`,"visitLocation":${locationJson(row.country)},"potentialBot":${row.isBot},"visitedUrl":`);
    json.string(row.visitedUrl);
    json.raw(',"redirectUrl":');
    json.string(row.redirectUrl);
    json.raw(orphanType ? `,"type":"${orphanType(row)}"}` : "}");
  });
  json.raw(`],"pagination":${JSON.stringify(page)}}}`);
  return json.bytes();
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
