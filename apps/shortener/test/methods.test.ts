// Every path answers the methods it does not offer with 405 and an Allow header listing what it
// does offer (the document's operations), in the shortener's JSON error shape; under the API
// prefix only after authentication, as every other answer there.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { ANSWERED_METHODS } from "@app/server/http";
import { describe, expect, it } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();
const UNKNOWN_ID = "0190a2b4-0000-7000-8000-000000000000";

/** Each path the service serves, with the methods it offers (HEAD follows GET). */
const PATHS = [
  { url: "/health", allow: ["GET"] },
  { url: "/ready", allow: ["GET"] },
  { url: "/docs", allow: ["GET"] },
  { url: "/docs/reference", allow: ["GET"] },
  { url: "/docs/reference/", allow: ["GET"] },
  { url: "/docs/reference/static/index.html", allow: ["GET"] },
  { url: "/api/me", allow: ["GET"] },
  { url: "/api/shorts", allow: ["GET", "POST"] },
  { url: `/api/shorts/${UNKNOWN_ID}`, allow: ["GET", "PATCH", "DELETE"] },
  { url: `/api/shorts/${UNKNOWN_ID}/logs`, allow: ["GET"] },
  { url: `/api/shorts/${UNKNOWN_ID}/qr`, allow: ["GET"] },
  { url: "/some-name", allow: ["GET", "POST"] },
];

describe("methods a path does not offer", () => {
  it("answer 405 with Allow on every path, for every method Node reads (TRACE included)", async () => {
    const user = await newUser(ctx.prisma);
    for (const { url, allow } of PATHS) {
      for (const method of ANSWERED_METHODS) {
        if (allow.includes(method) || (method === "HEAD" && allow.includes("GET"))) continue;
        const response = await ctx.app.inject({ method: method as "GET", url, headers: user.headers });
        const where = `${method} ${url}`;
        expect(response.statusCode, where).toBe(405);
        expect(response.headers.allow, where).toBe(allow.join(", "));
        if (method === "HEAD") continue;
        expect(response.json(), where).toEqual({
          status: "Method Not Allowed",
          error: `This path offers ${allow.join(", ")} only`,
        });
      }
    }
  });

  it("HEAD follows GET: the same status as GET, without a body", async () => {
    const user = await newUser(ctx.prisma);
    const short = await postShort(ctx.app, user, { url: "https://example.com/head", name: "head-check" });
    expect(short.statusCode).toBe(201);
    for (const url of ["/health", "/docs", "/head-check", "/api/shorts", `/api/shorts/${UNKNOWN_ID}`]) {
      const get = await ctx.app.inject({ url, headers: user.headers });
      const head = await ctx.app.inject({ method: "HEAD", url, headers: user.headers });
      expect(head.statusCode, url).toBe(get.statusCode);
      expect(head.body, url).toBe("");
    }
  });

  it("are answered after authentication under the API prefix, and before any body is read", async () => {
    for (const method of ["PUT", "TRACE", "OPTIONS"]) {
      const response = await ctx.app.inject({ method: method as "PUT", url: "/api/shorts" });
      expect(response.statusCode, method).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="shortener"');
    }
    const user = await newUser(ctx.prisma);
    // A body the route would refuse (415, 400) does not hide the 405.
    const text = await ctx.app.inject({
      method: "PUT",
      url: "/api/shorts",
      headers: { ...user.headers, "content-type": "text/plain" },
      payload: "hello",
    });
    expect(text.statusCode).toBe(405);
    const malformed = await ctx.app.inject({
      method: "PATCH",
      url: "/health",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(malformed.statusCode).toBe(405);
  });

  it("answer TRACE over a real socket too, and leave unknown paths 404", async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = ctx.app.server.address() as AddressInfo;
    const send = (method: string, path: string) =>
      new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path, method, agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
        });
        req.on("error", reject);
        req.end();
      });
    expect(await send("TRACE", "/health")).toEqual({ status: 405, allow: "GET" });
    expect(await send("TRACE", "/some-name")).toEqual({ status: 405, allow: "GET, POST" });
    expect(await send("OPTIONS", "/docs")).toEqual({ status: 405, allow: "GET" });
    expect(await send("TRACE", "/no/such/path")).toEqual({ status: 404, allow: undefined });
  });

  it("stay out of the OpenAPI document", async () => {
    const doc = (await ctx.app.inject({ url: "/docs" })).json() as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).flatMap((ops) => Object.keys(ops));
    expect(new Set(operations)).toEqual(new Set(["get", "post", "patch", "delete"]));
  });
});
