// The hot path (docs/adr/0240): the client address and host it reads are Fastify's for every kind
// of TRUST_PROXY, and a request it takes is answered, or handed back to Fastify whole, with the
// request id, the tally, the planned stop and the duration metric every request gets.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fastifyTrustProxy, type TrustProxy } from "../src/config.ts";
import { HotPath, hotPathFailure, requestOrigin } from "../src/hot-path.ts";
import { drainOnStop, logShutdown, requestId } from "../src/http.ts";
import { instrumentRequests } from "../src/metrics.ts";

describe("requestOrigin", () => {
  const settings: TrustProxy[] = [false, true, 1, 2, ["127.0.0.1"], ["10.0.0.0/8", "192.0.2.1"]];
  const peers = ["127.0.0.1", "10.1.2.3", "192.0.2.1", "203.0.113.9", "::1"];
  const headerSets: Record<string, string>[] = [
    { host: "sho.rt" },
    { host: "Sho.RT:8080" },
    { host: "[::1]:3000" },
    { host: "sho.rt", "x-forwarded-for": "198.51.100.7" },
    { host: "sho.rt", "x-forwarded-for": "198.51.100.7, 10.9.9.9", "x-forwarded-host": "links.example" },
    {
      host: "sho.rt",
      "x-forwarded-for": "1.1.1.1, 2.2.2.2, 3.3.3.3",
      "x-forwarded-host": "a.example, b.example:444",
    },
    { host: "sho.rt", "x-forwarded-host": "[2001:db8::1]:8443" },
  ];

  for (const setting of settings) {
    it(`gives request.ip and request.hostname as Fastify does with TRUST_PROXY=${JSON.stringify(setting)}`, async () => {
      const trustProxy = fastifyTrustProxy(setting);
      const origin = requestOrigin(trustProxy);
      const app = Fastify({ trustProxy });
      app.get("/", async (req) => ({
        fastify: [req.ip, req.hostname],
        hot: [origin.ip(req.raw), origin.hostname(req.raw)],
      }));
      try {
        for (const remoteAddress of peers) {
          for (const headers of headerSets) {
            const answer = (await app.inject({ url: "/", headers, remoteAddress })).json();
            expect(answer.hot, JSON.stringify({ remoteAddress, headers })).toEqual(answer.fastify);
          }
        }
      } finally {
        await app.close();
      }
    });
  }
});

describe("HotPath", () => {
  const hotPath = new HotPath();
  const registry = new Registry();
  let app: FastifyInstance;
  let port = 0;
  let fails: "reject" | "decline" | undefined;

  beforeAll(async () => {
    app = Fastify({ serverFactory: hotPath.serverFactory, genReqId: requestId });
    drainOnStop(app);
    const tally = logShutdown(app, "test");
    const durations = instrumentRequests(app, registry);
    app.get("/:name", async (req) => {
      const failed = hotPathFailure(req.raw);
      if (failed !== undefined) throw failed;
      return { fastify: (req.params as { name: string }).name, id: req.id };
    });
    hotPath.use(
      {
        pattern: "/:name",
        route: (req) =>
          req.url === "/hot"
            ? async () => {
                if (fails === "reject") throw new Error("the database is away");
                if (fails === "decline") return undefined;
                return { status: 302, headers: { location: "https://target.example/" } };
              }
            : undefined,
      },
      { plannedStop: app.plannedStop, tally, durations },
    );
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers what its route takes, with a request id, and leaves the rest to Fastify", async () => {
    const hot = await get("/hot", { "x-request-id": "abc-1" });
    expect(hot).toMatchObject({ status: 302, body: "" });
    expect(hot.headers).toMatchObject({
      location: "https://target.example/",
      "x-request-id": "abc-1",
      "content-length": "0",
    });
    const other = await get("/cold");
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body)).toMatchObject({ fastify: "cold" });
    expect(hotPath.answered).toBe(1);
    const text = await registry.metrics();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{route="\/:name",method="GET",status_code="302"\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{route="\/:name",method="GET",status_code="200"\} 1/,
    );
  });

  it("hands a request whose work declines to Fastify, which answers it from the start", async () => {
    fails = "decline";
    const answer = await get("/hot", { "x-request-id": "handed-decline" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ fastify: "hot", id: "handed-decline" });
    fails = undefined;
  });

  it("hands a request whose work failed to Fastify with its error, which the route answers as an error", async () => {
    fails = "reject";
    const answer = await get("/hot", { "x-request-id": "handed-failure" });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ message: "the database is away" });
    fails = undefined;
    expect(hotPath.answered).toBe(1);
    expect(app.requestsInFlight).toBe(0);
  });

  it("closes connections during a planned stop, and hands everything to Fastify once stopped", async () => {
    app.plannedStop.request();
    const closing = await get("/hot");
    expect(closing.status).toBe(302);
    expect(closing.headers.connection).toBe("close");
    hotPath.stop();
    expect((await get("/hot")).status).toBe(200);
    expect(hotPath.answered).toBe(2);
  });
});
