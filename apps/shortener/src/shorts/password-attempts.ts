// Password attempts at a protected short, limited per short and client address (docs/adr/0174,
// 0197). Each instance counts every attempt it answers; with REDIS_URL set, @fastify/rate-limit
// (the limiter the scheduling API uses) also counts them in Redis, so that every instance spends
// one budget. An attempt is refused when either count is spent. A Redis command that fails (Redis
// down, or slower than REDIS_TIMEOUT_MS, as under a burst of attempts) leaves the instance's own
// count: at most the budget per instance, never an unlimited burst, and nobody locked out.
import { openRedis } from "@app/server/redis";
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Turns } from "./turns.ts";

/** Every attempt counts, right or wrong: 10 per short and address in 10 minutes. */
export const PASSWORD_ATTEMPTS = { max: 10, windowMs: 10 * 60_000 } as const;

// Short ids are UUIDs, unique across deployments: the keys need no per-deployment prefix.
const REDIS_NAMESPACE = "shortener-password-attempts:";
/** The most keys an instance keeps a window for; past it, the oldest windows go first. */
const MAX_KEYS_HERE = 100_000;

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

/**
 * This instance's count of each key's attempts, in fixed windows as the shared count's. A window
 * is (re)inserted when it starts, so the map holds them in the order they end: expired ones are
 * dropped from its front.
 */
export class AttemptsHere {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys = MAX_KEYS_HERE,
  ) {}

  spend(key: string, now = Date.now()): AttemptVerdict {
    for (const [oldest, window] of this.windows) {
      if (window.endsAt > now && this.windows.size < this.maxKeys) break;
      this.windows.delete(oldest);
    }
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      this.windows.delete(key);
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count <= this.max
      ? { allowed: true, retryAfterSeconds: 0 }
      : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
  }
}

async function passwordAttemptsPlugin(
  app: FastifyInstance,
  { redisUrl, redisTimeoutMs }: { redisUrl: string | undefined; redisTimeoutMs?: number },
) {
  const here = new AttemptsHere(PASSWORD_ATTEMPTS.max, PASSWORD_ATTEMPTS.windowMs);
  const everywhere = redisUrl ? await sharedCount(app, redisUrl, redisTimeoutMs) : undefined;
  // One at a time per key: the counts are read and written around an await.
  const turns = new Turns();
  const attempts: PasswordAttempts = {
    spend(request, shortId) {
      const key = keyOf(request, shortId);
      return turns.run(key, async () => {
        const local = here.spend(key);
        if (!local.allowed || !everywhere) return local;
        return (await everywhere(request, key)) ?? local;
      });
    },
  };
  app.decorate("passwordAttempts", attempts);
}

/**
 * The count every instance shares, in Redis: the verdict on one attempt, or undefined when Redis
 * did not answer (one warning when that starts, one line when it answers again).
 */
async function sharedCount(
  app: FastifyInstance,
  redisUrl: string,
  redisTimeoutMs: number | undefined,
): Promise<(request: FastifyRequest, key: string) => Promise<AttemptVerdict | undefined>> {
  const redis = await openRedis(app, redisUrl, {
    purpose: "password-attempt",
    commandTimeoutMs: redisTimeoutMs,
    whileDown: "each instance counts password attempts on its own until it is back",
  });
  // The counter's failures reach us (skipOnError false), so that the instance's count decides.
  await app.register(rateLimit, { global: false, skipOnError: false, redis, nameSpace: REDIS_NAMESPACE });
  const keys = new WeakMap<FastifyRequest, string>();
  const limit = app.createRateLimit({
    max: PASSWORD_ATTEMPTS.max,
    timeWindow: PASSWORD_ATTEMPTS.windowMs,
    keyGenerator: (request) => keys.get(request) ?? "",
  });
  let failing = false;
  return async (request, key) => {
    keys.set(request, key);
    try {
      const verdict = await limit(request);
      if (failing) app.log.info("password attempts are counted in Redis again");
      failing = false;
      if (verdict.isAllowed || !verdict.isExceeded) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, verdict.ttlInSeconds) };
    } catch (err) {
      if (!failing)
        app.log.warn({ err }, "password attempts: Redis did not answer; counted in this instance only");
      failing = true;
      return undefined;
    }
  };
}

export default fp(passwordAttemptsPlugin, { name: "password-attempts", fastify: "5.x" });
