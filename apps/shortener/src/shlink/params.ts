// What /rest reads from a request, with Shlink's leniencies (numeric strings, booleans as text,
// `key[]` arrays, unknown body keys ignored) and its refusals: the first bad field of each kind
// is named in invalid-data's invalidElements.
import {
  MAX_TAGS,
  MAX_VISITS_LIMIT,
  SHORT_NAME_PATTERN,
  TAG_PATTERN,
  TargetUrl,
} from "@app/schemas/shortener";
import { z } from "zod";
import { invalidData } from "./problems.ts";

/** The most items one page holds: the web component asks visits 5,000 at a time. */
export const MAX_ITEMS_PER_PAGE = 5000;
/** Shlink's shortest generated code. */
const MIN_SHORT_CODE_LENGTH = 4;
const MAX_TITLE = 512;

type Input = Record<string, unknown>;

/** Parses `input` by `schema`, or throws invalid-data naming each refused top-level field. */
export function parseOrRefuse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? "")))].filter(
    Boolean,
  );
  throw invalidData(fields);
}

/**
 * An integer from `min` to `max`, also written as a string ("7"), as PHP's mapper takes it:
 * `digits` is the string's pattern, all the check of the text (within the bounds). One transform
 * after the union, not one per member: the document generator then sees both members.
 */
const integer = (min: number, max: number, digits: RegExp) =>
  z.union([z.int().min(min).max(max), z.string().regex(digits)]).transform(Number);
/** true/false, also as text ("true", "1"). */
const flag = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((value) => value === true || value === "true" || value === "1");
/** A query array: `tags[]=a&tags[]=b`, one `tags[]=a`, or `tags=a`. */
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]));

/** ISO 8601 (ATOM, with or without an offset) or Y-m-d, as Shlink's dates. */
const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/)
  .transform((text) => new Date(/T| /.test(text) ? text : `${text}T00:00:00Z`))
  .refine(
    (date) => !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999,
  );

/**
 * Tags as Shlink normalises them (trimmed, lower case, spaces to "-", each once), then the
 * model's rule: 1-32 characters of A-Z, a-z, 0-9, _ and -, at most 10.
 */
const TAG_INPUT_PATTERN = /^\s*[A-Za-z0-9_-]+(?:\s+[A-Za-z0-9_-]+)*\s*$/;
export const tagList = z
  .array(z.string().regex(TAG_INPUT_PATTERN))
  .transform((tags) => [...new Set(tags.map((tag) => tag.trim().toLowerCase().replace(/\s+/g, "-")))])
  .refine((tags) => tags.length <= MAX_TAGS && tags.every((tag) => TAG_PATTERN.test(tag)))
  .describe(
    "Tags, normalised as Shlink does (trimmed, lower case, each run of spaces one -), then each once: " +
      `at most ${MAX_TAGS}, each at most 32 characters of A-Z a-z 0-9 _ - once normalised`,
  )
  .meta({ example: ["launch"] });

/**
 * A page of a list, as a query gives it (always text): Shlink's page, from 1, and itemsPerPage,
 * 1-5,000 or negative (all, within the bound). Digits only, at most 15 significant (exact as a
 * number), leading zeros allowed: the patterns are what the document states and all the check.
 */
const PAGE_PATTERN = /^0*[1-9]\d{0,14}$/;
const ITEMS_PER_PAGE_PATTERN = /^(?:-0*[1-9]\d{0,14}|0*(?:[1-9]\d{0,2}|[1-4]\d{3}|5000))$/;
const paging = {
  page: z
    .string()
    .regex(PAGE_PATTERN)
    .transform(Number)
    .default(1)
    .describe("The page, from 1 (default 1)")
    .meta({ example: "1" }),
  itemsPerPage: z
    .string()
    .regex(ITEMS_PER_PAGE_PATTERN)
    .transform(Number)
    .optional()
    .describe(
      `Items per page, 1-${MAX_ITEMS_PER_PAGE}; negative: all on one page, refused past ${MAX_ITEMS_PER_PAGE} items. ` +
        "Default: 10 for short URLs, all for visits and tags",
    )
    .meta({ example: "10" }),
};

export const ORDERABLE = {
  dateCreated: "createdAt",
  shortCode: "name",
  longUrl: "url",
  title: "title",
  visits: "visits",
  nonBotVisits: "humans",
} as const;

export const ShortUrlsQuery = z.object({
  ...paging,
  searchTerm: z.string().optional(),
  "tags[]": list.optional(),
  tags: list.optional(),
  tagsMode: z.enum(["any", "all"]).default("any"),
  "excludeTags[]": list.optional(),
  excludeTags: list.optional(),
  excludeTagsMode: z.enum(["any", "all"]).default("any"),
  orderBy: z
    .string()
    .regex(/^(dateCreated|shortCode|longUrl|title|visits|nonBotVisits)(?:-(ASC|DESC|asc|desc))?$/)
    .transform((text) => {
      const [field, dir = "ASC"] = text.split("-") as [keyof typeof ORDERABLE, string];
      return { field, desc: dir.toUpperCase() === "DESC" };
    })
    .optional()
    .describe("A field and a direction (default ASC); without it, newest first")
    .meta({ example: "dateCreated-DESC" }),
  startDate: instant.optional(),
  endDate: instant.optional(),
  excludeMaxVisitsReached: flag.default(false),
  excludePastValidUntil: flag.default(false),
  domain: z.string().optional(),
});
export type ShortUrlsQuery = z.output<typeof ShortUrlsQuery>;

export const VisitsQuery = z.object({
  ...paging,
  startDate: instant.optional(),
  endDate: instant.optional(),
  domain: z.string().optional(),
});
/** Shlink reads excludeBots by its presence: any value, "false" too, means true. */
export const excludesBots = (query: Input) => query.excludeBots !== undefined;

/** A target as the model takes it (http(s), normalised), named as Shlink names the field. */
const longUrl = TargetUrl;
const title = z
  .string()
  .max(MAX_TITLE)
  .transform((text) => (text === "" ? null : text))
  .describe(`At most ${MAX_TITLE} characters; empty: none`)
  .meta({ example: "My link" });
// As text, at most 9 digits (a pattern that states 2,147,483,647 would be unreadable).
const maxVisits = integer(1, MAX_VISITS_LIMIT, /^0*[1-9]\d{0,8}$/).describe(
  `1-${MAX_VISITS_LIMIT} as a number, 1-999999999 as its digits`,
);

/**
 * A custom slug: Shlink's rules refuse `: ? # [ ] @` and, without multi-segment slugs, `/`; the
 * model's names refuse spaces and everything but A-Z, a-z, 0-9, _ and - too (docs/adr/0264).
 */
const customSlug = z
  .string()
  .trim()
  .regex(SHORT_NAME_PATTERN)
  .describe("The short code to use: 1-64 characters of A-Z a-z 0-9 _ - (spaces around it are trimmed)")
  .meta({ example: "my-link" });

export const CreateShortUrlBody = z
  .looseObject({
    longUrl,
    customSlug: customSlug.optional(),
    pathPrefix: customSlug
      .optional()
      .describe(
        "Put before the custom slug or the generated short code (Shlink's pathPrefix): a name is one path " +
          "segment here, so the two are joined as they are; together at most 64 characters",
      )
      .meta({ example: "promo-" }),
    shortCodeLength: integer(MIN_SHORT_CODE_LENGTH, 64, /^0*(?:[4-9]|[1-5]\d|6[0-4])$/)
      .optional()
      .describe(`The generated short code's length, ${MIN_SHORT_CODE_LENGTH}-64`),
    domain: z.string().optional(),
    findIfExists: flag.optional(),
    tags: tagList.optional(),
    title: title.nullable().optional(),
    validSince: instant.nullable().optional(),
    validUntil: instant.nullable().optional(),
    maxVisits: maxVisits.nullable().optional(),
    crawlable: flag.optional(),
    forwardQuery: flag.optional(),
  })
  .meta({ id: "ShortUrlCreation" });
export type CreateShortUrlBody = z.output<typeof CreateShortUrlBody>;

export const EditShortUrlBody = z
  .looseObject({
    longUrl: longUrl.optional(),
    title: title.nullable().optional(),
    tags: tagList.optional(),
    validSince: instant.nullable().optional(),
    validUntil: instant.nullable().optional(),
    maxVisits: maxVisits.nullable().optional(),
    crawlable: flag.optional(),
    forwardQuery: flag.optional(),
  })
  .meta({ id: "ShortUrlEdition" });
export type EditShortUrlBody = z.output<typeof EditShortUrlBody>;

export const RenameTagBody = z
  .looseObject({
    oldName: z.string().min(1).meta({ example: "launch" }),
    newName: z
      .string()
      .min(1)
      .describe("Normalised as tags are; at most 32 characters of A-Z a-z 0-9 _ - once normalised")
      .meta({ example: "release" }),
  })
  .meta({ id: "TagRenaming" });

export const TagsQuery = z.object({
  ...paging,
  searchTerm: z.string().optional(),
  orderBy: z
    .string()
    .regex(/^(tag|shortUrlsCount|visits|nonBotVisits)(?:-(ASC|DESC|asc|desc))?$/)
    .transform((text) => {
      const [field, dir = "ASC"] = text.split("-") as [string, string];
      return { field, desc: dir.toUpperCase() === "DESC" };
    })
    .optional(),
});

export const DomainRedirectsBody = z
  .looseObject({
    domain: z.string().min(1),
    baseUrlRedirect: longUrl.nullable().optional(),
    regular404Redirect: z.null().optional(),
    invalidShortUrlRedirect: longUrl.nullable().optional(),
  })
  .meta({ id: "DomainRedirectsEdition" });

export const OrphanVisitsQuery = VisitsQuery.extend({
  type: z.enum(["base_url", "invalid_short_url", "regular_404"]).optional(),
});

/** A single short URL's query: its domain (absent, empty or DEFAULT: the default domain). */
export const OneShortUrlQuery = z.object({
  domain: z.string().optional().describe("The short URL's domain; absent or DEFAULT: the default domain"),
});

/** GET /short-urls/shorten: the key (?apiKey=, the security scheme) and a short URL's fields. */
export const ShortenQuery = z.object({
  longUrl,
  customSlug: customSlug.optional(),
  shortCodeLength: CreateShortUrlBody.shape.shortCodeLength,
  domain: z.string().optional(),
  findIfExists: flag.optional(),
  format: z.string().optional().describe("txt: the short URL's link alone, as text/plain; else JSON"),
});

/** DELETE /tags: the tags, as tags[]=a&tags[]=b (or tags=a). */
export const DeleteTagsQuery = z.object({
  "tags[]": list.optional().meta({ example: ["launch"] }),
  tags: list.optional(),
});
