// The scheduling API as a plugin graph, without a process around it (that is server.ts):
// external plugins, then app services, then routes. Tests build exactly this.
import type { PrismaClient } from "@app/db";
import { fastifyTrustProxy } from "@app/server/config";
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
import Fastify, { type FastifyReply, type FastifyServerOptions } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import auth, { AUTH_CACHE_MS } from "./auth.ts";
import calendars from "./calendars/calendars.ts";
import type { SchedulingConfig } from "./config.ts";
import errorHandler, { clientErrorBody, toResponse } from "./error-handler.ts";
import { MethodNotAllowed } from "./errors.ts";
import { calendarFeedRoutes } from "./feed/calendar-feed.routes.ts";
import { healthRoutes } from "./health.routes.ts";
import hosting from "./hosting/hosting.ts";
import { loggerOptions, SERVICE } from "./logger.ts";
import mail from "./mail/mail.ts";
import { meRoutes } from "./me.routes.ts";
import openApi from "./openapi.ts";
import { publicRoutes } from "./public.routes.ts";
import rateLimit from "./rate-limit.ts";
import { resourceRoutes, resources } from "./resources/index.ts";
import { createRewriteUrl } from "./rewrite.ts";
import { availabilityRoutes } from "./slots/availability.routes.ts";
import { slotsRoutes } from "./slots/slots.routes.ts";
import "./types.ts";

export interface BuildAppOptions {
  config: SchedulingConfig;
  /** Owned by the caller, who disconnects it after closing the app. */
  prisma: PrismaClient;
  /** `true` for JSON logs at LOG_LEVEL, or pino options (e.g. a `stream`); default: no logs. */
  logger?: FastifyServerOptions["logger"];
  /** A caller-owned Redis client for the rate-limit counters; otherwise one is opened for REDIS_URL. */
  redis?: Redis;
  /** Hosted mode: the migrations tenant databases are brought up to (default: prisma/migrations). */
  tenantMigrationsDir?: string;
  /**
   * How long a key (or, hosted, a tenant) found is trusted on this instance; default
   * AUTH_CACHE_MS. Tests of what the bound allows shorten it, tests of notifications lengthen it.
   */
  authCacheMs?: number;
}

/** Every first path segment served under /api/v1, also answered bare (v1's fallback rewrite). */
export const API_SEGMENTS = [...resources.map((resource) => resource.path), "me", "slots", "availability"];

export async function buildApp({
  config,
  prisma,
  logger,
  redis,
  tenantMigrationsDir,
  authCacheMs = AUTH_CACHE_MS,
}: BuildAppOptions) {
  const app = Fastify({
    logger: loggerOptions(logger, config.LOG_LEVEL),
    genReqId: requestId,
    logController: new AccessLog(),
    childLoggerFactory: lazyRequestLogger,
    ...connectionOptions(config),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    rewriteUrl: createRewriteUrl(API_SEGMENTS).rewriteUrl,
    schemaController: zodSchemaController,
    // A request that reaches a closing server (on a connection it had accepted) is served:
    // the planned stop keeps the proxy from sending one, and a 503 would be a client error.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(clientErrorBody),
    // Selected-calendar ids embed an external calendar id, which can be long.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // Errors the router raises before any route runs (bad URL encoding, over-long ids).
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const { status, body } = toResponse(error, request);
      void reply.code(status).send(body);
    },
  }).withTypeProvider<ZodTypeProvider>();

  // External plugins
  acceptEmptyJsonBodies(app);
  capConnections(app, config);
  drainOnStop(app);
  logShutdown(app, SERVICE);
  echoRequestIds(app);
  const methods = methodGuard(app);
  await app.register(openApi, { hostedMode: config.HOSTED_MODE });

  // App services
  app.decorate("prisma", prisma);
  const metrics = createRegistry(SERVICE, prisma);
  instrumentRequests(app, metrics);
  app.decorate("metrics", metrics);
  registerReplicaReads(app, prisma, config, metrics);
  await app.register(errorHandler);
  await app.register(hosting, { config, tenantCacheMs: authCacheMs, migrationsDir: tenantMigrationsDir });
  await app.register(mail, { config });
  await app.register(calendars, { config });
  await app.register(auth, { prefix: config.APIKEY_PREFIX, cacheMs: authCacheMs });
  await app.register(rateLimit, {
    max: config.RATE_LIMIT_MAX,
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    redis,
    redisUrl: config.REDIS_URL,
    redisTimeoutMs: config.REDIS_TIMEOUT_MS,
    redisPrefix: config.RATE_LIMIT_REDIS_PREFIX,
  });

  // Routes
  await app.register(publicRoutes);
  await app.register(healthRoutes);
  await app.register(resourceRoutes, { prefix: "/api/v1" });
  await app.register(meRoutes, { prefix: "/api/v1" });
  await app.register(slotsRoutes, { prefix: "/api/v1" });
  await app.register(availabilityRoutes, { prefix: "/api/v1" });
  await app.register(calendarFeedRoutes, { prefix: "/api/v1" });
  // Last: every path answers the methods it does not offer with 405 + Allow (after the apiKey
  // check, unless the path is public).
  methods.refuseOtherMethods((allow) => new MethodNotAllowed(allow));

  return app;
}

export type SchedulingApp = Awaited<ReturnType<typeof buildApp>>;
