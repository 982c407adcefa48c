import type { FastifyPluginAsync } from "fastify";
import fp from "fastify-plugin";
import { Unauthorized } from "./errors.ts";
import { hashToken } from "./tokens.ts";

export interface AuthenticatedUser {
  id: string;
  email: string;
  createdAt: Date;
}

declare module "fastify" {
  interface FastifyRequest {
    user: AuthenticatedUser;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Bearer authentication for every route of the scope it is registered in: deny by
 * default, nothing is exempt. Tokens are looked up by their SHA-256.
 */
export const bearerAuth: FastifyPluginAsync = fp(
  async (app) => {
    app.decorateRequest("user", null as unknown as AuthenticatedUser);
    app.addHook("onRequest", async (request) => {
      const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
      if (!token) throw new Unauthorized();
      const found = await app.prisma.shortenerToken.findUnique({
        where: { tokenHash: hashToken(token) },
        select: { user: { select: { id: true, email: true, createdAt: true } } },
      });
      if (!found) throw new Unauthorized();
      request.user = found.user;
    });
  },
  { name: "bearer-auth" },
);
