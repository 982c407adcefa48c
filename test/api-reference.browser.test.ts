// Each service's API reference (/docs/reference) in a real headless Chromium: every operation of
// the service's /docs document is rendered, the page loads nothing from any other host, and
// nothing trips its Content-Security-Policy. A full-page screenshot lands in .ci/artifacts/.
import path from "node:path";
import { createPrisma, type PrismaClient } from "@app/db";
import { buildApp as buildScheduling } from "@app/scheduling";
import { loadConfig as schedulingConfig } from "@app/scheduling/config";
import { API_REFERENCE_CSP, API_REFERENCE_PATH, OPENAPI_DOCUMENT_PATH } from "@app/server/api-reference";
import { buildApp as buildShortener } from "@app/shortener";
import { defaultConfig as shortenerConfig } from "@app/shortener/config";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import type { FastifyInstance } from "fastify";
import type { OpenAPIV3 } from "openapi-types";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, hasChromium, launchChromium, listenLocally, warnWithoutChromium } from "./chromium.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

warnWithoutChromium("api-reference.browser.test.ts");

interface Operation {
  method: string;
  path: string;
  summary: string;
  operationId: string;
}

const key = (op: Operation) => `${op.method} ${op.path} ${op.operationId} ${op.summary}`;

function documentedOperations(document: OpenAPIV3.Document): Operation[] {
  return Object.entries(document.paths).flatMap(([urlPath, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => ({
      method: method.toUpperCase(),
      path: urlPath,
      summary: item?.[method]?.summary ?? "",
      operationId: item?.[method]?.operationId ?? "",
    })),
  );
}

const services: { name: string; build: (prisma: PrismaClient) => Promise<FastifyInstance> }[] = [
  {
    name: "shortener",
    build: async (prisma) => (await buildShortener({ config: shortenerConfig(), prisma })) as FastifyInstance,
  },
  {
    name: "scheduling",
    build: async (prisma) =>
      (await buildScheduling({ config: schedulingConfig({}), prisma })) as FastifyInstance,
  },
];

describe.skipIf(!hasChromium)("API reference in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe.each(services)("$name", ({ name, build }) => {
    let db: TestDatabase;
    let prisma: PrismaClient;
    let app: FastifyInstance;
    let origin: string;
    beforeAll(async () => {
      db = await createTestDatabase();
      prisma = createPrisma(db.url, { poolMax: 2 });
      app = await build(prisma);
      origin = await listenLocally(app);
    });
    afterAll(async () => {
      await app?.close();
      await prisma?.$disconnect();
      await db?.drop();
    });

    it("renders every operation of /docs, loading only from the service itself", {
      timeout: 90_000,
    }, async () => {
      const document = (await (
        await fetch(`${origin}${OPENAPI_DOCUMENT_PATH}`)
      ).json()) as OpenAPIV3.Document;
      const expected = documentedOperations(document);
      expect(expected.length).toBeGreaterThan(0);

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
        // As offline as a test can be: anything bound elsewhere fails (and the assertion below names it).
        await context.route("**/*", (route) =>
          new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
        );

        const response = await page.goto(`${origin}${API_REFERENCE_PATH}`);
        expect(response?.status()).toBe(200);
        expect(response?.headers()["content-security-policy"]).toBe(API_REFERENCE_CSP);
        await page
          .locator(".opblock")
          .nth(expected.length - 1)
          .waitFor({ timeout: 60_000 });
        await page.waitForLoadState("networkidle");

        const rendered: Operation[] = await page.locator(".opblock").evaluateAll((blocks) =>
          blocks.map((block) => ({
            method: block.querySelector(".opblock-summary-method")?.textContent?.trim() ?? "",
            path: block.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "",
            summary: block.querySelector(".opblock-summary-description")?.textContent?.trim() ?? "",
            operationId: block.querySelector(".opblock-summary-operation-id")?.textContent?.trim() ?? "",
          })),
        );
        expect(rendered.map(key).sort()).toEqual(expected.map(key).sort());

        // The page renders the service's own document, not a copy of it.
        expect(requested).toContain(`${origin}${OPENAPI_DOCUMENT_PATH}`);
        expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
        expect(problems).toEqual([]);

        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-reference.png`), fullPage: true });
      } finally {
        await context.close();
      }
    });
  });
});
