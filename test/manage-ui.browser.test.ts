// /manage in a real headless Chromium (issue 48, docs/adr/0278): the sign-in form takes a user's
// token, keeps it where shlink-web-client keeps its servers (localStorage), mounts Shlink's web
// component, which asks /rest/v3 of this origin with the token as X-Api-Key; nothing is loaded
// from another host and nothing trips the page's Content-Security-Policy. Signing out forgets
// the token. The time from navigation to the short URL list is logged (never asserted), and a
// screenshot lands in .ci/artifacts/ (shortener-manage.png).
//
// The /rest/v3 API comes from another branch (wt-48api): until it is merged, the component's
// requests answer 404 and the list page shows the component's menu only. The flows through that API are
// the skipped test at the end: enable it once /rest/v3 is in.
import path from "node:path";
import { createPrisma, type PrismaClient } from "@app/db";
import { buildApp, type ShortenerApp } from "@app/shortener";
import { defaultConfig } from "@app/shortener/config";
import { createUser } from "@app/shortener/credentials";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, hasChromium, launchChromium, listenLocally, warnWithoutChromium } from "./chromium.ts";

warnWithoutChromium("manage-ui.browser.test.ts");

/** What the page did: every request, every error and every CSP refusal it reported. */
function watch(page: Page) {
  const requests: { url: string; apiKey: string | undefined }[] = [];
  const problems: string[] = [];
  page.on("request", (request) =>
    requests.push({ url: request.url(), apiKey: request.headers()["x-api-key"] }),
  );
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    // The component's requests to a /rest/v3 not there yet are logged by Chromium as failed
    // loads (404); anything else is a problem, a CSP refusal first of all.
    const text = message.text();
    if (message.type() === "error" && !/status of 404/.test(text)) problems.push(`console error: ${text}`);
  });
  return { requests, problems };
}

describe.skipIf(!hasChromium)("/manage in headless Chromium", () => {
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

  it("signs in with a token, mounts the web component, which asks /rest/v3 with it", {
    timeout: 120_000,
  }, async () => {
    const owner = await createUser(prisma, "manage-ui@example.com");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      context.setDefaultTimeout(60_000); // a loaded machine: not Playwright's 30 s
      await context.route("**/*", (route) =>
        new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
      );
      const page = await context.newPage();
      const { requests, problems } = watch(page);

      const response = await page.goto(`${origin}/manage`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.waitFor();
      // Nothing of the component before a token is in: it is a chunk of its own.
      const beforeSignIn = requests.filter(({ url }) => url.endsWith(".js")).length;

      await page.getByLabel("API token").fill(owner.token);
      await page.getByRole("button", { name: "Sign in" }).click();
      // The component's menu: it mounted.
      await page.getByRole("link", { name: "List short URLs" }).waitFor();
      await page.getByRole("button", { name: "Sign out" }).waitFor();
      expect(await form.count()).toBe(0);
      expect(requests.filter(({ url }) => url.endsWith(".js")).length).toBeGreaterThan(beforeSignIn);

      // Kept as shlink-web-client keeps its servers.
      const stored = JSON.parse((await page.evaluate("localStorage.getItem('shlink.servers')")) as string);
      expect(Object.values(stored)).toEqual([
        { id: "this-service", name: new URL(origin).host, url: origin, apiKey: owner.token },
      ]);

      // The list, opened by its address as a bookmark would. Until /rest/v3 is in, the component
      // shows its menu there and waits for the API: the time logged is then to the menu, the
      // list's own (its table) being the skipped test's.
      const started = performance.now();
      await page.goto(`${origin}/manage/list-short-urls/1`);
      await page.locator("a[aria-current=page]", { hasText: "List short URLs" }).waitFor();
      const shownMs = Math.round(performance.now() - started);
      console.log(`/manage/list-short-urls/1: the component shown ${shownMs} ms after navigation`);
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-manage.png") });

      // The component's requests (health, mercure-info, tags, domains) and the sign-in form's
      // check: this origin's /rest/v3, with the token as X-Api-Key.
      const api = requests.filter(({ url }) => new URL(url).pathname.startsWith("/rest/"));
      for (const request of api) {
        expect(request.url.startsWith(`${origin}/rest/v3/`), request.url).toBe(true);
        expect(request.apiKey, request.url).toBe(owner.token);
      }
      expect(api.map(({ url }) => new URL(url).pathname)).toEqual(
        expect.arrayContaining([
          "/rest/v3/short-urls",
          "/rest/v3/health",
          "/rest/v3/domains",
          "/rest/v3/tags/stats",
        ]),
      );
      // Same origin only, and nothing the policy refused.
      expect(requests.filter(({ url }) => new URL(url).origin !== origin)).toEqual([]);
      expect(problems).toEqual([]);

      // Signed out: the form again, the token forgotten, and a reload keeps it so.
      await page.getByRole("button", { name: "Sign out" }).click();
      await form.waitFor();
      expect(await page.evaluate("localStorage.getItem('shlink.servers')")).toBeNull();
      await page.reload();
      await form.waitFor();
    } finally {
      await context.close();
    }
  });

  // Needs /rest/v3 (branch wt-48api): once merged, replace this skip with the flow through the
  // UI — sign in; create a short (long URL, custom slug, tags) and see it in the list; edit its
  // long URL and title; add a redirect rule (device: android) and see it kept; open its visits
  // after three visits through the redirect (the counts equal GET /api/shorts/{id}/stats);
  // rename a tag on the tags page; delete the short (its confirmation asks for the short code);
  // each step checked against GET /api/shorts; the visits page (recharts, Leaflet) trips
  // no CSP refusal. Also: a token of no user is refused by the sign-in form ("This token is not
  // accepted."), and the time logged above is then the list's table's (issue 48's bench row).
  it.todo("drives create, edit, rules, visits, tags and delete through /rest/v3 (after wt-48api is merged)");
});
