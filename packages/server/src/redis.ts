// The Redis client both services keep their shared counters in (REDIS_URL): opened once per app,
// closed with it, and failing fast. A Redis that is down or frozen must not slow requests (each
// counter's user decides what a failed command means): no offline queue, a command timeout of a
// few ms, no retries of a command; the connection itself is retried in the background every
// ≤ 500 ms.
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";

/** A command that takes longer than this fails: REDIS_TIMEOUT_MS's default. */
export const REDIS_COMMAND_TIMEOUT_MS = 25;

export interface RedisUse {
  /** What waits on it, for the log: "rate-limit". */
  purpose: string;
  /** A command slower than this fails (REDIS_TIMEOUT_MS). */
  commandTimeoutMs?: number | undefined;
  /** What its users do while it is down, for the log. */
  whileDown?: string;
}

/**
 * A client for `url`, closed with `app`; one log line per outage. ioredis is loaded here, by
 * the first service that has a REDIS_URL: a start without one does not load it (40 modules).
 */
export async function openRedis(
  app: FastifyInstance,
  url: string,
  {
    purpose,
    commandTimeoutMs = REDIS_COMMAND_TIMEOUT_MS,
    whileDown = "requests pass uncounted until it is back",
  }: RedisUse,
): Promise<Redis> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    connectTimeout: 1_000,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    // No INFO before "ready": it ran under the command timeout, and a process busy starting (a
    // loaded machine, several instances at once) let 25 ms pass and logged Redis as down. A
    // command sent while Redis still loads fails like any other, and its user decides.
    enableReadyCheck: false,
    retryStrategy: (times) => Math.min(times * 100, 500),
  });
  // One line per outage, not per failed attempt or request.
  let healthy = true;
  redis.on("error", (err) => {
    if (!healthy) return;
    healthy = false;
    app.log.warn({ err }, `${purpose} Redis unavailable: ${whileDown}`);
  });
  redis.on("ready", () => {
    if (healthy) return;
    healthy = true;
    app.log.info(`${purpose} Redis available again`);
  });
  app.addHook("onClose", async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}
