// A short's public statistics page (issue 18): `/stats/<token>` is an HTML page whose script
// reads `/stats/<token>/data` and draws it with Chart.js; every file comes from this service
// (no CDN), under a strict Content-Security-Policy (no inline script or style). The token is
// the link its owner created (POST /api/shorts/{id}/stats-link); revoked or unknown: 404.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { withRefusals } from "@app/schemas/refusals";
import { ErrorBody, ShortStats, StatsQuery } from "@app/schemas/shortener";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { plainText } from "../openapi.ts";
import { STATS_RANGE_REFUSALS } from "./stats.service.ts";

const require = createRequire(import.meta.url);
const here = (file: string) => new URL(`./stats-page/${file}`, import.meta.url);

export const STATS_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The page's files, read once at start (a Map: a name such as __proto__ finds nothing). */
const ASSETS = new Map<string, { type: string; body: Buffer }>([
  [
    "chart.umd.min.js",
    {
      type: "text/javascript; charset=utf-8",
      body: readFileSync(path.join(path.dirname(require.resolve("chart.js")), "chart.umd.min.js")),
    },
  ],
  ["stats-page.js", { type: "text/javascript; charset=utf-8", body: readFileSync(here("stats-page.js")) }],
  ["stats-page.css", { type: "text/css; charset=utf-8", body: readFileSync(here("stats-page.css")) }],
]);
const PAGE = readFileSync(here("page.html"), "utf8");
const FIGURES = ["visits", "humans", "bots", "uniqueVisitors"] as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The page with its name and totals in place: they show at load, before the script has read
 * the figures again in the viewer's zone and drawn the charts (a capture taken at load showed
 * an ellipsis in every figure).
 */
function pageWith(name: string, totals: Record<(typeof FIGURES)[number], number>): string {
  const number = new Intl.NumberFormat("en");
  let html = PAGE.replace("{{name}}", escapeHtml(name));
  for (const figure of FIGURES) {
    html = html
      .replace(`{{${figure}.value}}`, String(totals[figure]))
      .replace(`{{${figure}}}`, number.format(totals[figure]));
  }
  return html;
}

const TokenParams = z.strictObject({
  token: z.string().describe("The link's token, from POST /api/shorts/{id}/stats-link"),
});

export const PublicStats = ShortStats.extend({
  name: z.string().describe("Name of the short"),
}).meta({ id: "PublicStats" });

export const statsPageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { stats } = app;
  const noSuchLink = plainText("No statistics link has this token (or it was revoked)");

  app.get(
    "/stats/assets/:file",
    { schema: { hide: true, params: z.object({ file: z.string() }) } },
    async (request, reply) => {
      const asset = ASSETS.get(request.params.file);
      if (!asset) return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
      return reply.header("cache-control", "public, max-age=3600").type(asset.type).send(asset.body);
    },
  );

  app.get("/stats/:token", { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const short = await stats.shortOfLink(request.params.token);
    // The page's own query, as its script sends it; a query it cannot read is the script's to report.
    const query = StatsQuery.safeParse(request.query);
    const { totals } = await stats.forShort(short.id, query.success ? query.data : StatsQuery.parse({}));
    return reply
      .header("content-security-policy", STATS_PAGE_CSP)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .header("cache-control", "private, no-store")
      .type("text/html; charset=utf-8")
      .send(pageWith(short.name, totals));
  });

  app.get(
    "/stats/:token/data",
    {
      schema: {
        operationId: "getPublicStats",
        tags: ["stats"],
        summary: "A short's statistics, through its public link",
        description: withRefusals(
          "What the statistics page shows: the short's name and its statistics, as GET /api/shorts/{id}/stats.",
          STATS_RANGE_REFUSALS,
        ),
        security: [],
        params: TokenParams,
        querystring: StatsQuery,
        response: { 200: PublicStats, 400: ErrorBody, 404: noSuchLink, default: ErrorBody },
      },
    },
    async (request, reply) => {
      const short = await stats.shortOfLink(request.params.token);
      reply.header("cache-control", "private, no-store");
      return { name: short.name, ...(await stats.forShort(short.id, request.query)) };
    },
  );
};
