// Property-based fuzzing from the served OpenAPI document (issue 9 item 10): for every
// operation, fast-check sends valid, boundary and hostile requests as the owner of the seeded
// shorts and as another user (the shortener has no admin). Properties: no 5xx, and a 4xx
// changes nothing (a checksum of every table of the shortener schema before and after). The
// conformance watcher the app helper installs checks every answer against the document.
import { readFileSync } from "node:fs";
import {
  assertNoServerErrorNorChange,
  type Operation,
  operationsInOrder,
  requestsFor,
} from "@app/db/testing-fuzz";
import pg from "pg";
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();
const SETTINGS = inject("fuzz");

let document: object;
let client: pg.Client;
const headers: Record<string, Record<string, string>> = {};
const ids: string[] = [];
const names: string[] = [];

beforeAll(async () => {
  document = (await ctx.app.inject({ url: "/docs" })).json();
  const owner = await newUser(ctx.prisma);
  const other = await newUser(ctx.prisma);
  headers.owner = owner.headers;
  headers.other = other.headers;
  for (const [user, payload] of [
    [owner, { url: "https://example.com/a", name: "fuzz-a" }],
    [owner, { url: "https://example.com/b?q=1" }],
    [other, { url: "https://example.org/c", name: "fuzz-c" }],
  ] as const) {
    const short = (await postShort(ctx.app, user, payload)).json();
    ids.push(short.id);
    names.push(short.name);
    // One visit each, so the logs have a row to list.
    await ctx.app.inject({
      url: `/${short.name}`,
      headers: { "user-agent": "fuzz", referer: "https://r.example" },
    });
  }
  client = new pg.Client({ connectionString: ctx.db.url });
  await client.connect();
}, 60_000);

/** Answers by status across the file: the fuzzer must reach the handlers, not only the guards. */
const statuses = new Map<number, number>();

afterAll(async () => {
  await client?.end();
  console.log("fuzz statuses", JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b))));
});

function knownIds(operation: Operation): string[] {
  return operation.path === "/{name}" ? [...names, "api", "docs"] : ids;
}

describe("fuzzing every operation of the shortener document", () => {
  // The operations come from the committed document (the same as /docs, by the drift test), so
  // the test names are known before the app starts; the requests are built from the served one.
  const committed = readFileSync(new URL("../../../openapi/shortener.json", import.meta.url), "utf8");
  const operations = operationsInOrder(JSON.parse(committed));

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s: no 5xx, and a 4xx changes nothing",
    async (_name, operation) => {
      const requests = requestsFor(document, operation, {
        callers: ["owner", "other"],
        auth: (caller) => ({ headers: headers[caller]! }),
        knownIds,
        bodyLimit: ctx.config.bodyLimit,
      });
      await assertNoServerErrorNorChange(requests, {
        app: ctx.app,
        client,
        schemas: ["shortener"],
        statuses,
        settings: SETTINGS,
      });
    },
    120_000,
  );
});
