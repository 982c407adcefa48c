// Shlink's REST API (v3, and v1 and v2, which Shlink 4+ serves identically) as one more view of
// the shortener's model (docs/adr/0263): the same shorts, visits, tags and domains the bearer API
// reaches, through the same services; nothing is stored for /rest alone. Request parsing is in
// params.ts, the JSON in short-url-view.ts, the reads in shlink-queries.ts.

import { Prisma } from "@app/db";
import { SHORT_CODE_LENGTH, SHORT_NAME_MAX } from "@app/schemas/shortener";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { tokenLookup } from "../auth.ts";
import { DEFAULT_DOMAIN, DEFAULT_DOMAIN_ID, type DomainRef } from "../default-domain.ts";
import { BadRequest, Conflict } from "../errors.ts";
import type { AuthenticatedUser } from "../types.ts";
import {
  CreateShortUrlBody,
  DomainRedirectsBody,
  EditShortUrlBody,
  excludesBots,
  MAX_ITEMS_PER_PAGE,
  OrphanVisitsQuery,
  parseOrRefuse,
  RenameTagBody,
  ShortUrlsQuery,
  TagsQuery,
  VisitsQuery,
} from "./params.ts";
import {
  domainNotFound,
  forbiddenOperation,
  invalidApiKey,
  invalidData,
  mercureNotConfigured,
  missingAuthentication,
  nonUniqueSlug,
  shortUrlNotFound,
  tagConflict,
  tagNotFound,
} from "./problems.ts";
import { rulesFromShlink, rulesView } from "./redirect-rules-view.ts";
import { documented, REST_ROUTES } from "./rest-schemas.ts";
import { ShlinkQueries } from "./shlink-queries.ts";
import {
  notFoundRedirects,
  ORPHAN_TYPES,
  type OrphanType,
  pagination,
  type ShortUrlRow,
  shortUrlView,
  summary,
  visitListJson,
} from "./short-url-view.ts";

/**
 * The Shlink version whose API this one answers as (docs/adr/0266): clients gate features on it
 * (the web component enables every condition type and filter from 5.1.0).
 */
export const SHLINK_API_LEVEL = "5.1.0";
const VERSIONS = ["v1", "v2", "v3"];

type Query = Record<string, unknown>;

/**
 * Page and offset of a Shlink list: no itemsPerPage is `fallback` (null: all), negative all. "All"
 * reads one row past the bound, so that `bounded` can refuse a list longer than one page may be.
 */
function paging(query: { page: number; itemsPerPage?: number | undefined }, fallback: number | null) {
  const perPage =
    query.itemsPerPage === undefined ? fallback : query.itemsPerPage < 0 ? null : query.itemsPerPage;
  return {
    page: query.page,
    perPage,
    limit: perPage ?? MAX_ITEMS_PER_PAGE + 1,
    offset: perPage === null ? 0 : (query.page - 1) * perPage,
  };
}

/** The rows of a page; "all" of more than MAX_ITEMS_PER_PAGE is refused (docs/adr/0264). */
function bounded<T>(rows: T[]): T[] {
  if (rows.length > MAX_ITEMS_PER_PAGE) {
    throw invalidData(
      ["itemsPerPage"],
      `At most ${MAX_ITEMS_PER_PAGE} items are listed at once: ask for pages`,
    );
  }
  return rows;
}

/** A body already written as JSON: sent as it is, past the response schema's serializer. */
function sendJson(reply: FastifyReply, json: Buffer) {
  return reply.type("application/json; charset=utf-8").send(json);
}

const health = () => ({
  status: "pass",
  version: SHLINK_API_LEVEL,
  links: { about: "https://shlink.io", project: "https://github.com/shlinkio/shlink" },
});

/** /rest: health, and the versioned API under /rest/v1, /rest/v2 and /rest/v3. */
export const shlinkRoutes: FastifyPluginAsync<{ shortBaseUrl: string }> = async (app, { shortBaseUrl }) => {
  app.get("/health", documented(REST_ROUTES.health), async (_request, reply) =>
    reply.type("application/health+json").send(health()),
  );
  for (const version of VERSIONS) {
    await app.register(versionedRoutes, { prefix: `/${version}`, shortBaseUrl });
  }
};

const versionedRoutes: FastifyPluginAsync<{ shortBaseUrl: string }> = async (app, { shortBaseUrl }) => {
  const lookup = tokenLookup(app);
  const queries = new ShlinkQueries(app.prisma, app.domains.defaultHost);
  const { shorts, domains } = app;

  app.decorateRequest("user", null as unknown as AuthenticatedUser);
  // X-Api-Key carries one of the user's tokens (docs/adr/0264); GET /short-urls/shorten takes it
  // as ?apiKey= too. Health needs none.
  app.addHook("onRequest", async (request) => {
    const path = request.routeOptions.url ?? "";
    if (path.endsWith("/health")) return;
    const shorten = path.endsWith("/short-urls/shorten");
    const header = request.headers["x-api-key"];
    const key = shorten ? ((request.query as Query).apiKey as string | undefined) : header;
    if (typeof key !== "string" || key === "") throw missingAuthentication(shorten ? "apiKey" : undefined);
    const user = await lookup(key);
    if (!user) throw invalidApiKey();
    request.user = user;
  });

  const view = (row: ShortUrlRow) => shortUrlView(row, shortBaseUrl);
  const settle = () => app.visitLog.settle();

  /** The domain a `domain` parameter names for the user: absent or the default's host: the default. */
  async function domainFor(userId: string, host: unknown): Promise<DomainRef | null> {
    if (host === undefined || host === "" || host === "DEFAULT") return DEFAULT_DOMAIN;
    if (typeof host !== "string") return null;
    const name = host.toLowerCase();
    if (name === domains.defaultHost) return DEFAULT_DOMAIN;
    return domains.usableOrNull(userId, name);
  }

  /** The caller's short `shortCode` on the `domain` the query names, or short-url-not-found. */
  async function findShortUrl(request: FastifyRequest) {
    const { shortCode } = request.params as { shortCode: string };
    const host = (request.query as Query).domain;
    const shownDomain = typeof host === "string" && host !== "" ? host : null;
    const domain = await domainFor(request.user.id, host);
    const row = domain && (await queries.shortUrl(request.user.id, domain.id, shortCode));
    if (!row) throw shortUrlNotFound(shortCode, shownDomain);
    return row;
  }

  /** The domains the user may use, default first, with their ids. */
  async function usableDomains(userId: string) {
    const listed = await domains.usableBy(userId);
    const refs = await Promise.all(listed.map((domain) => domainFor(userId, domain.host)));
    return listed.map((domain, i) => ({ ...domain, id: refs[i]!.id }));
  }

  async function createShortUrl(user: AuthenticatedUser, input: unknown) {
    const body = parseOrRefuse(CreateShortUrlBody, input);
    if (body.validSince && body.validUntil && body.validSince >= body.validUntil)
      throw invalidData(["validUntil"]);
    const domain = await domainFor(user.id, body.domain);
    if (!domain) throw invalidData(["domain"]);
    const nameLength = body.customSlug?.length ?? body.shortCodeLength ?? SHORT_CODE_LENGTH.default;
    if (body.pathPrefix !== undefined && body.pathPrefix.length + nameLength > SHORT_NAME_MAX)
      throw invalidData(
        ["pathPrefix"],
        `pathPrefix and the short code make at most ${SHORT_NAME_MAX} characters`,
      );
    const prepared = await shorts.prepare(
      {
        url: body.longUrl,
        ...(body.customSlug === undefined ? {} : { name: body.customSlug }),
        ...(body.pathPrefix === undefined ? {} : { namePrefix: body.pathPrefix }),
        ...(body.shortCodeLength === undefined ? {} : { shortCodeLength: body.shortCodeLength }),
        ...(body.tags === undefined ? {} : { tags: body.tags }),
        ...(body.validSince ? { validFrom: body.validSince.toISOString() } : {}),
        ...(body.validUntil ? { validUntil: body.validUntil.toISOString() } : {}),
        ...(typeof body.maxVisits === "number" ? { maxVisits: body.maxVisits } : {}),
        // Shlink's default: a short made through /rest forwards the query (the existing API's
        // is off: docs/adr/0268).
        forwardQuery: body.forwardQuery ?? true,
        crawlable: body.crawlable ?? false,
      },
      domain,
    );
    // findIfExists as Shlink's: the url and the fields the request gives, never forwardQuery or
    // crawlable (Shlink compares neither). Shlink answers 200 either way.
    const { forwardQuery: _forwardQuery, crawlable: _crawlable, ...compared } = prepared;
    const found = body.findIfExists ? await shorts.findMatching(user.id, compared) : null;
    const created =
      found ??
      (await shorts.create(user.id, { ...prepared, title: body.title ?? null }).catch((error: unknown) => {
        if (error instanceof Conflict)
          throw nonUniqueSlug(`${body.pathPrefix ?? ""}${body.customSlug ?? ""}`, domain.host);
        if (error instanceof BadRequest) throw invalidData(["customSlug"], error.message);
        throw error;
      }));
    return view((await queries.shortUrl(user.id, domain.id, created.name))!);
  }

  app.get("/mercure-info", documented(REST_ROUTES.mercureInfo), async () => {
    throw mercureNotConfigured();
  });
  app.get("/health", documented(REST_ROUTES.versionedHealth), async (_request, reply) =>
    reply.type("application/health+json").send(health()),
  );

  app.get("/short-urls", documented(REST_ROUTES.listShortUrls), async (request) => {
    const raw = request.query as Query;
    const query = parseOrRefuse(ShortUrlsQuery, raw);
    const domainId =
      query.domain === undefined ? undefined : ((await domainFor(request.user.id, query.domain))?.id ?? null);
    const page = paging(query, 10);
    await settle();
    const { rows, total } = await queries.listShortUrls(
      request.user.id,
      {
        ...query,
        tagsIn: query["tags[]"] ?? query.tags ?? [],
        tagsOut: query["excludeTags[]"] ?? query.excludeTags ?? [],
      },
      domainId,
      page,
    );
    return {
      shortUrls: {
        data: bounded(rows).map(view),
        pagination: pagination(page.page, page.perPage, total, rows.length),
      },
    };
  });

  app.post("/short-urls", documented(REST_ROUTES.createShortUrl), async (request) =>
    createShortUrl(request.user, request.body),
  );

  app.get("/short-urls/shorten", documented(REST_ROUTES.shortenUrl), async (request, reply) => {
    const { apiKey: _key, format, ...query } = request.query as Query;
    const created = await createShortUrl(request.user, query);
    const text = format === "txt" || (format === undefined && request.headers.accept === "text/plain");
    return text ? reply.type("text/plain; charset=utf-8").send(created.shortUrl) : created;
  });

  app.get("/short-urls/:shortCode", documented(REST_ROUTES.getShortUrl), async (request) => {
    await settle();
    return view(await findShortUrl(request));
  });

  app.patch("/short-urls/:shortCode", documented(REST_ROUTES.editShortUrl), async (request) => {
    const found = await findShortUrl(request);
    // Unknown keys (the web component sends `domain`) are ignored, as Shlink does.
    const edit = parseOrRefuse(EditShortUrlBody, request.body);
    const iso = (date: Date | null | undefined) =>
      date === undefined ? undefined : date === null ? null : date.toISOString();
    await shorts
      .update(request.user.id, found.id, {
        url: edit.longUrl,
        tags: edit.tags,
        validFrom: iso(edit.validSince),
        validUntil: iso(edit.validUntil),
        maxVisits: edit.maxVisits,
        title: edit.title,
        forwardQuery: edit.forwardQuery,
        crawlable: edit.crawlable,
      })
      .catch((error: unknown) => {
        if (error instanceof BadRequest) throw invalidData(["validUntil"], error.message);
        throw error;
      });
    await settle();
    return view(await findShortUrl(request));
  });

  app.delete("/short-urls/:shortCode", documented(REST_ROUTES.deleteShortUrl), async (request, reply) => {
    const found = await findShortUrl(request);
    await shorts.delete(request.user.id, found.id);
    return reply.code(204).send();
  });

  app.get(
    "/short-urls/:shortCode/redirect-rules",
    documented(REST_ROUTES.getShortUrlRedirectRules),
    async (request) => {
      const found = await findShortUrl(request);
      return rulesView(found.url, found.redirectRules);
    },
  );
  const setRules = async (request: FastifyRequest) => {
    const found = await findShortUrl(request);
    const rules = rulesFromShlink(request.body);
    await shorts.update(request.user.id, found.id, { redirectRules: rules });
    return rulesView(found.url, (await findShortUrl(request)).redirectRules);
  };
  app.post(
    "/short-urls/:shortCode/redirect-rules",
    documented(REST_ROUTES.setShortUrlRedirectRules),
    setRules,
  );
  app.patch(
    "/short-urls/:shortCode/redirect-rules",
    documented(REST_ROUTES.editShortUrlRedirectRules),
    setRules,
  );

  /**
   * A page of the visits of the user's shorts `selected` selects, as Shlink's visits block; of
   * one short (its id), read by its hours (docs/adr/0285).
   */
  async function visitsOf(
    request: FastifyRequest,
    reply: FastifyReply,
    selected: Prisma.Sql | { shortId: string },
  ) {
    const raw = request.query as Query;
    const query = parseOrRefuse(VisitsQuery, raw);
    const page = paging(query, null);
    await settle();
    const filter = { startDate: query.startDate, endDate: query.endDate, excludeBots: excludesBots(raw) };
    const { rows, total } =
      "shortId" in selected
        ? await queries.shortVisits(selected.shortId, filter, page)
        : await queries.visits(request.user.id, selected, filter, page);
    return sendJson(
      reply,
      visitListJson(bounded(rows), pagination(page.page, page.perPage, total, rows.length)),
    );
  }

  app.get(
    "/short-urls/:shortCode/visits",
    documented(REST_ROUTES.getShortUrlVisits),
    async (request, reply) => {
      const found = await findShortUrl(request);
      return visitsOf(request, reply, { shortId: found.id });
    },
  );

  app.get("/tags/:tag/visits", documented(REST_ROUTES.getTagVisits), async (request, reply) => {
    const { tag } = request.params as { tag: string };
    const tags = await queries.tagStats(request.user.id);
    if (!tags.some((entry) => entry.tag === tag)) throw tagNotFound(tag);
    const tagged = Prisma.sql`s."tags" @> ARRAY[${tag}::varchar(32)]`;
    const host = (request.query as Query).domain;
    if (host === undefined) return visitsOf(request, reply, tagged);
    const domain = await domainFor(request.user.id, host);
    return visitsOf(
      request,
      reply,
      domain ? Prisma.sql`${tagged} AND s."domain_id" = ${domain.id}::uuid` : Prisma.sql`false`,
    );
  });

  app.get("/domains/:domain/visits", documented(REST_ROUTES.getDomainVisits), async (request, reply) => {
    const { domain: host } = request.params as { domain: string };
    const domain = await domainFor(request.user.id, host);
    if (!domain) throw domainNotFound(host);
    return visitsOf(request, reply, Prisma.sql`s."domain_id" = ${domain.id}::uuid`);
  });

  app.get("/visits/non-orphan", documented(REST_ROUTES.getNonOrphanVisits), async (request, reply) => {
    const host = (request.query as Query).domain;
    if (host === undefined) return visitsOf(request, reply, Prisma.sql`true`);
    const domain = await domainFor(request.user.id, host);
    return visitsOf(
      request,
      reply,
      domain ? Prisma.sql`s."domain_id" = ${domain.id}::uuid` : Prisma.sql`false`,
    );
  });

  app.get("/visits/orphan", documented(REST_ROUTES.getOrphanVisits), async (request, reply) => {
    const raw = request.query as Query;
    const query = parseOrRefuse(OrphanVisitsQuery, raw);
    const usable = await usableDomains(request.user.id);
    const ids =
      query.domain === undefined
        ? usable.map((domain) => domain.id)
        : [(await domainFor(request.user.id, query.domain))?.id].filter((id) => id !== undefined);
    const kinds =
      query.type === undefined
        ? ["name", "root"]
        : [ORPHAN_TYPES[query.type]].filter((kind) => kind !== null);
    const page = paging(query, null);
    await app.orphanVisits.flush();
    const { rows, total } = await queries.orphanVisits(
      ids,
      { kinds, startDate: query.startDate, endDate: query.endDate, excludeBots: excludesBots(raw) },
      page,
    );
    const typeOf = (kind: string) =>
      (Object.keys(ORPHAN_TYPES) as OrphanType[]).find((type) => ORPHAN_TYPES[type] === kind)!;
    return sendJson(
      reply,
      visitListJson(bounded(rows), pagination(page.page, page.perPage, total, rows.length), (row) =>
        typeOf(row.kind),
      ),
    );
  });

  // Orphan visits of a domain assigned to the user (docs/adr/0264): the default domain's and
  // those open to every user are the operator's to delete, with the CLI.
  app.delete("/visits/orphan", documented(REST_ROUTES.deleteOrphanVisits), async (request) => {
    await app.orphanVisits.flush();
    const owned = await app.prisma.shortDomainUser.findMany({
      where: { userId: request.user.id },
      select: { domainId: true },
    });
    return { deletedVisits: await queries.deleteOrphanVisits(owned.map((row) => row.domainId)) };
  });

  app.get("/visits", documented(REST_ROUTES.getVisitsOverview), async (request) => {
    await Promise.all([settle(), app.orphanVisits.flush()]);
    const usable = await usableDomains(request.user.id);
    const [own, orphans] = await Promise.all([
      queries.visitSums(request.user.id),
      queries.orphanSums(usable.map((domain) => domain.id)),
    ]);
    return {
      visits: {
        nonOrphanVisits: summary(own.visits, own.humans),
        orphanVisits: summary(orphans.visits, orphans.humans),
      },
    };
  });

  /** The user's tags with their figures, filtered, ordered and paged as GET /tags takes them. */
  async function tagsPage(request: FastifyRequest) {
    const query = parseOrRefuse(TagsQuery, request.query);
    await settle();
    let tags = await queries.tagStats(request.user.id);
    if (query.searchTerm) tags = tags.filter((entry) => entry.tag.includes(query.searchTerm!.toLowerCase()));
    if (query.orderBy) {
      const { field, desc } = query.orderBy;
      const key = (entry: (typeof tags)[number]) =>
        field === "shortUrlsCount"
          ? entry.shortUrlsCount
          : field === "visits"
            ? entry.visits
            : field === "nonBotVisits"
              ? entry.humans
              : entry.tag;
      tags.sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order = x < y ? -1 : x > y ? 1 : a.tag < b.tag ? -1 : 1;
        return desc ? -order : order;
      });
    }
    const page = paging(query, null);
    const data = bounded(tags.slice(page.offset, page.offset + page.limit));
    return { data, pagination: pagination(page.page, page.perPage, tags.length, data.length) };
  }

  app.get("/tags", documented(REST_ROUTES.listTags), async (request) => {
    const { data, pagination } = await tagsPage(request);
    return { tags: { data: data.map((entry) => entry.tag), pagination } };
  });

  app.get("/tags/stats", documented(REST_ROUTES.tagsStats), async (request) => {
    const { data, pagination } = await tagsPage(request);
    return {
      tags: {
        data: data.map((entry) => ({
          tag: entry.tag,
          shortUrlsCount: entry.shortUrlsCount,
          visitsSummary: summary(entry.visits, entry.humans),
        })),
        pagination,
      },
    };
  });

  app.put("/tags", documented(REST_ROUTES.renameTag), async (request, reply) => {
    const body = parseOrRefuse(RenameTagBody, request.body);
    const [oldName, newName] = [body.oldName, body.newName].map((name) =>
      name.trim().toLowerCase().replace(/\s+/g, "-"),
    ) as [string, string];
    if (!/^[a-z0-9_-]{1,32}$/.test(newName)) throw invalidData(["newName"]);
    const tags = await queries.tagStats(request.user.id);
    if (!tags.some((entry) => entry.tag === oldName)) throw tagNotFound(body.oldName);
    if (oldName !== newName && tags.some((entry) => entry.tag === newName))
      throw tagConflict(oldName, newName);
    await queries.renameTag(request.user.id, oldName, newName);
    return reply.code(204).send();
  });

  app.delete("/tags", documented(REST_ROUTES.deleteTags), async (request, reply) => {
    const raw = request.query as Query;
    const given = raw["tags[]"] ?? raw.tags ?? [];
    const tags = (Array.isArray(given) ? given : [given]).map((tag) => String(tag).toLowerCase());
    if (tags.length) await queries.deleteTags(request.user.id, tags);
    return reply.code(204).send();
  });

  app.get("/domains", documented(REST_ROUTES.listDomains), async (request) => {
    const usable = await usableDomains(request.user.id);
    const rows = new Map(
      (await queries.domainRows(usable.map((domain) => domain.id))).map((row) => [row.id, row]),
    );
    const redirectsOf = (id: string) =>
      notFoundRedirects(rows.get(id) ?? { rootUrl: null, notFoundUrl: null });
    return {
      domains: {
        data: usable.map((domain) => ({
          domain: domain.host,
          isDefault: domain.isDefault,
          redirects: redirectsOf(domain.id),
        })),
        defaultRedirects: redirectsOf(DEFAULT_DOMAIN_ID),
      },
    };
  });

  // A domain assigned to the user is theirs to redirect (docs/adr/0264); the default domain and
  // those open to every user are the operator's (the CLI's domain:update).
  app.patch("/domains/redirects", documented(REST_ROUTES.editDomainRedirects), async (request) => {
    const body = parseOrRefuse(DomainRedirectsBody, request.body);
    const host = body.domain.toLowerCase();
    const domain = await domainFor(request.user.id, host);
    if (!domain) throw domainNotFound(body.domain);
    const assigned = await app.prisma.shortDomainUser.findFirst({
      where: { domainId: domain.id, userId: request.user.id },
    });
    if (!assigned) throw forbiddenOperation(`The redirects of domain "${host}" are set by the operator`);
    const row = await app.prisma.shortDomain.update({
      where: { id: domain.id },
      data: { rootUrl: body.baseUrlRedirect, notFoundUrl: body.invalidShortUrlRedirect },
      select: { rootUrl: true, notFoundUrl: true },
    });
    return notFoundRedirects(row);
  });

  app.delete(
    "/short-urls/:shortCode/visits",
    documented(REST_ROUTES.deleteShortUrlVisits),
    async (request) => {
      const found = await findShortUrl(request);
      await settle();
      return { deletedVisits: await app.visitMaintenance.deleteVisitsOf(found.id, request.user.id) };
    },
  );
};
