// Per-user rate limit on @fastify/rate-limit. It spends budget on every request that auth let
// in, wherever its route lives (the method guard's 405 routes included); requests without a
// caller (public routes, unknown routes and the ones auth refused) are neither counted nor
// given the headers.

import { Counter } from "@app/server/metrics";
import { openRedis } from "@app/server/redis";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import { TooManyRequests } from "./errors.ts";

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** A caller-owned client: used as is and left open. */
  redis?: Redis | undefined;
  /** Without `redis`: the plugin opens its own client to this URL and closes it with the app. */
  redisUrl?: string | undefined;
  /** Its command timeout (REDIS_TIMEOUT_MS). */
  redisTimeoutMs?: number | undefined;
  /** The prefix of the counters' Redis keys (RATE_LIMIT_REDIS_PREFIX). */
  redisPrefix: string;
}

async function rateLimitPlugin(
  app: FastifyInstance,
  { max, windowMs, redis, redisUrl, redisTimeoutMs, redisPrefix }: RateLimitOptions,
) {
  const store =
    redis ??
    (redisUrl
      ? await openRedis(app, redisUrl, {
          purpose: "rate-limit",
          commandTimeoutMs: redisTimeoutMs,
          // `/ready` reports on it (health.routes.ts).
          probed: true,
        })
      : undefined);
  // Readiness checks the same client the counters use.
  app.decorate("redis", store ?? null);

  const rejections = new Counter({
    name: "rate_limit_rejections_total",
    help: "Requests refused with 429 because the caller's budget was spent",
    registers: [app.metrics],
  });

  await app.register(rateLimit, {
    // Not the plugin's per-route hooks: one hook on the whole app, below.
    global: false,
    max,
    timeWindow: windowMs,
    // One budget per user, shared by all their keys (v1 since PR #18803); in hosted mode per
    // tenant and user, since user ids repeat across tenant databases.
    keyGenerator: (request) => {
      if (!request.auth) return "anonymous";
      const user = `user:${request.auth.userId}`;
      return request.tenantId === null ? user : `tenant:${request.tenantId}:${user}`;
    },
    allowList: (request) => !request.auth,
    ...(store ? { redis: store, nameSpace: redisPrefix } : {}),
    // A Redis outage must not take the API down with it; requests pass uncounted meanwhile.
    skipOnError: true,
    errorResponseBuilder: () => new TooManyRequests("Rate limit exceeded"),
    onExceeded: () => rejections.inc(),
  });
  // An app-wide onRequest hook, added after auth's: it runs once auth knows the user and
  // before any hook of a route, so a route that refuses in its own onRequest (the method
  // guard's 405) and a body that fails to parse still spend budget and carry the headers.
  app.addHook("onRequest", app.rateLimit());
}

export default fp(rateLimitPlugin, {
  name: "rate-limit",
  fastify: "5.x",
  dependencies: ["auth"],
  decorators: { fastify: ["metrics"] },
});
