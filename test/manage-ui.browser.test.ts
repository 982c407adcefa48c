// /manage in a real headless Chromium (issue 48, docs/adr/0262): the sign-in form takes a user's
// token, keeps it where shlink-web-client keeps its servers (localStorage), mounts Shlink's web
// component, which asks /rest/v3 of this origin with the token as X-Api-Key; nothing is loaded
// from another host and nothing trips the page's Content-Security-Policy. Signing out forgets
// the token. The time from navigation to the short URL list is logged (never asserted), and a
// screenshot lands in .ci/artifacts/ (shortener-manage.png).
//
// The full flow through /rest/v3 follows: the list shows a seeded short, a short is created,
// edited, given a redirect rule, visited, its visits and tags opened, its QR code shown, deleted;
// each step checked against the existing API. A token of no user is refused by the form.
//
// Then a page on another origin (a tiny node:http server of the test's, the one origin
// SHLINK_CORS_ALLOW_ORIGIN lists) drives /rest/v3 with fetch and X-Api-Key through CORS: creates
// a short, edits it, sets a rule, reads its visits and the tags, deletes it; a page on a second
// origin, not listed, is refused by the browser itself and makes nothing (issue 48, ADR 0265).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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
    // The component asks /rest/v3/mercure-info, which answers Shlink's 501 (no Mercure hub):
    // Chromium logs it as a failed load. Anything else is a problem, a CSP refusal first of all.
    const text = message.text();
    if (message.type() === "error" && !/status of 501/.test(text)) problems.push(`console error: ${text}`);
  });
  return { requests, problems };
}

/** The script of a page on another origin: Shlink's API driven through CORS, as a client elsewhere would. */
const ELSEWHERE_SCRIPT = `
const call = async (api, key, method, path, body) => {
  const response = await fetch(api + path, {
    method,
    headers: body === undefined ? { "x-api-key": key } : { "x-api-key": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};
window.writeThrough = async (api, key) => ({
  created: await call(api, key, "POST", "/short-urls", {
    longUrl: "https://example.com/elsewhere", customSlug: "from-elsewhere", tags: ["cors"],
  }),
  edited: await call(api, key, "PATCH", "/short-urls/from-elsewhere", {
    longUrl: "https://example.com/elsewhere-edited", title: "From elsewhere",
  }),
  rules: await call(api, key, "POST", "/short-urls/from-elsewhere/redirect-rules", {
    redirectRules: [{ longUrl: "https://example.com/elsewhere-android",
      conditions: [{ type: "device", matchKey: null, matchValue: "android" }] }],
  }),
});
window.readAndDelete = async (api, key) => ({
  visits: await call(api, key, "GET", "/short-urls/from-elsewhere/visits"),
  tags: await call(api, key, "GET", "/tags/stats"),
  deleted: await call(api, key, "DELETE", "/short-urls/from-elsewhere"),
  gone: await call(api, key, "GET", "/short-urls/from-elsewhere"),
});
window.tryCreate = async (api, key) => {
  try {
    return String((await call(api, key, "POST", "/short-urls", { longUrl: "https://example.com/refused", customSlug: "refused" })).status);
  } catch (error) {
    return error.name + ": " + error.message;
  }
};
`;

/** A tiny server of another origin: a page and its script (no CDN, no framework). */
async function elsewhere(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url === "/elsewhere.js") {
      response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      response.end(ELSEWHERE_SCRIPT);
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end('<!doctype html><title>Elsewhere</title><script src="/elsewhere.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!hasChromium)("/manage in headless Chromium", () => {
  let browser: Browser;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let app: ShortenerApp;
  let origin: string;
  // Two pages elsewhere: one on the origin /rest allows, one on an origin it does not.
  let allowed: Awaited<ReturnType<typeof elsewhere>>;
  let refused: Awaited<ReturnType<typeof elsewhere>>;
  beforeAll(async () => {
    browser = await launchChromium();
    [allowed, refused] = await Promise.all([elsewhere(), elsewhere()]);
    db = await createTestDatabase();
    prisma = createPrisma(db.url, { poolMax: 3 });
    app = await buildApp({ config: defaultConfig({ SHLINK_CORS_ALLOW_ORIGIN: allowed.origin }), prisma });
    origin = await listenLocally(app);
  });
  afterAll(async () => {
    await allowed?.close();
    await refused?.close();
    await browser?.close();
    await app?.close();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it("signs in with a token; the list, create, edit, rules, visits, tags, QR code and delete work through /rest/v3", {
    timeout: 120_000,
  }, async () => {
    const owner = await createUser(prisma, "manage-ui@example.com");
    const bearer = { authorization: `Bearer ${owner.token}` };
    /** The owner's shorts as the existing API lists them. */
    const shorts = async () =>
      (await app.inject({ url: "/api/shorts", headers: bearer })).json() as {
        id: string;
        name: string;
        url: string;
        title?: string | null;
        tags: string[];
        redirectRules?: unknown[] | null;
      }[];
    const seeded = await app.inject({
      method: "POST",
      url: "/api/shorts",
      headers: bearer,
      payload: { url: "https://example.com/seeded", name: "seeded-link" },
    });
    expect(seeded.statusCode).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      context.setDefaultTimeout(60_000); // a loaded machine: not Playwright's 30 s
      await context.route("**/*", (route) =>
        new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
      );
      const page = await context.newPage();
      const { requests, problems } = watch(page);

      // Bare /manage redirects to /manage/ (docs/adr/0270).
      const response = await page.goto(`${origin}/manage`);
      expect(response?.status()).toBe(200);
      expect(page.url()).toBe(`${origin}/manage/`);
      expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.waitFor();
      // Nothing of the component before a token is in: it is a chunk of its own.
      const beforeSignIn = requests.filter(({ url }) => url.endsWith(".js")).length;

      // A token of no user is refused by the form, and nothing is kept.
      await page.getByLabel("API token").fill("not-a-token-of-anyone");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "This token is not accepted." }).waitFor();
      expect(await page.evaluate("localStorage.getItem('shlink.servers')")).toBeNull();
      problems.length = 0; // the refused check's 401, logged by Chromium as a failed load

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

      // The list, opened by its address as a bookmark would: the time to its seeded row is logged.
      const started = performance.now();
      await page.goto(`${origin}/manage/list-short-urls/1`);
      await page.getByRole("row").filter({ hasText: "seeded-link" }).waitFor();
      const shownMs = Math.round(performance.now() - started);
      console.log(`/manage/list-short-urls/1: the link list shown ${shownMs} ms after navigation`);
      await page.screenshot({ path: path.join(ARTIFACTS, "shortener-manage.png") });

      // The other pages are opened inside the page (as its links do), not loaded again.
      const go = (to: string) =>
        page.evaluate(
          `history.pushState({}, "", ${JSON.stringify(to)}); dispatchEvent(new PopStateEvent("popstate"))`,
        );

      // Create: long URL, custom slug, a tag.
      await go("/manage/create-short-url");
      await page.getByPlaceholder("URL to be shortened").fill("https://example.com/created");
      await page.getByPlaceholder("Custom slug").fill("made-in-ui");
      await page.getByPlaceholder("Add tags to the URL").fill("launch");
      await page.getByPlaceholder("Add tags to the URL").press("Enter");
      await page.getByRole("button", { name: "Save" }).click();
      await page
        .getByText(/made-in-ui/)
        .first()
        .waitFor();
      await expect
        .poll(async () => (await shorts()).find((short) => short.name === "made-in-ui"))
        .toMatchObject({
          url: "https://example.com/created",
          tags: ["launch"],
        });

      // Edit: its long URL and title.
      await go("/manage/short-code/made-in-ui/edit");
      const longUrl = page.getByPlaceholder("URL to be shortened");
      await expect.poll(() => longUrl.inputValue()).toBe("https://example.com/created");
      await longUrl.fill("https://example.com/edited");
      await page.getByPlaceholder("Title").fill("Made in the UI");
      await page.getByRole("button", { name: "Save" }).click();
      await expect
        .poll(async () => (await shorts()).find((short) => short.name === "made-in-ui"))
        .toMatchObject({
          url: "https://example.com/edited",
          title: "Made in the UI",
        });

      // Rules: one rule, device android.
      await go("/manage/short-code/made-in-ui/redirect-rules");
      await page.getByRole("button", { name: "Add rule" }).click();
      await page.getByLabel("Long URL:").fill("https://example.com/android");
      await page.getByRole("button", { name: "Add condition" }).click();
      await page.getByRole("combobox").last().selectOption("android");
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("button", { name: "Save rules" }).click();
      await expect
        .poll(async () => (await shorts()).find((short) => short.name === "made-in-ui")?.redirectRules)
        .toEqual([
          { url: "https://example.com/android", conditions: [{ type: "device", value: "android" }] },
        ]);

      // Visits: three through the redirect, then its visits page.
      for (let i = 0; i < 3; i++) {
        const visit = await fetch(`${origin}/made-in-ui`, { redirect: "manual" });
        expect(visit.status).toBe(302);
      }
      await go("/manage/short-code/made-in-ui/visits");
      // Its count and its chart (recharts under the page's CSP); then the charts by context.
      await page.getByText("Visits: 3").waitFor();
      await page.locator(".recharts-surface").first().waitFor();
      await page.getByText("By context").click();
      await page.locator(".recharts-surface").first().waitFor();

      // Tags: the tag is listed (loaded again: the component reads the tags once, at its start).
      await page.goto(`${origin}/manage/manage-tags`);
      await page.getByText("launch").first().waitFor();

      // QR code and delete, from the row's menu in the list.
      await go("/manage/list-short-urls/1");
      const row = page.getByRole("row").filter({ hasText: "made-in-ui" });
      await row.getByRole("button").last().click();
      await page.getByRole("menuitem", { name: "QR code" }).click();
      // The preview is a canvas; its one inline <style> is allowed by hash (docs/adr/0274).
      await page.locator("#qr-code-canvas-container canvas").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Close" }).first().click();
      await expect.poll(() => page.locator("dialog[open]").count(), { timeout: 10_000 }).toBe(0);
      await row.getByRole("button").last().click();
      await page.getByRole("menuitem", { name: "Delete short URL" }).click();
      await page.getByPlaceholder("delete").fill("delete");
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expect.poll(async () => (await shorts()).map((short) => short.name)).toEqual(["seeded-link"]);

      // The component's requests: this origin's /rest/v3, with the token as X-Api-Key.
      const api = requests.filter(({ url }) => new URL(url).pathname.startsWith("/rest/"));
      for (const request of api) {
        expect(request.url.startsWith(`${origin}/rest/v3/`), request.url).toBe(true);
      }
      expect(api.filter(({ apiKey }) => apiKey === owner.token).length).toBeGreaterThan(0);
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
  it("a page on another origin drives /rest/v3 through CORS (create, edit, rules, visits, tags, delete); an origin not allowed is refused by the browser", {
    timeout: 120_000,
  }, async () => {
    const owner = await createUser(prisma, "elsewhere@example.com");
    const bearer = { authorization: `Bearer ${owner.token}` };
    const shorts = async () =>
      (await app.inject({ url: "/api/shorts", headers: bearer })).json() as {
        name: string;
        url: string;
        title?: string | null;
        tags: string[];
        redirectRules?: unknown[] | null;
      }[];
    const api = `${origin}/rest/v3`;
    const run = (page: Page, script: string) =>
      page.evaluate(`${script}(${JSON.stringify(api)}, ${JSON.stringify(owner.token)})`) as Promise<
        Record<string, { status: number; body: Record<string, unknown> | null }>
      >;
    const context = await browser.newContext();
    try {
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      await page.goto(`${allowed.origin}/`);
      expect(new URL(page.url()).origin).not.toBe(origin);

      const wrote = await run(page, "writeThrough");
      expect(wrote.created).toMatchObject({
        status: 200,
        body: { shortCode: "from-elsewhere", longUrl: "https://example.com/elsewhere", tags: ["cors"] },
      });
      expect(wrote.edited).toMatchObject({
        status: 200,
        body: { longUrl: "https://example.com/elsewhere-edited", title: "From elsewhere" },
      });
      expect(wrote.rules).toMatchObject({
        status: 200,
        body: {
          defaultLongUrl: "https://example.com/elsewhere-edited",
          redirectRules: [
            {
              longUrl: "https://example.com/elsewhere-android",
              priority: 1,
              conditions: [{ type: "device", matchKey: null, matchValue: "android" }],
            },
          ],
        },
      });
      // The same short in the existing API.
      expect(await shorts()).toMatchObject([
        {
          name: "from-elsewhere",
          url: "https://example.com/elsewhere-edited",
          title: "From elsewhere",
          tags: ["cors"],
          redirectRules: [
            {
              url: "https://example.com/elsewhere-android",
              conditions: [{ type: "device", value: "android" }],
            },
          ],
        },
      ]);

      // Two visits, then the page reads them and the tags, and deletes the short.
      for (let i = 0; i < 2; i++) {
        expect((await fetch(`${origin}/from-elsewhere`, { redirect: "manual" })).status).toBe(302);
      }
      const read = await run(page, "readAndDelete");
      expect(read.visits!.status).toBe(200);
      expect(
        (read.visits!.body!.visits as { pagination: { totalItems: number } }).pagination.totalItems,
      ).toBe(2);
      expect(read.tags).toMatchObject({
        status: 200,
        body: { tags: { data: [{ tag: "cors", shortUrlsCount: 1, visitsSummary: { total: 2 } }] } },
      });
      expect(read.deleted!.status).toBe(204);
      expect(read.gone).toMatchObject({
        status: 404,
        body: { type: "https://shlink.io/api/error/short-url-not-found", shortCode: "from-elsewhere" },
      });
      expect(await shorts()).toEqual([]);

      // An origin SHLINK_CORS_ALLOW_ORIGIN does not list: the browser refuses the preflight's
      // answer (no Access-Control-Allow-Origin), the page sees a failed fetch, nothing is made.
      const other = await context.newPage();
      await other.goto(`${refused.origin}/`);
      expect(
        await other.evaluate(`tryCreate(${JSON.stringify(api)}, ${JSON.stringify(owner.token)})`),
      ).toMatch(/^TypeError: Failed to fetch/);
      expect(await shorts()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
