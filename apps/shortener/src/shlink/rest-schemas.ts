// The schemas /rest's routes declare for its OpenAPI document (docs/adr/0276), served at
// /rest/docs and committed as openapi/shortener-rest.json. The requests' are the very schemas the
// handlers parse with (params.ts, redirect-rules-view.ts): Fastify does not validate them a second
// time (`documented` below), so the document and the server cannot disagree on what is taken. The
// answers' are held by the serializer, as the rest of the service's.
import type { FastifySchema } from "fastify";
import { z } from "zod";
import {
  CreateShortUrlBody,
  DeleteTagsQuery,
  DomainRedirectsBody,
  EditShortUrlBody,
  OneShortUrlQuery,
  OrphanVisitsQuery,
  RenameTagBody,
  ShortenQuery,
  ShortUrlsQuery,
  TagsQuery,
  VisitsQuery,
} from "./params.ts";
import { ShlinkRules } from "./redirect-rules-view.ts";

const atom = (description: string) =>
  z.string().describe(`${description}: ISO 8601 with its offset, as Shlink writes dates (ATOM)`);
const count = z.int().min(0);

export const VisitsSummary = z
  .object({ total: count, nonBots: count, bots: count })
  .describe("Visits counted exactly, from the same aggregates as the existing API's")
  .meta({ id: "VisitsSummary" });

export const Pagination = z
  .object({
    currentPage: z.int(),
    pagesCount: z.int(),
    itemsPerPage: z.int(),
    itemsInCurrentPage: z.int(),
    totalItems: z.int(),
  })
  .describe("Shlink's pagination block; when every item is on one page, itemsPerPage is max(totalItems, 1)")
  .meta({ id: "Pagination" });

export const ShortUrl = z
  .object({
    shortCode: z.string(),
    shortUrl: z.string(),
    longUrl: z.string(),
    dateCreated: atom("When the short URL was made"),
    tags: z.array(z.string()),
    meta: z.object({
      validSince: atom("From when it redirects").nullable(),
      validUntil: atom("Until when it redirects").nullable(),
      maxVisits: z.int().nullable(),
    }),
    domain: z.string().nullable().describe("Its domain; null: the default domain"),
    title: z.string().nullable(),
    crawlable: z.boolean(),
    forwardQuery: z.boolean(),
    visitsSummary: VisitsSummary,
    hasRedirectRules: z.boolean(),
  })
  .meta({ id: "ShortUrl" });

const VisitLocation = z
  .object({
    countryCode: z.string(),
    countryName: z.string(),
    regionName: z.string(),
    cityName: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    timezone: z.string(),
    isEmpty: z.boolean(),
  })
  .describe("The visit's country; the service keeps no region, city or position (empty, 0)")
  .meta({ id: "VisitLocation" });

export const Visit = z
  .object({
    referer: z.string(),
    date: atom("When the visit was made"),
    userAgent: z.string(),
    visitLocation: VisitLocation.nullable(),
    potentialBot: z.boolean(),
    visitedUrl: z.string().nullable().describe("The URL visited, query included; null: not kept"),
    redirectUrl: z.string().nullable().describe("Where the visitor was sent; null: not kept"),
    type: z
      .enum(["base_url", "invalid_short_url", "regular_404"])
      .optional()
      .describe("An orphan visit's kind (orphan visits only)"),
  })
  .meta({ id: "Visit" });

const VisitList = z
  .object({ visits: z.object({ data: z.array(Visit), pagination: Pagination }) })
  .meta({ id: "VisitList" });

const NotFoundRedirects = z
  .object({
    baseUrlRedirect: z.string().nullable(),
    regular404Redirect: z.null().describe("Always null: the service redirects no other 404"),
    invalidShortUrlRedirect: z.string().nullable(),
  })
  .meta({ id: "NotFoundRedirects" });

const RedirectRulesList = z
  .object({
    defaultLongUrl: z.string(),
    redirectRules: z.array(
      z.object({
        longUrl: z.string(),
        priority: z.int(),
        conditions: z.array(
          z.object({ type: z.string(), matchKey: z.string().nullable(), matchValue: z.string().nullable() }),
        ),
      }),
    ),
  })
  .meta({ id: "ShortUrlRedirectRules" });

const Health = z
  .object({
    status: z.literal("pass"),
    version: z.string().describe("The Shlink version whose API this one answers as (docs/adr/0266)"),
    links: z.object({ about: z.string(), project: z.string() }),
  })
  .meta({ id: "Health" });

const DeletedVisits = z.object({ deletedVisits: count }).meta({ id: "DeletedVisits" });

/** Shlink's error answer (RFC 7807), sent as application/problem+json: see the document's post-processing. */
export const Problem = z
  .looseObject({
    type: z.string().describe("https://shlink.io/api/error/<code>"),
    title: z.string(),
    detail: z.string(),
    status: z.int(),
  })
  .describe(
    "A problem (RFC 7807) with Shlink's type URIs and extra members (invalidElements, shortCode, domain…)",
  )
  .meta({ id: "Problem" });

const ShortCodeParams = z.object({
  shortCode: z.string().describe("The short URL's short code").meta({ example: "my-link" }),
});
const nothing = (description: string) => z.undefined().describe(description);

const key = [{ ApiKey: [] }];
type Tag = "Short URLs" | "Redirect rules" | "Visits" | "Tags" | "Domains" | "Monitoring";
const op = (tag: Tag, operationId: string, summary: string, schema: FastifySchema): FastifySchema => ({
  operationId,
  tags: [tag],
  summary,
  security: key,
  ...schema,
});

/** Each /rest route's schema, by method and path below /rest/vN (health's below /rest too). */
export const REST_ROUTES = {
  health: {
    operationId: "health",
    tags: ["Monitoring"],
    summary: "The service's health and the Shlink API level it answers as",
    security: [],
    response: { 200: Health },
  },
  versionedHealth: {
    operationId: "versionedHealth",
    tags: ["Monitoring"],
    summary: "The same as /rest/health, below the version",
    security: [],
    response: { 200: Health },
  },
  mercureInfo: op("Monitoring", "mercureInfo", "Mercure integration: not configured here (501)", {
    description: "Always Shlink's 501 problem `mercure-not-configured`: the service has no Mercure hub.",
    response: {},
  }),
  listShortUrls: op("Short URLs", "listShortUrls", "The caller's short URLs, filtered, ordered and paged", {
    querystring: ShortUrlsQuery,
    response: {
      200: z.object({ shortUrls: z.object({ data: z.array(ShortUrl), pagination: Pagination }) }).meta({
        id: "ShortUrlList",
      }),
    },
  }),
  createShortUrl: op("Short URLs", "createShortUrl", "Make a short URL (or find one that matches)", {
    body: CreateShortUrlBody,
    response: { 200: ShortUrl },
  }),
  shortenUrl: {
    ...op("Short URLs", "shortenUrl", "Make a short URL in one GET, the key in the query", {
      description:
        "As createShortUrl, the fields in the query. Answers the short URL as JSON, or its link alone " +
        "as text/plain with `format=txt` (or `Accept: text/plain` and no format).",
      querystring: ShortenQuery,
      response: { 200: ShortUrl },
    }),
    security: [{ ApiKeyInQuery: [] }],
  },
  getShortUrl: op("Short URLs", "getShortUrl", "One of the caller's short URLs", {
    params: ShortCodeParams,
    querystring: OneShortUrlQuery,
    response: { 200: ShortUrl },
  }),
  editShortUrl: op("Short URLs", "editShortUrl", "Edit a short URL: absent fields are kept, null clears", {
    params: ShortCodeParams,
    querystring: OneShortUrlQuery,
    body: EditShortUrlBody,
    response: { 200: ShortUrl },
  }),
  deleteShortUrl: op("Short URLs", "deleteShortUrl", "Delete a short URL and its visits", {
    params: ShortCodeParams,
    querystring: OneShortUrlQuery,
    response: { 204: nothing("Deleted; no body") },
  }),
  getShortUrlRedirectRules: op("Redirect rules", "getShortUrlRedirectRules", "A short URL's redirect rules", {
    params: ShortCodeParams,
    querystring: OneShortUrlQuery,
    response: { 200: RedirectRulesList },
  }),
  setShortUrlRedirectRules: op(
    "Redirect rules",
    "setShortUrlRedirectRules",
    "Replace a short URL's redirect rules (priority: their order)",
    {
      params: ShortCodeParams,
      querystring: OneShortUrlQuery,
      body: ShlinkRules,
      response: { 200: RedirectRulesList },
    },
  ),
  editShortUrlRedirectRules: op(
    "Redirect rules",
    "editShortUrlRedirectRules",
    "The same as setShortUrlRedirectRules, as PATCH (Shlink routes both)",
    {
      params: ShortCodeParams,
      querystring: OneShortUrlQuery,
      body: ShlinkRules,
      response: { 200: RedirectRulesList },
    },
  ),
  getShortUrlVisits: op("Visits", "getShortUrlVisits", "A short URL's visits, newest first", {
    params: ShortCodeParams,
    querystring: VisitsQuery,
    response: { 200: VisitList },
  }),
  deleteShortUrlVisits: op("Visits", "deleteShortUrlVisits", "Delete a short URL's visits and their counts", {
    params: ShortCodeParams,
    querystring: OneShortUrlQuery,
    response: { 200: DeletedVisits },
  }),
  getTagVisits: op("Visits", "getTagVisits", "The visits of the caller's short URLs with a tag", {
    params: z.object({ tag: z.string().meta({ example: "launch" }) }),
    querystring: VisitsQuery,
    response: { 200: VisitList },
  }),
  getDomainVisits: op("Visits", "getDomainVisits", "The visits of the caller's short URLs on a domain", {
    params: z.object({
      domain: z.string().describe("A domain's host, or DEFAULT").meta({ example: "DEFAULT" }),
    }),
    querystring: VisitsQuery,
    response: { 200: VisitList },
  }),
  getNonOrphanVisits: op("Visits", "getNonOrphanVisits", "The visits of all the caller's short URLs", {
    querystring: VisitsQuery,
    response: { 200: VisitList },
  }),
  getOrphanVisits: op("Visits", "getOrphanVisits", "Visits to no short URL, on the caller's domains", {
    description:
      "Orphan visits are counted per hour and kind, not stored one by one: each counted visit is listed " +
      "at the start of its hour (docs/adr/0263). No `regular_404` is counted apart.",
    querystring: OrphanVisitsQuery,
    response: { 200: VisitList },
  }),
  deleteOrphanVisits: op(
    "Visits",
    "deleteOrphanVisits",
    "Delete the orphan visits of the domains assigned to the caller",
    {
      response: { 200: DeletedVisits },
    },
  ),
  getVisitsOverview: op(
    "Visits",
    "getVisitsOverview",
    "The caller's visit counts, of short URLs and orphan",
    {
      response: {
        200: z
          .object({ visits: z.object({ nonOrphanVisits: VisitsSummary, orphanVisits: VisitsSummary }) })
          .meta({ id: "VisitsOverview" }),
      },
    },
  ),
  listTags: op("Tags", "listTags", "The caller's tags", {
    querystring: TagsQuery,
    response: {
      200: z.object({ tags: z.object({ data: z.array(z.string()), pagination: Pagination }) }).meta({
        id: "TagList",
      }),
    },
  }),
  tagsStats: op("Tags", "tagsStats", "The caller's tags with their short URLs and visits", {
    querystring: TagsQuery,
    response: {
      200: z
        .object({
          tags: z.object({
            data: z.array(z.object({ tag: z.string(), shortUrlsCount: count, visitsSummary: VisitsSummary })),
            pagination: Pagination,
          }),
        })
        .meta({ id: "TagStatsList" }),
    },
  }),
  renameTag: op("Tags", "renameTag", "Rename one of the caller's tags on all their short URLs", {
    body: RenameTagBody,
    response: { 204: nothing("Renamed; no body") },
  }),
  deleteTags: op("Tags", "deleteTags", "Remove tags from all the caller's short URLs", {
    querystring: DeleteTagsQuery,
    response: { 204: nothing("Deleted; no body") },
  }),
  listDomains: op("Domains", "listDomains", "The domains the caller may use, the default first", {
    response: {
      200: z
        .object({
          domains: z.object({
            data: z.array(
              z.object({ domain: z.string(), isDefault: z.boolean(), redirects: NotFoundRedirects }),
            ),
            defaultRedirects: NotFoundRedirects,
          }),
        })
        .meta({ id: "ShlinkDomainList" }),
    },
  }),
  editDomainRedirects: op(
    "Domains",
    "editDomainRedirects",
    "Set the not-found redirects of a domain assigned to the caller",
    {
      body: DomainRedirectsBody,
      response: { 200: NotFoundRedirects },
    },
  ),
} satisfies Record<string, FastifySchema>;

/**
 * A route's options: its schema for the document, and no validation by Fastify: the handler parses
 * the same schemas itself, with Shlink's leniencies and its invalid-data answer.
 */
export const documented = (schema: FastifySchema) => ({
  schema,
  validatorCompiler: () => () => true,
});
