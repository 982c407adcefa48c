import { IdempotencyHeaders } from "@app/schemas/idempotency";
import { withRefusals } from "@app/schemas/refusals";
import {
  BULK_BODY_LIMIT,
  type BulkShortResult,
  BulkShortResults,
  DomainList,
  ErrorBody,
  LogsQuery,
  MAX_BULK_PASSWORDS,
  MAX_BULK_SHORTS,
  NewShort,
  NewShortsBulk,
  OrphanVisits,
  OrphanVisitsQuery,
  QR_SIZE,
  QrCodeQuery,
  SHORT_REFUSALS,
  Short,
  ShortEdit,
  ShortIdParams,
  ShortList,
  ShortListQuery,
  ShortLogList,
  ShortStats,
  StatsLink,
  StatsQuery,
  User,
  UserStats,
  UserStatsQuery,
} from "@app/schemas/shortener";
import { requestHash, sendAnswer } from "@app/server/idempotency";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerAuth } from "./auth.ts";
import type { DomainRef } from "./default-domain.ts";
import { errorBody } from "./error-handler.ts";
import { BadRequest, HttpError, NotFound } from "./errors.ts";
import { otherMedia, plainText } from "./openapi.ts";
import { idempotencyKeys } from "./shorts/idempotency.ts";
import { renderQrCode } from "./shorts/qr-code.ts";
import { readOrphanVisits } from "./stats/orphan-stats.ts";
import { STATS_RANGE_REFUSALS, statsRange } from "./stats/stats.service.ts";
import { streamLogsCsv, wantsCsv } from "./visits/logs-csv.ts";

const unauthorized = plainText("Credentials missing or incorrect (with WWW-Authenticate: Bearer)");
const notFound = plainText("No short with this id belongs to the caller");
const security = [{ bearerAuth: [] }];
const replayed = ErrorBody.describe(
  "The Idempotency-Key was already used with a different request within the last 24 hours",
);

/** A bulk item's outcome as its result shows it: the status and body POST /shorts would answer. */
function toResult(outcome: Short | HttpError): BulkShortResult {
  if (!(outcome instanceof HttpError)) return { status: 201, short: outcome };
  // createMany refuses items with these two only (400 and 409).
  const status = outcome.statusCode as 400 | 409;
  return { status, error: errorBody(status, outcome.message) };
}

/** The bearer-protected API: /me, /shorts and a short's logs. */
export const apiRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(bearerAuth);
  const { shorts, stats, domains } = app;

  /**
   * Each item prepared for createMany, its domain resolved once per host the request names: a
   * domain the caller may not use is that item's 400.
   */
  const prepareAll = (userId: string, items: readonly (NewShort | HttpError)[]) => {
    const resolved = new Map<string, Promise<DomainRef | HttpError>>();
    const domainOf = (host: string) => {
      let domain = resolved.get(host);
      if (!domain) {
        domain = domains.usable(userId, host).catch((error: unknown) => {
          if (error instanceof HttpError) return error;
          throw error;
        });
        resolved.set(host, domain);
      }
      return domain;
    };
    return Promise.all(
      items.map(async (item) => {
        if (item instanceof HttpError) return item;
        const domain = item.domain === undefined ? undefined : await domainOf(item.domain);
        return domain instanceof HttpError ? domain : shorts.prepare(item, domain);
      }),
    );
  };
  // Unknown API paths are answered after authentication too: no probing without a token.
  app.setNotFoundHandler(() => {
    throw new NotFound();
  });

  app.get(
    "/me",
    {
      schema: {
        operationId: "getMe",
        tags: ["user"],
        summary: "The current user",
        security,
        response: { 200: User, 401: unauthorized, default: ErrorBody },
      },
    },
    async (request) => ({
      id: request.user.id,
      username: request.user.email,
      createdAt: request.user.createdAt.toISOString(),
    }),
  );

  app.get(
    "/domains",
    {
      schema: {
        operationId: "listDomains",
        tags: ["domains"],
        summary: "The domains the caller may create shorts on",
        description:
          "The default domain (SHORT_BASE_URL's host) first, then each domain the operator registered " +
          "that is open to every user or assigned to the caller, by host.",
        security,
        response: { 200: DomainList, 401: unauthorized, default: ErrorBody },
      },
    },
    async (request) => domains.usableBy(request.user.id),
  );

  app.get(
    "/shorts",
    {
      schema: {
        operationId: "listShorts",
        tags: ["shorts"],
        summary: "The caller's shorts, newest first unless ordered otherwise",
        description:
          "Optionally filtered by domain, by tag and by text in the name or target URL (several at once: " +
          "shorts matching all), ordered by creation or by visits, and paged with limit and offset. A " +
          "domain no short of the caller's can be on (an unknown one) lists none.",
        security,
        querystring: ShortListQuery,
        response: { 200: ShortList, 400: ErrorBody, 401: unauthorized, default: ErrorBody },
      },
    },
    async (request) => {
      const { domain, ...query } = request.query;
      if (domain === undefined) return shorts.list(request.user.id, query);
      const domainId = await domains.idOf(domain);
      return domainId === null ? [] : shorts.list(request.user.id, query, domainId);
    },
  );

  app.post(
    "/shorts",
    {
      schema: {
        operationId: "createShort",
        tags: ["shorts"],
        summary: "Create a short",
        description: withRefusals(
          "Without `name`, a random name of `shortCodeLength` characters (7 by default) is generated. A " +
            "taken name is 409 (a name is taken per domain: `domain`, or the default domain); a reserved " +
            "one 400. With `findIfExists: true`, the caller's existing short that matches (see the field) " +
            "is answered with 200 and nothing is created.",
          SHORT_REFUSALS,
        ),
        security,
        headers: IdempotencyHeaders,
        body: NewShort,
        response: {
          200: Short.describe(
            "findIfExists found this short of the caller's: nothing was created (its URL is in the Location header)",
          ),
          201: Short.describe("The created short (its URL is also in the Location header)"),
          400: ErrorBody.describe("The body is not understood, or the name is reserved"),
          401: unauthorized,
          409: ErrorBody.describe("The name is already taken"),
          413: ErrorBody.describe("The body is too large"),
          415: ErrorBody.describe("The body is not JSON"),
          422: replayed,
          default: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const location = (id: string) => `${app.apiPrefix}/shorts/${id}`;
      const key = request.headers["idempotency-key"];
      const [prepared] = await prepareAll(request.user.id, [request.body]);
      if (prepared instanceof HttpError) throw prepared;
      const toCreate = prepared!;
      /** The short to answer: the one findIfExists found (200), else the one created (201). */
      const createOrFind = async (db?: Parameters<typeof shorts.create>[2]) => {
        const found = request.body.findIfExists ? await shorts.findMatching(request.user.id, toCreate) : null;
        return found
          ? { status: 200, short: found }
          : { status: 201, short: await shorts.create(request.user.id, toCreate, db) };
      };
      if (key === undefined) {
        const { status, short } = await createOrFind();
        return reply.code(status).header("location", location(short.id)).send(short);
      }
      // Serialized here, as the route's serializer would, so what is kept and replayed is what was sent.
      const answer = await idempotencyKeys.answerOnce(
        app.prisma,
        { userId: request.user.id, key, hash: requestHash("createShort", request.body) },
        async (tx) => {
          const { status, short } = await createOrFind(tx);
          return { status, body: JSON.stringify(z.encode(Short, short)) };
        },
      );
      reply.header("location", location((JSON.parse(answer.body) as Short).id));
      return sendAnswer(reply, answer);
    },
  );

  app.post(
    "/shorts/bulk",
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        operationId: "createShorts",
        tags: ["shorts"],
        summary: `Create up to ${MAX_BULK_SHORTS} shorts at once`,
        description: withRefusals(
          "A body this document refuses (not an object with an array `shorts` of at most " +
            `${MAX_BULK_SHORTS} NewShorts: an item without a valid \`url\`, with a malformed name or ` +
            "an unknown property) is 400, naming the item (`shorts.3.url`), and creates nothing. " +
            "Otherwise each item is created as POST /shorts would create it, or refused as POST " +
            "/shorts would refuse what the stored data decides: the answer is 200 with one result per " +
            "item, in order, holding the created short (status 201) or the error (400: its name is " +
            `reserved, it is a password past the first ${MAX_BULK_PASSWORDS}, or it sets findIfExists (POST /shorts ` +
            "only); 409: its name is taken, " +
            "also by an earlier item), with the same body. The other items are created even when some fail.",
          SHORT_REFUSALS,
        ),
        security,
        headers: IdempotencyHeaders,
        body: NewShortsBulk,
        response: {
          200: BulkShortResults.describe("One result per item, in the order sent"),
          400: ErrorBody.describe(
            `The body is not {"shorts": [...]} of at most ${MAX_BULK_SHORTS} NewShorts (the message names the first bad item's field); nothing is created`,
          ),
          401: unauthorized,
          413: ErrorBody.describe(`The body is larger than ${BULK_BODY_LIMIT} bytes`),
          415: ErrorBody.describe("The body is not JSON"),
          422: replayed,
          default: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const sent = request.body;
      let passwords = 0;
      const items = await Promise.all(
        sent.shorts.map((item) => {
          // Each item would need a lookup of its own: one request per short that may exist.
          if (item.findIfExists)
            return new BadRequest("findIfExists is taken by POST /shorts only, one short at a time");
          if (item.password !== undefined && ++passwords > MAX_BULK_PASSWORDS) {
            return new BadRequest(
              `at most ${MAX_BULK_PASSWORDS} shorts of one bulk request may set a password; set this one's with PATCH`,
            );
          }
          return item;
        }),
      ).then((checked) => prepareAll(request.user.id, checked));
      const create = async (db = app.prisma): Promise<BulkShortResults> => ({
        results: (await shorts.createMany(request.user.id, items, db)).map(toResult),
      });
      const key = request.headers["idempotency-key"];
      if (key === undefined) return reply.code(200).send(await create());
      const answer = await idempotencyKeys.answerOnce(
        app.prisma,
        { userId: request.user.id, key, hash: requestHash("createShorts", sent) },
        async (tx) => ({ status: 200, body: JSON.stringify(z.encode(BulkShortResults, await create(tx))) }),
      );
      return sendAnswer(reply, answer);
    },
  );

  app.get(
    "/shorts/:id",
    {
      schema: {
        operationId: "getShort",
        tags: ["shorts"],
        summary: "One of the caller's shorts",
        security,
        params: ShortIdParams,
        response: { 200: Short, 401: unauthorized, 404: notFound, default: ErrorBody },
      },
    },
    async (request) => shorts.get(request.user.id, request.params.id),
  );

  app.patch(
    "/shorts/:id",
    {
      schema: {
        operationId: "updateShort",
        tags: ["shorts"],
        summary: "Edit a short: its target, name, domain or tags",
        description: withRefusals(
          "Changes the fields sent, under the rules of create. The redirect follows a new target, name " +
            "or domain at once, on every instance; the old short URL stops redirecting and its name is " +
            "free again on its domain. A name taken on the short's (new) domain is 409; a reserved one 400.",
          SHORT_REFUSALS,
        ),
        security,
        params: ShortIdParams,
        body: ShortEdit,
        response: {
          200: Short.describe("The short as edited"),
          400: ErrorBody.describe("The body is not understood, or the name is reserved"),
          401: unauthorized,
          404: notFound,
          409: ErrorBody.describe("The name is already taken"),
          413: ErrorBody.describe("The body is too large"),
          415: ErrorBody.describe("The body is not JSON"),
          default: ErrorBody,
        },
      },
    },
    async (request) => {
      const { domain, ...edit } = request.body;
      const to = domain === undefined ? undefined : await domains.usable(request.user.id, domain);
      return shorts.update(request.user.id, request.params.id, { ...edit, domain: to });
    },
  );

  app.delete(
    "/shorts/:id",
    {
      schema: {
        operationId: "deleteShort",
        tags: ["shorts"],
        summary: "Delete a short and its logs",
        security,
        params: ShortIdParams,
        response: {
          // No body and no content type: `undefined` renders as a response without content.
          204: z.undefined().describe("Deleted; no body"),
          401: unauthorized,
          404: notFound,
          default: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      await shorts.delete(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    "/shorts/:id/logs",
    {
      schema: {
        operationId: "listShortLogs",
        tags: ["shorts"],
        summary: "The visits of one of the caller's shorts, newest first",
        description:
          "JSON by default. With `format=csv` or `Accept: text/csv`, every visit the query selects is " +
          "streamed as CSV (a header line, then one line per visit; a field starting with =, +, -, @ " +
          "or a tab is prefixed with ' so spreadsheets do not run it).",
        security,
        params: ShortIdParams,
        querystring: LogsQuery,
        response: {
          200: ShortLogList,
          400: ErrorBody,
          401: unauthorized,
          404: notFound,
          default: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!wantsCsv(request.query.format, request.headers.accept)) {
        return shorts.logs(request.user.id, id, request.query);
      }
      const shortId = await shorts.ownedId(request.user.id, id);
      return streamLogsCsv(app.prisma, reply, shortId, request.query);
    },
  );

  app.get(
    "/shorts/:id/qr",
    {
      schema: {
        operationId: "getShortQrCode",
        tags: ["shorts"],
        summary: "A QR code of the short URL",
        description:
          `The short URL (\`shorturl\`) as a QR code (error correction M, a quiet zone of 4 modules), ` +
          `PNG or SVG, ${QR_SIZE.min}-${QR_SIZE.max} pixels square. It follows the short's name: ` +
          "after a rename, fetch it again.",
        security,
        params: ShortIdParams,
        querystring: QrCodeQuery,
        response: {
          200: otherMedia("The QR code", {
            "image/png": { schema: { type: "string", format: "binary", description: "format=png" } },
            "image/svg+xml": { schema: { type: "string", description: "format=svg" } },
          }),
          400: ErrorBody,
          401: unauthorized,
          404: notFound,
          default: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const short = await shorts.get(request.user.id, request.params.id);
      const image = await renderQrCode(short.shorturl, request.query);
      return reply.type(image.contentType).send(image.body);
    },
  );

  app.get(
    "/shorts/:id/stats",
    {
      schema: {
        operationId: "getShortStats",
        tags: ["stats"],
        summary: "Visit statistics of one of the caller's shorts",
        description: withRefusals(
          "Totals, a timeseries in the given time zone and the top 10 referrers, countries, browsers, " +
            "operating systems and device types, from hourly aggregates kept with the visits (exact).",
          STATS_RANGE_REFUSALS,
        ),
        security,
        params: ShortIdParams,
        querystring: StatsQuery,
        response: { 200: ShortStats, 400: ErrorBody, 401: unauthorized, 404: notFound, default: ErrorBody },
      },
    },
    async (request) =>
      stats.forShort(await shorts.ownedId(request.user.id, request.params.id), request.query),
  );

  app.post(
    "/shorts/:id/stats-link",
    {
      schema: {
        operationId: "createStatsLink",
        tags: ["stats"],
        summary: "Create a public link to a short's statistics page",
        description:
          "Anyone with the link sees the page (charts and figures of the short's visits, never a " +
          "visitor's IP or user agent). A new link replaces the previous one, which stops working.",
        security,
        params: ShortIdParams,
        response: { 201: StatsLink, 401: unauthorized, 404: notFound, default: ErrorBody },
      },
    },
    async (request, reply) => {
      const shortId = await shorts.ownedId(request.user.id, request.params.id);
      return reply.code(201).send(await stats.createLink(shortId));
    },
  );

  app.delete(
    "/shorts/:id/stats-link",
    {
      schema: {
        operationId: "deleteStatsLink",
        tags: ["stats"],
        summary: "Revoke the short's public statistics link",
        security,
        params: ShortIdParams,
        response: {
          204: z.undefined().describe("Revoked; no body"),
          401: unauthorized,
          404: plainText("No short with this id belongs to the caller, or it has no link"),
          default: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      await stats.deleteLink(await shorts.ownedId(request.user.id, request.params.id));
      return reply.code(204).send();
    },
  );

  app.get(
    "/stats",
    {
      schema: {
        operationId: "getStats",
        tags: ["stats"],
        summary: "Visit statistics across all of the caller's shorts",
        description: withRefusals(
          "As a short's statistics, over every short of the caller (or those on `domain`), with the top 10 shorts.",
          STATS_RANGE_REFUSALS,
        ),
        security,
        querystring: UserStatsQuery,
        response: { 200: UserStats, 400: ErrorBody, 401: unauthorized, default: ErrorBody },
      },
    },
    async (request) => {
      const { domain, ...query } = request.query;
      if (domain === undefined) return stats.forUser(request.user.id, query);
      return stats.forUser(request.user.id, query, { id: await domains.idOf(domain) });
    },
  );

  app.get(
    "/orphan-visits",
    {
      schema: {
        operationId: "getOrphanVisits",
        tags: ["stats"],
        summary: "Requests on a domain that reached no short: unknown names and the root",
        description: withRefusals(
          "The GET requests on one of the caller's domains (those GET /domains lists) for a name no " +
            "short of the domain has, and for its root (/), whether or not the domain redirects them: " +
            "totals per kind, a timeseries and the top values, with the statistics' range rules. " +
            "Counted per UTC hour, never a row per request; each hour keeps at most 100 distinct names " +
            '(and values of each other dimension), the rest summed under "(other)". Stored about a ' +
            "second after the request. Another user's domain, or one that does not exist, is 404.",
          STATS_RANGE_REFUSALS,
        ),
        security,
        querystring: OrphanVisitsQuery,
        response: {
          200: OrphanVisits,
          400: ErrorBody,
          401: unauthorized,
          404: plainText("The caller may not use this domain, or there is none of this name"),
          default: ErrorBody,
        },
      },
    },
    async (request) => {
      const { domain: host = domains.defaultHost, ...query } = request.query;
      const range = statsRange(query);
      const domain = await domains.usableOrNull(request.user.id, host);
      if (!domain) throw new NotFound();
      const { kinds, hosts: _hosts, ...figures } = await readOrphanVisits(app.prisma, domain.id, range);
      return { domain: host, ...figures, kinds: { unknownName: kinds.unknownName, root: kinds.root } };
    },
  );
};
