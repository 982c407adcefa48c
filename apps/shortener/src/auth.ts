import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import fp from "fastify-plugin";
import { hashToken } from "./credentials.ts";
import { Unauthorized } from "./errors.ts";
import type { AuthenticatedUser } from "./types.ts";

const BEARER = /^Bearer +(\S+) *$/i;
// Writing lastUsedAt on every request would turn every read into a database write.
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The user a token belongs to (null: none), its use recorded off the request path. Shared by
 * the bearer API and Shlink's X-Api-Key (shlink/): one token, one lookup, either header.
 */
export function tokenLookup(app: FastifyInstance): (token: string) => Promise<AuthenticatedUser | null> {
  const pendingWrites = new Set<Promise<unknown>>();
  function recordUse(tokenId: string, lastUsedAt: Date | null): void {
    const now = new Date();
    if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    // Off the request path; updateMany, since the token may be revoked meanwhile.
    const write = app.prisma.shortenerToken
      .updateMany({ where: { id: tokenId }, data: { lastUsedAt: now } })
      .catch((err: unknown) => app.log.error({ err }, "could not record token use"));
    pendingWrites.add(write);
    void write.finally(() => pendingWrites.delete(write));
  }
  // Let in-flight lastUsedAt writes finish before the caller disconnects Prisma.
  app.addHook("onClose", async () => {
    await Promise.allSettled([...pendingWrites]);
  });
  return async (token) => {
    const found = await app.prisma.shortenerToken.findUnique({
      where: { tokenHash: hashToken(token) },
      select: { id: true, lastUsedAt: true, user: { select: { id: true, email: true, createdAt: true } } },
    });
    if (!found) return null;
    recordUse(found.id, found.lastUsedAt);
    return found.user;
  };
}

/**
 * Bearer authentication for every route of the scope it is registered in: deny by
 * default, nothing is exempt. Tokens are looked up by their SHA-256.
 */
export const bearerAuth: FastifyPluginAsync = fp(
  async (app) => {
    const lookup = tokenLookup(app);
    app.decorateRequest("user", null as unknown as AuthenticatedUser);
    app.addHook("onRequest", async (request) => {
      const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
      if (!token) throw new Unauthorized();
      const user = await lookup(token);
      if (!user) throw new Unauthorized();
      request.user = user;
    });
  },
  { name: "bearer-auth" },
);
