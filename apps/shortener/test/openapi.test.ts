import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { API_REFERENCE_CSP } from "@app/server/api-reference";
import { documentAdmits } from "@app/testing/database";
import type { OpenAPIV3 } from "openapi-types";
import { describe, expect, it } from "vitest";
import {
  generateOpenApi,
  generateRestOpenApi,
  OPENAPI_FILE,
  REST_OPENAPI_FILE,
} from "../src/openapi-sync.ts";
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

describe("Shlink's API document (GET /rest/docs)", () => {
  async function restDocument(): Promise<OpenAPIV3.Document> {
    const res = await ctx.app.inject({ url: "/rest/docs" });
    expect(res.statusCode).toBe(200);
    return res.json();
  }
  const operations = (doc: OpenAPIV3.Document) =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops ?? {})
        .filter(([method]) => ["get", "post", "delete", "patch", "put"].includes(method))
        .map(
          ([method, op]) =>
            `${method.toUpperCase()} ${path} ${(op as OpenAPIV3.OperationObject).operationId}`,
        ),
    );

  it("is what openapi/shortener-rest.json holds (regenerate: pnpm openapi:generate)", async () => {
    expect(await generateRestOpenApi()).toBe(await readFile(REST_OPENAPI_FILE, "utf8"));
  });

  it("is served as committed, apart from the server URL, and is a valid OpenAPI 3.0.3 document", async () => {
    const committed = JSON.parse(await readFile(REST_OPENAPI_FILE, "utf8"));
    expect({ ...(await restDocument()), servers: committed.servers }).toEqual(committed);
    expect(committed.openapi).toBe("3.0.3");
    await expect(SwaggerParser.validate(committed)).resolves.toBeDefined();
  });

  it("documents every /rest route once, as v3 (v1 and v2 answer the same), by the SDK's names; /docs none", async () => {
    expect(operations(await restDocument()).sort()).toEqual(
      [
        "GET /rest/health health",
        "GET /rest/v3/health versionedHealth",
        "GET /rest/v3/mercure-info mercureInfo",
        "GET /rest/v3/short-urls listShortUrls",
        "POST /rest/v3/short-urls createShortUrl",
        "GET /rest/v3/short-urls/shorten shortenUrl",
        "GET /rest/v3/short-urls/{shortCode} getShortUrl",
        "PATCH /rest/v3/short-urls/{shortCode} editShortUrl",
        "DELETE /rest/v3/short-urls/{shortCode} deleteShortUrl",
        "GET /rest/v3/short-urls/{shortCode}/redirect-rules getShortUrlRedirectRules",
        "POST /rest/v3/short-urls/{shortCode}/redirect-rules setShortUrlRedirectRules",
        "PATCH /rest/v3/short-urls/{shortCode}/redirect-rules editShortUrlRedirectRules",
        "GET /rest/v3/short-urls/{shortCode}/visits getShortUrlVisits",
        "DELETE /rest/v3/short-urls/{shortCode}/visits deleteShortUrlVisits",
        "GET /rest/v3/tags/{tag}/visits getTagVisits",
        "GET /rest/v3/domains/{domain}/visits getDomainVisits",
        "GET /rest/v3/visits/non-orphan getNonOrphanVisits",
        "GET /rest/v3/visits/orphan getOrphanVisits",
        "DELETE /rest/v3/visits/orphan deleteOrphanVisits",
        "GET /rest/v3/visits getVisitsOverview",
        "GET /rest/v3/tags listTags",
        "GET /rest/v3/tags/stats tagsStats",
        "PUT /rest/v3/tags renameTag",
        "DELETE /rest/v3/tags deleteTags",
        "GET /rest/v3/domains listDomains",
        "PATCH /rest/v3/domains/redirects editDomainRedirects",
      ].sort(),
    );
    expect(operations(await document()).filter((op) => op.includes("/rest"))).toEqual([]);
    const doc = await restDocument();
    expect(doc.components?.securitySchemes?.ApiKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "X-Api-Key",
    });
    const created = doc.paths["/rest/v3/short-urls"]!.post!.responses["400"] as OpenAPIV3.ResponseObject;
    expect(Object.keys(created.content ?? {})).toEqual(["application/problem+json"]);
  });

  it("says what the server takes: paging, order, flags and modes in queries", async () => {
    const doc = await restDocument();
    const user = await newUser(ctx.prisma);
    const headers = { "x-api-key": user.token };
    for (const [name, values] of [
      ["page", ["1", "2", "007", "0", "-1", "1.5", "", "x", "9".repeat(15), "9".repeat(16)]],
      ["itemsPerPage", ["1", "5000", "05000", "5001", "0", "-0", "-1", "-00010", "1e3", ""]],
      ["orderBy", ["dateCreated", "title-DESC", "visits-asc", "nonBotVisits-ASC", "nope", "title-UP", ""]],
      ["excludePastValidUntil", ["true", "false", "1", "0", "yes", ""]],
      ["tagsMode", ["any", "all", "none"]],
      ["startDate", ["2026-01-01", "2026-01-01T10:00:00+02:00", "2026-01-01T10:00Z", "01/01/2026", "today"]],
    ] as const) {
      const schema = parameter(doc, "/rest/v3/short-urls", "get", name);
      for (const value of values) {
        const response = await ctx.app.inject({
          url: `/rest/v3/short-urls?${name}=${encodeURIComponent(value)}`,
          headers,
        });
        expect(response.statusCode === 200, `${name}=${JSON.stringify(value)}: ${response.body}`).toBe(
          admits(doc, schema, value),
        );
        if (response.statusCode !== 200) expect(response.json().invalidElements).toEqual([name]);
      }
    }
    const type = parameter(doc, "/rest/v3/visits/orphan", "get", "type");
    for (const value of ["base_url", "invalid_short_url", "regular_404", "other"]) {
      const response = await ctx.app.inject({ url: `/rest/v3/visits/orphan?type=${value}`, headers });
      expect(response.statusCode === 200, value).toBe(admits(doc, type, value));
    }
  });

  it("says what the server takes in a new short URL: slug, code length, limit, tags, flags", async () => {
    const doc = await restDocument();
    const user = await newUser(ctx.prisma);
    const fields = (doc.components!.schemas!.ShortUrlCreation as OpenAPIV3.SchemaObject).properties!;
    let n = 0;
    // Tags' lengths and count once normalised (spaces to -, repeats dropped) are said in words
    // (the description): no keyword states them, so no value here tests them.
    for (const [name, values] of [
      [
        "customSlug",
        ["says-1", "Says_2", "x".repeat(64), "x".repeat(65), "a b", "a/b", "a?b", "a#b", "", "ü"],
      ],
      ["shortCodeLength", [4, 64, 3, 65, "7", "07", "064", "x", 7.5, true]],
      ["maxVisits", [1, 2147483647, 2147483648, 0, -1, "5", "0", "2147483648", null]],
      ["tags", [["a"], ["A b"], [" x "], ["x_1-2"], ["é"], [""], ["a\u0000"], "a", [1]]],
      ["crawlable", [true, false, "true", "1", "0", "yes", 1, null]],
      ["title", ["A title", "", "t".repeat(512), "t".repeat(513), null, 5]],
    ] as const) {
      for (const value of values as readonly unknown[]) {
        // Each its own slug (but the slug's own values), so that no two collide.
        const body = {
          longUrl: "https://example.com/says",
          customSlug: `says-${name}-${++n}`,
          [name]: value,
        };
        const response = await ctx.app.inject({
          method: "POST",
          url: "/rest/v3/short-urls",
          headers: { "x-api-key": user.token },
          payload: body,
        });
        const where = `${name} ${JSON.stringify(value)}: ${response.body}`;
        expect(response.statusCode === 200, where).toBe(admits(doc, fields[name], value));
        if (response.statusCode !== 200) expect(response.statusCode, where).toBe(400);
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
