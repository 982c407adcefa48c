import type { Server } from "node:http";
import type { PrismaClient } from "@app/db";
import { registerApiReference } from "@app/server/api-reference";
import { fastifyTrustProxy } from "@app/server/config";
import {
  AccessLog,
  acceptEmptyJsonBodies,
  capConnections,
  clientErrorHandler,
  connectionOptions,
  echoRequestIds,
  logShutdown,
  methodGuard,
  requestId,
} from "@app/server/http";
import { createRegistry, instrumentRequests } from "@app/server/metrics";
import { tidyComponents } from "@app/server/openapi";
import fastifySwagger from "@fastify/swagger";
import Fastify, { type FastifyHttpOptions, type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { apiRoutes } from "./api.routes.ts";
import type { ShortenerConfig } from "./config.ts";
import { clientErrorBody, registerErrorHandler, sendErrorFor } from "./error-handler.ts";
import { MethodNotAllowed } from "./errors.ts";
import { healthRoutes } from "./health.routes.ts";
import { loggerOptions, SERVICE } from "./logger.ts";
import { visitLogMetrics } from "./metrics.ts";
import { markPlainTextResponses } from "./openapi.ts";
import { redirectRoutes } from "./redirect.routes.ts";
import { ShortsService } from "./shorts.service.ts";
import { createTargetCache } from "./target-cache.ts";
import "./types.ts";
import { VisitLog } from "./visit-log.ts";

export interface BuildAppOptions {
  config: ShortenerConfig;
  prisma: PrismaClient;
  /** `true` for JSON logs at LOG_LEVEL, or pino options (e.g. a `stream`); default: no logs. */
  logger?: FastifyServerOptions["logger"];
}

// Paths the service serves itself, besides the API prefix: never usable as short names
// ("docs" covers /docs/reference too).
const OWN_PATHS = ["docs", "health", "ready", "favicon.ico", "robots.txt"];

/** The shortener as a Fastify plugin graph: external plugins, app services, routes. */
export async function buildApp({ config, prisma, logger = false }: BuildAppOptions) {
  const app = Fastify({
    logger: loggerOptions(logger, config.LOG_LEVEL),
    genReqId: requestId,
    logController: new AccessLog(),
    ...connectionOptions(config),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: config.BODY_LIMIT,
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(clientErrorBody),
    // Errors the router raises before any route runs (bad URL encoding, over-long params).
    frameworkErrors: sendErrorFor,
  } satisfies FastifyHttpOptions<Server>).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  echoRequestIds(app);
  // The API speaks JSON only: any other body is 415, not a confusing 400.
  app.removeContentTypeParser("text/plain");
  acceptEmptyJsonBodies(app);
  capConnections(app, config);
  const methods = methodGuard(app);

  // External plugins.
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "URL Shortening Service API",
        version: "1.0.0",
        description:
          "Shorts (short URLs), their access logs and the current user. API paths are under " +
          `${config.SHORTENER_API_PREFIX}; the public redirect is GET /{name} at the root.`,
      },
      servers: [{ url: config.SHORT_BASE_URL }],
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
      tags: [
        { name: "user", description: "The current user" },
        { name: "shorts", description: "Short links and their access logs" },
        { name: "redirect", description: "The public short URLs" },
        { name: "operations", description: "Health and readiness" },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => tidyComponents(markPlainTextResponses(jsonSchemaTransformObject(input))),
  });

  // App services.
  const metrics = createRegistry(SERVICE, prisma);
  instrumentRequests(app, metrics);
  const visitLog: VisitLog = new VisitLog(prisma, {
    observer: visitLogMetrics(metrics, () => visitLog.depth),
  });
  app.decorate("metrics", metrics);
  app.decorate("prisma", prisma);
  app.decorate("apiPrefix", config.SHORTENER_API_PREFIX);
  app.decorate("visitLog", visitLog);
  const targets = createTargetCache(prisma, {
    onOutage: (err) =>
      app.log.warn(
        { err },
        "redirect cache: invalidation channel lost; serving from the database until it is back",
      ),
    onRecovery: () => app.log.info("redirect cache: invalidation channel back; serving from the cache again"),
  });
  app.addHook("onReady", () => targets.start());
  app.addHook("onClose", () => targets.stop());
  app.decorate(
    "shorts",
    new ShortsService(prisma, {
      shortBaseUrl: config.SHORT_BASE_URL,
      reservedNames: [config.SHORTENER_API_PREFIX.slice(1), ...OWN_PATHS],
      targets,
    }),
  );
  // The stop line counts the visits the drain below stores (onClose hooks run last-added first).
  let storedBeforeClose = 0;
  app.addHook("preClose", (done) => {
    storedBeforeClose = visitLog.written;
    done();
  });
  logShutdown(app, SERVICE, () => [`${visitLog.written - storedBeforeClose} visits stored while stopping`]);
  // Requests still in flight finish first; this catches any visit write still queued.
  app.addHook("onClose", () => visitLog.drain());

  // Routes.
  app.get(
    "/docs",
    { schema: { hide: true } },
    // Built on first request: by then every route is registered.
    async () => app.swagger(),
  );
  await registerApiReference(app);
  await app.register(healthRoutes);
  await app.register(apiRoutes, { prefix: config.SHORTENER_API_PREFIX });
  await app.register(redirectRoutes);
  // Last: every path answers the methods it does not offer with 405 + Allow.
  methods.refuseOtherMethods((allow) => new MethodNotAllowed(allow));
  return app;
}

export type ShortenerApp = Awaited<ReturnType<typeof buildApp>>;
