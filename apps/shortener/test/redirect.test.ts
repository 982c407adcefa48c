import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

async function createShort(name: string, url = "https://target.example/path?x=1") {
  const user = await newUser(ctx.prisma);
  const res = await postShort(ctx.app, user, { url, name });
  expect(res.statusCode).toBe(201);
  return { user, short: res.json() as { id: string; url: string } };
}

/** One real HTTP GET that does not follow the redirect. */
function httpGet(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("GET /{name}", () => {
  it("answers 302 to the target, uncacheable, and stores one log row", async () => {
    const { short } = await createShort("go-there");
    const res = await ctx.app.inject({
      url: "/go-there",
      headers: { "user-agent": "Mozilla/5.0 test", referer: "https://from.example/page" },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("https://target.example/path?x=1");
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    const logs = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      ipAddress: "127.0.0.1",
      userAgent: "Mozilla/5.0 test",
      referer: "https://from.example/page",
    });
  });

  it("stores the headers exactly, whatever characters they hold (the batch sends them as array literals)", async () => {
    const { short } = await createShort("odd-headers");
    const agents = ['say "hi"', "back\\slash\\", "{braces},commas", "NULL", '"', "\\", "  spaced  ", "Ünï"];
    for (const agent of agents) {
      const res = await ctx.app.inject({
        url: "/odd-headers",
        headers: { "user-agent": agent, referer: `${agent}"\\` },
      });
      expect(res.statusCode).toBe(302);
    }
    const logs = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id }, orderBy: { id: "asc" } });
    expect(logs.map((log) => [log.userAgent, log.referer])).toEqual(
      agents.map((agent) => [agent, `${agent}"\\`]),
    );
    // The same in one batch: concurrent visits go out together.
    const { short: together } = await createShort("odd-together");
    await Promise.all(
      agents.map((agent) => ctx.app.inject({ url: "/odd-together", headers: { "user-agent": agent } })),
    );
    const stored = await ctx.prisma.shortLog.findMany({ where: { shortId: together.id } });
    expect(stored.map((log) => log.userAgent).sort()).toEqual([...agents].sort());
  });

  it("logs empty strings for absent headers", async () => {
    const { short } = await createShort("no-headers");
    await ctx.app.inject({ url: "/no-headers", headers: { "user-agent": "" } });
    const [log] = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id } });
    expect(log).toMatchObject({ userAgent: "", referer: "" });
  });

  it("cuts over-long headers to their column sizes instead of failing", async () => {
    const { short } = await createShort("long-headers");
    const res = await ctx.app.inject({
      url: "/long-headers",
      headers: { "user-agent": "u".repeat(5000), referer: `https://r.example/${"r".repeat(5000)}` },
    });
    expect(res.statusCode).toBe(302);
    const [log] = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id } });
    expect(log!.userAgent).toHaveLength(1024);
    expect(log!.referer).toHaveLength(2048);
  });

  it("answers HEAD the same without logging", async () => {
    const { short } = await createShort("head-only");
    const res = await ctx.app.inject({ method: "HEAD", url: "/head-only" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("https://target.example/path?x=1");
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(0);
  });

  it("answers unknown and invalid names with 404 text/plain, and logs nothing", async () => {
    const before = await ctx.prisma.shortLog.count();
    for (const url of [
      "/does-not-exist",
      "/Go-There",
      "/a.b",
      "/%F0%9F%98%80",
      `/${"x".repeat(65)}`,
      "/go-there/extra",
    ]) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    }
    expect(await ctx.prisma.shortLog.count()).toBe(before);
  });

  it("keeps serving its own paths: /docs, /health, /ready", async () => {
    expect((await ctx.app.inject({ url: "/health" })).json()).toEqual({ status: "ok" });
    expect((await ctx.app.inject({ url: "/ready" })).json()).toEqual({ status: "ready", database: "leader" });
    expect((await ctx.app.inject({ url: "/docs" })).json().openapi).toBe("3.0.3");
  });

  it("records exactly one row per visit under 200 concurrent real HTTP visits", async () => {
    const { short } = await createShort("busy");
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = ctx.app.server.address() as { port: number };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => httpGet(port, "/busy", { "user-agent": `visitor-${i}` })),
    );
    expect(results.every((r) => r.status === 302)).toBe(true);
    const logs = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id } });
    expect(logs).toHaveLength(200);
    expect(new Set(logs.map((l) => l.userAgent)).size).toBe(200);
  });
});

describe("client IP behind a proxy", () => {
  const proxied = setupShortener({ TRUST_PROXY: true });
  const direct = ctx;

  it("honours X-Forwarded-For only when TRUST_PROXY says so", async () => {
    for (const [app, expected] of [
      [proxied, "203.0.113.9"],
      [direct, "127.0.0.1"],
    ] as const) {
      const user = await newUser(app.prisma);
      const name = `ip-${expected.replaceAll(".", "-")}`;
      const created = await postShort(app.app, user, { url: "https://example.com/", name });
      await app.app.inject({ url: `/${name}`, headers: { "x-forwarded-for": "203.0.113.9" } });
      const [log] = await app.prisma.shortLog.findMany({ where: { shortId: created.json().id } });
      expect(log!.ipAddress).toBe(expected);
    }
  });

  it("gives a private, reserved or documentation address no country: not on the row, in the statistics nor to a country rule", async () => {
    // The country database names AU for the first four and JP for 2001:db8::/32 (whois records).
    const special = [
      "172.16.5.4",
      "192.168.1.5",
      "198.51.100.7",
      "203.0.113.9",
      "10.1.2.3",
      "100.64.0.1",
      "::ffff:192.168.1.5",
      "2001:db8::1",
      "fd00::1",
      "fe80::1",
    ];
    const user = await newUser(proxied.prisma);
    const plain = (await postShort(proxied.app, user, { url: "https://example.com/" })).json();
    const ruled = (
      await postShort(proxied.app, user, {
        url: "https://example.com/default",
        redirectRules: [{ url: "https://example.com/au", conditions: [{ type: "country", value: "AU" }] }],
      })
    ).json();
    await proxied.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = proxied.app.server.address() as { port: number };
    for (const ip of special) {
      const headers = { "x-forwarded-for": ip };
      expect((await httpGet(port, `/${plain.name}`, headers)).status, ip).toBe(302);
      expect((await httpGet(port, `/${ruled.name}`, headers)).headers.location, ip).toBe(
        "https://example.com/default",
      );
    }
    // An address of the registry's country still has it (and the rule would have matched).
    const australian = "1.1.1.1";
    expect((await httpGet(port, `/${ruled.name}`, { "x-forwarded-for": australian })).headers.location).toBe(
      "https://example.com/au",
    );

    const rows = await proxied.prisma.shortLog.findMany({ where: { shortId: plain.id } });
    expect(rows.map((row) => [row.ipAddress, row.country]).sort()).toEqual(
      special.map((ip) => [ip, ""]).sort(),
    );
    const stats = await proxied.app.inject({ url: `/api/shorts/${plain.id}/stats`, headers: user.headers });
    expect(stats.json().countries).toEqual([{ value: "", visits: special.length, humans: special.length }]);
    const account = (await proxied.app.inject({ url: "/api/stats", headers: user.headers })).json();
    expect(account.countries).toEqual([
      { value: "", visits: 2 * special.length, humans: 2 * special.length },
      { value: "AU", visits: 1, humans: 1 },
    ]);
  });
});
