import { API_REFERENCE_CSP } from "@app/server/api-reference";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_SEGMENTS } from "../src/app.ts";
import { BadRequest, Conflict, Forbidden, MethodNotAllowed } from "../src/errors.ts";
import { WELCOME_MESSAGE } from "../src/public.routes.ts";
import { createRewriteUrl } from "../src/rewrite.ts";

const { rewriteV1Url } = createRewriteUrl(API_SEGMENTS);

import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp(
  {},
  {
    routes: (app) => {
      const routes = app.withTypeProvider<ZodTypeProvider>();
      // Strict, like the resource schemas: so `apiKey` and `version` must be declared to pass.
      routes.get(
        "/api/v1/test/echo",
        {
          schema: {
            querystring: z.strictObject({
              apiKey: z.string(),
              version: z.string().optional(),
              x: z.string().optional(),
            }),
          },
        },
        // The key itself is not echoed (the suite's secret scan reads every answer): only that it arrived.
        async (request) => ({
          query: { ...request.query, apiKey: request.query.apiKey.length > 0 },
          userId: request.auth.userId,
        }),
      );
      routes.post(
        "/test/body",
        {
          schema: {
            body: z.strictObject({ email: z.email(), name: z.string(), age: z.number().int().optional() }),
          },
        },
        async (request) => request.body,
      );
      routes.get("/test/throw/:kind", async (request) => {
        const { kind } = request.params as { kind: string };
        if (kind === "conflict") throw new Conflict("Slug already taken");
        if (kind === "bad")
          throw new BadRequest("invalid in 'endTime': must be after startTime", [
            { path: "endTime", message: "must be after startTime" },
          ]);
        if (kind === "forbidden") throw new Forbidden();
        if (kind === "method") throw new MethodNotAllowed(["GET", "POST"]);
        if (kind === "unique") {
          await app.prisma.user.create({ data: { email: "twice@example.com" } });
          await app.prisma.user.create({ data: { email: "twice@example.com" } });
        }
        if (kind === "missing")
          await app.prisma.user.update({ where: { id: 2_000_000_000 }, data: { name: "x" } });
        if (kind === "foreign")
          await app.prisma.schedule.create({ data: { userId: 2_000_000_000, name: "x" } });
        throw new Error("secret internals at /srv/app.ts:42");
      });
    },
  },
);

describe("public routes", () => {
  it("GET / welcomes without a key and points to /docs", async () => {
    const response = await t.app.inject({ url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: WELCOME_MESSAGE });
    expect(WELCOME_MESSAGE).toContain("/docs");
  });

  it("GET /v1 answers the welcome too, as v1's home page did", async () => {
    const response = await t.app.inject({ url: "/v1" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: WELCOME_MESSAGE });
  });

  it("GET /docs serves the OpenAPI 3.0.3 document without a key", async () => {
    const response = await t.app.inject({ url: "/docs" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.0.3");
    expect(document.components.securitySchemes.ApiKeyAuth).toEqual({
      type: "apiKey",
      in: "query",
      name: "apiKey",
    });
    expect(document.components.securitySchemes.ApiKeyHeader).toEqual({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    expect(document.components.securitySchemes.BearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ ApiKeyAuth: [] }, { ApiKeyHeader: [] }, { BearerAuth: [] }]);
    expect(document.paths["/"].get.security).toEqual([]);
    expect(document.paths["/docs"].get.security).toEqual([]);
  });

  it("GET /docs/reference serves the API reference page and its assets without a key, under a strict CSP", async () => {
    for (const url of ["/docs/reference", "/docs/reference/static/swagger-ui-bundle.js"]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-security-policy"]).toBe(API_REFERENCE_CSP);
    }
    const document = (await t.app.inject({ url: "/docs" })).json();
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/docs/"))).toEqual([]);
  });

  it("answers an unknown route 404 JSON", async () => {
    for (const url of ["/nowhere", "/v1/nowhere", "/api/v2/users"]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ message: "Not found" });
    }
  });
});

describe("/v1 rewrite", () => {
  it("maps /v1/... onto /api/v1/... and adds version=v1", () => {
    expect(rewriteV1Url("/v1")).toBe("/api/v1?version=v1");
    expect(rewriteV1Url("/v1/users")).toBe("/api/v1/users?version=v1");
    expect(rewriteV1Url("/v1/users?apiKey=k&take=5")).toBe("/api/v1/users?apiKey=k&take=5&version=v1");
    expect(rewriteV1Url("/v1/users?version=2&apiKey=k")).toBe("/api/v1/users?apiKey=k&version=v1");
    expect(rewriteV1Url("/v10/users")).toBe("/v10/users");
    expect(rewriteV1Url("/api/v1/users")).toBe("/api/v1/users");
    expect(rewriteV1Url("/docs/v1")).toBe("/docs/v1");
  });

  it("reads a doubled prefix, /v1/v1/... or /api/v1/v1/..., as /v1/... (a base URL typed with /v1 under a client that adds /v1: ADR 0248)", () => {
    expect(rewriteV1Url("/v1/v1/memberships?apiKey=k")).toBe("/api/v1/memberships?apiKey=k&version=v1");
    expect(rewriteV1Url("/api/v1/v1/memberships")).toBe("/api/v1/memberships?version=v1");
    expect(rewriteV1Url("/v1/v1")).toBe("/api/v1?version=v1");
    // Only one repeat, and only of the whole segment.
    for (const other of ["/v1/v1/v1/users", "/api/v1/api/v1/users", "/v1/v10/users", "/api/v1/v1x"]) {
      expect(rewriteV1Url(other)).not.toMatch(/^\/api\/v1\/users/);
    }
  });

  it("maps a bare /<resource>... onto /api/v1/... without a version, as v1's fallback did", () => {
    expect(rewriteV1Url("/event-types?apiKey=k")).toBe("/api/v1/event-types?apiKey=k");
    expect(rewriteV1Url("/bookings/3/cancel")).toBe("/api/v1/bookings/3/cancel");
    expect(rewriteV1Url("/me")).toBe("/api/v1/me");
    expect(rewriteV1Url("/slots?eventTypeId=1")).toBe("/api/v1/slots?eventTypeId=1");
    for (const own of ["/", "/docs", "/health", "/ready", "/event-typesx", "/api/v1/users"]) {
      expect(rewriteV1Url(own)).toBe(own);
    }
  });

  it("reaches the same handler, with version in the query", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    const viaV1 = await t.app.inject({ url: withKey("/v1/test/echo?x=1", apiKey) });
    expect(viaV1.statusCode).toBe(200);
    expect(viaV1.json()).toEqual({ query: { x: "1", apiKey: true, version: "v1" }, userId: user.id });

    const direct = await t.app.inject({ url: withKey("/api/v1/test/echo?x=1", apiKey) });
    expect(direct.json()).toEqual({ query: { x: "1", apiKey: true }, userId: user.id });
  });

  it("works on every real list route: their query schemas accept apiKey and version", async () => {
    const { apiKey } = await createUser(t.prisma);
    const document = t.app.swagger() as { paths: Record<string, { get?: unknown }> };
    const lists = Object.keys(document.paths).filter(
      // /slots and /availability need their ranges (slots.test.ts and availability.test.ts cover
      // them through every prefix); the calendar feed takes a feed token, not an apiKey
      // (calendar-feed.test.ts fetches it through /v1).
      (path) =>
        path.startsWith("/api/v1/") &&
        !path.startsWith("/api/v1/test/") &&
        !path.includes("{") &&
        path !== "/api/v1/slots" &&
        path !== "/api/v1/availability" &&
        path !== "/api/v1/bookings.ics",
    );
    expect(lists.length).toBeGreaterThanOrEqual(14);
    for (const path of lists) {
      const viaV1 = await t.app.inject({ url: withKey(path.replace(/^\/api/, ""), apiKey) });
      const direct = await t.app.inject({ url: withKey(path, apiKey) });
      expect({ path, status: viaV1.statusCode }).toEqual({ path, status: 200 });
      expect(viaV1.json()).toEqual(direct.json());
      expect(viaV1.headers["x-ratelimit-limit"]).toBeDefined();
    }
  });

  it("needs the key like any other path", async () => {
    const response = await t.app.inject({ url: "/v1/test/echo" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "No apiKey provided" });
  });
});

describe("error handling", () => {
  const post = async (payload: string, contentType = "application/json") => {
    const { apiKey } = await createUser(t.prisma);
    return t.app.inject({
      method: "POST",
      url: withKey("/test/body", apiKey),
      headers: { "content-type": contentType },
      payload,
    });
  };

  it("names every bad field of an invalid body, with an issues list", async () => {
    const response = await post(JSON.stringify({ email: 42, name: "A", foo: 1, bar: 2 }));
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.message).toMatch(
      /^invalid_type in 'email': .+; unrecognized key 'foo'; unrecognized key 'bar'$/,
    );
    expect(body.issues).toEqual([
      { path: "email", message: expect.any(String) },
      { path: "foo", message: "Unrecognized key" },
      { path: "bar", message: "Unrecognized key" },
    ]);
  });

  it("answers a malformed JSON body 400", async () => {
    const response = await post('{"email": "a@example.com", ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it("answers an empty JSON body 400, another media type 415 and an oversized body 413", async () => {
    // An empty JSON body is no body: a route that needs one says so, naming the body.
    const empty = await post("");
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: expect.stringContaining("body") });

    const text = await post("<a/>", "application/xml");
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ message: expect.any(String) });

    const huge = await post(JSON.stringify({ email: "a@example.com", name: "x".repeat(1_100_000) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ message: expect.any(String) });
  });

  it("answers a body that is JSON but not an object 400 naming the body", async () => {
    const response = await post("[1, 2]");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/in body: /);
  });

  it("turns typed errors into their status and {message}", async () => {
    const { apiKey } = await createUser(t.prisma);
    const get = (kind: string) => t.app.inject({ url: withKey(`/test/throw/${kind}`, apiKey) });

    const conflict = await get("conflict");
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ message: "Slug already taken" });

    expect((await get("forbidden")).statusCode).toBe(403);

    const bad = await get("bad");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: "invalid in 'endTime': must be after startTime",
      issues: [{ path: "endTime", message: "must be after startTime" }],
    });

    const method = await get("method");
    expect(method.statusCode).toBe(405);
    expect(method.headers.allow).toBe("GET, POST");
    expect(method.json()).toEqual({ message: "Method Not Allowed (Allow: GET,POST)" });
  });

  it("maps database refusals: unique 409, missing row 404, dangling reference 400", async () => {
    const { apiKey } = await createUser(t.prisma);
    const get = (kind: string) => t.app.inject({ url: withKey(`/test/throw/${kind}`, apiKey) });

    const unique = await get("unique");
    expect(unique.statusCode).toBe(409);
    expect(unique.json()).toEqual({ message: "User with the same email already exists" });

    const missing = await get("missing");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: "Not found" });

    const foreign = await get("foreign");
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ message: expect.any(String) });
  });

  it("answers anything else 500 without detail", async () => {
    const { apiKey } = await createUser(t.prisma);
    const response = await t.app.inject({ url: withKey("/test/throw/other", apiKey) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: "Internal server error" });
  });
});

describe("router-level errors", () => {
  it("accepts long ids (selected calendars embed an external id) and answers 404, not 414", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    const id = `${user.id}_google_calendar_${"x".repeat(400)}@group.calendar.google.com`;
    const res = await t.app.inject({
      url: withKey(`/api/v1/selected-calendars/${encodeURIComponent(id)}`, apiKey),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it("answers ids beyond the router's limit with a {message} 414", async () => {
    const { apiKey } = await createUser(t.prisma);
    const res = await t.app.inject({ url: withKey(`/api/v1/teams/${"9".repeat(3000)}`, apiKey) });
    expect(res.statusCode).toBe(414);
    expect(Object.keys(res.json())).toEqual(["message"]);
  });
});
