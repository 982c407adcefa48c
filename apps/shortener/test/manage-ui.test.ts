// /manage, the management UI (issue 48, docs/adr/0262): the page with its Content-Security-Policy,
// every file it names served from this service with its precompressed bodies and immutable
// caching, the JavaScript within its budget, and SHORTENER_MANAGE_UI=off taking all of it away.
// What it does in a browser: test/manage-ui.browser.test.ts.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig, loadConfig } from "../src/config.ts";
import { MANAGE_UI_CSP } from "../src/manage-ui.routes.ts";
import { newUser, setupShortener } from "./helpers.ts";

/** At most this much gzipped JavaScript for /manage (issue 48's speed bar: 1 MB). */
const JS_BUDGET = 1_000_000;

const ctx = setupShortener();

/** The files the page names: its script and stylesheet. */
const named = (html: string) =>
  [...html.matchAll(/(?:src|href)="(\/manage\/assets\/[^"]+)"/g)].map((m) => m[1]!);

describe("/manage", () => {
  it("answers the page under its Content-Security-Policy, at /manage/ and at the component's own addresses", async () => {
    // Bare /manage redirects here (a short's where its domain has one: shlink-fields.test.ts).
    const bare = await ctx.app.inject({ url: "/manage" });
    expect([bare.statusCode, bare.headers.location]).toEqual([302, "/manage/"]);
    for (const url of ["/manage/", "/manage/list-short-urls/1", "/manage/short-code/abc/visits"]) {
      const page = await ctx.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["content-security-policy"]).toBe(MANAGE_UI_CSP);
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
      expect(page.headers["cache-control"]).toBe("no-cache");
      // No inline script or style the policy would refuse.
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
      expect(named(page.body)).toHaveLength(2);
    }
    expect(MANAGE_UI_CSP).toContain("script-src 'self';");
    expect(MANAGE_UI_CSP).not.toMatch(/unsafe-(inline|eval)|https?:/);
  });

  it("serves every file the page loads, precompressed, under immutable caching", async () => {
    const page = await ctx.app.inject({ url: "/manage/" });
    for (const url of named(page.body)) {
      const plain = await ctx.app.inject({ url });
      expect(plain.statusCode, url).toBe(200);
      expect(plain.headers["content-type"]).toMatch(/^text\/(javascript|css); charset=utf-8$/);
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toBe("accept-encoding");
      const br = await ctx.app.inject({ url, headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
      const gzip = await ctx.app.inject({ url, headers: { "accept-encoding": "gzip, br;q=0" } });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });

  it("ships at most 1 MB of gzipped JavaScript, every chunk counted", async () => {
    const page = await ctx.app.inject({ url: "/manage/" });
    const script = named(page.body).find((url) => url.endsWith(".js"))!;
    // The entry and every chunk it can load (its imports name them by path).
    const seen = new Set<string>();
    const pending = [script];
    let gzipped = 0;
    let plain = 0;
    while (pending.length > 0) {
      const url = pending.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const answer = await ctx.app.inject({ url, headers: { "accept-encoding": "gzip" } });
      expect(answer.statusCode, url).toBe(200);
      gzipped += answer.rawPayload.length;
      const source = gunzipSync(answer.rawPayload).toString("utf8");
      plain += source.length;
      for (const m of source.matchAll(/["'](?:\/manage\/assets\/|\.\/)(chunk-[A-Z0-9]+\.js)["']/g))
        pending.push(`/manage/assets/${m[1]}`);
    }
    console.log(
      `/manage JavaScript: ${seen.size} files, ${Math.round(plain / 1024)} KiB, ${Math.round(gzipped / 1024)} KiB gzipped (budget ${JS_BUDGET / 1000} kB)`,
    );
    expect(seen.size).toBeGreaterThan(1); // the component is a chunk of its own, loaded after sign-in
    expect(gzipped).toBeLessThanOrEqual(JS_BUDGET);
  });

  it("answers 404 for a file it does not have", async () => {
    for (const url of ["/manage/assets/missing.js", "/manage/assets/__proto__", "/manage/assets/toString"]) {
      const answer = await ctx.app.inject({ url });
      expect(answer.statusCode, url).toBe(404);
    }
  });
});

describe("SHORTENER_MANAGE_UI=off", () => {
  let off: ShortenerApp;
  beforeAll(async () => {
    off = await buildApp({ config: defaultConfig({ SHORTENER_MANAGE_UI: "off" }), prisma: ctx.prisma });
  });
  afterAll(async () => {
    await off?.close();
  });

  it("leaves no /manage: 404, as any unknown name", async () => {
    for (const url of ["/manage", "/manage/list-short-urls/1", `/manage/assets/${"x".repeat(8)}.js`]) {
      const answer = await off.inject({ url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.headers["content-security-policy"]).toBeUndefined();
    }
    // The API is untouched.
    const { headers } = await newUser(ctx.prisma);
    expect((await off.inject({ url: "/api/shorts", headers })).statusCode).toBe(200);
  });

  it("is read from the environment: on by default, on or off, anything else refused", () => {
    expect(loadConfig({}).SHORTENER_MANAGE_UI).toBe("on");
    expect(loadConfig({ SHORTENER_MANAGE_UI: "off" }).SHORTENER_MANAGE_UI).toBe("off");
    expect(() => loadConfig({ SHORTENER_MANAGE_UI: "false" })).toThrow(
      /SHORTENER_MANAGE_UI.*must be on or off/,
    );
  });
});
