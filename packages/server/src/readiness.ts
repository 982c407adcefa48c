// What `/ready` checks, the same way in both services: the database answers `SELECT 1` and,
// where the service asks (scheduling's rate limiter, ADR 0019), Redis answers a ping, each
// within PROBE_TIMEOUT_MS. A frozen database is then reported before an orchestrator's own probe
// gives up, instead of holding the probe until the pool's query timeout (31 s).
import type { PrismaClient } from "@app/db";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

// A readiness probe must answer within the orchestrator's own timeout.
export const PROBE_TIMEOUT_MS = 2_000;

/**
 * Pings on the rate limiter's own client give up after a few ms (redis.ts), so one busy moment
 * of this process could fail a ping; a load balancer taking that for an outage would take every
 * instance out at once (docs/adr/0164). Redis counts as unreachable when this many pings in a
 * row fail: a dead or frozen Redis fails them all, still well within the probe's time.
 */
const REDIS_PINGS = 3;

async function pingRedis(redis: Redis): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await redis.ping();
      return;
    } catch (error) {
      if (attempt >= REDIS_PINGS) throw error;
    }
  }
}

function withinProbeTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("no answer in time")), PROBE_TIMEOUT_MS).unref(),
    ),
  ]);
}

export type Unready = "stopping" | "database unreachable" | "Redis unreachable";

/**
 * Why the service is not ready (an outage logged as a warning), or undefined when it is. A
 * service asked to stop is not ready from that moment (http.ts `drainOnStop`), so a proxy takes
 * it out of rotation while it still serves.
 */
export async function unreadyReason(
  {
    prisma,
    redis,
    stopping = false,
  }: { prisma: PrismaClient; redis?: Redis | undefined; stopping?: boolean },
  log: FastifyBaseLogger,
): Promise<Unready | undefined> {
  if (stopping) return "stopping";
  try {
    await withinProbeTimeout(prisma.$queryRaw`SELECT 1`);
  } catch (error) {
    log.warn({ err: error }, "database not reachable");
    return "database unreachable";
  }
  if (redis) {
    try {
      await withinProbeTimeout(pingRedis(redis));
    } catch (error) {
      log.warn({ err: error }, "Redis not reachable");
      return "Redis unreachable";
    }
  }
  return undefined;
}
