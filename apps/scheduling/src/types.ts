import type { PrismaClient } from "@app/db";
import type { Registry } from "@app/db/metrics";
import type { Redis } from "ioredis";

/** Who is calling, set by the apiKey auth hook on every /api/v1 request. */
export interface AuthContext {
  userId: number;
  /** `User.role === "ADMIN"`: sees everything and may act for another user with `userId`. */
  isAdmin: boolean;
  apiKeyId: string;
}

declare module "fastify" {
  interface FastifyInstance {
    prisma: PrismaClient;
    /** The rate-limit store when REDIS_URL (or a caller's client) is set. */
    redis: Redis | null;
    /** Prometheus metrics, served on SCHEDULING_METRICS_PORT when it is set. */
    metrics: Registry;
  }
  interface FastifyRequest {
    auth: AuthContext;
    /** The database this request reads and writes, set with `auth`. */
    db: PrismaClient;
  }
  interface FastifyContextConfig {
    /** The route needs no apiKey. Every route without it requires one (deny by default). */
    public?: boolean;
  }
}
