import type { IncomingHttpHeaders } from "node:http";
import { ErrorBody, PasswordForm, SHORT_NAME_PATTERN, ShortName } from "@app/schemas/shortener";
import { type HotAnswer, type HotRoute, hotPathFailure, type RequestOrigin } from "@app/server/hot-path";
import { parse as parseQuery } from "fast-querystring";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DomainEntry } from "./domains/domains.service.ts";
import { NotFound } from "./errors.ts";
import { otherMedia, plainText } from "./openapi.ts";
import { forwardedUrl } from "./shorts/forward-query.ts";
import { PASSWORD_FORM_CSP, passwordForm } from "./shorts/password-form.ts";
import { chooseTarget, type RuleChoice, type VisitorFacts } from "./shorts/redirect-rules.ts";
import type { LimitState } from "./shorts/shorts.service.ts";
import type { Target, TargetRules } from "./shorts/target-cache.ts";
import { Turns } from "./shorts/turns.ts";
import { UNKNOWN_HOST_ID } from "./visits/orphan-visits.ts";
import { ShortGone, type Visit, type VisitLog } from "./visits/visit-log.ts";

// Header values are cut to their column sizes rather than refused: a visit is a visit.
const MAX_USER_AGENT = 1024;
const MAX_REFERER = 2048;
// Read by the redirect rules only; a real header is well under this.
const MAX_ACCEPT_LANGUAGE = 1024;
// The largest password form a browser sends (a password, a referer, their names).
const FORM_BODY_LIMIT = 4096;
// The visited and redirect URLs stored with a visit are cut to their columns.
const MAX_VISIT_URL = 2048;
// A cached redirect would skip the next visit's log row.
const NO_CACHE = "private, no-cache";

function headerText(value: string | string[] | undefined, max: number): string {
  const text = Array.isArray(value) ? value.join(", ") : (value ?? "");
  return text.replaceAll("\u0000", "").slice(0, max);
}

const params = z.object({ name: ShortName.describe("Name of the short; any other value is answered 404") });

const redirect302 = z
  .undefined()
  .describe("Redirect to the target URL (or, once expired, to the short's expiredUrl); no body")
  .meta({
    headers: {
      location: { type: "string", format: "uri", description: "The target URL" },
      "cache-control": {
        type: "string",
        enum: [NO_CACHE],
        description: "A cached redirect would skip the next visit's log row",
      },
    },
  });

const html = (description: string) =>
  otherMedia(description, { "text/html": { schema: { type: "string" } } });
const notFound = plainText(
  "No short has this name on the request's domain (which has no URL for unknown names), or it is " +
    "expired (outside its window or past its visit limit), or the request's Host names no domain",
);

/** How a short is looked up: on the domain the request's Host reaches (docs/adr/0221). */
const BY_HOST =
  "The name is looked up on the domain the request's Host names (letter case and port ignored; " +
  "X-Forwarded-Host when TRUST_PROXY trusts the sender): a registered domain's host, or the " +
  "default domain's (SHORT_BASE_URL's), which also answers any other host while no domain is " +
  "registered. A name the domain has no short of redirects to the domain's URL for unknown names " +
  "when the operator set one (302, no visit). A GET of a name the domain has no short of, of the " +
  "domain's root, or of a Host that names no domain is counted as an orphan visit (GET /api/orphan-visits). ";

type Query = Record<string, string | string[] | undefined>;

/**
 * What the redirect rules may ask of a visitor, from the request's headers, client address and
 * query (parsed only when a rule asks), each worked out only when a condition does.
 */
const visitorFacts =
  (enricher: VisitLog["enricher"]) =>
  (headers: IncomingHttpHeaders, ip: string, query: () => Query): VisitorFacts => ({
    agent: () => enricher.agentOf(headerText(headers["user-agent"], MAX_USER_AGENT)),
    ip: () => ip,
    // From the full address, whatever VISIT_IP keeps of it (as the visit's country is).
    country: () => enricher.countryOf(ip),
    acceptLanguage: () => headerText(headers["accept-language"], MAX_ACCEPT_LANGUAGE),
    query: (param) => {
      const values = query();
      const value = Object.hasOwn(values, param) ? values[param] : undefined;
      return value === undefined ? [] : Array.isArray(value) ? value : [value];
    },
  });

/** The query text of a request's URL (after "?"), "" when none. */
const queryText = (url: string) => {
  const at = url.indexOf("?");
  return at === -1 ? "" : url.slice(at + 1);
};

/** Where a visit goes: the chosen URL, with the visit's query when the short forwards it. */
const locationOf = (target: Target, chosen: string, url: string) =>
  target.forwardQuery ? forwardedUrl(chosen, queryText(url)) : chosen;

/**
 * What a visit row keeps of its URLs (Shlink's visitedUrl and redirectUrl): the short URL as its
 * domain names it with the request's path and query, and the Location answered. Over-long ones
 * are cut to the columns (a Location over 2,048 characters is sent whole all the same).
 */
const visitUrls = (base: string, url: string, location: string) => ({
  visitedUrl: (base + url).slice(0, MAX_VISIT_URL),
  redirectUrl: location.slice(0, MAX_VISIT_URL),
});

/**
 * The public redirect: resolve the name, store the visit, answer 302. A short with a window, a
 * visit limit or a password (target.rules) takes the slower path below; every other short stays
 * a cached lookup and a group-committed visit.
 */
/**
 * `surfaces`: one-segment names another surface of the service answers below (`manage`: the UI
 * at /manage/). The bare name is a short's where the Host's domain has one (docs/adr/0270: an
 * upgraded database's short keeps its path), else a redirect to the surface's address.
 */
export const redirectRoutes: FastifyPluginAsyncZod<{ surfaces?: Record<string, string> }> = async (
  app,
  { surfaces = {} },
) => {
  const { shorts, domains, visitLog, passwordAttempts, passwords, orphanVisits } = app;
  const surfaceOf = new Map(Object.entries(surfaces));
  // A limited short's visits, one at a time per short in this instance: they would wait for its
  // row lock in the database anyway (holding a pooled connection each), and once one finds the
  // limit reached, those behind it are answered without the database.
  const countedTurns = new Turns();
  // The password form posts application/x-www-form-urlencoded, here only.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const visitOf = (request: FastifyRequest, referer = request.headers.referer): Visit => ({
    shortId: "",
    ipAddress: request.ip,
    userAgent: headerText(request.headers["user-agent"], MAX_USER_AGENT),
    referer: headerText(referer, MAX_REFERER),
  });

  const facts = visitorFacts(visitLog.enricher);
  /** What the redirect rules may ask of the request's visitor, worked out only when they do. */
  const visitorOf = (request: FastifyRequest): VisitorFacts =>
    facts(request.headers, request.ip, () => request.query as Query);

  /**
   * Where the visit goes: the first redirect rule that holds, else the short's url, with the
   * visit's query when the short forwards it.
   */
  const destination = (request: FastifyRequest, target: Target): RuleChoice => {
    const choice: RuleChoice = target.redirectRules
      ? chooseTarget(target.url, target.redirectRules, visitorOf(request))
      : { url: target.url };
    choice.url = locationOf(target, choice.url, request.url);
    return choice;
  };

  /** The visit's URLs for its row, on the domain the request reached. */
  const urlsOf = (request: FastifyRequest, domain: DomainEntry, location: string) =>
    visitUrls(shorts.baseUrlOf(domain.host), request.url, location);

  const redirectTo = (reply: FastifyReply, url: string) =>
    reply.header("cache-control", NO_CACHE).redirect(url, 302);

  /** The domain the request's Host reaches; none: 404, an orphan visit (docs/adr/0227). */
  const domainOf = async (request: FastifyRequest): Promise<DomainEntry> => {
    const domain = await domains.forHost(request.hostname);
    if (!domain) {
      orphanVisits.count("host", UNKNOWN_HOST_ID, request.hostname, request);
      throw new NotFound();
    }
    return domain;
  };

  /**
   * A name the domain has no short of: its URL for unknown names, else 404; never a visit of a
   * short, an orphan visit either way (docs/adr/0227).
   */
  const unknownName = (request: FastifyRequest, reply: FastifyReply, domain: DomainEntry, name: string) => {
    orphanVisits.count("name", domain.id, name, request);
    if (domain.notFoundUrl === null) throw new NotFound();
    return redirectTo(reply, domain.notFoundUrl);
  };

  /** Outside its window or past its limit: the expired URL, else 404; never a visit. */
  const expired = (reply: FastifyReply, rules: Pick<TargetRules, "expiredUrl">) => {
    if (rules.expiredUrl === null) throw new NotFound();
    return redirectTo(reply, rules.expiredUrl);
  };

  const form = (reply: FastifyReply, status: number, content: Parameters<typeof passwordForm>[0] = {}) =>
    reply
      .code(status)
      .header("content-security-policy", PASSWORD_FORM_CSP)
      .header("x-content-type-options", "nosniff")
      // The form's post carries no Referer (the visit takes the one the form was opened with).
      .header("referrer-policy", "no-referrer")
      .header("cache-control", "no-store")
      .type("text/html; charset=utf-8")
      .send(passwordForm(content));

  /** Whether the short's limit is reached now (from the database); null: the short is gone. */
  const limitReached = async (target: Target): Promise<boolean | null> => {
    const state = await shorts.limitState(target.id);
    if (state === null) return null;
    const reached = state.maxVisits !== null && state.countedVisits >= state.maxVisits;
    // The count only grows: until an edit of the limit replaces this entry, no need to ask again.
    if (reached && target.rules) target.rules.limitReached = true;
    return reached;
  };

  /**
   * Stores the visit as the short's limit says, as the database has it: a visit the cache sent
   * the wrong way (a limit set or removed meanwhile) is refused and sent the other way. Answers
   * null once stored, or the short's state when its limit refused the visit; 404 once it is gone.
   */
  const storeVisit = async (target: Target, visit: Visit): Promise<Pick<LimitState, "expiredUrl"> | null> => {
    let limited = target.rules?.maxVisits != null;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        if (!limited) await visitLog.record(visit);
        else {
          const reached = await countedTurns.run(target.id, async () => {
            // A visit ahead of this one found the limit reached: the count only grows.
            if (target.rules?.limitReached) return true;
            await visitLog.recordCounted(visit);
            return false;
          });
          if (reached) return target.rules ?? { expiredUrl: null };
        }
        return null;
      } catch (error) {
        if (!(error instanceof ShortGone)) throw error;
      }
      const state = await shorts.limitState(target.id);
      if (state === null) throw new NotFound();
      if (state.maxVisits !== null && state.countedVisits >= state.maxVisits) {
        if (target.rules) target.rules.limitReached = true;
        return state;
      }
      limited = state.maxVisits !== null;
    }
    throw new Error("visit refused three times while its short's limit kept changing");
  };

  /**
   * A short with rules: its window, its limit, its password. `posted`: what a POST carried;
   * undefined for GET and HEAD, which never store a visit of a protected short.
   */
  const followRestricted = async (
    request: FastifyRequest,
    reply: FastifyReply,
    domain: DomainEntry,
    target: Target,
    posted: PasswordForm | undefined,
  ) => {
    const rules = target.rules;
    if (!rules) return followPlain(request, reply, domain, target);
    const now = Date.now();
    if (
      (rules.validFrom !== null && now < rules.validFrom) ||
      (rules.validUntil !== null && now >= rules.validUntil) ||
      rules.limitReached
    ) {
      return expired(reply, rules);
    }
    const limited = rules.maxVisits !== null;
    if (rules.passwordHash !== null) {
      if (posted === undefined) {
        // No point asking for the password of a short that will not redirect.
        const reached = limited ? await limitReached(target) : false;
        if (reached === null) throw new NotFound();
        if (reached) return expired(reply, rules);
        return form(reply, 200, { referer: headerText(request.headers.referer, MAX_REFERER) });
      }
      const referer = posted.referer;
      if (!posted.password) return form(reply, 401, { message: "Enter the password.", referer });
      const attempt = await passwordAttempts.spend(request, target.id);
      if (!attempt.allowed) {
        const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
        return form(reply.header("retry-after", String(attempt.retryAfterSeconds)), 429, {
          message: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          referer,
        });
      }
      if (!(await passwords.verify(posted.password, rules.passwordHash))) {
        return form(reply, 401, { message: "Wrong password. Try again.", referer });
      }
    }
    // Past the window, the limit and the password: the redirect rules pick the URL.
    const choice = destination(request, target);
    if (request.method === "HEAD") {
      const reached = limited ? await limitReached(target) : false;
      if (reached === null) throw new NotFound();
      return reached ? expired(reply, rules) : redirectTo(reply, choice.url);
    }
    const visit = {
      ...visitOf(request, posted?.referer ?? request.headers.referer),
      shortId: target.id,
      rule: choice.rule,
      ...urlsOf(request, domain, choice.url),
    };
    const refused = await storeVisit(target, visit);
    return refused ? expired(reply, refused) : redirectTo(reply, choice.url);
  };

  /**
   * A short without a window, limit or password: one with redirect rules (its visits still
   * group-committed), or off the fast path (a POST, or a visit the cache sent the wrong way).
   */
  const followPlain = async (
    request: FastifyRequest,
    reply: FastifyReply,
    domain: DomainEntry,
    target: Target,
  ) => {
    const choice = destination(request, target);
    if (request.method !== "HEAD") {
      // A limit set meanwhile may refuse it: expired, as the database has it.
      const refused = await storeVisit(target, {
        ...visitOf(request),
        shortId: target.id,
        rule: choice.rule,
        ...urlsOf(request, domain, choice.url),
      });
      if (refused) return expired(reply, refused);
    }
    return redirectTo(reply, choice.url);
  };

  app.get(
    "/:name",
    {
      // The visit row is the redirect's access log: a log line per visit would only cost
      // throughput (docs/performance.md). Warnings and errors are still logged.
      logLevel: "warn",
      schema: {
        operationId: "followShort",
        tags: ["redirect"],
        summary: "Follow a short URL",
        description:
          BY_HOST +
          "Answers 302 to the target and records one ShortLog row (stored before the answer is sent). " +
          "HEAD answers the same without recording a visit. A short with redirect rules sends the " +
          "visitor to the first rule's url whose conditions all hold (device, language, country, query " +
          "parameters, address, date, browser), else to its url, and the visit records the rule. A short " +
          "with forwardQuery sends the request's query on to that url. The visit stores the URL visited " +
          "and the Location answered. Outside the short's validity window or " +
          "past its visit limit: 302 to its expiredUrl, or 404, and no visit. A password-protected " +
          "short answers a form instead (200, HTML, no visit), which posts the password back (POST).",
        security: [],
        // A name no short can have is 404 like an unknown one (the error handler answers every
        // invalid path parameter so).
        params,
        response: {
          200: html("The password form of a protected short (no visit is recorded)"),
          // No body and no content type: `undefined` renders as a response without content.
          302: redirect302,
          404: notFound,
          503: ErrorBody.describe("The database is unavailable; try again shortly"),
        },
      },
    },
    async (request, reply) => {
      // The hot path's visit failed (the database is away): answered as such, not tried again.
      const failed = hotPathFailure(request.raw);
      if (failed !== undefined) throw failed;
      const { name } = request.params;
      const surface = surfaceOf.get(name);
      if (surface !== undefined) {
        const host = await domains.forHost(request.hostname);
        const short =
          host && (shorts.cachedTarget(host.id, name) ?? (await shorts.findTarget(host.id, name)));
        if (!short) {
          const query = request.url.indexOf("?");
          return redirectTo(reply, query < 0 ? surface : `${surface}${request.url.slice(query)}`);
        }
      }
      // From memory without an await when the domain and the target are there (a busy short):
      // each await is a promise and a turn of the microtask queue on every redirect.
      const domain = domains.inMemoryForHost(request.hostname) ?? (await domainOf(request));
      const target = shorts.cachedTarget(domain.id, name) ?? (await shorts.findTarget(domain.id, name));
      if (!target) return unknownName(request, reply, domain, name);
      if (target.rules) return followRestricted(request, reply, domain, target, undefined);
      if (target.redirectRules) return followPlain(request, reply, domain, target);
      const location = locationOf(target, target.url, request.url);
      if (request.method === "GET") {
        try {
          await visitLog.record({
            shortId: target.id,
            ipAddress: request.ip,
            userAgent: headerText(request.headers["user-agent"], MAX_USER_AGENT),
            referer: headerText(request.headers.referer, MAX_REFERER),
            ...urlsOf(request, domain, location),
          });
        } catch (error) {
          if (!(error instanceof ShortGone)) throw error;
          // Deleted, or given a visit limit since the cache read it (the batch refuses limited
          // shorts): the database decides.
          const fresh = await shorts.readTarget(domain.id, name);
          if (fresh?.id !== target.id) throw new NotFound();
          return followRestricted(request, reply, domain, fresh, undefined);
        }
      }
      return redirectTo(reply, location);
    },
  );

  app.post(
    "/:name",
    {
      logLevel: "warn",
      schema: {
        operationId: "unlockShort",
        tags: ["redirect"],
        summary: "Post the password of a protected short",
        description:
          BY_HOST +
          "What the password form sends. The right password answers the redirect (302) and records " +
          "the visit; a wrong or missing one answers the form again with a message (401). Attempts " +
          "are limited per short and client address (10 in 10 minutes): past that, 429 with the form " +
          "and Retry-After. A short without a password answers as GET does.",
        security: [],
        params,
        consumes: ["application/x-www-form-urlencoded", "application/json"],
        body: PasswordForm.optional(),
        response: {
          302: redirect302,
          400: ErrorBody.describe("The body is not understood"),
          401: html("The form again, saying the password was wrong or missing"),
          404: notFound,
          413: ErrorBody.describe("The body is too large"),
          415: ErrorBody.describe("The body is neither a form nor JSON"),
          429: html("The form, saying to wait").meta({
            headers: {
              "retry-after": {
                type: "integer",
                description: "Seconds until this address may try this short's password again",
              },
            },
          }),
          503: ErrorBody.describe("The database is unavailable; try again shortly"),
        },
      },
    },
    async (request, reply) => {
      const domain = await domainOf(request);
      const target = await shorts.findTarget(domain.id, request.params.name);
      if (!target) return unknownName(request, reply, domain, request.params.name);
      return followRestricted(request, reply, domain, target, request.body ?? {});
    },
  );

  app.get(
    "/robots.txt",
    {
      logLevel: "warn",
      schema: {
        operationId: "getRobots",
        tags: ["redirect"],
        summary: "robots.txt of a domain",
        description:
          "As Shlink's: `User-agent: *`, an `Allow: /<name>` line for each crawlable short of the " +
          "domain the request's Host names (by name), then `Disallow: /`, so that crawlers reach only " +
          "the shorts made crawlable (`crawlable: true`). A Host that names no domain is answered " +
          "`Disallow: /` alone. Never an orphan visit.",
        security: [],
        response: {
          200: plainText("The robots.txt"),
          503: ErrorBody.describe("The database is unavailable; try again shortly"),
        },
      },
    },
    async (request, reply) => {
      const domain = await domains.forHost(request.hostname);
      const names = domain ? await shorts.crawlableNames(domain.id) : [];
      const lines = [
        "# For more information about the robots.txt standard, see:",
        "# https://www.robotstxt.org/orig.html",
        "",
        "User-agent: *",
        ...names.map((name) => `Allow: /${name}`),
        "Disallow: /",
      ];
      return reply.type("text/plain; charset=utf-8").send(`${lines.join("\n")}\n`);
    },
  );

  app.get(
    "/",
    {
      logLevel: "warn",
      schema: {
        operationId: "followDomainRoot",
        tags: ["redirect"],
        summary: "The root of a domain",
        description:
          "Redirects to the URL the operator set for the root of the domain the request's Host names " +
          "(as for a short), or answers 404 when there is none. HEAD answers the same. A GET is " +
          "counted as an orphan visit of the domain (GET /api/orphan-visits).",
        security: [],
        response: {
          302: z
            .undefined()
            .describe("Redirect to the domain's root URL; no body")
            .meta({
              headers: {
                location: { type: "string", format: "uri", description: "The domain's root URL" },
                "cache-control": {
                  type: "string",
                  enum: [NO_CACHE],
                  description: "Not cached: it may change",
                },
              },
            }),
          404: plainText("The request's Host names no domain, or its domain has no root URL"),
          503: ErrorBody.describe("The database is unavailable; try again shortly"),
        },
      },
    },
    async (request, reply) => {
      const domain = await domainOf(request);
      orphanVisits.count("root", domain.id, "", request);
      if (domain.rootUrl === null) throw new NotFound();
      return redirectTo(reply, domain.rootUrl);
    },
  );
};

/**
 * The redirect of a short the cache holds with no window, limit or password (the busy case, with
 * or without redirect rules), answered before Fastify (docs/adr/0240): the same rule chosen, the
 * same visit row, stored before the same 302. Every other request, and a visit the batch refuses
 * (ShortGone: deleted or limited since the cache read it), is answered by the routes above.
 */
export function hotRedirect(app: FastifyInstance, origin: RequestOrigin): HotRoute {
  const { domains, shorts, visitLog } = app;
  const facts = visitorFacts(visitLog.enricher);
  return (request) => {
    const url = request.url ?? "";
    if (request.method !== "GET" || url[0] !== "/") return undefined;
    const queryAt = url.indexOf("?");
    const name = queryAt === -1 ? url.slice(1) : url.slice(1, queryAt);
    // Anything Fastify would decode or route elsewhere (%xx, a second segment) is not a plain name.
    if (!SHORT_NAME_PATTERN.test(name)) return undefined;
    const domain = domains.inMemoryForHost(origin.hostname(request));
    const target = domain && shorts.cachedTarget(domain.id, name);
    if (!target || target.rules) return undefined;
    const ip = origin.ip(request) ?? "";
    // The query as Fastify's router parses it (fast-querystring), for a rule that asks.
    const query = () => (queryAt === -1 ? {} : (parseQuery(url.slice(queryAt + 1)) as Query));
    const choice: RuleChoice = target.redirectRules
      ? chooseTarget(target.url, target.redirectRules, facts(request.headers, ip, query))
      : { url: target.url };
    const location = target.forwardQuery ? forwardedUrl(choice.url, queryText(url)) : choice.url;
    // One answer per request: the hot path adds this request's id to its headers.
    const answer: HotAnswer = { status: 302, headers: { "cache-control": NO_CACHE, location } };
    return () =>
      visitLog
        .record({
          shortId: target.id,
          ipAddress: ip,
          userAgent: headerText(request.headers["user-agent"], MAX_USER_AGENT),
          referer: headerText(request.headers.referer, MAX_REFERER),
          rule: choice.rule,
          ...visitUrls(shorts.baseUrlOf(domain!.host), url, location),
        })
        .then(
          () => answer,
          // Refused (the short was deleted or given a limit since the cache read it): the route
          // answers it from the start, as the database has the short now.
          (error: unknown) => {
            if (error instanceof ShortGone) return undefined;
            throw error;
          },
        );
  };
}
