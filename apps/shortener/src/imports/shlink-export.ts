// Shlink's exports. JSON: its REST API v3's GET /rest/v3/short-urls answer
// ({ shortUrls: { data: [shortUrl…], pagination } }), one page or a list of pages; a short URL
// may carry its visits under `visits`, as GET /rest/v3/short-urls/{shortCode}/visits answers
// them ({ visits: { data } }, or the data list alone): those are imported one by one, as
// Shlink's own importer does; without them, visitsSummary.total is imported as history.
// CSV: shlink-web-client's "Export" of the short URLs list (createdAt, domain, shortCode,
// shortUrl, longUrl, title, tags "a|b", visits).
import { readFile } from "node:fs/promises";
import { csvRecords } from "./csv-rows.ts";
import {
  normalizeHeader,
  parseDate,
  type SourceLine,
  type SourceVisit,
  sourceLink,
  splitTags,
} from "./source-link.ts";

type Json = Record<string, unknown>;

/** The visit log's column. */
const MAX_VISITED_URL = 2048;
const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

function shortUrlsOf(document: unknown): Json[] {
  if (Array.isArray(document))
    return document.flatMap((item) => (isObject(item) && "shortUrls" in item ? shortUrlsOf(item) : [item]));
  if (isObject(document) && isObject(document.shortUrls) && Array.isArray(document.shortUrls.data))
    return document.shortUrls.data as Json[];
  throw new Error("not a Shlink export: expected GET /rest/v3/short-urls's { shortUrls: { data: [...] } }");
}

/** A short URL's visits as its /visits endpoint answers them; undefined when it has none with it. */
function visitsOf(shortUrl: Json): unknown[] | undefined {
  const { visits } = shortUrl;
  if (Array.isArray(visits)) return visits;
  if (isObject(visits)) {
    const inner = isObject(visits.visits) ? visits.visits : visits;
    if (Array.isArray(inner.data)) return inner.data;
  }
  return undefined;
}

export async function* parseShlinkJson(path: string): AsyncGenerator<SourceLine> {
  const shortUrls = shortUrlsOf(JSON.parse(await readFile(path, "utf8")));
  for (const [index, shortUrl] of shortUrls.entries()) {
    const place = `item ${index + 1}`;
    if (!isObject(shortUrl)) {
      yield { place, error: "not a short URL object" };
      continue;
    }
    const shortCode = text(shortUrl.shortCode);
    const raw = visitsOf(shortUrl);
    let visits: SourceVisit[] | undefined;
    let problem: string | undefined;
    if (raw !== undefined) {
      visits = [];
      for (const [i, visit] of raw.entries()) {
        const at = isObject(visit) ? parseDate(text(visit.date)) : undefined;
        if (!isObject(visit) || !(at instanceof Date)) {
          problem = `visit ${i + 1}: ${typeof at === "string" ? `date ${at}` : "no date"}`;
          break;
        }
        const visitedUrl = text(visit.visitedUrl);
        visits.push({
          at,
          userAgent: text(visit.userAgent),
          referer: text(visit.referer),
          ipAddress: "",
          ...(visitedUrl ? { visitedUrl: visitedUrl.slice(0, MAX_VISITED_URL) } : {}),
        });
      }
    }
    if (problem !== undefined) {
      yield { place, error: problem };
      continue;
    }
    const summary = isObject(shortUrl.visitsSummary) ? shortUrl.visitsSummary.total : shortUrl.visitsCount;
    yield sourceLink(place, {
      key: shortCode && `${text(shortUrl.domain)}/${shortCode}`,
      name: shortCode || undefined,
      url: text(shortUrl.longUrl),
      title: text(shortUrl.title) || undefined,
      tags: Array.isArray(shortUrl.tags) ? shortUrl.tags.map(text) : [],
      // As the short behaved at Shlink (docs/adr/0268); absent or not a boolean: off.
      forwardQuery: shortUrl.forwardQuery === true,
      crawlable: shortUrl.crawlable === true,
      created: text(shortUrl.dateCreated),
      visitTotal: visits === undefined ? (summary as number | undefined) : undefined,
      visits,
    });
  }
}

export async function* parseShlinkCsv(chunks: AsyncIterable<string>): AsyncGenerator<SourceLine> {
  for await (const { line, record } of csvRecords(chunks, normalizeHeader)) {
    const shortCode = record.shortcode ?? "";
    yield sourceLink(`line ${line}`, {
      key: shortCode && `${record.domain ?? ""}/${shortCode}`,
      name: shortCode || undefined,
      url: record.longurl ?? "",
      title: record.title || undefined,
      tags: splitTags(record.tags, /\|/),
      created: record.createdat ?? record.datecreated,
      visitTotal: record.visits ?? record.visitscount,
    });
  }
}
