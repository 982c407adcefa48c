// A password-protected short in a real headless Chromium (issue 20), on a phone-sized screen: the
// form renders legibly under its Content-Security-Policy without tripping it, a wrong password
// shows it again with a message, the right one follows the 302 to the target, and exactly one
// visit is stored. Screenshots of each step land in .ci/artifacts/.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createPrisma, type PrismaClient } from "@app/db";
import { buildApp, type ShortenerApp } from "@app/shortener";
import { defaultConfig } from "@app/shortener/config";
import { createUser } from "@app/shortener/credentials";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, hasChromium, launchChromium, listenLocally, warnWithoutChromium } from "./chromium.ts";

warnWithoutChromium("link-password.browser.test.ts");

const PASSWORD = "open sesame";

describe.skipIf(!hasChromium)("a password-protected short in headless Chromium", () => {
  let browser: Browser;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let app: ShortenerApp;
  let origin: string;
  let target: Server;
  let targetUrl: string;
  beforeAll(async () => {
    browser = await launchChromium();
    db = await createTestDatabase();
    prisma = createPrisma(db.url, { poolMax: 3 });
    app = await buildApp({ config: defaultConfig(), prisma });
    origin = await listenLocally(app);
    // The short's target: a page of its own, on another origin.
    target = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        '<!doctype html><meta name="viewport" content="width=device-width"><h1>Target reached</h1>',
      );
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/landing`;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => target?.close(resolve));
    await prisma?.$disconnect();
    await db?.drop();
  });

  it("asks for the password, refuses a wrong one, and follows to the target with the right one", {
    timeout: 90_000,
  }, async () => {
    const owner = await createUser(prisma, "link-password@example.com");
    const created = await app.inject({
      method: "POST",
      url: "/api/shorts",
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { url: targetUrl, name: "members", password: PASSWORD },
    });
    expect(created.statusCode).toBe(201);
    const shortId = created.json().id as string;

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    try {
      context.setDefaultTimeout(60_000); // a loaded machine: not Playwright\'s 30 s
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        // A Content-Security-Policy violation is reported as a console error; the wrong
        // password's 401 is too, and is what the page is meant to answer.
        if (message.type() !== "error" || message.text().includes("status of 401")) return;
        problems.push(`console error: ${message.text()}`);
      });

      const form = await page.goto(`${origin}/members`);
      expect(form?.status()).toBe(200);
      expect(form?.headers()["content-security-policy"]).toContain("default-src 'none'");
      await expect.poll(() => page.title()).toBe("Password required");
      // Legible on a phone: no zoom needed (16 px or more), the field spans the card.
      const sizes = await page.evaluate(`(() => {
        const px = (selector) => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize);
        return { body: px("p"), input: px("input[type=password]"), button: px("button"),
                 inputWidth: document.querySelector("input[type=password]").getBoundingClientRect().width,
                 scrollWidth: document.documentElement.scrollWidth };
      })()`);
      expect(sizes).toMatchObject({ scrollWidth: 390 });
      const { body, input, button, inputWidth } = sizes as Record<string, number>;
      for (const size of [body, input, button]) expect(size).toBeGreaterThanOrEqual(16);
      expect(inputWidth).toBeGreaterThan(250);
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-password-form.png") });

      await page.fill("input[type=password]", "wrong guess");
      const [refused] = await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
      expect(refused?.status()).toBe(401);
      expect(await page.locator("[role=alert]").textContent()).toBe("Wrong password. Try again.");
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-password-wrong.png") });
      expect(await prisma.shortLog.count({ where: { shortId } })).toBe(0);

      await page.fill("input[type=password]", PASSWORD);
      await Promise.all([page.waitForURL(targetUrl), page.click("button[type=submit]")]);
      expect(await page.locator("h1").textContent()).toBe("Target reached");
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-password-target.png") });

      expect(problems).toEqual([]);
      const stored = await prisma.shortLog.findMany({ where: { shortId } });
      expect(stored).toHaveLength(1);
      expect(stored[0]!.userAgent).toContain("Chrome");
    } finally {
      await context.close();
    }
  });
});
