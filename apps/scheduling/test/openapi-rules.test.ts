// The document says what the server does: for path ids and numbers in queries, the value the
// served document admits (its pattern) is exactly the value the server accepts, on samples
// chosen at each rule's edges.
import { documentAdmits } from "@app/db/testing";
import type { OpenAPIV3 } from "openapi-types";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

type Schema = Parameters<typeof documentAdmits>[1];
let doc: OpenAPIV3.Document;
let apiKey: string;

beforeAll(async () => {
  doc = (await t.app.inject({ url: "/docs" })).json();
  ({ apiKey } = await createUser(t.prisma));
});

const admits = (schema: unknown, value: unknown) => documentAdmits(doc, schema as Schema, value);

function parameter(path: string, name: string): OpenAPIV3.ParameterObject {
  const operations = doc.paths[path] as Record<string, OpenAPIV3.OperationObject>;
  const operation = Object.values(operations)[0]!;
  return (operation.parameters as OpenAPIV3.ParameterObject[]).find((p) => p.name === name)!;
}

const ID_SAMPLES = [
  "0",
  "1",
  "7",
  "2147483647",
  "2147483648",
  "99999999999",
  "007",
  "-1",
  "+1",
  "1.5",
  "1e3",
  "abc",
  "1_1",
  "0_1",
  "1_0",
  "01_1",
  "1_2147483647",
  "1_2147483648",
  "1_2_3",
  "1_google_calendar_x",
  "1_google_calendar_",
  "1__calendar_x",
  "1_x_calendar_a_calendar_b",
  "0_google_calendar_x",
  "x_google_calendar_y",
];

describe("path ids", () => {
  it("integer ids: the pattern admits 1 to 2147483647 only, and says so", () => {
    const id = parameter("/api/v1/users/{id}", "id");
    expect(id.description).toContain("2147483647");
    for (const value of ["1", "9", "10", "2147483647"]) expect(admits(id.schema, value), value).toBe(true);
    for (const value of ["0", "2147483648", "9999999999", "007", "-1", ""]) {
      expect(admits(id.schema, value), value).toBe(false);
    }
  });

  it("every item path: the document's pattern and the server agree on every sample", async () => {
    const itemPaths = Object.keys(doc.paths).filter((path) => path.includes("{id}"));
    expect(itemPaths.length).toBeGreaterThan(14);
    for (const path of itemPaths) {
      const operations = doc.paths[path] as Record<string, OpenAPIV3.OperationObject>;
      const method = "get" in operations ? "get" : Object.keys(operations)[0]!;
      const { schema } = parameter(path, "id");
      for (const sample of ID_SAMPLES) {
        const url = withKey(path.replace("{id}", encodeURIComponent(sample)), apiKey);
        const response = await t.app.inject({ method: method.toUpperCase() as "GET", url });
        const where = `${method.toUpperCase()} ${path} id=${sample}`;
        if (admits(schema, sample)) {
          expect([200, 404], where).toContain(response.statusCode);
        } else {
          expect(response.statusCode, where).toBe(400);
          expect(response.json().issues, where).toEqual([expect.objectContaining({ path: "id" })]);
        }
      }
    }
  });
});

describe("numbers in queries", () => {
  it("page and take: the pattern states the bounds the server applies", async () => {
    for (const name of ["page", "take"]) {
      const { schema } = parameter("/api/v1/teams", name);
      for (const value of ["0", "1", "100", "101", "1000000", "1000001", "010", "1e2", "", "-1"]) {
        const response = await t.app.inject({ url: withKey(`/api/v1/teams?${name}=${value}`, apiKey) });
        expect(response.statusCode === 200, `${name}=${value}`).toBe(admits(schema, value));
      }
    }
  });
});
