import { maxHeaderSize, type Server } from "node:http";
import type { PrismaClient } from "@app/db";
import { registerApiReference } from "@app/server/api-reference";
import { fastifyTrustProxy } from "@app/server/config";
import { HotPath, requestOrigin } from "@app/server/hot-path";
import {
  AccessLog,
  acceptEmptyJsonBodies,
  capConnections,
  clientErrorHandler,
  connectionOptions,
  drainOnStop,
  echoRequestIds,
  lazyRequestLogger,
  logShutdown,
  methodGuard,
  requestId,
  zodSchemaController,
} from "@app/server/http";
import { createRegistry, instrumentRequests } from "@app/server/metrics";
import { registerReplicaReads } from "@app/server/replica-reads";
import Fastify, { type FastifyHttpOptions, type FastifyServerOptions } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { apiRoutes } from "./api.routes.ts";
import type { ShortenerConfig } from "./config.ts";
import domainsPlugin from "./domains/domains.service.ts";
import errorHandler, { clientErrorBody, sendErrorFor } from "./error-handler.ts";
import { MethodNotAllowed } from "./errors.ts";
import { healthRoutes } from "./health.routes.ts";
import { loggerOptions, SERVICE } from "./logger.ts";
import { MANAGE_UI_PREFIX, manageUiRoutes } from "./manage-ui.routes.ts";
import openApi from "./openapi.ts";
import { hotRedirect, redirectRoutes } from "./redirect.routes.ts";
import { reservedNames } from "./reserved-names.ts";
import restCors from "./shlink/cors.ts";
import { REST_PREFIX } from "./shlink/problems.ts";
import { shlinkRoutes } from "./shlink/shlink.routes.ts";
import passwordAttemptsPlugin from "./shorts/password-attempts.ts";
import { type PasswordHasher, scryptHasher } from "./shorts/password-hash.ts";
import shortsPlugin from "./shorts/shorts.service.ts";
import statsPlugin from "./stats/stats.service.ts";
import { statsPageRoutes } from "./stats/stats-page.routes.ts";
import "./types.ts";
import orphanVisitsPlugin from "./visits/orphan-visits.ts";
import visitLogPlugin from "./visits/visit-log.ts";
import visitMaintenancePlugin from "./visits/visit-maintenance.ts";

export interface BuildAppOptions {
  config: ShortenerConfig;
  prisma: PrismaClient;
  /** `true` for JSON logs at LOG_LEVEL, or pino options (e.g. a `stream`); default: no logs. */
  logger?: FastifyServerOptions["logger"];
  /** Protected shorts' password hashing; default scrypt at PRODUCTION_COST (tests pass a cheap one). */
  passwords?: PasswordHasher;
}

/** The shortener as a Fastify plugin graph: external plugins, app services, routes. */
export async function buildApp({
  config,
  prisma,
  logger = false,
  passwords = scryptHasher(),
}: BuildAppOptions) {
  // The cached redirect is answered before Fastify (docs/adr/0240); everything else by Fastify.
  const hotPath = new HotPath();
  const trustProxy = fastifyTrustProxy(config.TRUST_PROXY);
  const app = Fastify({
    serverFactory: hotPath.serverFactory,
    logger: loggerOptions(logger, config.LOG_LEVEL),
    genReqId: requestId,
    logController: new AccessLog(),
    childLoggerFactory: lazyRequestLogger,
    ...connectionOptions(config),
    trustProxy,
    bodyLimit: config.BODY_LIMIT,
    schemaController: zodSchemaController,
    // A request that reaches a closing server (on a connection it had accepted) is served:
    // the planned stop keeps the proxy from sending one, and a 503 would be a client error.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(clientErrorBody),
    // Every path parameter a request line can carry reaches its route, which answers 404 for a
    // name or id too long to exist (after authentication, as any other unknown id). The
    // router's limit guards regular-expression parameters, which the shortener has none of.
    routerOptions: { maxParamLength: maxHeaderSize },
    // Errors the router raises before any route runs (bad URL encoding).
    frameworkErrors: sendErrorFor,
  } satisfies FastifyHttpOptions<Server>).withTypeProvider<ZodTypeProvider>();
  echoRequestIds(app);
  // The API speaks JSON only: any other body is 415, not a confusing 400.
  app.removeContentTypeParser("text/plain");
  acceptEmptyJsonBodies(app);
  capConnections(app, config);
  drainOnStop(app);
  const methods = methodGuard(app);

  // External plugins.
  await app.register(openApi, { config });

  // App services.
  const metrics = createRegistry(SERVICE, prisma);
  const durations = instrumentRequests(app, metrics);
  app.decorate("metrics", metrics);
  app.decorate("prisma", prisma);
  app.decorate("passwords", passwords);
  registerReplicaReads(app, prisma, config, metrics);
  app.decorate("apiPrefix", config.SHORTENER_API_PREFIX);
  await app.register(errorHandler);
  // CORS on /rest only, on every answer there (errors and 404s too): before any route.
  await app.register(restCors, { allowOrigin: config.SHLINK_CORS_ALLOW_ORIGIN });
  // The stop line, then the visit log: onClose hooks run last-added first, so the line counts
  // the visits the drain stores.
  const tally = logShutdown(app, SERVICE, () => [
    `${app.visitLog.storedWhileStopping} visits stored while stopping`,
  ]);
  await app.register(visitLogPlugin, { ipMode: config.VISIT_IP });
  await app.register(orphanVisitsPlugin, { ipMode: config.VISIT_IP });
  await app.register(statsPlugin, { shortBaseUrl: config.SHORT_BASE_URL });
  await app.register(visitMaintenancePlugin, { retentionDays: config.VISIT_RETENTION_DAYS });
  await app.register(domainsPlugin, { shortBaseUrl: config.SHORT_BASE_URL });
  // One listening connection: the domains' changes come on the redirect cache's channel.
  await app.register(shortsPlugin, {
    shortBaseUrl: config.SHORT_BASE_URL,
    reservedNames: reservedNames(config.SHORTENER_API_PREFIX),
    onNotified: (payload) => app.domains.changed(payload),
  });
  app.domains.hearChangesThrough(() => app.shorts.listening);
  await app.register(passwordAttemptsPlugin, {
    redisUrl: config.REDIS_URL,
    redisTimeoutMs: config.REDIS_TIMEOUT_MS,
  });

  // Routes.
  app.get(
    "/docs",
    { schema: { hide: true } },
    // Built on first request: by then every route is registered.
    async () => app.swagger(),
  );
  // Shlink's API, described by Shlink's names (docs/adr/0276): a document of its own.
  app.get(`${REST_PREFIX}/docs`, { schema: { hide: true } }, async () => app.restSwagger());
  await registerApiReference(app, {
    documents: [
      { url: "/docs", name: "OpenAPI document (/docs)" },
      { url: `${REST_PREFIX}/docs`, name: "Shlink REST API (/rest/docs)" },
    ],
  });
  await app.register(healthRoutes);
  await app.register(apiRoutes, { prefix: config.SHORTENER_API_PREFIX });
  // Shlink's REST API over the same model (docs/adr/0263); its CORS is registered above.
  await app.register(shlinkRoutes, { prefix: REST_PREFIX, shortBaseUrl: config.SHORT_BASE_URL });
  await app.register(statsPageRoutes);
  if (config.SHORTENER_MANAGE_UI === "on") await app.register(manageUiRoutes);
  // Bare /manage: a short's where its domain has one, else the UI's /manage/ (docs/adr/0270).
  await app.register(redirectRoutes, {
    surfaces: config.SHORTENER_MANAGE_UI === "on" ? { manage: `${MANAGE_UI_PREFIX}/` } : {},
  });
  hotPath.use(
    { pattern: "/:name", route: hotRedirect(app, requestOrigin(trustProxy)) },
    { plannedStop: app.plannedStop, tally, durations },
  );
  // A closing server's answers carry Connection: close, which Fastify adds.
  app.addHook("preClose", (done) => {
    hotPath.stop();
    done();
  });
  app.decorate("hotPath", hotPath);
  // Last: every path answers the methods it does not offer with 405 + Allow.
  methods.refuseOtherMethods((allow) => new MethodNotAllowed(allow));
  return app;
}

export type ShortenerApp = Awaited<ReturnType<typeof buildApp>>;
