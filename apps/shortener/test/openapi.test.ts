import SwaggerParser from "@apidevtools/swagger-parser";
import { API_REFERENCE_CSP } from "@app/db/api-reference";
import type { OpenAPIV3 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { setupShortener } from "./helpers.ts";

const ctx = setupShortener();

async function document(): Promise<OpenAPIV3.Document> {
  const res = await ctx.app.inject({ url: "/docs" });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe("GET /docs", () => {
  it("serves a valid OpenAPI 3.0 document without auth", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.0.3");
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("documents every route the app serves, with an operationId", async () => {
    const doc = await document();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops ?? {})
        .filter((k) => ["get", "post", "delete", "patch", "put"].includes(k))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      [
        "GET /api/me",
        "GET /api/shorts",
        "POST /api/shorts",
        "GET /api/shorts/{id}",
        "DELETE /api/shorts/{id}",
        "GET /api/shorts/{id}/logs",
        "GET /{name}",
        "GET /health",
        "GET /ready",
      ].sort(),
    );
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops ?? {}) as OpenAPIV3.OperationObject[]) {
        expect(op.operationId).toBeTruthy();
      }
    }
  });

  it("documents the seed's schemas, bearer security and plain-text errors", async () => {
    const doc = await document();
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(["User", "NewShort", "Short", "ShortLog", "Error"]),
    );
    expect(doc.components?.securitySchemes?.bearerAuth).toEqual({ type: "http", scheme: "bearer" });
    const create = doc.paths["/api/shorts"]?.post as OpenAPIV3.OperationObject;
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(create.responses).sort()).toEqual([
      "201",
      "400",
      "401",
      "409",
      "413",
      "415",
      "default",
    ]);
    const unauthorized = create.responses["401"] as OpenAPIV3.ResponseObject;
    expect(Object.keys(unauthorized.content ?? {})).toEqual(["text/plain"]);
    const getShort = doc.paths["/api/shorts/{id}"]!.get as OpenAPIV3.OperationObject;
    const notFound = getShort.responses["404"] as OpenAPIV3.ResponseObject;
    expect(Object.keys(notFound.content ?? {})).toEqual(["text/plain"]);
    const redirect = doc.paths["/{name}"]?.get as OpenAPIV3.OperationObject;
    expect(redirect.security).toEqual([]);
    expect(Object.keys(redirect.responses).sort()).toEqual(["302", "404", "503"]);
  });
});

describe("GET /docs/reference", () => {
  it("serves the API reference page and its assets from the service, under a strict CSP", async () => {
    const page = await ctx.app.inject({ url: "/docs/reference" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toBe(API_REFERENCE_CSP);
    // Every script and stylesheet the page names is a path on this service.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\/reference\/static\//);
      expect((await ctx.app.inject({ url: asset })).statusCode).toBe(200);
    }
  });
});
