// The management UI at /manage (issue 48, docs/adr/0262): Shlink's web component in a host page
// of ours, built by packages/manage-ui at install and served from memory here, same origin, no
// CDN. Its API is /rest/v3 of this service, reached with the signed-in user's token as X-Api-Key.
// SHORTENER_MANAGE_UI=off registers none of it: /manage is then a name like any other.
import { createHash } from "node:crypto";
import { loadManageUi, type ManageAsset } from "@app/manage-ui";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";

/**
 * The first path segment the UI lives below (/manage/ and its paths). Exported for the reserved
 * names (reserved-names.ts) to be checked against, and for the redirect's bare /manage (app.ts).
 */
export const MANAGE_UI_PREFIX = "/manage";

/**
 * Scripts, styles, fonts and images from this service only, and no eval (the bundle needs none);
 * requests to this origin only (the SDK's /rest/v3). Leaflet's map tiles come from
 * openstreetmap.org: refused, so the visits map shows its markers on a blank background.
 * `data:`/`blob:` images: the QR codes and Leaflet's and the kit's inline SVG icons.
 */
/**
 * The one inline style the component renders: its QR code preview's `<style>` element (React's
 * dangerouslySetInnerHTML), allowed by its hash and nothing else (docs/adr/0274).
 */
export const QR_PREVIEW_STYLE = "#qr-code-canvas-container canvas { max-width: 100% }";
const styleHash = (css: string) => `'sha256-${createHash("sha256").update(css).digest("base64")}'`;

export const MANAGE_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${styleHash(QR_PREVIEW_STYLE)}`,
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The encodings `accept-encoding` admits (a q of 0 refuses one). */
function accepted(header: string | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name);
  }
  return names;
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: ManageAsset) {
  const encodings = accepted(request.headers["accept-encoding"]);
  const [encoding, body] =
    asset.br && encodings.has("br")
      ? ["br", asset.br]
      : asset.gzip && (encodings.has("gzip") || encodings.has("*"))
        ? ["gzip", asset.gzip]
        : [undefined, asset.body];
  if (encoding) reply.header("content-encoding", encoding);
  if (asset.gzip) reply.header("vary", "accept-encoding");
  // Hashed names: a file never changes under its name.
  return reply
    .header("cache-control", "public, max-age=31536000, immutable")
    .header("x-content-type-options", "nosniff")
    .type(asset.type)
    .send(body);
}

export const manageUiRoutes: FastifyPluginAsync = async (app) => {
  const { page, assets } = loadManageUi();
  const sendPage = (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header("content-security-policy", MANAGE_UI_CSP)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      // It names the hashed files of this build: asked again each time, never stale.
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(page);
  const schema = { hide: true };

  app.get(`${MANAGE_UI_PREFIX}/assets/:file`, { schema }, async (request, reply) => {
    const asset = assets.get((request.params as { file: string }).file);
    if (!asset) return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
    return sendAsset(request, reply, asset);
  });
  // The component routes in the browser (/manage/list-short-urls/1, /manage/short-code/abc…):
  // each of its addresses opened directly gets the page. The bare /manage is not the UI's: the
  // redirect's /:name answers it, a short's where one has the name, else 302 to /manage/
  // (docs/adr/0270), so the hot path and Fastify's route agree.
  app.get(`${MANAGE_UI_PREFIX}/*`, { schema }, async (request, reply) => sendPage(request, reply));
};
