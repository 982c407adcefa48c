// Building blocks shared by the scheduling resources' schemas. Every value a client sends
// is bounded to what PostgreSQL stores, so bad input is a 400 here and never a 500 there.
import { z } from "zod";
import { decimalRange, HTTP_URL, isUri } from "../patterns.ts";
import { queryInteger } from "../query.ts";
import { TIME_ZONES } from "../time-zones.ts";

/** Largest PostgreSQL `integer`: ids and counts above it cannot exist. */
export const INT4_MAX = 2_147_483_647;

/**
 * The UTF-16 code units of a string PostgreSQL stores as sent: no NUL (text and jsonb cannot
 * hold U+0000) and no lone surrogate, a `\ud800`-`\udfff` escape without its pair (UTF-8 cannot
 * encode one: jsonb refuses it, a text column would get U+FFFD in its place). Unrolled, so
 * it runs in linear time; read with or without the `u` flag it admits the same strings.
 */
const STORABLE_UNITS = String.raw`[^\u0000\ud800-\udfff]*(?:[\ud800-\udbff][\udc00-\udfff][^\u0000\ud800-\udfff]*)*`;
const STORABLE = new RegExp(`^${STORABLE_UNITS}$`);
/**
 * Also not empty nor only blanks (what String.prototype.trim removes is exactly `\s`), checked
 * ahead so it stays linear (`x*[^\s]x*` backtracks quadratically on a long value ending in NUL).
 */
const STORABLE_NOT_BLANK = new RegExp(String.raw`^(?!\s*$)${STORABLE_UNITS}$`);

const isStorable = (value: string) => STORABLE.test(value);
const UNSTORABLE = "NUL characters or lone UTF-16 surrogates";
const STORABLE_MESSAGE = `must not contain ${UNSTORABLE}`;
/** What a field describing itself says of the strings it takes. */
export const STORABLE_RULE = `no ${UNSTORABLE}`;

/** Any string PostgreSQL can store (a `pattern` in the document). */
export const text = () => z.string().regex(STORABLE, STORABLE_MESSAGE);

/**
 * A name, title or label: not empty nor blank, storable, at most `max` characters as sent;
 * stored with surrounding blanks removed.
 */
export const label = (max = 255) =>
  z
    .string()
    .min(1, { error: "must not be empty", abort: true })
    .max(max)
    .regex(STORABLE_NOT_BLANK, `must not be blank or contain ${UNSTORABLE}`)
    .trim();

/** The id of a row another field points at (bookingId, scheduleId, ...). */
export const rowId = () => z.int().min(1).max(INT4_MAX);

export const count = () => z.int().min(0).max(INT4_MAX);

/** What a time zone field takes; a field describing itself otherwise repeats this. */
export const TIME_ZONE_RULE =
  "an IANA time zone name such as Europe/London or UTC: a name of the tz database, letter case as written there (the TimeZone enum lists them)";

/**
 * One schema for every time zone field: an enum of the shipped list (`time-zones.ts`), so the
 * document states exactly what the server takes on every Node version. One instance, named
 * `TimeZone` in the document, so the 597 names are written there once.
 */
const TimeZone = z
  .enum(TIME_ZONES, {
    error: "must be an IANA time zone such as Europe/London (letter case as in the tz database)",
  })
  .meta({ id: "TimeZone", description: `${TIME_ZONE_RULE[0]!.toUpperCase()}${TIME_ZONE_RULE.slice(1)}` });

export const timeZone = () => TimeZone;

/** Years Prisma can write to PostgreSQL (0 and 10000 are refused); no calendar needs others. */
const inCommonEra = (date: Date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999;
const COMMON_ERA = "must fall in the years 1 to 9999 (UTC)";

/** An instant: ISO 8601 date-time with `Z` or an offset, parsed into a Date. */
export const dateTime = () =>
  z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .refine(inCommonEra, COMMON_ERA)
    .describe("ISO 8601 date-time with Z or an offset, e.g. 2026-05-04T09:00:00Z; years 1 to 9999");

/** A calendar day: `YYYY-MM-DD`, or a date-time whose UTC day is taken. */
export const calendarDate = () =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
    .refine(inCommonEra, COMMON_ERA)
    .describe("YYYY-MM-DD or an ISO 8601 date-time; years 1 to 9999");

/**
 * A time of day, stored as a PostgreSQL `time` (v1 sent these as ISO date-times on
 * 1970-01-01). `HH:mm` and `HH:mm:ss` are accepted too; times are UTC, as in v1.
 */
export const timeOfDay = () =>
  z
    .union([z.iso.time(), z.iso.datetime({ offset: true })])
    .transform((value) => {
      const at = value.includes("T") ? new Date(value) : new Date(`1970-01-01T${value}Z`);
      return new Date(Date.UTC(1970, 0, 1, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()));
    })
    .describe("HH:mm, HH:mm:ss or an ISO 8601 date-time whose UTC time of day is taken");

/** Every e-mail field: the schema both services share (RFC 5321's lengths, RFC 1035's labels). */
export { email } from "../email.ts";

/**
 * An http(s) link clients open. The pattern is checked on the value as sent (before the URL
 * parser, which would trim blanks), so the server refuses exactly what the document's pattern
 * refuses, and then the URL parser the rest.
 */
export const httpUrl = () =>
  z
    .string()
    .max(2048)
    .regex(HTTP_URL, "must be an http(s) URL without spaces or control characters")
    .refine(isUri, "must be a URI (RFC 3986): ASCII only, e.g. percent-encoded")
    .pipe(z.url({ protocol: /^https?$/ }))
    .meta({ format: "uri" });

/**
 * Letters and digits a slug keeps: ASCII ones, and the two characters lower-cased into one (İ → i,
 * K → k); no NUL. The letter is looked for ahead, so the pattern runs in linear time (as
 * `x*[letter]x*` it took seconds on a 100,000-character value ending in NUL). Anything else, a
 * lone surrogate too, is folded into a dash.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused.
const SLUGGABLE = /^(?=[^\u0000]*[0-9A-Za-z\u0130\u212A])[^\u0000]*$/;

/** What a slug field takes; a field describing itself otherwise repeats this. */
export const SLUG_RULE =
  "lower-cased; characters other than a-z and 0-9 become dashes; needs a letter or a digit";

/** v1 slugs: lower-case letters, digits and dashes; anything else is folded into a dash. */
export const slug = () =>
  z
    .string()
    .max(255)
    .regex(SLUGGABLE, "must contain a letter or a digit (and no NUL characters)")
    .transform((value) =>
      value
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, ""),
    )
    .pipe(z.string().min(1, "must contain a letter or a digit"))
    .describe(`${SLUG_RULE[0]!.toUpperCase()}${SLUG_RULE.slice(1)}`);

/** Bounds of free-form JSON (metadata, locations, booking fields): documented in the OpenAPI. */
export const JSON_LIMITS = { depth: 32, values: 10_000, characters: 65_536 };

/**
 * What is wrong with a free-form JSON value, or null. Walks it with an explicit stack, so no
 * nesting a body can send exhausts the call stack; a string or key PostgreSQL cannot store
 * (a NUL, a lone surrogate) is refused anywhere, as jsonb would refuse it.
 */
function jsonProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (++values > JSON_LIMITS.values) return `must hold at most ${JSON_LIMITS.values} values`;
    if (depth > JSON_LIMITS.depth) return `must nest at most ${JSON_LIMITS.depth} levels deep`;
    if (typeof item === "string") {
      if (!isStorable(item)) return STORABLE_MESSAGE;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push([child, depth + 1]);
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (!isStorable(key)) return STORABLE_MESSAGE;
        stack.push([child, depth + 1]);
      }
    }
  }
  // Safe to serialize now that depth and count are bounded.
  if (JSON.stringify(value).length > JSON_LIMITS.characters) {
    return `must be at most ${JSON_LIMITS.characters} characters of JSON`;
  }
  return null;
}

const boundedJson = (_value: unknown, ctx: z.RefinementCtx) => {
  const problem = jsonProblem(_value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
};

// The last rule is the JSON parser's (prototype poisoning: such a body is refused as invalid JSON).
const JSON_DESCRIPTION =
  `Free-form JSON: at most ${JSON_LIMITS.depth} levels deep, ${JSON_LIMITS.values} values and ` +
  `${JSON_LIMITS.characters} characters; ${STORABLE_RULE}; no \`__proto__\` key, nor a \`constructor\` ` +
  "key holding `prototype`, at any depth";

/** Free-form JSON stored in a jsonb column. */
export const jsonValue = () => z.unknown().superRefine(boundedJson).describe(JSON_DESCRIPTION);

export const jsonObject = () =>
  z.record(z.string(), z.unknown()).superRefine(boundedJson).describe(JSON_DESCRIPTION);

// ── query strings ──

/** Every query may carry the key (auth), hosted mode's license key and the /v1 rewrite's marker; nothing else unasked. */
export const baseQuery = {
  apiKey: z.string().optional().describe("Your API key (also accepted by the security scheme)"),
  key: z
    .string()
    .optional()
    .describe(
      "Hosted mode (experimental, when the server enables it): your license key; the request then " +
        "runs on your own database and `apiKey` is checked there. Refused (400) when hosted mode is off.",
    ),
  version: z.string().optional().describe("Set by the /v1 rewrite"),
};

export const itemQuery = z.strictObject(baseQuery);

// The Idempotency-Key header is both services' (POST /bookings takes it here).
export { IDEMPOTENCY_WINDOW_HOURS, IdempotencyHeaders } from "../idempotency.ts";

export const MAX_TAKE = 100;

/**
 * A number read from a path's or a query's text, documented as the integer it is: `type:
 * integer` with its bounds, so a typed client passes the number an answer carried. The pattern
 * stays beside them: it is the text the server takes (no sign, no leading zeros: ADR 0114).
 * docs/adr/0250.
 */
const documentedAsInteger = <T extends z.ZodType>(schema: T, min: number, max: number) =>
  schema.meta({ type: "integer", minimum: min, maximum: max });

/** A row's id in a query (`userId`, `teamId`, `eventTypeId`): 1 to 2147483647. */
export const queryId = () => documentedAsInteger(queryInteger(1, INT4_MAX), 1, INT4_MAX);

/** `?key=1` or `?key=1&key=2`: always an array after parsing. */
export const repeatable = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item).min(1)]).transform((value) => (Array.isArray(value) ? value : [value]));

export const pagination = (defaultTake: number) => ({
  page: queryInteger(1, 1_000_000).default(1).describe("1-based page number"),
  take: queryInteger(1, MAX_TAKE).default(defaultTake).describe(`Rows per page, at most ${MAX_TAKE}`),
});

/** Admin-only filter (a non-admin may name only themself): rows belonging to these users. */
export const userIdFilter = repeatable(queryId()).optional().describe("Repeatable; admins only");

/** The list query of a resource: pagination, the admin `userId` filter and its own filters. */
export const listQuery = <T extends z.ZodRawShape>(filters: T) =>
  z.strictObject({ ...baseQuery, ...pagination(MAX_TAKE), userId: userIdFilter, ...filters });

// ── ids in paths ──

/** An integer id: 1 to 2147483647 in decimal digits (no sign, no leading zeros). */
export const INT_ID_RANGE = decimalRange(1, INT4_MAX);

export const intIdParams = z.object({
  id: documentedAsInteger(
    z
      .string()
      .regex(new RegExp(`^${INT_ID_RANGE}$`), `must be a whole number from 1 to ${INT4_MAX}`)
      .transform(Number)
      .describe(`Integer id, 1 to ${INT4_MAX} (decimal digits, no sign or leading zeros)`),
    1,
    INT4_MAX,
  ),
});

// ── responses ──

export const ErrorResponse = z
  .object({
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({
    id: "ApiError",
    description: "Every error: a message; validation failures also list each issue",
  });

export const MessageResponse = z.object({ message: z.string() }).meta({ id: "ApiMessage" });
