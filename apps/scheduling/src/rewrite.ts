// v1 clients call `/v1/<resource>`; the routes live under `/api/v1`. Rewritten before routing
// (Fastify's `rewriteUrl`), so both spellings reach the same handler, with `version=v1` in the
// query as v1's own rewrite added it (every query schema therefore allows `version`).
import type { IncomingMessage } from "node:http";

const V1_PATH = /^\/v1(?=[/?]|$)/;

export function rewriteV1Url(url: string): string {
  if (!V1_PATH.test(url)) return url;
  const rewritten = url.replace(V1_PATH, "/api/v1");
  const queryStart = rewritten.indexOf("?");
  if (queryStart === -1) return `${rewritten}?version=v1`;
  // The path says v1; a `version` the client sent as well would make the value a list.
  const pairs = rewritten
    .slice(queryStart + 1)
    .split("&")
    .filter((pair) => pair !== "" && pair.split("=", 1)[0] !== "version");
  return `${rewritten.slice(0, queryStart)}?${[...pairs, "version=v1"].join("&")}`;
}

export function rewriteUrl(request: IncomingMessage): string {
  return rewriteV1Url(request.url ?? "/");
}
