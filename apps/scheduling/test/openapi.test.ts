import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { renderOpenApi } from "../src/openapi.ts";
import { OPENAPI_FILE } from "../src/openapi-sync.ts";
import { setupApp } from "./helpers.ts";

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

  it("applies the apiKey query scheme to every operation except the public ones", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    expect(served.security).toEqual([{ ApiKeyAuth: [] }]);
    for (const [path, operations] of Object.entries(
      served.paths as Record<string, Record<string, { security?: unknown }>>,
    )) {
      for (const operation of Object.values(operations)) {
        if (["/", "/docs", "/health", "/ready"].includes(path)) expect(operation.security).toEqual([]);
        else expect(operation.security).not.toEqual([]);
      }
    }
  });

  it("documents hosted mode's `key` parameter and what it adds to 400, 401 and 503 on every authenticated operation", async () => {
    const served = (await t.app.inject({ url: "/docs" })).json();
    let checked = 0;
    for (const operations of Object.values(
      served.paths as Record<
        string,
        Record<
          string,
          {
            security?: unknown[];
            parameters?: { name: string; in: string }[];
            responses: Record<string, { description: string }>;
          }
        >
      >,
    )) {
      for (const operation of Object.values(operations)) {
        if (!operation.security?.length) continue;
        checked++;
        expect(operation.parameters).toContainEqual(expect.objectContaining({ name: "key", in: "query" }));
        expect(operation.responses["400"]?.description).toMatch(/`key` parameter while hosted mode is off/);
        expect(operation.responses["401"]?.description).toMatch(/license key/);
        expect(operation.responses["503"]?.description).toMatch(/tenant's database/);
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
