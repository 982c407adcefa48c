// The human-readable API reference both services serve at /docs/reference: Swagger UI, its
// scripts and styles served by the service itself (no CDN, works offline), rendering the very
// document GET /docs answers. See docs/adr/0086-0089.
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyContextConfig, FastifyInstance } from "fastify";

export const API_REFERENCE_PATH = "/docs/reference";
/** The OpenAPI document the page renders: the service's own /docs. */
export const OPENAPI_DOCUMENT_PATH = "/docs";

/**
 * Sent with every response under /docs/reference. Only this origin: Swagger UI needs no inline
 * script, no eval and no other host. `data:` images are the icons its stylesheet and logo embed;
 * the one hash is the <style> inside the top bar's SVG logo (swagger-ui-dist as shipped in
 * @fastify/swagger-ui 6.1.3; the browser test fails on any violation, so an upgrade that
 * changes it shows).
 */
export const API_REFERENCE_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export interface ApiReferenceOptions {
  /** Route config for every page and asset route, e.g. `{ public: true }` where auth denies by default. */
  routeConfig?: FastifyContextConfig;
  /** The documents the page offers, the first shown first; default: the service's own /docs. */
  documents?: { url: string; name: string }[];
}

/** Registers GET /docs/reference and its assets, all hidden from the OpenAPI document. Needs @fastify/swagger. */
export async function registerApiReference(
  app: FastifyInstance,
  {
    routeConfig = {},
    documents = [{ url: OPENAPI_DOCUMENT_PATH, name: "OpenAPI document (/docs)" }],
  }: ApiReferenceOptions = {},
): Promise<void> {
  await app.register(async (scope) => {
    // The plugin's routes take no config or schema of ours: stamp them as they are added.
    scope.addHook("onRoute", (route) => {
      route.config = { ...route.config, ...routeConfig };
      route.schema = { ...route.schema, hide: true };
    });
    await scope.register(swaggerUi, {
      routePrefix: API_REFERENCE_PATH,
      staticCSP: API_REFERENCE_CSP,
      theme: { title: "API reference" },
      uiConfig: {
        // `urls` (not `url`, which the plugin pins to its own copy at /docs/reference/json).
        urls: documents,
        docExpansion: "list",
        displayOperationId: true,
      },
    });
  });
}
