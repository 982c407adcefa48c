import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { renderOpenApi } from "../src/openapi.ts";
import { OPENAPI_FILE } from "../src/openapi-sync.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";
import { newTenantSecret } from "./hosted-helpers.ts";

const t = setupApp();

describe("OpenAPI document", () => {
  it("is what openapi/scheduling.json holds (regenerate: pnpm exec tsx apps/scheduling/src/openapi-sync.ts)", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    expect(renderOpenApi(served)).toBe(await readFile(OPENAPI_FILE, "utf8"));
  });

  it("is a valid OpenAPI 3.0.3 document", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    expect(served.openapi).toBe("3.0.3");
    // validate() dereferences in place; give it a copy.
    await expect(SwaggerParser.validate(structuredClone(served))).resolves.toBeDefined();
  });

  it("applies the three API key schemes to every operation except the public ones and the calendar feed", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    const anyKey = [{ ApiKeyAuth: [] }, { ApiKeyHeader: [] }, { BearerAuth: [] }];
    expect(served.security).toEqual(anyKey);
    for (const [path, operations] of Object.entries(
      served.paths as Record<string, Record<string, { security?: unknown }>>,
    )) {
      for (const operation of Object.values(operations)) {
        if (["/", "/docs", "/health", "/ready"].includes(path)) expect(operation.security).toEqual([]);
        // Its own secret, never an API key: the `feedToken` parameter (docs/adr/0229).
        else if (path === "/api/v1/bookings.ics") expect(operation.security).toEqual([]);
        else expect(operation.security).toEqual(anyKey);
      }
    }
  });

  it("declares the locked user's 403 on every authenticated operation, which answers it (the answers are checked against the document)", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    const { apiKey } = await createUser(t.prisma, { locked: true });
    let checked = 0;
    for (const [path, operations] of Object.entries(
      served.paths as Record<
        string,
        Record<string, { security?: unknown[]; responses: Record<string, { description: string }> }>
      >,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.security?.length) continue;
        checked++;
        const where = `${method.toUpperCase()} ${path}`;
        expect(operation.responses["403"]?.description, where).toMatch(/locked/);
        const response = await t.app.inject({
          method: method.toUpperCase() as "GET",
          url: withKey(path.replaceAll(/\{\w+\}/g, "1"), apiKey),
        });
        expect(response.statusCode, where).toBe(403);
        expect(response.json(), where).toEqual({
          message: "You are not authorized to perform this request.",
        });
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("served with hosted mode off (the default, and the committed document), declares no `key` anywhere", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    expect(JSON.stringify(served.paths)).not.toMatch(/"name":"key"/);
    expect(served.info.description).toMatch(/hosted mode is off here/);
  });
});

type Operations = Record<
  string,
  Record<
    string,
    {
      security?: unknown[];
      parameters?: { name: string; in: string; required?: boolean }[];
      responses: Record<string, { description: string }>;
    }
  >
>;

describe.each(["on", "required"] as const)("OpenAPI document served with HOSTED_MODE=%s", (mode) => {
  const hosted = setupApp({ HOSTED_MODE: mode, TENANT_SECRET: newTenantSecret() });

  it("declares `key` on every authenticated operation (required when the server requires it), and what it adds to 400, 401 and 503", async () => {
    const served = (await hosted.app.inject({ url: "/docs" })).json();
    let checked = 0;
    for (const operations of Object.values(served.paths as Operations)) {
      for (const operation of Object.values(operations)) {
        if (!operation.security?.length) continue;
        checked++;
        expect(operation.parameters).toContainEqual(
          expect.objectContaining({ name: "key", in: "query", required: mode === "required" }),
        );
        expect(operation.responses["400"]?.description).toMatch(/`key` parameter while hosted mode is off/);
        expect(operation.responses["401"]?.description).toMatch(/license key/);
        expect(operation.responses["503"]?.description).toMatch(/tenant's database/);
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
