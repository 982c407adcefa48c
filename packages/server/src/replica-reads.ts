// Wires @app/db's ReplicaReads into a service (docs/adr/0178): `app.reads` chooses the replica or
// the primary for the reads that tolerate bounded lag, checking the replica from ready to close;
// every request that may have written (any method but GET, HEAD, OPTIONS) fences it before its
// answer leaves, so the client's next read, on this instance, sees that write.
import { type PrismaClient, ReplicaReads } from "@app/db";
import type { FastifyInstance } from "fastify";
import { Gauge, type Registry } from "./metrics.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Where reads that may lag by REPLICA_MAX_LAG_MS go (the primary when no replica is configured). */
    reads: ReplicaReads;
  }
}

export interface ReplicaReadsConfig {
  DATABASE_REPLICA_URL?: string | undefined;
  REPLICA_MAX_LAG_MS: number;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Decorates `app.reads` for `prisma` (the primary's client) and the configured replica. */
export function registerReplicaReads(
  app: FastifyInstance,
  prisma: PrismaClient,
  config: ReplicaReadsConfig,
  metrics: Registry,
): ReplicaReads {
  const reads = new ReplicaReads(prisma, {
    replicaUrl: config.DATABASE_REPLICA_URL,
    maxLagMs: config.REPLICA_MAX_LAG_MS,
    onOutage: (reason) => app.log.warn(`read replica not used: ${reason}; reading from the primary`),
    onRecovery: () => app.log.info("read replica back within REPLICA_MAX_LAG_MS; reading from it again"),
  });
  app.decorate("reads", reads);
  if (!reads.replica) return reads;
  new Gauge({
    name: "db_replica_reads",
    help: "Reads that could go to the read replica since start, by where they went (replica, primary)",
    labelNames: ["database"],
    registers: [metrics],
    collect() {
      for (const [database, value] of Object.entries(reads.counts)) this.set({ database }, value);
    },
  });
  app.addHook("onReady", () => reads.start());
  app.addHook("onClose", () => reads.stop());
  // onSend: after the handler's transactions committed, before the client can send its next request.
  app.addHook("onSend", (request, _reply, payload, done) => {
    if (!SAFE_METHODS.has(request.method)) reads.wrote();
    done(null, payload);
  });
  return reads;
}
