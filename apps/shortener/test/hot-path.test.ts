// The cached redirect answered before Fastify (docs/adr/0240): over real HTTP (app.inject goes
// through Fastify's own handler, never the server's listener), its answers, visits, counts and
// metrics are those of the route it stands in for; every other request is Fastify's.

import type { IncomingMessage } from "node:http";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { requestOrigin } from "@app/server/hot-path";
import { serveMetrics } from "@app/server/metrics";
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { hotRedirect } from "../src/redirect.routes.ts";
import { ShortGone } from "../src/visits/visit-log.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();
let port = 0;

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  port = (ctx.app.server.address() as AddressInfo).port;
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

function http(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers, method, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function createShort(payload: Record<string, unknown>) {
  const user = await newUser(ctx.prisma);
  const res = await postShort(ctx.app, user, payload);
  expect(res.statusCode).toBe(201);
  return { user, short: res.json() as { id: string } };
}

const rows = (shortId: string) => ctx.prisma.shortLog.count({ where: { shortId } });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The request's answer and whether the hot path gave it. */
async function hot(path: string, headers: Record<string, string> = {}, method = "GET") {
  const before = ctx.app.hotPath.answered;
  const answer = await http(path, headers, method);
  return { ...answer, hot: ctx.app.hotPath.answered > before };
}

describe("the hot redirect", () => {
  it("answers a cached short as the route does: the same 302 and headers, one visit row each", async () => {
    const { short } = await createShort({ url: "https://target.example/a?b=1", name: "hot-one" });
    // The first lookup fills the cache (Fastify's route); the next ones are hot.
    const first = await hot("/hot-one");
    expect(first.status).toBe(302);
    const second = await hot("/hot-one?utm_source=poster", {
      "user-agent": "Mozilla/5.0 hot",
      referer: "https://from.example/",
    });
    expect(second.hot).toBe(true);
    const framework = await ctx.app.inject({ url: "/hot-one" });
    for (const answer of [first, second]) {
      expect(answer.status).toBe(framework.statusCode);
      expect(answer.headers.location).toBe(framework.headers.location);
      expect(answer.headers["cache-control"]).toBe(framework.headers["cache-control"]);
      expect(answer.headers["content-length"]).toBe("0");
      expect(answer.headers["x-request-id"]).toMatch(UUID);
    }
    expect(await rows(short.id)).toBe(3);
    const logs = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id }, orderBy: { id: "asc" } });
    expect(logs[1]).toMatchObject({
      ipAddress: "127.0.0.1",
      userAgent: "Mozilla/5.0 hot",
      referer: "https://from.example/",
    });
  });

  it("echoes a caller's request id as Fastify does, and replaces one that could forge log content", async () => {
    await createShort({ url: "https://target.example/", name: "hot-ids" });
    await http("/hot-ids");
    const kept = await hot("/hot-ids", { "x-request-id": "trace-42.a:b@c" });
    expect(kept).toMatchObject({ hot: true, status: 302 });
    expect(kept.headers["x-request-id"]).toBe("trace-42.a:b@c");
    const replaced = await hot("/hot-ids", { "x-request-id": "bad id with spaces" });
    expect(replaced.headers["x-request-id"]).toMatch(UUID);
  });

  it("stores every one of 300 concurrent visits, and the statistics count them exactly", async () => {
    const { user, short } = await createShort({ url: "https://target.example/", name: "hot-busy" });
    await http("/hot-busy");
    const before = ctx.app.hotPath.answered;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => http("/hot-busy", { "user-agent": `visitor-${i % 7}` })),
    );
    expect(answers.every((answer) => answer.status === 302)).toBe(true);
    expect(ctx.app.hotPath.answered - before).toBe(300);
    expect(await rows(short.id)).toBe(301);
    const stats = await ctx.app.inject({ url: `/api/shorts/${short.id}/stats`, headers: user.headers });
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toMatchObject({ totals: { visits: 301 } });
  });

  it("chooses a short's redirect rule as the route does, from real headers and the query as Fastify parses it", async () => {
    const { short } = await createShort({
      url: "https://default.example/",
      name: "hot-rules",
      redirectRules: [
        { url: "https://ios.example/", conditions: [{ type: "device", value: "ios" }] },
        { url: "https://android.example/", conditions: [{ type: "device", value: "android" }] },
        { url: "https://de.example/", conditions: [{ type: "language", value: "de" }] },
        { url: "https://fr.example/", conditions: [{ type: "country", value: "FR" }] },
        {
          url: "https://poster.example/",
          conditions: [{ type: "query", param: "utm_source", value: "a poster" }],
        },
      ],
    });
    await http("/hot-rules");
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
    const pixel =
      "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
    const cases: [string, Record<string, string>, string][] = [
      ["/hot-rules", {}, "https://default.example/"],
      ["/hot-rules", { "user-agent": iphone }, "https://ios.example/"],
      ["/hot-rules", { "user-agent": pixel }, "https://android.example/"],
      ["/hot-rules", { "accept-language": "fr-CH, fr;q=0.9, de;q=0.8, *;q=0.5" }, "https://de.example/"],
      ["/hot-rules", { "accept-language": "en-US,en;q=0.9" }, "https://default.example/"],
      ["/hot-rules?utm_source=a+poster", {}, "https://poster.example/"],
      ["/hot-rules?utm_source=a%20poster&x=1", {}, "https://poster.example/"],
      ["/hot-rules?utm_source=web&utm_source=a+poster", {}, "https://poster.example/"],
      ["/hot-rules?utm_source=poster", {}, "https://default.example/"],
      ["/hot-rules?utm_source", {}, "https://default.example/"],
    ];
    for (const [path, headers, location] of cases) {
      const answer = await hot(path, headers);
      const framework = await ctx.app.inject({ url: path, headers });
      expect({ path, headers, hot: answer.hot, location: answer.headers.location }).toEqual({
        path,
        headers,
        hot: true,
        location: framework.headers.location,
      });
      expect(answer.headers.location).toBe(location);
    }
    // Each visit records the rule that sent it, as the route's do (1 is the first; null: the url).
    const logs = await ctx.prisma.shortLog.findMany({ where: { shortId: short.id }, orderBy: { id: "asc" } });
    const rules = logs.slice(1).map((log) => log.rule);
    expect(rules.filter((_, i) => i % 2 === 0)).toEqual(rules.filter((_, i) => i % 2 === 1));
    expect(rules.filter((_, i) => i % 2 === 0)).toEqual([null, 1, 2, 3, null, 5, 5, 5, null, null]);
  });

  it("leaves to Fastify what is not a plain GET of a cached short without a window, limit or password", async () => {
    await createShort({ url: "https://target.example/", name: "hot-plain" });
    await createShort({ url: "https://target.example/", name: "hot-locked", password: "open sesame" });
    await createShort({ url: "https://target.example/", name: "hot-limited", maxVisits: 5 });
    await createShort({
      url: "https://target.example/",
      name: "hot-ruled",
      redirectRules: [
        { conditions: [{ type: "query", param: "v", value: "1" }], url: "https://ruled.example/" },
      ],
    });
    for (const name of ["hot-plain", "hot-locked", "hot-limited", "hot-ruled"]) await http(`/${name}`);
    expect(await hot("/hot-plain")).toMatchObject({ hot: true, status: 302 });
    // HEAD stores no visit; a percent-encoded name is decoded by Fastify's router.
    expect(await hot("/hot-plain", {}, "HEAD")).toMatchObject({ hot: false, status: 302 });
    expect(await hot("/hot-%70lain")).toMatchObject({ hot: false, status: 302 });
    expect(await hot("/hot-plain/")).toMatchObject({ hot: false, status: 404 });
    expect(await hot("/hot-locked")).toMatchObject({ hot: false, status: 200 });
    expect(await hot("/hot-limited")).toMatchObject({ hot: false, status: 302 });
    expect(await hot("/no-such-short")).toMatchObject({ hot: false, status: 404 });
    expect(await hot("/health")).toMatchObject({ hot: false, status: 200 });
  });

  it("gives a visit the batch refused (ShortGone) back to the route, and a failure with its error", async () => {
    // The race itself (a delete between the cache's read and the batch) is the burst test of
    // visit-maintenance.test.ts; here the outcome of each refusal, deterministically.
    let refusal: Error = new ShortGone();
    const app = {
      domains: { inMemoryForHost: () => ({ id: "domain" }) },
      shorts: {
        cachedTarget: () => ({ id: "short", url: "https://target.example/" }),
        baseUrlOf: () => "https://sho.rt",
      },
      visitLog: { enricher: ctx.app.visitLog.enricher, record: () => Promise.reject(refusal) },
    } as unknown as FastifyInstance;
    const route = hotRedirect(app, requestOrigin(false));
    const request = {
      method: "GET",
      url: "/gone",
      headers: { host: "sho.rt" },
      socket: { remoteAddress: "127.0.0.1" },
    } as unknown as IncomingMessage;
    await expect(route(request)!()).resolves.toBeUndefined();
    refusal = new Error("the database is away");
    await expect(route(request)!()).rejects.toBe(refusal);
  });

  it("follows a delete and a new limit at once: the visit is refused and Fastify's route answers", async () => {
    const { user, short } = await createShort({ url: "https://target.example/", name: "hot-gone" });
    await http("/hot-gone");
    expect(await hot("/hot-gone")).toMatchObject({ hot: true, status: 302 });
    // Whichever comes first (the cache's notification or the visit), the answer is the database's.
    await ctx.prisma.short.update({ where: { id: short.id }, data: { maxVisits: 2, countedVisits: 2 } });
    expect((await http("/hot-gone")).status).toBe(404);
    expect(await rows(short.id)).toBe(2);
    const removed = await ctx.app.inject({
      method: "DELETE",
      url: `/api/shorts/${short.id}`,
      headers: user.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await http("/hot-gone")).status).toBe(404);
  });

  it("is timed and counted in http_request_duration_seconds under the route it stands in for", async () => {
    await createShort({ url: "https://target.example/", name: "hot-metered" });
    await http("/hot-metered");
    const server = await serveMetrics(ctx.app.metrics, 0, "127.0.0.1");
    const count = async () => {
      const text = await (
        await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)
      ).text();
      const line = text
        .split("\n")
        .find(
          (l) =>
            l.startsWith("http_request_duration_seconds_count{") &&
            l.includes('route="/:name"') &&
            l.includes('method="GET"') &&
            l.includes('status_code="302"'),
        );
      return Number(line?.split(" ").at(-1) ?? 0);
    };
    try {
      const before = await count();
      for (let i = 0; i < 4; i++) expect(await hot("/hot-metered")).toMatchObject({ hot: true, status: 302 });
      expect((await count()) - before).toBe(4);
    } finally {
      server.close();
    }
  });

  // Last: a planned stop cannot be taken back.
  it("closes each connection once a planned stop is asked for", async () => {
    await createShort({ url: "https://target.example/", name: "hot-stop" });
    await http("/hot-stop");
    // The client asks to keep the connection: only the planned stop closes it.
    const keep = { connection: "keep-alive" };
    expect((await hot("/hot-stop", keep)).headers.connection).toBe("keep-alive");
    ctx.app.plannedStop.request();
    const stopping = await hot("/hot-stop", keep);
    expect(stopping).toMatchObject({ hot: true, status: 302 });
    expect(stopping.headers.connection).toBe("close");
    expect(ctx.app.requestsInFlight).toBe(0);
  });
});
