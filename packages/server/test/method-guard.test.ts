// The shared method guard on a small app: every path answers the methods it does not offer with
// the service's own 405 and an Allow header, in the scope (and after the hooks) of its routes.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWERED_METHODS, methodGuard } from "../src/http.ts";

class Refused extends Error {
  constructor(readonly allow: string[]) {
    super("refused");
  }
}

async function build(): Promise<FastifyInstance> {
  const app = Fastify();
  const guard = methodGuard(app);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof Refused) {
      return reply.code(405).header("allow", error.allow.join(", ")).send({ refused: true });
    }
    return reply.code(500).send({ error: String(error) });
  });
  app.get("/open", async () => ({ ok: true }));
  app.post("/open", async () => ({ ok: true }));
  app.route({ method: "DELETE", url: "/only-delete", handler: async () => ({ ok: true }) });
  await app.register(
    async (scope) => {
      // A scope's own check answers first, as a service's authentication does.
      scope.addHook("onRequest", async (request, reply) => {
        if ((request.routeOptions.config as { marked?: boolean }).marked) return;
        if (request.headers.authorization !== "yes") return reply.code(401).send({ auth: "no" });
      });
      scope.get("/", async () => ({ root: true }));
      scope.get("/item/:id", async () => ({ item: true }));
      scope.patch("/item/:id", async () => ({ item: true }));
      scope.route({ method: "GET", url: "/open", config: { marked: true }, handler: async () => ({}) });
    },
    { prefix: "/scoped" },
  );
  guard.refuseOtherMethods((allow) => new Refused(allow));
  await app.ready();
  return app;
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await build();
});
afterAll(() => app?.close());

describe("methodGuard", () => {
  it("answers every method a path does not offer with 405 and Allow (HEAD follows GET)", async () => {
    const paths = [
      { url: "/open", allow: ["GET", "POST"] },
      { url: "/only-delete", allow: ["DELETE"] },
      { url: "/scoped", allow: ["GET"] },
      { url: "/scoped/", allow: ["GET"] },
      { url: "/scoped/item/7", allow: ["GET", "PATCH"] },
    ];
    for (const { url, allow } of paths) {
      for (const method of ANSWERED_METHODS) {
        const offered = allow.includes(method) || (method === "HEAD" && allow.includes("GET"));
        const response = await app.inject({
          method: method as "GET",
          url,
          headers: { authorization: "yes" },
        });
        if (offered) {
          expect(response.statusCode, `${method} ${url}`).toBe(200);
        } else {
          expect(response.statusCode, `${method} ${url}`).toBe(405);
          expect(response.headers.allow, `${method} ${url}`).toBe(allow.join(", "));
        }
      }
    }
    expect(ANSWERED_METHODS).toEqual(expect.arrayContaining(["TRACE", "OPTIONS", "PROPFIND", "QUERY"]));
    expect(ANSWERED_METHODS).not.toContain("CONNECT");
  });

  it("runs the scope's hooks first, and gives the 405 route its path's config", async () => {
    expect((await app.inject({ method: "PUT", url: "/scoped/item/7" })).statusCode).toBe(401);
    const head = await app.inject({ method: "HEAD", url: "/only-delete" });
    expect(head.statusCode).toBe(405);
    expect(head.body).toBe("");
    // `marked` lets a route past the scope's check; its 405 twin carries the same config.
    expect((await app.inject({ url: "/scoped/open" })).statusCode).toBe(200);
    const open = await app.inject({ method: "POST", url: "/scoped/open" });
    expect(open.statusCode).toBe(405);
    expect(open.headers.allow).toBe("GET");
  });

  it("answers 405 before reading a body (no 400, 415 or QUERY's missing Content-Type)", async () => {
    for (const [method, headers, payload] of [
      ["PUT", { "content-type": "application/json" }, "{not json"],
      ["PATCH", { "content-type": "application/x-unknown" }, "data"],
      ["QUERY", {}, undefined],
    ] as const) {
      const response = await app.inject({ method: method as "PUT", url: "/open", headers, payload });
      expect(response.statusCode, method).toBe(405);
      expect(response.headers.allow).toBe("GET, POST");
    }
  });

  it("leaves unknown paths to the not-found handler", async () => {
    expect((await app.inject({ method: "TRACE", url: "/nowhere" })).statusCode).toBe(404);
    expect((await app.inject({ method: "PROPFIND", url: "/nowhere" })).statusCode).toBe(404);
  });

  it("answers TRACE and other methods over a real socket", async () => {
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as AddressInfo;
    for (const method of ["TRACE", "PROPFIND", "OPTIONS"]) {
      const status = await new Promise<{ code: number; allow: unknown }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/open", method, agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve({ code: res.statusCode ?? 0, allow: res.headers.allow }));
        });
        req.on("error", reject);
        req.end();
      });
      expect(status, method).toEqual({ code: 405, allow: "GET, POST" });
    }
  });
});
