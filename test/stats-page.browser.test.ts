// A short's public statistics page in a real headless Chromium (issue 18): opened through the
// link its owner created, it shows the same figures as the API (totals and every top list),
// draws its charts with the Chart.js the service serves, loads nothing from any other host and
// trips nothing of its Content-Security-Policy. A full-page screenshot lands in .ci/artifacts/.
import path from "node:path";
import { createPrisma, type PrismaClient } from "@app/db";
import { buildApp, type ShortenerApp } from "@app/shortener";
import { defaultConfig } from "@app/shortener/config";
import { createUser } from "@app/shortener/credentials";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, hasChromium, launchChromium, listenLocally, warnWithoutChromium } from "./chromium.ts";

/** What the page's elements are read as (the suite compiles without the DOM library). */
type Figure = { dataset: Record<string, string | undefined> };
type Row = { cells: ArrayLike<{ textContent: string | null; dataset?: Record<string, string | undefined> }> };
type Canvas = { width: number; toDataURL(): string };

warnWithoutChromium("stats-page.browser.test.ts");

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
];
const IPS = ["81.2.69.160", "8.8.8.8", "2a00:1450:4001:80b::200e"];
const REFERERS = ["https://news.example.com/a", "https://social.example/post", ""];

describe.skipIf(!hasChromium)("the statistics page in headless Chromium", () => {
  let browser: Browser;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let app: ShortenerApp;
  let origin: string;
  beforeAll(async () => {
    browser = await launchChromium();
    db = await createTestDatabase();
    prisma = createPrisma(db.url, { poolMax: 3 });
    app = await buildApp({ config: defaultConfig(), prisma });
    origin = await listenLocally(app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it("shows the API's figures, drawn by the service's own Chart.js", { timeout: 90_000 }, async () => {
    const owner = await createUser(prisma, "stats-page@example.com");
    const headers = { authorization: `Bearer ${owner.token}` };
    const created = await app.inject({
      method: "POST",
      url: "/api/shorts",
      headers,
      payload: { url: "https://example.com/", name: "launch" },
    });
    const short = created.json();
    for (let i = 0; i < 37; i++) {
      await app.inject({
        url: "/launch",
        remoteAddress: IPS[i % 3]!,
        headers: { "user-agent": AGENTS[(i * 7) % 3]!, referer: REFERERS[(i * 5) % 3]! },
      });
    }
    const link = await app.inject({ method: "POST", url: `/api/shorts/${short.id}/stats-link`, headers });
    expect(link.statusCode).toBe(201);
    const pageUrl = new URL(link.json().url as string);
    const query = "interval=day&timezone=UTC";
    const api = (await app.inject({ url: `/api/shorts/${short.id}/stats?${query}`, headers })).json();

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    try {
      context.setDefaultTimeout(60_000); // a loaded machine: not Playwright\'s 30 s
      const page = await context.newPage();
      const requested: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console error: ${message.text()}`);
      });
      await context.route("**/*", (route) =>
        new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
      );
      // As it arrives, before any script ran: the name and the totals are there, and the charts
      // say they are loading (a capture on load showed an ellipsis in every figure).
      const html = await (await fetch(`${origin}${pageUrl.pathname}?${query}`)).text();
      expect(html).toContain('<span id="name">launch</span>');
      expect(html).toContain(`data-figure="visits" data-value="${api.totals.visits}">${api.totals.visits}<`);
      expect(html).toContain(`data-figure="uniqueVisitors" data-value="${api.totals.uniqueVisitors}">`);
      expect(html).toContain('<p id="loading" role="status">Loading the charts…</p>');
      const response = await page.goto(`${origin}${pageUrl.pathname}?${query}`, { waitUntil: "commit" });
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
      await page.waitForSelector("[data-figure=visits]");
      expect(await page.locator("[data-figure=visits]").textContent()).toBe(String(api.totals.visits));
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-stats-on-load.png") });
      await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
      expect(await page.locator("#loading").isHidden()).toBe(true);
      expect(await page.locator("main").getAttribute("aria-busy")).toBeNull();

      expect(await page.locator("#name").textContent()).toBe("launch");
      const figures = await page
        .locator("[data-figure]")
        .evaluateAll((elements) =>
          Object.fromEntries(
            elements.map((e) => [
              (e as unknown as Figure).dataset.figure,
              Number((e as unknown as Figure).dataset.value),
            ]),
          ),
        );
      expect(figures).toEqual(api.totals);
      expect(figures.visits).toBe(37);
      for (const list of ["referrers", "countries", "browsers", "os", "devices"]) {
        const shown = await page.locator(`[data-list=${list}] tr`).evaluateAll((rows) =>
          rows.map((element) => {
            const row = element as unknown as Row;
            return [row.cells[0]?.textContent, Number(row.cells[1]?.dataset?.value)];
          }),
        );
        const expected = (api[list] as { value: string; visits: number }[]).map((row) => [
          row.value === "" ? "(unknown)" : row.value,
          row.visits,
        ]);
        expect(shown, list).toEqual(expected);
      }
      // Six charts drawn (the timeseries and one per list), each a painted canvas.
      const painted = await page.locator("canvas").evaluateAll((canvases) =>
        canvases.map((element) => {
          const canvas = element as unknown as Canvas;
          return canvas.width > 0 && canvas.toDataURL().length > 1000;
        }),
      );
      expect(painted).toEqual([true, true, true, true, true, true]);

      expect(requested).toContain(`${origin}/stats/assets/chart.umd.min.js`);
      expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(problems).toEqual([]);
      // The whole page in one viewport first: a full-page capture resizes the viewport, which
      // Chart.js answers by redrawing, and the capture could catch that midway.
      const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
      await page.setViewportSize({ width: 390, height });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-stats.png") });

      // Revoked: the page and its data are gone at once.
      expect(
        (await app.inject({ method: "DELETE", url: `/api/shorts/${short.id}/stats-link`, headers }))
          .statusCode,
      ).toBe(204);
      expect((await page.goto(`${origin}${pageUrl.pathname}`))?.status()).toBe(404);
    } finally {
      await context.close();
    }
  });
});
