// What every export parser yields (one file per source format): a link as its source had it, or
// a line that could not be read, each with where it is in the file for the report.
import { createReadStream } from "node:fs";

/** The sources `pnpm -s shortener import --from` takes. */
export const IMPORT_SOURCES = ["bitly", "kutt", "shlink", "yourls", "csv"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** A visit as a source had it, one by one (Shlink, the YOURLS log). */
export interface SourceVisit {
  at: Date;
  userAgent: string;
  referer: string;
  /** "" when the source has none (Shlink exports none). */
  ipAddress: string;
  /** The URL visited, when the source has it (Shlink's visitedUrl). */
  visitedUrl?: string | undefined;
}

export interface SourceLink {
  /** Where it is: "line 12" (CSV, SQL) or "item 3" (a JSON list). */
  place: string;
  /** What identifies the link at its source (a Bitlink, a Kutt id, a Shlink domain/short code…). */
  key: string;
  /** Its name at the source; none: one is drawn, as POST /shorts does. */
  name?: string | undefined;
  url: string;
  title?: string | undefined;
  tags: string[];
  /** Shlink's forwardQuery and crawlable, when the source gives them; absent: off. */
  forwardQuery?: boolean | undefined;
  crawlable?: boolean | undefined;
  createdAt?: Date | undefined;
  /** The source's visit total, when it does not give the visits one by one. */
  visitTotal?: number | undefined;
  /** The visits one by one, when the source has them (then visitTotal is not used). */
  visits?: SourceVisit[] | undefined;
}

/** A line the parser could not read: failed, with its reason. */
export interface SourceProblem {
  place: string;
  error: string;
}

export type SourceLine = SourceLink | SourceProblem;

export const isProblem = (line: SourceLine): line is SourceProblem => "error" in line;

/** A file's text, streamed in chunks (the BOM of an export made on Windows dropped). */
export async function* fileChunks(path: string): AsyncGenerator<string> {
  let first = true;
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    yield first && text.startsWith("\uFEFF") ? text.slice(1) : text;
    first = false;
  }
}

/** The first characters of a file, to tell its format (JSON, CSV, SQL). */
export async function fileStart(path: string): Promise<string> {
  for await (const chunk of fileChunks(path)) return chunk.slice(0, 4096).trimStart();
  return "";
}

/** A header as the parsers match it: lower case, letters and digits only ("Long URL" → "longurl"). */
export const normalizeHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * A date as exports write it: ISO 8601 (an offset or Z; none is UTC), "YYYY-MM-DD HH:MM:SS" (UTC,
 * as YOURLS and SQL dumps have it), or Unix seconds. Undefined for "" ; an Error message when unreadable.
 */
export function parseDate(text: string | undefined | null): Date | undefined | string {
  const value = (text ?? "").trim();
  if (value === "") return undefined;
  let date: Date;
  if (/^\d{9,11}$/.test(value)) date = new Date(Number(value) * 1000);
  else {
    const iso = value.replace(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/, "$1T$2Z");
    date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  }
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999)
    return `"${value}" is not a date`;
  return date;
}

/** A visit total: a whole number ≥ 0; "" is none. */
export function parseCount(text: string | number | undefined | null): number | undefined | string {
  if (text === undefined || text === null || text === "") return undefined;
  const value = typeof text === "number" ? text : Number(String(text).trim());
  if (!Number.isSafeInteger(value) || value < 0) return `"${text}" is not a visit count`;
  return value;
}

/**
 * A link from its fields, or the problem with them: `created` and `visits` as the source wrote
 * them (checked here), the rest as they are.
 */
export function sourceLink(
  place: string,
  fields: Omit<SourceLink, "place" | "createdAt" | "visitTotal"> & {
    created?: string | undefined | null;
    visitTotal?: string | number | undefined | null;
  },
): SourceLine {
  const { created, visitTotal, ...rest } = fields;
  if (rest.url === "") return { place, error: "no target URL" };
  if (rest.key === "") return { place, error: "no name or key to know the link by" };
  const createdAt = parseDate(created);
  if (typeof createdAt === "string") return { place, error: `created date ${createdAt}` };
  const total = parseCount(visitTotal);
  if (typeof total === "string") return { place, error: total };
  return { ...rest, place, createdAt, visitTotal: total };
}

/** Tags as a source lists them in one field ("a|b", "a, b"): each trimmed, none empty. */
export const splitTags = (text: string | undefined, separator: RegExp = /[|,]/) =>
  (text ?? "")
    .split(separator)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
