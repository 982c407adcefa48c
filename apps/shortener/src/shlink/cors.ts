// CORS on /rest as Shlink does it (docs/adr/0265): only when the request has an Origin; on every
// answer, errors and 404s too; a preflight (OPTIONS) is answered 204 before authentication with
// the methods, the requested headers echoed and a max age. Nothing outside /rest gains CORS.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isRestUrl } from "./problems.ts";

const ALLOWED_METHODS = "GET,POST,PUT,PATCH,DELETE";
const MAX_AGE_SECONDS = "3600";

/**
 * The Access-Control-Allow-Origin for `origin` under SHLINK_CORS_ALLOW_ORIGIN `allow` (Shlink's
 * CORS_ALLOW_ORIGIN): `*`, `<origin>` (echoed), or a comma list (echoed when listed, else none).
 */
export function allowedOrigin(allow: string, origin: string): string | undefined {
  if (allow === "*") return "*";
  if (allow === "<origin>") return origin;
  return allow
    .split(",")
    .map((entry) => entry.trim())
    .includes(origin)
    ? origin
    : undefined;
}

async function restCors(app: FastifyInstance, options: { allowOrigin: string }): Promise<void> {
  const corsHeaders = (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !isRestUrl(request.url)) return false;
    const allowed = allowedOrigin(options.allowOrigin, origin);
    if (allowed !== undefined) reply.header("access-control-allow-origin", allowed);
    if (allowed !== "*") reply.header("vary", "Origin");
    return true;
  };
  app.addHook("onRequest", async (request, reply) => {
    if (!corsHeaders(request, reply) || request.method !== "OPTIONS") return;
    reply.header("access-control-allow-methods", ALLOWED_METHODS);
    const requested = request.headers["access-control-request-headers"];
    if (requested !== undefined) reply.header("access-control-allow-headers", requested);
    reply.header("access-control-max-age", MAX_AGE_SECONDS);
    return reply.code(204).send();
  });
}

export default fp(restCors, { name: "rest-cors", fastify: "5.x" });
