// The edges every resource shares, driven from the resource table: no key → 401 on every
// route, malformed ids → 400, methods a path does not offer → 405 + Allow, strict bodies and
// queries, pagination bounds. Bad input changes nothing.
import { intIdParams, membershipIdParams, selectedCalendarIdParams } from "@app/schemas/scheduling";
import { beforeAll, describe, expect, it } from "vitest";
import type { Operation, Resource } from "../src/resources/resource.ts";
import { setupApp } from "./helpers.ts";
import { apiClient, type Caller, fixtures, newUser, resources } from "./resource-fixtures.ts";

const t = setupApp();
const call = apiClient(t);

// TRACE, QUERY and PROPFIND too: every method Node reads is answered (HEAD follows GET; every
// resource path offers GET).
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY", "PROPFIND"];
const OPERATION_METHOD: Record<Operation, { method: string; item: boolean }> = {
  list: { method: "GET", item: false },
  create: { method: "POST", item: false },
  read: { method: "GET", item: true },
  edit: { method: "PATCH", item: true },
  delete: { method: "DELETE", item: true },
};

/** Well-formed ids (naming no row) and malformed ones, per id format of the table. */
function idSamples(resource: Resource): { valid: string; malformed: string[] } {
  if (resource.params === membershipIdParams) {
    return {
      valid: "1_1",
      malformed: ["abc", "1", "1_", "_1", "1_x", "x_1", "1_2_3", "0_1", "1_99999999999"],
    };
  }
  if (resource.params === selectedCalendarIdParams) {
    return {
      valid: "1_google_calendar_x",
      malformed: ["abc", "x_google_calendar_y", "1", "1_google", "1_", "1__", "0_google_calendar_x"],
    };
  }
  expect(resource.params).toBe(intIdParams);
  return { valid: "1", malformed: ["abc", "0", "-1", "1.5", "1e3", "99999999999"] };
}

const allowed = (resource: Resource, item: boolean) =>
  resource.operations
    .filter((op) => OPERATION_METHOD[op].item === item)
    .map((op) => OPERATION_METHOD[op].method);

const paths = (resource: Resource) => [
  { url: `/api/v1/${resource.path}`, item: false },
  { url: `/api/v1/${resource.path}/${encodeURIComponent(idSamples(resource).valid)}`, item: true },
];

let user: Caller;
beforeAll(async () => {
  user = await newUser(t.prisma);
});

describe.each(resources)("$path", (resource) => {
  it("answers 401 without an apiKey on every path and method", async () => {
    for (const { url } of paths(resource)) {
      for (const method of METHODS) {
        const response = await call(
          method,
          url,
          undefined,
          method === "POST" || method === "PATCH" ? {} : undefined,
        );
        expect(response.status, `${method} ${url}`).toBe(401);
        expect(response.body).toEqual({ message: "No apiKey provided" });
      }
    }
  });

  it("answers 405 with Allow for every method a path does not offer", async () => {
    for (const { url, item } of paths(resource)) {
      const allow = allowed(resource, item);
      for (const method of METHODS.filter((m) => !allow.includes(m))) {
        const response = await call(method, url, user, {});
        expect(response.status, `${method} ${url}`).toBe(405);
        expect(response.headers.allow).toBe(allow.join(", "));
        expect(response.body.message).toBe(`Method Not Allowed (Allow: ${allow.join(",")})`);
      }
    }
  });

  it("answers 400 for a malformed id on every item operation", async () => {
    const { malformed } = idSamples(resource);
    for (const method of allowed(resource, true)) {
      for (const id of malformed) {
        const response = await call(method, `/api/v1/${resource.path}/${encodeURIComponent(id)}`, user, {});
        expect(response.status, `${method} ${id}`).toBe(400);
        expect(response.body.issues, `${method} ${id}`).toEqual([expect.objectContaining({ path: "id" })]);
      }
    }
  });

  it("answers 404 for a well-formed id naming no row", async () => {
    const { valid } = idSamples(resource);
    const id = valid === "1" ? "2147483647" : valid;
    for (const method of allowed(resource, true)) {
      const response = await call(method, `/api/v1/${resource.path}/${encodeURIComponent(id)}`, user, {});
      expect(response.status, method).toBe(404);
      expect(response.body.message).toMatch(/not found$/);
    }
  });

  it("bounds pagination and refuses unknown query keys, but accepts apiKey and version", async () => {
    const list = `/api/v1/${resource.path}`;
    for (const query of [
      "page=0",
      "page=-1",
      "page=x",
      "take=0",
      "take=101",
      "take=1.5",
      "take=x",
      "sort=id",
    ]) {
      const response = await call("GET", `${list}?${query}`, user);
      expect(response.status, query).toBe(400);
      expect(response.body.issues, query).toEqual([expect.objectContaining({ message: expect.any(String) })]);
    }
    const ok = await call("GET", `${list}?page=2&take=100&version=v1`, user);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body[resource.keys.plural]).toEqual(expect.any(Array));
    const rewritten = await call("GET", `/v1/${resource.path}`, user);
    expect(rewritten.status, rewritten.text).toBe(200);
  });

  it("refuses unknown query keys on item routes", async () => {
    const url = `/api/v1/${resource.path}/${encodeURIComponent(idSamples(resource).valid)}?include=team`;
    const response = await call("GET", url, user);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain("include");
  });
});

describe.each(resources.filter((r) => r.operations.includes("create") && !r.custom.create))(
  "$path body validation",
  (resource) => {
    const fixture = fixtures[resource.path]!;
    const count = () => resource.delegate(t.prisma).count({ where: {} });

    async function caller() {
      return newUser(t.prisma, { admin: fixture.adminCreates });
    }

    it("refuses an unknown key on create, naming it, and stores nothing", async () => {
      const owner = await caller();
      const body = await fixture.createBody!(t.prisma, owner.user);
      const before = await count();
      const response = await call("POST", `/api/v1/${resource.path}`, owner, { ...body, colour: "red" });
      expect(response.status).toBe(400);
      expect(response.body.message).toContain("colour");
      expect(response.body.issues).toEqual([expect.objectContaining({ path: "colour" })]);
      expect(await count()).toBe(before);
    });

    it("refuses a wrong type and a missing required field on create, naming them", async () => {
      const owner = await caller();
      const body = await fixture.createBody!(t.prisma, owner.user);
      const before = await count();
      const [field] = Object.keys(body);
      const wrongType = await call("POST", `/api/v1/${resource.path}`, owner, {
        ...body,
        [field!]: { a: 1 },
      });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: field })]),
      );

      const { [field!]: _, ...missing } = body;
      const missingField = await call("POST", `/api/v1/${resource.path}`, owner, missing);
      expect(missingField.status).toBe(400);
      expect(missingField.body.message).toContain(field);

      for (const empty of [{}, [], undefined]) {
        expect((await call("POST", `/api/v1/${resource.path}`, owner, empty)).status).toBe(400);
      }
      expect(await count()).toBe(before);
    });

    it("refuses an unknown key on edit and leaves the row unchanged", async () => {
      const owner = await caller();
      const body = await fixture.createBody!(t.prisma, owner.user);
      const created = await call("POST", `/api/v1/${resource.path}`, owner, body);
      const row = created.body[resource.keys.singular] as Record<string, unknown>;
      const url = `/api/v1/${resource.path}/${encodeURIComponent(resource.idOf(row))}`;

      const response = await call("PATCH", url, owner, { ...fixture.edit, id: 12345 });
      expect(response.status).toBe(400);
      expect(response.body.issues).toEqual([expect.objectContaining({ path: "id" })]);
      expect((await call("GET", url, owner)).body[resource.keys.singular]).toEqual(row);
    });
  },
);
