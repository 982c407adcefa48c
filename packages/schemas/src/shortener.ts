// The URL shortener's wire contract (seed 000 + DESIGN §3): one zod schema per concept,
// used for validation, TypeScript types, the OpenAPI document and the tests.
import { z } from "zod";
import { parseIpPattern } from "./ip-patterns.ts";

export { type IpPattern, ipv4Octets, parseIpPattern } from "./ip-patterns.ts";

import { HTTP_URL, isUri, NO_NUL } from "./patterns.ts";
import { queryInteger } from "./query.ts";
import type { DeclaredRefusal } from "./refusals.ts";
import { TIME_ZONES } from "./time-zones.ts";

export const SHORT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_URL_LENGTH = 2048;

// C0 controls, DEL and whitespace have no business in a target URL; NUL would also be
// refused by PostgreSQL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN_URL_CHARS = /[\u0000-\u0020\u007f]/;

function parseHttpUrl(value: string): URL | undefined {
  if (FORBIDDEN_URL_CHARS.test(value)) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : undefined;
  } catch {
    return undefined;
  }
}

const NOT_HTTP_URL = "url must be an absolute http(s) URL";

/**
 * What RFC 3986 refuses in a path, query or fragment, and the URL parser leaves there: `[ ] | ^`,
 * `{ }` and a backtick in a query, a `%` that starts no escape.
 */
const NOT_URI_CHAR = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]|%(?![0-9A-Fa-f]{2})/g;

/** The parsed URL as a URI: what follows its host percent-encodes what a URI may not hold there. */
function asUri(url: URL): string {
  const href = url.href;
  // An http(s) href always has a path after its host, and neither userinfo nor host holds a "/".
  const tailAt = href.indexOf("/", url.protocol.length + 2);
  const [beforeFragment, ...fragment] = href.slice(tailAt).split("#");
  const encode = (part: string) => part.replace(NOT_URI_CHAR, (char) => encodeURIComponent(char));
  // Only the first "#" starts the fragment; one inside it is a character like any other.
  const tail = [encode(beforeFragment!), ...(fragment.length ? [encode(fragment.join("%23"))] : [])];
  return href.slice(0, tailAt) + tail.join("#");
}

export const TargetUrl = z
  .string()
  .max(MAX_URL_LENGTH, `url must be at most ${MAX_URL_LENGTH} characters`)
  // The document's pattern: http:// or https:// (any case), no space, control character or DEL.
  .regex(HTTP_URL, { error: NOT_HTTP_URL, abort: true })
  .refine((value) => parseHttpUrl(value) !== undefined, NOT_HTTP_URL)
  // Stored and redirected to in its normalized form: an IDN host becomes punycode, and
  // non-ASCII characters and those a URI refuses after the host are percent-encoded, so the
  // Location header is always valid.
  .transform((value) => asUri(parseHttpUrl(value)!))
  .refine((href) => href.length <= MAX_URL_LENGTH, `url must be at most ${MAX_URL_LENGTH} characters`)
  // What the parser let through must still be a URI once normalized: `HtTPs://;S}êwr` would
  // otherwise be stored as `https://xn--;s}wr-jsa/`, a Location no client can follow.
  .refine(isUri, NOT_HTTP_URL)
  .describe(
    "Absolute http(s) URL (or IRI: an internationalized host or path is stored as its URI, punycode " +
      "and percent-encoded) the short redirects to, at most 2048 characters, without spaces or control " +
      "characters. Characters a URI does not allow after the host (such as `[ ] | ^ { }`, or a `%` " +
      "that starts no escape) are stored percent-encoded. Refused too: a value whose normalized form " +
      "is not a URI (RFC 3986), such as a malformed host, a rule no JSON Schema keyword states.",
  )
  .meta({ example: "https://example.com/some/long/path?with=query" });

export const ShortName = z
  .string()
  .regex(SHORT_NAME_PATTERN, "name must be 1-64 characters of A-Z, a-z, 0-9, _ and -")
  .describe("Name of the short: its path on the short's domain. Case-sensitive, unique per domain.")
  .meta({ example: "my-link" });

/** A name's most characters (SHORT_NAME_PATTERN's). */
export const SHORT_NAME_MAX = 64;

export const NAME_PREFIX_LENGTH = `namePrefix and the name after it make at most ${SHORT_NAME_MAX} characters`;

/** Shlink's pathPrefix: the start of a name, given or generated (one path segment here). */
export const ShortNamePrefix = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,63}$/, "namePrefix must be 1-63 characters of A-Z, a-z, 0-9, _ and -")
  .describe(
    "Optional; put before the name, given or generated (Shlink's pathPrefix): namePrefix promo- and " +
      `name summer make the name promo-summer. With the name, at most ${SHORT_NAME_MAX} characters`,
  )
  .meta({ example: "promo-" });

/**
 * A host name as DNS has it: labels of letters, digits and hyphens (neither first nor last), at
 * most 63 characters each, joined by dots; no port. Any letter case (kept in lower case).
 */
export const DOMAIN_HOST_PATTERN =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const NOT_A_HOST = "domain must be a host name such as links.example.com, without a port";

/** A domain as a client names it: a host name, any letter case, no port (docs/adr/0219). */
export const DomainHost = z
  .string()
  .min(1, NOT_A_HOST)
  .max(253, NOT_A_HOST)
  .regex(DOMAIN_HOST_PATTERN, NOT_A_HOST)
  .transform((host) => host.toLowerCase())
  .describe("A domain's host name (any letter case, no port), as GET /domains lists it")
  .meta({ example: "links.example.com" });

export const TAG_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const MAX_TAGS = 10;

/** A tag as sent; kept in lower case (docs/adr/0154). */
export const Tag = z
  .string()
  .regex(TAG_PATTERN, "a tag must be 1-32 characters of A-Z, a-z, 0-9, _ and -")
  .transform((tag) => tag.toLowerCase())
  .describe("A tag: 1-32 characters of A-Z, a-z, 0-9, _ and -; stored in lower case")
  .meta({ example: "launch" });

export const Tags = z
  .array(Tag)
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  // Case-insensitive: "Blog" and "blog" are one tag, kept once, where it first appears.
  .transform((tags) => [...new Set(tags)])
  .describe(
    `Up to ${MAX_TAGS} tags. Stored in lower case, each once (a repeat, in any letter case, is ` +
      "dropped), in the order sent.",
  )
  .meta({ example: ["launch", "blog"] });

// A short's lifecycle (docs/adr/0171-0174): a validity window, a visit limit, the page shown
// once either is over, and a password.

/** The largest visit limit: PostgreSQL's integer. */
export const MAX_VISITS_LIMIT = 2_147_483_647;
export const PASSWORD_LENGTH = { min: 1, max: 128 } as const;

/** Whether an ISO date-time falls in UTC years 1-9999 (an offset can move it out of the text's year). */
const inStorableYears = (value: string) => {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
};

/** `example`: each field its own, so that a body built from the examples is a window that opens before it closes. */
const LifecycleInstant = (description: string, example: string) =>
  z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2027-01-31T12:00:00Z" })
    .refine(inStorableYears, "must fall in the years 1-9999 (UTC)")
    .describe(`${description} (ISO 8601 date-time in the years 1-9999 UTC, kept to the millisecond)`)
    .meta({ example });

export const ValidFrom = LifecycleInstant(
  "The short redirects to its target from this instant on; before it, as once expired",
  "2027-01-01T09:00:00Z",
);
export const ValidUntil = LifecycleInstant(
  "The short redirects to its target until this instant (exclusive); from it on, it is expired",
  "2027-01-31T12:00:00Z",
);
export const MaxVisits = z
  .int("maxVisits must be a whole number from 1")
  .min(1, "maxVisits must be a whole number from 1")
  .max(MAX_VISITS_LIMIT, `maxVisits must be at most ${MAX_VISITS_LIMIT}`)
  .describe(
    "At most this many visits are redirected to the target and stored (every visit counts, bots " +
      "included, since the short was created); past it, the short is expired. Exact across instances.",
  )
  .meta({ example: 100 });
export const ExpiredUrl = TargetUrl.describe(
  "Where the short redirects (302, no visit stored) outside its window or past its visit limit; " +
    "without it, the short answers 404 then. Same rules as url.",
).meta({ example: "https://example.com/offer-ended" });
export const ShortPassword = z
  .string()
  .min(PASSWORD_LENGTH.min, "password must not be empty")
  .max(PASSWORD_LENGTH.max, `password must be at most ${PASSWORD_LENGTH.max} characters`)
  .regex(NO_NUL, "password must not contain NUL")
  .describe(
    `A password visitors must enter (${PASSWORD_LENGTH.min}-${PASSWORD_LENGTH.max} characters): the short ` +
      "then answers a form, and redirects once it is posted with the right one. Stored only as a " +
      "salted scrypt hash, never returned.",
  )
  .meta({ example: "correct horse" });

/** What the password form of a protected short posts back (docs/adr/0173). */
export const PasswordForm = z
  .object({
    password: z
      .string()
      .max(1024, "password must be at most 1024 characters")
      .optional()
      .describe("The password the visitor entered"),
    referer: z
      .string()
      .max(2048, "referer must be at most 2048 characters")
      .optional()
      .describe("The Referer the form was opened with (a hidden field): the visit keeps it"),
  })
  .describe(
    "The form's fields, as the browser posts them (application/x-www-form-urlencoded) or as JSON; " +
      "other fields are ignored",
  )
  .meta({ id: "PasswordForm" });
export type PasswordForm = z.infer<typeof PasswordForm>;

const WINDOW_ORDER = "validUntil must be later than validFrom";

/** validFrom before validUntil, when a short has both. */
export const windowIsOrdered = (
  from: Date | string | null | undefined,
  until: Date | string | null | undefined,
) => from == null || until == null || new Date(from).getTime() < new Date(until).getTime();

/** A lifecycle field's description, without its final period, then `more`. */
const describedAs = (schema: z.ZodType, more: string) =>
  `${(schema.description ?? "").replace(/\.$/, "")}. ${more}`;

/** A create's lifecycle field: optional, saying what omitting it means. */
const optional = <T extends z.ZodType>(schema: T, omitted: string) =>
  schema.optional().describe(describedAs(schema, `Optional; omitted: ${omitted}.`));

/** An edit's lifecycle field: a new value, null to clear it, absent to keep it. */
const clearable = <T extends z.ZodType>(schema: T, cleared: string) =>
  schema
    .nullable()
    .optional()
    .describe(describedAs(schema, `null ${cleared}.`));

// Redirect rules (docs/adr/0232): an ordered list of conditions and targets, the first rule
// whose conditions all hold picks the target.

export const MAX_REDIRECT_RULES = 10;
export const MAX_RULE_CONDITIONS = 10;
/** Shlink 5.1's eight device values (docs/adr/0269). */
export const REDIRECT_DEVICES = [
  "ios",
  "android",
  "desktop",
  "mobile",
  "windows",
  "macos",
  "linux",
  "chromeos",
] as const;
/** Shlink 5.1's browser values. */
export const REDIRECT_BROWSERS = ["chrome", "firefox", "edge", "safari", "opera", "android_browser"] as const;
/**
 * Why a geolocation-city-name condition is refused: no city database comes with the service
 * (docs/shortener.md, docs/adr/0269).
 */
export const CITY_CONDITION_REFUSED =
  "geolocation-city-name is not supported: the service ships a country database only (a free city " +
  "database would add some 64 MB to every install); use country";
/** A language range as Accept-Language names one: a primary subtag and optional subtags (BCP 47). */
export const LANGUAGE_TAG_PATTERN = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
/**
 * A query parameter's name or value PostgreSQL can store in jsonb: no NUL, no lone UTF-16
 * surrogate (unrolled, so it runs in linear time).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused.
const QUERY_TEXT = /^[^\u0000\ud800-\udfff]*(?:[\ud800-\udbff][\udc00-\udfff][^\u0000\ud800-\udfff]*)*$/;
const MAX_QUERY_TEXT = 256;

const QueryParam = z
  .string()
  .min(1, "param must not be empty")
  .max(MAX_QUERY_TEXT, `param must be at most ${MAX_QUERY_TEXT} characters`)
  .regex(QUERY_TEXT, "param must not contain NUL characters or lone UTF-16 surrogates");

const IP_PATTERN_ERROR =
  "ip-address must be an IP address, a CIDR block (192.168.10.0/24) or an IPv4 wildcard pattern (11.22.*.*)";

/** A date-time with its offset, or a date (UTC midnight), in the years 1-9999. */
const RULE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const RULE_INSTANT_ERROR =
  "must be an ISO 8601 date-time with offset (2026-12-31T23:00:00Z) or a date (2026-12-31)";
const RuleInstant = z
  .string()
  .max(40, RULE_INSTANT_ERROR)
  .refine((value) => ruleInstant(value) !== undefined, RULE_INSTANT_ERROR);

/** A before-date or after-date value as epoch milliseconds; undefined when it is not one. */
export function ruleInstant(value: string): number | undefined {
  const valid = RULE_DATE.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success;
  if (!valid) return undefined;
  const time = Date.parse(RULE_DATE.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) return undefined;
  const year = new Date(time).getUTCFullYear();
  // A date the calendar has not (2026-02-30) reads as another day: refused.
  if (RULE_DATE.test(value) && new Date(time).toISOString().slice(0, 10) !== value) return undefined;
  return year >= 1 && year <= 9999 ? time : undefined;
}

export const CONDITION_TYPES = [
  "device",
  "language",
  "country",
  "query",
  "any-value-query-param",
  "valueless-query-param",
  "ip-address",
  "before-date",
  "after-date",
  "browser",
] as const;

export const RedirectCondition = z
  .discriminatedUnion(
    "type",
    [
      z
        .strictObject({
          type: z.literal("device"),
          value: z.enum(REDIRECT_DEVICES, {
            error: `device must be one of ${REDIRECT_DEVICES.join(", ")}`,
          }),
        })
        .describe(
          "The visitor's device, from its User-Agent: ios (iPhone, iPad, iPod), android, mobile (a " +
            "phone or tablet of any system, iOS and Android included), desktop (neither, and not a " +
            "bot), or the desktop's system: windows, macos, linux (Linux and its distributions, not " +
            "Android) or chromeos. iPadOS Safari's default user agent is a Mac's: it counts as desktop and macos.",
        ),
      z
        .strictObject({
          type: z.literal("language"),
          value: z
            .string()
            .max(35, "language must be a BCP 47 language tag such as de or pt-BR")
            .regex(LANGUAGE_TAG_PATTERN, "language must be a BCP 47 language tag such as de or pt-BR"),
        })
        .describe(
          "The visitor's preferred language (Accept-Language, by q-value, then order; q=0 is not acceptable " +
            "and * matches nothing): of the languages the short's rules name, the first the header " +
            "prefers is the visitor's, and this condition holds when it names that one. A tag matches " +
            "itself and its subtags, in any letter case: de matches de, de-CH and de-AT; de-CH only de-CH.",
        ),
      z
        .strictObject({
          type: z.literal("country"),
          value: z
            .string()
            .regex(
              COUNTRY_CODE_PATTERN,
              "country must be an ISO 3166-1 alpha-2 code in upper case, such as DE",
            ),
        })
        .describe(
          "The country of the visitor's address (ISO 3166-1 alpha-2, upper case), from the geo " +
            "database the visit statistics use; an unknown or private address matches none",
        ),
      z
        .strictObject({
          type: z.literal("query"),
          param: z
            .string()
            .min(1, "param must not be empty")
            .max(MAX_QUERY_TEXT, `param must be at most ${MAX_QUERY_TEXT} characters`)
            .regex(QUERY_TEXT, "param must not contain NUL characters or lone UTF-16 surrogates"),
          value: z
            .string()
            .max(MAX_QUERY_TEXT, `value must be at most ${MAX_QUERY_TEXT} characters`)
            .regex(QUERY_TEXT, "value must not contain NUL characters or lone UTF-16 surrogates"),
        })
        .describe(
          "The request's query parameter `param` has exactly `value` (any of its values when repeated; " +
            "compared as decoded, letter case included). Shlink's query-param",
        ),
      z
        .strictObject({ type: z.literal("any-value-query-param"), param: QueryParam })
        .describe("The request's query has the parameter `param`, with any value or none"),
      z
        .strictObject({ type: z.literal("valueless-query-param"), param: QueryParam })
        .describe("The request's query has the parameter `param` without a value (`?param` or `?param=`)"),
      z
        .strictObject({
          type: z.literal("ip-address"),
          value: z
            .string()
            .max(64, IP_PATTERN_ERROR)
            .refine((value) => parseIpPattern(value) !== undefined, IP_PATTERN_ERROR),
        })
        .describe(
          "The visitor's full address (before VISIT_IP cuts it for the row) is this address, lies in this " +
            "CIDR block (192.168.10.0/24, 2001:db8::/32), or matches this IPv4 wildcard pattern, each `*` " +
            "standing for any octet (11.22.*.*)",
        ),
      z
        .strictObject({
          type: z.literal("before-date"),
          value: RuleInstant.describe("The visit is before this instant"),
        })
        .describe(
          "The visit happens before `value` (an ISO 8601 date-time with offset, or a date: UTC midnight)",
        ),
      z
        .strictObject({
          type: z.literal("after-date"),
          value: RuleInstant.describe("The visit is after this instant"),
        })
        .describe(
          "The visit happens after `value` (an ISO 8601 date-time with offset, or a date: UTC midnight)",
        ),
      z
        .strictObject({
          type: z.literal("browser"),
          value: z.enum(REDIRECT_BROWSERS, {
            error: `browser must be one of ${REDIRECT_BROWSERS.join(", ")}`,
          }),
        })
        .describe(
          "The visitor's browser, from its User-Agent: chrome (Chrome and Chromium, desktop and mobile), " +
            "firefox, edge, safari (desktop and mobile), opera, android_browser (Android's stock browser)",
        ),
    ],
    {
      // A type the service does not have names the ones it has; the city is refused with its reason.
      error: (issue) =>
        (issue.input as { type?: unknown } | undefined)?.type === "geolocation-city-name"
          ? CITY_CONDITION_REFUSED
          : `type must be one of ${CONDITION_TYPES.join(", ")}`,
    },
  )
  .meta({ id: "RedirectCondition" });
export type RedirectCondition = z.infer<typeof RedirectCondition>;

/** One rule as a client sends it. */
export const RedirectRule = z
  .strictObject({
    url: TargetUrl.describe("Where the rule sends a visitor; same rules as the short's url"),
    conditions: z
      .array(RedirectCondition)
      .min(1, "a rule needs at least one condition")
      .max(MAX_RULE_CONDITIONS, `a rule has at most ${MAX_RULE_CONDITIONS} conditions`)
      .describe(`1-${MAX_RULE_CONDITIONS} conditions, all of which must hold`),
  })
  .meta({ id: "RedirectRule" });
export type RedirectRule = z.infer<typeof RedirectRule>;

export const RedirectRules = z
  .array(RedirectRule)
  .max(MAX_REDIRECT_RULES, `at most ${MAX_REDIRECT_RULES} redirect rules`)
  .describe(
    `Up to ${MAX_REDIRECT_RULES} rules, in order: the first whose conditions all hold sends the ` +
      "visitor to its url; when none does, the short's url. The validity window, the visit limit " +
      "and the password are checked first. Each visit records the rule that sent it (1 is the first).",
  );

/**
 * What a create or an edit of a short refuses beyond the document's schemas, declared in the
 * operations' descriptions (docs/adr/0214).
 */
export const SHORT_REFUSALS: readonly DeclaredRefusal[] = [
  {
    status: 400,
    answer: NOT_HTTP_URL,
    rule:
      "a URL (url, expiredUrl, a redirect rule's url) parses as a WHATWG URL with an http(s) scheme and a host; the pattern " +
      "states the scheme, but a target may be an IRI (non-ASCII), which no format names",
  },
  {
    status: 400,
    answer: `url must be at most ${MAX_URL_LENGTH} characters`,
    rule: `a URL is at most ${MAX_URL_LENGTH} characters also once normalized (an IDN host as punycode, the rest percent-encoded)`,
  },
  {
    status: 400,
    answer: WINDOW_ORDER,
    rule: "validFrom is earlier than validUntil (in an edit, also against the one stored)",
  },
  {
    status: 400,
    answer: "must fall in the years 1-9999 (UTC)",
    rule: "validFrom and validUntil fall in the years 1-9999 once in UTC (an offset can move an instant across a year)",
  },
  {
    status: 400,
    answer: IP_PATTERN_ERROR,
    rule:
      "an ip-address condition's value is an IPv4 or IPv6 address, one with a prefix length in range, or four " +
      "dotted parts each an octet or `*`: a parse the pattern cannot state",
  },
  {
    status: 400,
    answer: RULE_INSTANT_ERROR,
    rule: "a before-date or after-date value is a real date (or date-time with offset) in the years 1-9999",
  },
  {
    status: 400,
    answer: NAME_PREFIX_LENGTH,
    rule:
      "namePrefix and the name after it, given (name) or generated (shortCodeLength, 7 when omitted), make at most " +
      `${SHORT_NAME_MAX} characters: a sum of two fields' lengths, which no schema states`,
  },
  {
    status: 400,
    answer: 'domain "…" is not one you may use',
    rule: "domain is the default domain or one the operator registered and opened to the caller (GET /domains lists them)",
  },
];

export const ForwardQuery = z
  .boolean()
  .describe(
    "The visit's query string is appended to the target (or to the url of the redirect rule that " +
      "sent it): its parameters after the target's own, a parameter the target also has taking " +
      "the visit's value; the target's fragment stays last",
  );
export const Crawlable = z
  .boolean()
  .describe("GET /robots.txt of the short's domain allows crawlers to reach it (Disallow otherwise)");
/** The generated name's length: Shlink's minimum, and the names' own maximum. */
export const SHORT_CODE_LENGTH = { min: 4, max: 64, default: 7 } as const;

export const NewShort = z
  .strictObject({
    url: TargetUrl,
    name: ShortName.optional().describe("Optional; a random 7-character name is generated when omitted"),
    tags: Tags.optional().describe("Optional; none when omitted"),
    validFrom: optional(ValidFrom, "the short redirects from its creation"),
    validUntil: optional(ValidUntil, "the short never expires by date"),
    maxVisits: optional(MaxVisits, "no limit"),
    expiredUrl: optional(ExpiredUrl, "404 once expired"),
    password: optional(ShortPassword, "the short redirects at once"),
    domain: DomainHost.optional().describe(
      "Optional; one of the domains GET /domains lists for the caller. Omitted: the default domain",
    ),
    redirectRules: RedirectRules.optional().describe(
      describedAs(RedirectRules, "Optional; omitted or []: every visitor goes to url."),
    ),
    forwardQuery: ForwardQuery.optional().describe(
      describedAs(ForwardQuery, "Optional; omitted: false (docs/adr/0268)."),
    ),
    crawlable: Crawlable.optional().describe(describedAs(Crawlable, "Optional; omitted: false.")),
    namePrefix: ShortNamePrefix.optional(),
    shortCodeLength: z
      .int(`shortCodeLength must be an integer from ${SHORT_CODE_LENGTH.min} to ${SHORT_CODE_LENGTH.max}`)
      .min(SHORT_CODE_LENGTH.min, `shortCodeLength must be at least ${SHORT_CODE_LENGTH.min}`)
      .max(SHORT_CODE_LENGTH.max, `shortCodeLength must be at most ${SHORT_CODE_LENGTH.max}`)
      .optional()
      .describe(
        `Optional; the length of the generated name, ${SHORT_CODE_LENGTH.min}-${SHORT_CODE_LENGTH.max} ` +
          "(Shlink's minimum is 4); omitted: 7. Ignored when name is given",
      ),
    findIfExists: z
      .boolean()
      .optional()
      .describe(
        "Optional; true: answer the caller's existing short with the same url and, of name (a namePrefix " +
          "alone: a name that starts with it), domain, " +
          "tags (the same set), validFrom, validUntil and maxVisits, the same values wherever this " +
          "request gives them (Shlink's findIfExists), 200 instead of 201; none: a new short is " +
          "created. Omitted: false",
      ),
  })
  .refine((short) => windowIsOrdered(short.validFrom, short.validUntil), {
    error: WINDOW_ORDER,
    path: ["validUntil"],
  })
  .refine(
    (short) =>
      (short.namePrefix?.length ?? 0) +
        (short.name?.length ?? short.shortCodeLength ?? SHORT_CODE_LENGTH.default) <=
      SHORT_NAME_MAX,
    {
      error: NAME_PREFIX_LENGTH,
      path: ["namePrefix"],
    },
  )
  .meta({ id: "NewShort" });
export type NewShort = z.infer<typeof NewShort>;

export const ShortEdit = z
  .strictObject({
    url: TargetUrl.optional().describe("A new target; the redirect follows it at once"),
    name: ShortName.optional().describe(
      "A new name: the short URL changes, and the old name stops redirecting at once (it is free again)",
    ),
    tags: Tags.optional().describe("Replaces every tag of the short; [] removes them all"),
    validFrom: clearable(ValidFrom, "removes the start"),
    validUntil: clearable(ValidUntil, "removes the end"),
    maxVisits: clearable(
      MaxVisits,
      "removes the limit; a limit set later counts every visit stored so far, as a new one does",
    ),
    expiredUrl: clearable(ExpiredUrl, "removes it (404 once expired)"),
    password: clearable(ShortPassword, "removes the password"),
    domain: DomainHost.optional().describe(
      "Moves the short to this domain (one GET /domains lists for the caller): the short URL changes, " +
        "and the old one stops redirecting at once",
    ),
    redirectRules: RedirectRules.nullable()
      .optional()
      .describe(describedAs(RedirectRules, "Replaces the whole list; [] or null removes every rule.")),
    forwardQuery: ForwardQuery.optional(),
    crawlable: Crawlable.optional(),
  })
  .describe(
    "The fields to change; each one left out stays as it is ({} changes nothing). The redirect " +
      "follows every change at once, on every instance.",
  )
  .meta({ id: "ShortEdit" });
export type ShortEdit = z.infer<typeof ShortEdit>;

export const Short = z
  .object({
    id: z.string().describe("Identifier of the short"),
    url: z.string().describe("Target URL"),
    name: z.string().describe("Name of the short"),
    shorturl: z.string().describe("The resulting short URL"),
    createdAt: z.iso.datetime().describe("Creation date"),
    visits: z.int().min(0).describe("Visits stored for this short, bots included"),
    tags: z
      .array(z.string())
      .optional()
      .describe("The short's tags, lower case; absent when it has none (as before tags existed)"),
    // Each lifecycle field is absent when unset: a short without them answers as before they existed.
    validFrom: z.iso.datetime().optional().describe("Start of the validity window; absent when none"),
    validUntil: z.iso
      .datetime()
      .optional()
      .describe("End of the validity window (exclusive); absent when none"),
    maxVisits: z.int().min(1).optional().describe("The visit limit; absent when none"),
    expiredUrl: z
      .string()
      .optional()
      .describe("Where the short redirects once expired; absent when none (404)"),
    hasPassword: z
      .literal(true)
      .optional()
      .describe("Present (true) when visitors must enter a password; the password is never returned"),
    domain: z
      .string()
      .optional()
      .describe("The short's domain; absent on the default domain (as before domains existed)"),
    redirectRules: z
      .array(
        z.object({
          url: z.string().describe("Where the rule sends a visitor"),
          conditions: z.array(RedirectCondition).describe("All of them must hold"),
        }),
      )
      .optional()
      .describe("The short's redirect rules, in order (1 is the first); absent when it has none"),
    title: z
      .string()
      .optional()
      .describe("The link's title where it was imported from (`pnpm -s shortener import`); absent when none"),
    forwardQuery: z
      .literal(true)
      .optional()
      .describe("Present (true) when the visit's query string is appended to the target; absent: off"),
    crawlable: z
      .literal(true)
      .optional()
      .describe("Present (true) when robots.txt lets crawlers reach the short; absent: not"),
  })
  .meta({ id: "Short" });
export type Short = z.infer<typeof Short>;

export const ShortList = z.array(Short).meta({ id: "ShortList" });

export const ShortLog = z
  .object({
    id: z.string().describe("Identifier of the log entry"),
    shortID: z.string().describe("Identifier of the short"),
    ipAddress: z.string().describe("Client IP address"),
    userAgent: z.string().describe('Client User-Agent header ("" when absent)'),
    referer: z.string().describe('Client Referer header ("" when absent)'),
    createdAt: z.iso.datetime().describe("When the visit happened"),
    isBot: z.boolean().describe("The user agent is a known bot or crawler (isbot)"),
    browser: z.string().describe('Browser name from the user agent ("" when unknown)'),
    os: z.string().describe('Operating system from the user agent ("" when unknown)'),
    device: z
      .string()
      .describe('desktop, mobile, tablet, bot, or another ua-parser device type ("" when unknown)'),
    country: z.string().describe('ISO 3166-1 alpha-2 country of the IP address ("" when unknown)'),
    referrerHost: z.string().describe('Host of the Referer header, lower case ("" when none)'),
    rule: z
      .int()
      .min(1)
      .max(MAX_REDIRECT_RULES)
      .optional()
      .describe(
        "The redirect rule that sent the visit (1 is the first, as the rules were then); absent: the short's url",
      ),
    visitedUrl: z
      .string()
      .optional()
      .describe(
        "The URL that was visited, query included; absent for visits stored before it was kept, and imported ones",
      ),
    redirectUrl: z
      .string()
      .optional()
      .describe("Where the visit was sent (the redirect's Location); absent as visitedUrl"),
  })
  .meta({ id: "ShortLog" });
export type ShortLog = z.infer<typeof ShortLog>;

export const ShortLogList = z.array(ShortLog).meta({ id: "ShortLogList" });

export const Domain = z
  .object({
    host: z
      .string()
      .describe(
        "The domain's host name. A short on it has the shorturl <host>/<name>, with SHORT_BASE_URL's scheme",
      ),
    isDefault: z
      .boolean()
      .describe("The default domain (SHORT_BASE_URL's host): where a short lives when created without one"),
  })
  .meta({ id: "Domain" });
export type Domain = z.infer<typeof Domain>;

export const DomainList = z
  .array(Domain)
  .describe("The default domain first, then the others by host")
  .meta({ id: "DomainList" });

export const User = z
  .object({
    id: z.string(),
    username: z.string().describe("The user's e-mail address"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "User" });
export type User = z.infer<typeof User>;

export const ErrorBody = z
  .object({
    status: z.string().describe('HTTP reason phrase, e.g. "Bad Request"'),
    error: z.string().describe("What went wrong, for a person"),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Short ids are UUIDs; any other id names no short (404, like an unknown one). */
export const SHORT_ID_PATTERN =
  /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

export const ShortIdParams = z.strictObject({
  id: z
    .string()
    .regex(SHORT_ID_PATTERN, "Not Found")
    .meta({ format: "uuid" })
    .describe("Identifier of the short (a UUID; any other value is answered 404)"),
});

/** Optional paging; without it a list returns everything, as the seed describes. */
export const ListQuery = z.strictObject({
  limit: queryInteger(1, 1000).optional().describe("At most this many items (1-1000)"),
  offset: queryInteger(0, 1_000_000_000).optional().describe("Skip this many items first"),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const MAX_SEARCH_LENGTH = 200;

export const ShortListQuery = ListQuery.extend({
  tag: Tag.optional().describe("Only shorts with this tag (any letter case)"),
  search: z
    .string()
    .min(1, "search must not be empty")
    .max(MAX_SEARCH_LENGTH, `search must be at most ${MAX_SEARCH_LENGTH} characters`)
    .regex(NO_NUL, "search must not contain NUL")
    .optional()
    .describe(
      `Only shorts whose name or target URL contains this text (1-${MAX_SEARCH_LENGTH} characters), ` +
        "ignoring letter case. Targets are matched as stored: punycode hosts, percent-encoded paths.",
    ),
  domain: DomainHost.optional().describe("Only shorts on this domain"),
  orderBy: z
    .enum(["createdAt", "visits"])
    .default("createdAt")
    .describe(
      "createdAt (the default) or visits (every visit stored, bots included); shorts with as many " +
        "visits follow their creation, in the same order",
    ),
  order: z.enum(["asc", "desc"]).default("desc").describe("desc (the default) or asc"),
});
export type ShortListQuery = z.infer<typeof ShortListQuery>;

export const QR_FORMATS = ["png", "svg"] as const;
export const QR_SIZE = { min: 128, max: 1024, default: 300 } as const;

export const QrCodeQuery = z.strictObject({
  format: z.enum(QR_FORMATS).default("png").describe("png (the default) or svg"),
  size: queryInteger(QR_SIZE.min, QR_SIZE.max)
    .default(QR_SIZE.default)
    .describe(
      `Width and height of the image in pixels, ${QR_SIZE.min}-${QR_SIZE.max} (default ${QR_SIZE.default}); ` +
        "a PNG draws every module with the same whole number of pixels, centred with a quiet zone of at least 4 modules",
    ),
});
export type QrCodeQuery = z.infer<typeof QrCodeQuery>;

/** A visit log's id: digits, as ShortLog.id gives them. */
const LOG_ID = /^[1-9][0-9]{0,18}$/;
/** The largest visit id there can be (int8). */
const MAX_LOG_ID = 2n ** 63n - 1n;

export const LogsQuery = ListQuery.extend({
  before: z
    .string()
    .regex(LOG_ID, "before must be a visit id (digits)")
    // Every visit is older than an id above int8 (19 digits allow up to 10^19 - 1): no bound.
    .transform((id) => (BigInt(id) > MAX_LOG_ID ? undefined : id))
    .optional()
    .describe(
      "Keyset paging: only visits older than the visit with this id (newest first, stable while " +
        "visits arrive). Pass the last id of a page to get the next.",
    ),
  format: z
    .enum(["json", "csv"])
    .optional()
    .describe("csv streams the visits as text/csv (as does Accept: text/csv); default json"),
});
export type LogsQuery = z.infer<typeof LogsQuery>;

export const STATS_INTERVALS = ["hour", "day", "week", "month"] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

const instant = (description: string) =>
  z.iso.datetime({ offset: true }).optional().describe(`${description} (ISO 8601 date-time)`);

export const StatsQuery = z.strictObject({
  from: instant(
    "Start, inclusive, rounded down to the hour, from 0001-01-02T00:00:00Z on; default: 30 days before `to`",
  ),
  to: instant("End, exclusive, rounded up to the hour, up to 9999-12-31T00:00:00Z; default: now"),
  interval: z
    .enum(STATS_INTERVALS)
    .default("day")
    .describe("Timeseries bucket; at most 1000 buckets in the range, counted in `timezone`"),
  timezone: z
    .enum(TIME_ZONES, { error: "timezone must be an IANA time zone such as Europe/London" })
    .default("UTC")
    .describe(
      "Zone of the buckets: a day is local midnight to midnight (23 or 25 hours across a DST change). " +
        "Visits are aggregated by UTC hour: in a zone whose offset is not whole hours, a bucket starts " +
        "at the UTC hour holding its local start.",
    ),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

/** An account's statistics: as a short's, optionally of its shorts on one domain. */
export const UserStatsQuery = StatsQuery.extend({
  domain: DomainHost.optional().describe("Only the caller's shorts on this domain (none on an unknown one)"),
});
export type UserStatsQuery = z.infer<typeof UserStatsQuery>;

const Count = z.int().min(0);

const TopList = (what: string) =>
  z
    .array(z.object({ value: z.string(), visits: Count, humans: Count }))
    .describe(`Top 10 ${what} by visits ("" is unknown or none)`);

export const ShortStats = z
  .object({
    from: z.iso.datetime().describe("Start of the range, inclusive (whole hour, UTC)"),
    to: z.iso.datetime().describe("End of the range, exclusive (whole hour, UTC)"),
    interval: z.enum(STATS_INTERVALS),
    timezone: z.string(),
    totals: z.object({
      visits: Count,
      humans: Count,
      bots: Count,
      uniqueVisitors: Count.describe(
        "Visitors, each counted once per short and UTC day, in the hour of its first visit that day " +
          "(a visitor is a hash of IP and user agent under a salt that changes every UTC day)",
      ),
    }),
    timeseries: z
      .array(
        z.object({
          start: z.string().describe("Bucket start in the time zone, with its offset"),
          visits: Count,
          humans: Count,
        }),
      )
      .describe("Every bucket of the range, empty ones included"),
    referrers: TopList("referrer hosts"),
    countries: TopList("countries"),
    browsers: TopList("browsers"),
    os: TopList("operating systems"),
    devices: TopList("device types"),
    rules: z
      .array(z.object({ value: z.string(), visits: Count, humans: Count }))
      .optional()
      .describe(
        'Visits by the redirect rule that sent them, every one with a visit in the range: "default" ' +
          '(the short\'s url, chosen by none of its rules) or "1" to "10" (the rule\'s position when ' +
          "visited), by visits. Only the visits made while the short had rules are counted ([] for a " +
          "short that never had any). Absent from an account's statistics (a rule's number means " +
          "nothing across shorts).",
      ),
    importedVisits: z
      .int()
      .min(1)
      .optional()
      .describe(
        "Imported history: visits another shortener counted but did not export one by one (a total), " +
          "whatever the range; never part of the visits above. Absent when there are none",
      ),
  })
  .meta({ id: "ShortStats" });
export type ShortStats = z.infer<typeof ShortStats>;

export const StatsLink = z
  .object({
    url: z.string().describe("The public statistics page; its token is shown only now"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "StatsLink" });
export type StatsLink = z.infer<typeof StatsLink>;

/** A stats link's token: base64url of 24 random bytes. */
export const STATS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const UserStats = ShortStats.extend({
  shorts: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        domain: z
          .string()
          .optional()
          .describe("The short's domain; absent on the default domain (as in Short)"),
        visits: Count,
        humans: Count,
      }),
    )
    .describe("Top 10 shorts by visits in the range"),
}).meta({ id: "UserStats" });
export type UserStats = z.infer<typeof UserStats>;

// ─── GET /orphan-visits (docs/adr/0227, 0228) ───

/** Distinct names (and other values) kept per domain, hour and dimension; the rest are "(other)". */
export const ORPHAN_VALUES_PER_HOUR = 100;

/** A domain's orphan visits: as the statistics' range, of one domain the caller may use. */
export const OrphanVisitsQuery = StatsQuery.extend({
  domain: DomainHost.optional().describe(
    "The domain, one GET /domains lists (default: the default domain); any other answers 404",
  ),
});
export type OrphanVisitsQuery = z.infer<typeof OrphanVisitsQuery>;

const orphanValues = (what: string, most: number) =>
  z
    .array(z.object({ value: z.string(), visits: Count, humans: Count }))
    .describe(
      `Top ${most} ${what} by visits ("" is unknown or none). Each hour keeps at most ` +
        `${ORPHAN_VALUES_PER_HOUR} distinct values per dimension; the rest are summed under "(other)"`,
    );

export const OrphanVisits = z
  .object({
    domain: z.string().describe("The domain's host name"),
    from: ShortStats.shape.from,
    to: ShortStats.shape.to,
    interval: ShortStats.shape.interval,
    timezone: ShortStats.shape.timezone,
    totals: z.object({ visits: Count, humans: Count, bots: Count }),
    kinds: z.object({
      unknownName: Count.describe("Requests for a name no short of the domain has"),
      root: Count.describe("Requests for the domain's root (/)"),
    }),
    timeseries: ShortStats.shape.timeseries,
    names: orphanValues("names asked for", ORPHAN_VALUES_PER_HOUR),
    referrers: orphanValues("referrer hosts", 10),
    countries: orphanValues("countries", 10),
    browsers: orphanValues("browsers", 10),
    os: orphanValues("operating systems", 10),
    devices: orphanValues("device types", 10),
  })
  .meta({ id: "OrphanVisits" });
export type OrphanVisits = z.infer<typeof OrphanVisits>;

// ─── POST /shorts/bulk (docs/adr/0161) ───

export const MAX_BULK_SHORTS = 1000;
/** Items of one bulk request that may set a password: each costs a tenth of a second of hashing on purpose. */
export const MAX_BULK_PASSWORDS = 10;
/** Largest bulk body: 1,000 items of the longest URL, a name and ten tags fit (BODY_LIMIT stays for the rest). */
export const BULK_BODY_LIMIT = 4 * 1024 * 1024;

const bulkItems = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_BULK_SHORTS, `at most ${MAX_BULK_SHORTS} shorts per request`);

/** The body of POST /shorts/bulk, as documented: up to 1,000 NewShorts, in the order wanted. */
export const NewShortsBulk = z
  .strictObject({
    shorts: bulkItems(NewShort).describe(
      `Up to ${MAX_BULK_SHORTS} shorts, each exactly as POST /shorts takes it; one that is not ` +
        "refuses the whole request (400). What the stored data decides is each item's own: a " +
        "reserved name is its result's 400, a taken one its 409, and the others are still created. At most " +
        `${MAX_BULK_PASSWORDS} of them may set a password (each is hashed slowly on purpose); the ` +
        "password of each one after those is refused (that item's 400): set it with PATCH.",
    ),
  })
  .meta({ id: "NewShortsBulk" });
export type NewShortsBulk = z.infer<typeof NewShortsBulk>;

/** One item's outcome: what POST /shorts would have answered for it, status and body. */
export const BulkShortResult = z
  .union([
    z
      .object({ status: z.literal(201), short: Short })
      .describe("Created: `short` is the body POST /shorts answers with 201"),
    z
      .object({
        status: z.literal([400, 409]),
        error: ErrorBody,
      })
      .describe(
        "Not created: `error` is the body POST /shorts answers with this status (400: its name is " +
          "reserved, or it sets a password past the request's first ten; 409: its name is taken, " +
          "also by an earlier item of this request)",
      ),
  ])
  .meta({ id: "BulkShortResult" });
export type BulkShortResult = z.infer<typeof BulkShortResult>;

export const BulkShortResults = z
  .object({
    results: z.array(BulkShortResult).describe("One result per item sent, in the same order"),
  })
  .meta({ id: "BulkShortResults" });
export type BulkShortResults = z.infer<typeof BulkShortResults>;
