// The fuzz suite (testing-fuzz.ts) is only worth something if its "valid" values are valid by
// the document, its operations are all of the document's, and its change journal sees every change
// a request could make (and nothing else).

import fc from "fast-check";
import Fastify from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceChecker } from "../src/conformance.ts";
import { createTestDatabase, type TestDatabase } from "../src/database.ts";
import {
  assertNoServerErrorNorChange,
  changeMark,
  documentRefuses,
  fuzzSettings,
  installChangeJournal,
  nested,
  operationsOf,
  requestsFor,
  schemaArbitraries,
} from "../src/fuzz.ts";

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const json = (schema: object) => ({ description: "", content: { "application/json": { schema } } });

const document = {
  openapi: "3.0.3",
  info: { title: "Fuzz API", version: "1" },
  security: [{ key: [] }],
  paths: {
    "/things/{id}": {
      parameters: [],
      get: {
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[1-9]\\d{0,3}$" } },
        ],
        responses: { 200: json({ $ref: "#/components/schemas/Thing" }) },
      },
      patch: {
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^[1-9]\\d{0,3}$" } },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
        },
        responses: { 200: json({ $ref: "#/components/schemas/Thing" }) },
      },
    },
    "/health": { get: { security: [], responses: { 200: json({ type: "object" }) } } },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        additionalProperties: false,
        required: ["name", "days"],
        properties: {
          name: { type: "string", minLength: 1, maxLength: 20, pattern: "^[a-z]+$" },
          days: {
            type: "array",
            items: { type: "integer", minimum: 0, maximum: 6 },
            uniqueItems: true,
            maxItems: 7,
          },
          at: { type: "string", format: "date-time", nullable: true },
          url: { type: "string", format: "uri" },
          kind: { type: "string", enum: ["a", "b"] },
          owner: { allOf: [{ $ref: "#/components/schemas/Owner" }], nullable: true },
        },
      },
      Owner: {
        type: "object",
        additionalProperties: false,
        required: ["id"],
        properties: { id: { type: "integer", minimum: 1, maximum: 2147483647 } },
      },
    },
  },
};

describe("operationsOf", () => {
  it("lists every operation with its parameters, body and security", () => {
    const operations = operationsOf(document);
    expect(operations.map((op) => `${op.method} ${op.path} ${op.secured}`)).toEqual([
      "GET /things/{id} true",
      "PATCH /things/{id} true",
      "GET /health false",
    ]);
    expect(operations[1]!.body).toEqual({ $ref: "#/components/schemas/Thing" });
    expect(operations[0]!.parameters.map((p) => p.name)).toEqual(["id"]);
  });
});

describe("documentRefuses", () => {
  const withQuery = structuredClone(document) as typeof document & Record<string, unknown>;
  (withQuery.paths as Record<string, object>)["/things"] = {
    get: {
      parameters: [
        { name: "take", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 10 } },
        { name: "kind", in: "query", required: true, schema: { type: "string", enum: ["a", "b"] } },
        {
          name: "owner",
          in: "query",
          required: false,
          schema: {
            anyOf: [
              { type: "integer", minimum: 1, pattern: "^[1-9]\\d*$" },
              { type: "array", minItems: 1, items: { type: "integer", minimum: 1, pattern: "^[1-9]\\d*$" } },
            ],
          },
        },
      ],
      responses: { 200: json({ type: "object" }) },
    },
  };
  const [, patch, , list] = operationsOf(withQuery);
  const patchRefuses = documentRefuses(withQuery, patch!);
  const listRefuses = documentRefuses(withQuery, list!);
  const body = (payload: string, contentType = "application/json") => ({
    method: "PATCH",
    url: "/things/1",
    headers: { "content-type": contentType },
    payload,
  });
  const query = (search: string) => ({ method: "GET", url: `/things?${search}`, headers: {} });

  it("refuses a body its schema does not admit: an unknown property, a wrong type, not JSON, none", () => {
    expect(patchRefuses(body('{"name":"a","days":[1]}'))).toBe(false);
    expect(patchRefuses(body('{"name":"a","days":[1],"extra":true}'))).toBe(true);
    expect(patchRefuses(body('{"name":"a","days":["1"]}'))).toBe(true);
    expect(patchRefuses(body("{"))).toBe(true);
    expect(patchRefuses({ method: "PATCH", url: "/things/1", headers: {} })).toBe(true);
  });

  it("reads query values as a query string: numbers from their text, a required one present, one value", () => {
    expect(listRefuses(query("kind=a&take=3"))).toBe(false);
    expect(listRefuses(query("kind=a&take=30"))).toBe(true);
    expect(listRefuses(query("kind=a&take=x"))).toBe(true);
    expect(listRefuses(query("take=3"))).toBe(true);
    expect(listRefuses(query("kind=a&kind=b"))).toBe(true);
    // Unknown keys: OpenAPI cannot forbid them.
    expect(listRefuses(query("kind=a&foo=1"))).toBe(false);
  });

  it("reads a repeatable integer key (an anyOf of one or many) as one value or several, spelled as its pattern says", () => {
    expect(listRefuses(query("kind=a&owner=7"))).toBe(false);
    expect(listRefuses(query("kind=a&owner=7&owner=8"))).toBe(false);
    expect(listRefuses(query("kind=a&owner=0"))).toBe(true);
    expect(listRefuses(query("kind=a&owner=007"))).toBe(true);
    expect(listRefuses(query("kind=a&owner=7&owner=x"))).toBe(true);
  });
});

describe("schemaArbitraries", () => {
  // The 200 response's schema is the Thing: a value the fuzzer calls valid must conform to it.
  const checker = conformanceChecker(document);
  const conforms = (value: unknown) =>
    checker.check({
      method: "GET",
      route: "/things/:id",
      status: 200,
      contentType: "application/json",
      body: JSON.stringify(value),
      url: "/things/1",
    });

  it("builds valid values the document's schema accepts", () => {
    const { valid } = schemaArbitraries(document);
    fc.assert(
      fc.property(valid({ $ref: "#/components/schemas/Thing" }), (value) => {
        expect(conforms(value)).toEqual([]);
      }),
      { seed: 1, numRuns: 300 },
    );
  });

  it("builds invalid values, most of which the schema refuses", () => {
    const { invalid } = schemaArbitraries(document);
    const samples = fc.sample(invalid({ $ref: "#/components/schemas/Thing" }), { seed: 1, numRuns: 300 });
    const refused = samples.filter((value) => conforms(value).length > 0);
    // Some mutations stay valid by chance (a boundary inside the limits, a null where null is
    // allowed); most must not.
    expect(refused.length).toBeGreaterThan(samples.length * 0.7);
  });

  it("nests as deep as asked without recursion", () => {
    expect(JSON.stringify(nested(4))).toBe('{"a":[{"a":[1]}]}');
    expect(JSON.stringify(nested(3000)).length).toBeGreaterThan(3000);
  });
});

describe("requestsFor", () => {
  it("sends credentials on secured operations, fills the path, and varies bodies", () => {
    const [, patch, health] = operationsOf(document);
    const requests = fc.sample(
      requestsFor(document, patch!, {
        callers: ["user"],
        auth: () => ({ query: { apiKey: "k" } }),
        knownIds: () => ["7"],
      }),
      { seed: 3, numRuns: 200 },
    );
    expect(requests.every((r) => r.method === "PATCH" && r.url.startsWith("/things/"))).toBe(true);
    expect(requests.some((r) => r.url.startsWith("/things/7?"))).toBe(true);
    expect(requests.filter((r) => r.caller === "user").every((r) => r.url.includes("apiKey=k"))).toBe(true);
    expect(requests.some((r) => r.caller === "anonymous")).toBe(true);
    // Bodies of another type, none at all, and JSON both valid and broken.
    const types = new Set(requests.map((r) => r.headers["content-type"]));
    expect(types).toContain("application/json");
    expect([...types].some((type) => type !== undefined && type !== "application/json")).toBe(true);
    expect(requests.some((r) => r.payload !== undefined && !isJson(r.payload))).toBe(true);
    const publicOnes = fc.sample(
      requestsFor(document, health!, { callers: ["user"], auth: () => ({ query: { apiKey: "k" } }) }),
      50,
    );
    expect(publicOnes.every((r) => !r.url.includes("apiKey=k"))).toBe(true);
  });

  it("reads FUZZ_RUNS and FUZZ_SEED, with a fixed default seed", () => {
    expect(fuzzSettings({})).toEqual({ numRuns: 60, seed: 42 });
    expect(fuzzSettings({ FUZZ_RUNS: "5", FUZZ_SEED: "9" })).toEqual({ numRuns: 5, seed: 9 });
    expect(fuzzSettings({ FUZZ_RUNS: "x" })).toEqual({ numRuns: 60, seed: 42 });
  });
});

describe("the change journal", () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`create schema fuzz;
      create table fuzz.keys (id int primary key, note text, "lastUsedAt" timestamptz);
      create table fuzz.rows (id int primary key, body jsonb);
      create table fuzz.visits (month date not null, n int) partition by range (month);
      create table fuzz.visits_2026 partition of fuzz.visits for values from ('2026-01-01') to ('2027-01-01');
      insert into fuzz.keys values (1, 'a', null)`);
    await installChangeJournal(client, ["fuzz"]);
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it("moves with any committed insert, update, delete or truncate in the named schemas, and only then", async () => {
    const marks = [await changeMark(client)];
    expect(await changeMark(client)).toBe(marks[0]);
    // Installing twice changes nothing (each file's suite installs it).
    await installChangeJournal(client, ["fuzz"]);
    for (const change of [
      `insert into fuzz.rows values (1, '{"a":1}')`,
      `update fuzz.rows set body = '{"a":2}'`,
      "update fuzz.keys set note = 'b'",
      "delete from fuzz.rows",
      "insert into fuzz.visits values ('2026-05-01', 1)",
      // A partition attached after the journal was installed is journaled too.
      `create table fuzz.visits_2027 (month date not null, n int);
       alter table fuzz.visits attach partition fuzz.visits_2027 for values from ('2027-01-01') to ('2028-01-01');
       insert into fuzz.visits values ('2027-05-01', 1)`,
      "truncate fuzz.keys",
    ]) {
      await client.query(change);
      const mark = await changeMark(client);
      expect(marks, change).not.toContain(mark);
      marks.push(mark);
    }
    await client.query("insert into fuzz.keys values (1, 'a', null)");
    marks.push(await changeMark(client));
    // Authentication's last-use stamp is not a change a request made; nor is an update to the same values.
    await client.query(`update fuzz.keys set "lastUsedAt" = now()`);
    await client.query("update fuzz.keys set note = note");
    // A change rolled back left nothing.
    await client.query("begin; insert into fuzz.rows values (9, null); rollback");
    // Other schemas are not counted.
    await client.query("create table public.elsewhere (id int); insert into public.elsewhere values (1)");
    expect(await changeMark(client)).toBe(marks.at(-1));
  });

  it("leaves out the tables it is told to ignore, and journals them again once not told", async () => {
    await installChangeJournal(client, ["fuzz"], undefined, ["fuzz.rows"]);
    const mark = await changeMark(client);
    await client.query("insert into fuzz.rows values (100, null)");
    expect(await changeMark(client)).toBe(mark);
    await client.query("insert into fuzz.keys values (100, 'x', null)");
    expect(await changeMark(client)).not.toBe(mark);
    await installChangeJournal(client, ["fuzz"]);
    const again = await changeMark(client);
    await client.query("delete from fuzz.rows where id = 100");
    expect(await changeMark(client)).not.toBe(again);
  });

  it("fails a fuzz run on a 5xx, and on a 4xx that changed a table", async () => {
    const app = Fastify();
    app.get("/crash", async (_request, reply) => reply.code(500).send());
    app.get("/sneaky", async (_request, reply) => {
      await client.query(
        "insert into fuzz.rows values ((select coalesce(max(id), 0) + 1 from fuzz.rows), null)",
      );
      return reply.code(400).send();
    });
    app.get("/fine", async (_request, reply) => reply.code(404).send());
    const request = (url: string) => fc.constant({ caller: "user", method: "GET", url, headers: {} });
    const run = {
      app,
      client,
      schemas: ["fuzz"],
      statuses: new Map<number, number>(),
      settings: fuzzSettings({ FUZZ_RUNS: "3" }),
    };
    // fast-check reports the property's own error as the cause of its failure.
    const failure = (url: string) =>
      assertNoServerErrorNorChange(request(url), run).then(
        () => "passed",
        (error: Error) => `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`,
      );
    expect(await failure("/crash")).toMatch(/server error: user GET \/crash → 500/);
    expect(await failure("/sneaky")).toMatch(/state changed: user GET \/sneaky → 400/);
    await assertNoServerErrorNorChange(request("/fine"), run);
    expect(run.statuses.get(404)).toBe(3);
    await app.close();
  });
});
