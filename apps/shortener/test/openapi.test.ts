import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { API_REFERENCE_CSP } from "@app/server/api-reference";
import { documentAdmits } from "@app/testing/database";
import type { OpenAPIV3 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { generateOpenApi, OPENAPI_FILE } from "../src/openapi-sync.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

async function document(): Promise<OpenAPIV3.Document> {
  const res = await ctx.app.inject({ url: "/docs" });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe("OpenAPI document", () => {
  // The test app has its own SHORT_BASE_URL (the document's server); the committed document is
  // built from the defaults, exactly as the sync script builds it.
  it("is what openapi/shortener.json holds (regenerate: pnpm exec tsx apps/shortener/src/openapi-sync.ts)", async () => {
    expect(await generateOpenApi()).toBe(await readFile(OPENAPI_FILE, "utf8"));
  });

  it("is served as committed, apart from the server URL", async () => {
    const committed = JSON.parse(await readFile(OPENAPI_FILE, "utf8"));
    expect({ ...(await document()), servers: committed.servers }).toEqual(committed);
  });

  it("is a valid OpenAPI 3.0.3 document as committed", async () => {
    const committed = JSON.parse(await readFile(OPENAPI_FILE, "utf8"));
    expect(committed.openapi).toBe("3.0.3");
    await expect(SwaggerParser.validate(committed)).resolves.toBeDefined();
  });
});

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
        "GET /",
        "GET /api/domains",
        "GET /api/me",
        "GET /api/orphan-visits",
        "GET /api/shorts",
        "POST /api/shorts",
        "POST /api/shorts/bulk",
        "GET /api/shorts/{id}",
        "PATCH /api/shorts/{id}",
        "DELETE /api/shorts/{id}",
        "GET /api/shorts/{id}/qr",
        "GET /api/shorts/{id}/logs",
        "GET /api/shorts/{id}/stats",
        "GET /api/stats",
        "POST /api/shorts/{id}/stats-link",
        "POST /{name}",
        "DELETE /api/shorts/{id}/stats-link",
        "GET /stats/{token}/data",
        "GET /{name}",
        "GET /robots.txt",
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
      "200",
      "201",
      "400",
      "401",
      "409",
      "413",
      "415",
      "422",
      "default",
    ]);
    const unauthorized = create.responses["401"] as OpenAPIV3.ResponseObject;
    expect(Object.keys(unauthorized.content ?? {})).toEqual(["text/plain"]);
    const getShort = doc.paths["/api/shorts/{id}"]!.get as OpenAPIV3.OperationObject;
    const notFound = getShort.responses["404"] as OpenAPIV3.ResponseObject;
    expect(Object.keys(notFound.content ?? {})).toEqual(["text/plain"]);
    const redirect = doc.paths["/{name}"]?.get as OpenAPIV3.OperationObject;
    expect(redirect.security).toEqual([]);
    expect(Object.keys(redirect.responses).sort()).toEqual(["200", "302", "404", "503"]);
  });
});

describe("responses without a body", () => {
  it("are declared without content, as the server sends them (DELETE 204, the redirect's 302)", async () => {
    const doc = await document();
    const deleted = doc.paths["/api/shorts/{id}"]!.delete!.responses["204"] as OpenAPIV3.ResponseObject;
    expect(deleted).toEqual({ description: "Deleted; no body" });
    const redirect = doc.paths["/{name}"]!.get!.responses["302"] as OpenAPIV3.ResponseObject;
    expect(redirect.content).toBeUndefined();
    expect(Object.keys(redirect.headers ?? {}).sort()).toEqual(["cache-control", "location"]);

    const user = await newUser(ctx.prisma);
    const short = await postShort(ctx.app, user, { url: "https://example.com/x", name: "bodiless" });
    const followed = await ctx.app.inject({ url: "/bodiless" });
    expect(followed.statusCode).toBe(302);
    expect(followed.body).toBe("");
    expect(followed.headers["content-type"]).toBeUndefined();
    expect(followed.headers.location).toBe("https://example.com/x");
    expect(followed.headers["cache-control"]).toBe("private, no-cache");
    const gone = await ctx.app.inject({
      method: "DELETE",
      url: `/api/shorts/${short.json().id}`,
      headers: user.headers,
    });
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe("");
    expect(gone.headers["content-type"]).toBeUndefined();
  });
});

const admits = (doc: OpenAPIV3.Document, schema: unknown, value: unknown) =>
  documentAdmits(doc as never, schema as never, value);
const parameter = (doc: OpenAPIV3.Document, path: string, method: string, name: string) =>
  (
    (doc.paths[path] as Record<string, OpenAPIV3.OperationObject>)[method]!
      .parameters as OpenAPIV3.ParameterObject[]
  ).find((p) => p.name === name)!.schema;

describe("the document says what the server does", () => {
  it("target URLs: http(s):// without spaces or control characters (pattern); IRIs stored as URIs", async () => {
    const doc = await document();
    const url = (doc.components!.schemas!.NewShort as OpenAPIV3.SchemaObject).properties!
      .url as OpenAPIV3.SchemaObject;
    // No `format: uri`: an IRI is accepted (stored as its URI), which that format would exclude;
    // the one rule no keyword states (the normalized form must be a URI) is in the description.
    expect(url).toMatchObject({ maxLength: 2048, pattern: expect.stringMatching(/^\^/) });
    expect(url.format).toBeUndefined();
    expect(url.description).toMatch(/normalized form is not a URI/);
    const user = await newUser(ctx.prisma);
    for (const value of [
      "javascript:alert(1)",
      "ftp://example.com/",
      "https:example.com",
      "http:/example.com",
      " https://example.com/",
      "https://example.com/a b",
      "https://example.com/\u0000",
      "https://example.com/\u007f",
      "https://example.com/ok",
      "HTTPS://EXAMPLE.COM/UPPER",
      "https://exämple.com/ü",
    ]) {
      const created = await postShort(ctx.app, user, { url: value });
      const where = `${JSON.stringify(value)}: ${created.body}`;
      expect(created.statusCode === 201, where).toBe(admits(doc, url, value));
      if (created.statusCode !== 201) expect(created.statusCode, where).toBe(400);
    }
  });

  it("names and ids in paths: a value the pattern refuses names nothing (404)", async () => {
    const doc = await document();
    const name = parameter(doc, "/{name}", "get", "name");
    const id = parameter(doc, "/api/shorts/{id}", "get", "id");
    expect(name).toMatchObject({ pattern: expect.any(String) });
    expect(id).toMatchObject({ format: "uuid", pattern: expect.any(String) });
    const user = await newUser(ctx.prisma);
    const created = await postShort(ctx.app, user, { url: "https://example.com/named", name: "Named_1-x" });
    expect(created.statusCode).toBe(201);
    for (const value of ["Named_1-x", "x".repeat(65), "a.b", "%20", "ü"]) {
      const response = await ctx.app.inject({ url: `/${encodeURIComponent(value)}` });
      expect(response.statusCode, value).toBe(admits(doc, name, value) ? 302 : 404);
    }
    for (const value of [created.json().id, created.json().id.toUpperCase(), "not-a-uuid", "1"]) {
      const response = await ctx.app.inject({ url: `/api/shorts/${value}`, headers: user.headers });
      expect(response.statusCode, value).toBe(admits(doc, id, value) ? 200 : 404);
    }
  });

  it("limit and offset: the pattern states the bounds the server applies", async () => {
    const doc = await document();
    const user = await newUser(ctx.prisma);
    for (const [name, values] of [
      ["limit", ["0", "1", "1000", "1001", "01", "1e2", ""]],
      ["offset", ["0", "1", "1000000000", "1000000001", "00", "-1"]],
    ] as const) {
      const schema = parameter(doc, "/api/shorts", "get", name);
      for (const value of values) {
        const response = await ctx.app.inject({ url: `/api/shorts?${name}=${value}`, headers: user.headers });
        expect(response.statusCode === 200, `${name}=${value}`).toBe(admits(doc, schema, value));
      }
    }
  });
});

describe("the document states the bounds of tags, search and QR codes", () => {
  it("tags on create and edit: up to 10 of 1-32 characters of A-Z a-z 0-9 _ -", async () => {
    const doc = await document();
    const user = await newUser(ctx.prisma);
    const short = (await postShort(ctx.app, user, { url: "https://example.com/tag-bounds" })).json();
    for (const [schemaName, send] of [
      ["NewShort", (tags: unknown) => postShort(ctx.app, user, { url: "https://example.com/t", tags })],
      [
        "ShortEdit",
        (tags: unknown) =>
          ctx.app.inject({
            method: "PATCH",
            url: `/api/shorts/${short.id}`,
            headers: user.headers,
            payload: { tags },
          }),
      ],
    ] as const) {
      const tags = (doc.components!.schemas![schemaName] as OpenAPIV3.SchemaObject).properties!.tags;
      for (const value of [
        [],
        ["a"],
        ["A_b-9", "a_B-9"],
        ["t".repeat(32)],
        ["t".repeat(33)],
        [""],
        ["a b"],
        ["é"],
        Array.from({ length: 10 }, (_, i) => `t${i}`),
        Array.from({ length: 11 }, () => "same"),
        "a",
        [1],
      ]) {
        const response = await send(value);
        const where = `${schemaName} ${JSON.stringify(value)}: ${response.body}`;
        expect(response.statusCode < 300, where).toBe(admits(doc, tags, value));
      }
    }
  });

  it("tag, search and size in queries", async () => {
    const doc = await document();
    const user = await newUser(ctx.prisma);
    const short = (await postShort(ctx.app, user, { url: "https://example.com/query-bounds" })).json();
    for (const [path, url, name, values] of [
      ["/api/shorts", "/api/shorts", "tag", ["a", "A-b_9", "t".repeat(32), "t".repeat(33), "", "a b", "é"]],
      ["/api/shorts", "/api/shorts", "search", ["x", "%_", "s".repeat(200), "s".repeat(201), "", "\u0000"]],
      [
        "/api/shorts/{id}/qr",
        `/api/shorts/${short.id}/qr`,
        "size",
        ["128", "1024", "300", "127", "1025", "0", "0300", "3e2", ""],
      ],
    ] as const) {
      const schema = parameter(doc, path, "get", name);
      for (const value of values) {
        const response = await ctx.app.inject({
          url: `${url}?${name}=${encodeURIComponent(value)}`,
          headers: user.headers,
        });
        expect(response.statusCode === 200, `${name}=${JSON.stringify(value)}`).toBe(
          admits(doc, schema, value),
        );
      }
    }
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
