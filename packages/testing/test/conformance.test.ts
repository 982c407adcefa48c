// The suite-wide response conformance check (testing-conformance.ts) is only worth something
// if it reports what breaks the document, and only that.
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import {
  type Answer,
  conformance,
  conformanceChecker,
  KNOWN_MISMATCHES,
  openApiPath,
  toJsonSchema,
} from "../src/conformance.ts";

const json = (schema: object) => ({ description: "", content: { "application/json": { schema } } });

const document = {
  openapi: "3.0.3",
  info: { title: "Test API", version: "1" },
  paths: {
    "/things/{id}": {
      get: {
        responses: {
          200: json({ $ref: "#/components/schemas/Thing" }),
          404: { description: "", content: { "text/plain": { schema: { type: "string" } } } },
        },
      },
      delete: { responses: { 204: { description: "Deleted" }, default: json({ type: "object" }) } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        properties: {
          id: { type: "integer" },
          note: { type: "string", nullable: true },
          kind: { type: "string", enum: ["a", "b"], nullable: true },
          at: { type: "string", format: "date-time" },
          owner: { allOf: [{ $ref: "#/components/schemas/Owner" }], nullable: true },
        },
        required: ["id", "note"],
        additionalProperties: false,
      },
      Owner: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
  },
};

const answer = (overrides: Partial<Answer>): Answer => ({
  method: "GET",
  route: "/things/:id",
  status: 200,
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify({ id: 1, note: null }),
  url: "/things/1",
  ...overrides,
});

describe("conformanceChecker", () => {
  const checker = conformanceChecker(document);
  const kinds = (overrides: Partial<Answer>) => checker.check(answer(overrides)).map((v) => v.kind);

  it("accepts an answer the document describes, OpenAPI 3.0 nullable and $refs included", () => {
    expect(kinds({})).toEqual([]);
    const full = { id: 1, note: "x", kind: null, at: "2026-01-01T00:00:00.000Z", owner: { name: "o" } };
    expect(kinds({ body: JSON.stringify(full) })).toEqual([]);
    expect(kinds({ body: JSON.stringify({ ...full, owner: null, kind: "b" }) })).toEqual([]);
    expect(kinds({ status: 404, contentType: "text/plain; charset=utf-8", body: "Not Found" })).toEqual([]);
    // The status falls back to `default`; a 204 declared without content has none.
    expect(kinds({ method: "DELETE", status: 409, body: "{}" })).toEqual([]);
    expect(kinds({ method: "DELETE", status: 204, contentType: undefined, body: undefined })).toEqual([]);
    // HEAD is GET without a body.
    expect(kinds({ method: "HEAD", body: "" })).toEqual([]);
  });

  it("reports a body that breaks the schema: a missing, extra or mistyped field, a bad format or enum", () => {
    expect(kinds({ body: JSON.stringify({ id: 1 }) })).toEqual(["body"]);
    expect(kinds({ body: JSON.stringify({ id: 1, note: null, secret: "x" }) })).toEqual(["body"]);
    expect(kinds({ body: JSON.stringify({ id: "1", note: null }) })).toEqual(["body"]);
    expect(kinds({ body: JSON.stringify({ id: 1, note: null, at: "yesterday" }) })).toEqual(["body"]);
    expect(kinds({ body: JSON.stringify({ id: 1, note: null, kind: "c" }) })).toEqual(["body"]);
    expect(kinds({ body: JSON.stringify({ id: 1, note: null, owner: {} }) })).toEqual(["body"]);
    expect(kinds({ body: "{not json" })).toEqual(["body"]);
    expect(kinds({ body: "" })).toEqual(["body"]);
  });

  it("reports an undeclared status, a wrong content type, content where none is declared, an unknown operation", () => {
    expect(kinds({ status: 500 })).toEqual(["status"]);
    expect(kinds({ contentType: "text/html" })).toEqual(["content-type"]);
    expect(kinds({ contentType: undefined })).toEqual(["content-type"]);
    expect(kinds({ status: 404, body: '{"message":"x"}' })).toEqual(["content-type"]);
    expect(kinds({ method: "DELETE", status: 204, body: "{}" })).toEqual(["content-type"]);
    expect(kinds({ method: "PUT" })).toEqual(["operation"]);
  });

  it("names the operation as the document does", () => {
    expect(openApiPath("/api/v1/users/:id")).toBe("/api/v1/users/{id}");
    expect(openApiPath("/a/:id(^\\d+)/b/:name")).toBe("/a/{id}/b/{name}");
    const [violation] = checker.check(answer({ status: 500 }));
    expect(violation).toMatchObject({ service: "Test API", operation: "GET /things/{id}", status: 500 });
  });

  it("turns nullable into JSON Schema's null type", () => {
    expect(toJsonSchema({ type: "string", nullable: true })).toEqual({ type: ["string", "null"] });
    expect(toJsonSchema({ enum: ["a"], type: "string", nullable: true })).toEqual({
      enum: ["a", null],
      type: ["string", "null"],
    });
    expect(toJsonSchema({ allOf: [{ $ref: "#/x" }], nullable: true })).toEqual({
      anyOf: [{ allOf: [{ $ref: "#/x" }] }, { type: "null" }],
    });
    // A property called `nullable` is a property, not the keyword.
    expect(toJsonSchema({ properties: { nullable: { type: "boolean" } } })).toEqual({
      properties: { nullable: { type: "boolean" } },
    });
  });
});

it("watch() checks every answer of an app but hidden routes, unknown paths and routes a test adds", async () => {
  const app = Fastify();
  // What @fastify/swagger decorates an app with, here a fixed document.
  app.decorate("swagger", (() => document) as never);
  app.get("/things/:id", async (request, reply) => {
    const { id } = request.params as { id: string };
    if (id === "missing") return reply.code(404).type("text/plain").send("Not Found");
    if (id === "bad") return { id: 1, note: null, extra: true };
    if (id === "boom") return reply.code(500).send({ message: "boom" });
    return { id: Number(id), note: null };
  });
  app.get("/hidden", { schema: { hide: true } as object }, async () => ({ anything: 1 }));
  conformance.watch(app);
  app.get("/added-by-test", async () => ({ anything: 1 }));
  await app.ready();

  for (const url of ["/things/1", "/things/missing", "/hidden", "/added-by-test", "/nowhere"]) {
    await app.inject({ url });
  }
  await app.inject({ method: "HEAD", url: "/things/1" });
  expect(conformance.violations()).toEqual([]);
  expect(conformance.checked).toBe(3);

  await app.inject({ url: "/things/bad" });
  await app.inject({ url: "/things/boom" });
  await app.close();
  expect(conformance.violations().map((v) => [v.kind, v.status, v.url])).toEqual([
    ["body", 200, "/things/bad"],
    ["status", 500, "/things/boom"],
  ]);
});

it("every known mismatch says why it is tolerated", () => {
  for (const known of KNOWN_MISMATCHES) expect(known.reason.length).toBeGreaterThan(40);
});
