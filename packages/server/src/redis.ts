// The Redis client both services keep their shared counters in (REDIS_URL): opened once per app,
// closed with it, and failing fast. A Redis that is down or frozen must not slow requests (each
// counter's user decides what a failed command means): no offline queue, a command timeout of a
// few ms, no retries of a command; the connection itself is retried in the background every
// ≤ 500 ms.
import { once } from "node:events";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";

/** A command that takes longer than this fails: REDIS_TIMEOUT_MS's default. */
export const REDIS_COMMAND_TIMEOUT_MS = 25;
/** How long a readiness ping may take on the probe's own connection (see `readinessPing`). */
export const REDIS_PROBE_TIMEOUT_MS = 1_000;

/** Each client `openRedis` made → the connection its readiness pings go over. */
const probeClients = new WeakMap<Redis, Redis>();

/**
 * Whether Redis serves `redis`'s user: its own connection is up, and a ping answers within
 * REDIS_PROBE_TIMEOUT_MS. The ping goes over a second connection of `openRedis`'s, not under
 * the counters' few-ms command timeout: a process starved of CPU (a loaded machine, many
 * instances) ran its timers before it read Redis's answer, so a healthy Redis failed pings in a
 * row and every instance was taken out together, while the counters (which let requests pass
 * while Redis is slow) served (docs/adr/0283). A client made elsewhere is pinged itself, up to
 * three times. Rejects with the reason.
 */
export async function readinessPing(redis: Redis): Promise<void> {
  if (redis.status !== "ready") throw new Error(`the connection is ${redis.status}`);
  const probe = probeClients.get(redis);
  if (probe) {
    await probe.ping();
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await redis.ping();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

export interface RedisUse {
  /** What waits on it, for the log: "rate-limit". */
  purpose: string;
  /** A command slower than this fails (REDIS_TIMEOUT_MS). */
  commandTimeoutMs?: number | undefined;
  /** What its users do while it is down, for the log. */
  whileDown?: string;
  /** `/ready` reports on it (readinessPing): opens the probe's connection too. */
  probed?: boolean;
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
    probed = false,
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
  const clients = [redis];
  if (probed) {
    // Readiness pings (readinessPing): a connection of their own, with a probe's timeout.
    const probe = redis.duplicate({ commandTimeout: REDIS_PROBE_TIMEOUT_MS, retryStrategy: () => 500 });
    probe.on("error", () => {});
    probeClients.set(redis, probe);
    clients.push(probe);
  }
  app.addHook("onClose", async () => {
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  });
  if (probed) {
    // Started with Redis connected when it answers: `/ready` right after the start reports it
    // as it is, not as still connecting. A Redis that is down or slow delays it by this at most.
    await Promise.race([
      Promise.all(clients.map((client) => once(client, "ready"))),
      new Promise((resolve) => setTimeout(resolve, REDIS_PROBE_TIMEOUT_MS).unref()),
    ]).catch(() => {});
  }
  return redis;
}
