import type { PrismaClient } from "@app/db";

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
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** The route needs no apiKey. Every route without it requires one (deny by default). */
    public?: boolean;
  }
}
