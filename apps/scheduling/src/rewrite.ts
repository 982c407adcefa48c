// v1 clients call `/v1/<resource>`, and, like v1's own fallback rewrite, a bare
// `/<resource>` (n8n's Cal node is configured with a bare host). The routes live under
// `/api/v1`; both spellings are rewritten before routing (Fastify's `rewriteUrl`), so they
// reach the same handler. `/v1/...` also gets `version=v1` in its query, as v1's own rewrite
// added it (every query schema therefore allows `version`); the bare form gets none, as in v1.
// A doubled prefix, `/v1/v1/...` or `/api/v1/v1/...`, is read as `/v1/...` (docs/adr/0248): n8n's
// credential test adds `/v1` to a base URL the user may have typed with it.
import type { IncomingMessage } from "node:http";

const V1_PATH = /^\/v1(?=[/?]|$)/;
/** The first of a doubled prefix: `/v1` or `/api/v1` followed by a whole `/v1` segment. */
const DOUBLED_V1 = /^(?:\/api)?\/v1(?=\/v1(?:[/?]|$))/;

/** The first path segments the API serves under /api/v1 (resources, `me`, `slots`). */
export function createRewriteUrl(apiSegments: readonly string[]) {
  const bare = new RegExp(`^/(?:${apiSegments.map((s) => s.replace(/[^\w-]/g, "")).join("|")})(?=[/?]|$)`);

  function rewriteV1Url(original: string): string {
    const url = original.replace(DOUBLED_V1, "");
    if (bare.test(url)) return `/api/v1${url}`;
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

  return {
    rewriteV1Url,
    rewriteUrl: (request: IncomingMessage) => rewriteV1Url(request.url ?? "/"),
  };
}
