// Password attempts at a protected short, limited per short and client address (docs/adr/0174)
// by @fastify/rate-limit, the limiter the scheduling API uses: counted in Redis when REDIS_URL is
// set (every instance spends one budget), otherwise in this process. A Redis that fails lets
// attempts through uncounted (scrypt still makes each one cost a tenth of a second) rather than
// lock every visitor out of every protected short.
import { openRedis } from "@app/server/redis";
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Turns } from "./turns.ts";

/** Every attempt counts, right or wrong: 10 per short and address in 10 minutes. */
export const PASSWORD_ATTEMPTS = { max: 10, windowMs: 10 * 60_000 } as const;

// Short ids are UUIDs, unique across deployments: the keys need no per-deployment prefix.
const REDIS_NAMESPACE = "shortener-password-attempts:";

export interface AttemptVerdict {
  allowed: boolean;
  /** Seconds until the window that refused the attempt ends (for Retry-After). */
  retryAfterSeconds: number;
}

export interface PasswordAttempts {
  /** Spends one attempt of `request`'s address at the short `shortId`. */
  spend(request: FastifyRequest, shortId: string): Promise<AttemptVerdict>;
}

// An IPv6 client holds a whole /64: one address of it is as good as another.
const keyOf = (request: FastifyRequest, shortId: string) => `${shortId}:${normalizeIP(request.ip, 64)}`;

async function passwordAttemptsPlugin(
  app: FastifyInstance,
  { redisUrl, redisTimeoutMs }: { redisUrl: string | undefined; redisTimeoutMs?: number },
) {
  const redis = redisUrl ? openRedis(app, redisUrl, "password-attempt", redisTimeoutMs) : undefined;
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: REDIS_NAMESPACE } : {}),
  });
  const keys = new WeakMap<FastifyRequest, string>();
  const turns = new Turns();
  const limit = app.createRateLimit({
    max: PASSWORD_ATTEMPTS.max,
    timeWindow: PASSWORD_ATTEMPTS.windowMs,
    keyGenerator: (request) => keys.get(request) ?? "",
  });
  const attempts: PasswordAttempts = {
    async spend(request, shortId) {
      const key = keyOf(request, shortId);
      keys.set(request, key);
      // One at a time per key: the in-process store hands every caller the same counter object,
      // so attempts checked together would all read the count after the last of them.
      const verdict = await turns.run(key, () => limit(request));
      if (verdict.isAllowed || !verdict.isExceeded) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, verdict.ttlInSeconds) };
    },
  };
  app.decorate("passwordAttempts", attempts);
}

export default fp(passwordAttemptsPlugin, { name: "password-attempts", fastify: "5.x" });
