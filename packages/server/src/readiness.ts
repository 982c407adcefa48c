// What `/ready` checks, the same way in both services: the database answers within
// DATABASE_PROBE_MS and is the leader (not a replica), and, where the service asks (scheduling's
// rate limiter, ADR 0019), Redis's connection is up and a ping answers on a connection of its own
// (redis.ts, ADR 0283). A frozen database is then reported before an orchestrator's own probe
// gives up, instead of holding the probe until the pool's query timeout (31 s); with no leader,
// the service stays ready for DATABASE_WAIT_MS (docs/adr/0280).
import { type PrismaClient, queryPrepared, waitMsOf } from "@app/db";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import { readinessPing } from "./redis.ts";

// A readiness probe must answer within the orchestrator's own timeout.
export const PROBE_TIMEOUT_MS = 2_000;
/**
 * The database's part of it: half the services' HAProxy check timeout (2 s). While no leader
 * takes connections, the pool waits for one (DATABASE_WAIT_MS): a probe waiting as long made
 * the proxy's checks time out and take every instance out in a failover (the drill: 395
 * redirects answered 503 by HAProxy), when /ready means to say `no leader` and stay in.
 */
export const DATABASE_PROBE_MS = 1_000;

function withinProbeTimeout<T>(work: Promise<T>, timeoutMs = PROBE_TIMEOUT_MS): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("no answer in time")), timeoutMs).unref(),
    ),
  ]);
}

export type Unready =
  | "stopping"
  | "database unreachable"
  | "no leader: the database reached is a replica"
  | "Redis unreachable";

/** Whether the database reached is a replica (in recovery) or the leader. */
const DATABASE_ROLE = { name: "ready-database-role", text: `SELECT pg_is_in_recovery() AS "replica"` };

/** The database the service reached: the leader (a primary, which takes writes), or none. */
export type DatabaseRole = "leader" | "no leader";

/** Since when each client has reached no leader, while it reaches none (its probes say so). */
const noLeaderSince = new WeakMap<PrismaClient, number>();

/**
 * Whether the service is ready: why not (an outage logged as a warning), and the role of the
 * database it reached. A service asked to stop is not ready from that moment (http.ts
 * `drainOnStop`), so a proxy takes it out of rotation while it still serves. While it reaches no
 * leader (a failover's election), it stays ready for the client's DATABASE_WAIT_MS: its requests
 * wait that long for the new leader (docs/adr/0280), and every instance reaches none alike, so a
 * proxy taking them all out would only answer its own errors; past the wait, it is not ready.
 */
export async function readiness(
  {
    prisma,
    redis,
    stopping = false,
  }: { prisma: PrismaClient; redis?: Redis | undefined; stopping?: boolean },
  log: FastifyBaseLogger,
): Promise<{ unready: Unready | undefined; database: DatabaseRole | undefined }> {
  if (stopping) return { unready: "stopping", database: undefined };
  const noLeader = (unready: Unready) => {
    const since = noLeaderSince.get(prisma) ?? Date.now();
    noLeaderSince.set(prisma, since);
    const waited = Date.now() - since;
    return { unready: waited < waitMsOf(prisma) ? undefined : unready, database: "no leader" as const };
  };
  // Both probes at once: the answer stays within the proxy's check timeout (2 s) when both wait.
  const redisPinged = redis
    ? withinProbeTimeout(readinessPing(redis)).then(
        () => undefined,
        (error: unknown) => error,
      )
    : Promise.resolve(undefined);
  let replica: boolean | undefined;
  try {
    // Its role too: the database URL reaches the leader (a primary) or, between two leaders of a
    // failover, nothing or a replica (a node demoted, reached through a connection opened before).
    // On the driver, not Prisma: a process's first Prisma query loads its query compiler, which
    // took over the probe's second on a loaded machine and answered the first /ready 503.
    const [row] = await withinProbeTimeout(
      queryPrepared<{ replica: boolean }>(prisma, DATABASE_ROLE, []),
      DATABASE_PROBE_MS,
    );
    replica = row?.replica;
  } catch (error) {
    log.warn({ err: error }, "database not reachable: no leader");
    return noLeader("database unreachable");
  }
  if (replica) {
    log.warn("the database reached is a replica: no leader takes writes");
    return noLeader("no leader: the database reached is a replica");
  }
  noLeaderSince.delete(prisma);
  const redisError = await redisPinged;
  if (redisError !== undefined) {
    log.warn({ err: redisError }, "Redis not reachable");
    return { unready: "Redis unreachable", database: "leader" };
  }
  return { unready: undefined, database: "leader" };
}
