// Every path answers the methods it does not offer with 405, an Allow header and v1's
// `{message}`; the key-less paths without a key, the others after the apiKey check (resource
// paths are covered method by method in resources-guard.test.ts).
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { ANSWERED_METHODS } from "@app/server/http";
import { describe, expect, it } from "vitest";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

const PUBLIC_PATHS = [
  { url: "/", allow: ["GET"] },
  { url: "/docs", allow: ["GET"] },
  { url: "/docs/reference", allow: ["GET"] },
  { url: "/health", allow: ["GET"] },
  { url: "/ready", allow: ["GET"] },
  { url: "/api/v1", allow: ["GET"] },
  { url: "/v1", allow: ["GET"] },
];

const KEYED_PATHS = [
  { url: "/api/v1/me", allow: ["GET"] },
  { url: "/me", allow: ["GET"] },
  { url: "/v1/slots", allow: ["GET"] },
  { url: "/api/v1/teams", allow: ["GET", "POST"] },
  { url: "/teams/1", allow: ["GET", "PATCH", "DELETE"] },
  { url: "/api/v1/bookings/1/cancel", allow: ["DELETE"] },
];

const refused = (allow: string[]) =>
  ANSWERED_METHODS.filter(
    (method) => !allow.includes(method) && !(method === "HEAD" && allow.includes("GET")),
  );

describe("methods a path does not offer", () => {
  it("answer 405 with Allow on the key-less paths, without a key", async () => {
    for (const { url, allow } of PUBLIC_PATHS) {
      for (const method of refused(allow)) {
        const response = await t.app.inject({ method: method as "GET", url });
        const where = `${method} ${url}`;
        expect(response.statusCode, where).toBe(405);
        expect(response.headers.allow, where).toBe(allow.join(", "));
        if (method !== "HEAD") {
          expect(response.json(), where).toEqual({
            message: `Method Not Allowed (Allow: ${allow.join(",")})`,
          });
        }
      }
    }
  });

  it("answer 405 with Allow on the other paths after the apiKey check", async () => {
    const { apiKey } = await createUser(t.prisma);
    for (const { url, allow } of KEYED_PATHS) {
      for (const method of refused(allow)) {
        const where = `${method} ${url}`;
        const anonymous = await t.app.inject({ method: method as "GET", url });
        expect(anonymous.statusCode, where).toBe(401);
        const response = await t.app.inject({ method: method as "GET", url: withKey(url, apiKey) });
        expect(response.statusCode, where).toBe(405);
        expect(response.headers.allow, where).toBe(allow.join(", "));
      }
    }
  });

  it("HEAD follows GET, and is 405 without a body where the path has no GET", async () => {
    const { apiKey } = await createUser(t.prisma);
    for (const url of [
      "/",
      "/docs",
      "/health",
      withKey("/v1/me", apiKey),
      withKey("/v1/teams/999", apiKey),
    ]) {
      const get = await t.app.inject({ url });
      const head = await t.app.inject({ method: "HEAD", url });
      expect(head.statusCode, url).toBe(get.statusCode);
      expect(head.body, url).toBe("");
    }
    const head = await t.app.inject({ method: "HEAD", url: withKey("/api/v1/bookings/1/cancel", apiKey) });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe("DELETE");
    expect(head.body).toBe("");
  });

  it("answer TRACE over a real socket too, and leave unknown paths 404", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const send = (method: string, path: string) =>
      new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path, method, agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
        });
        req.on("error", reject);
        req.end();
      });
    expect(await send("TRACE", "/")).toEqual({ status: 405, allow: "GET" });
    expect(await send("TRACE", "/docs")).toEqual({ status: 405, allow: "GET" });
    expect(await send("OPTIONS", "/health")).toEqual({ status: 405, allow: "GET" });
    expect(await send("TRACE", "/no-such-path")).toEqual({ status: 404, allow: undefined });
  });

  it("stay out of the OpenAPI document", async () => {
    const doc = (await t.app.inject({ url: "/docs" })).json() as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).flatMap((ops) => Object.keys(ops));
    expect(new Set(operations)).toEqual(new Set(["get", "post", "patch", "delete"]));
  });
});
