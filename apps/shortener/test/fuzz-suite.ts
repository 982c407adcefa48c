// Property-based fuzzing from the served OpenAPI document (issue 9 item 10): for every
// operation, fast-check sends valid, boundary and hostile requests as the owner of the seeded
// shorts and as another user (the shortener has no admin). Properties: no 5xx, a 4xx changes
// nothing (the change journal of the shortener schema before and after), what the document
// refuses is not answered 2xx, and what it admits is not refused unless the document declares
// the refusal (docs/adr/0214). The conformance watcher the app helper installs checks every
// answer against the document. Each direction is a test file of its own (fuzz-refused,
// fuzz-admitted), so two workers share the suite; this module is their one setup.
import { type FuzzDirection, fuzzEveryOperation, type Operation } from "@app/testing/fuzz";
import { beforeAll, inject } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

/** The suite in `direction`: its app and seeded shorts, and a test per operation. */
export function fuzzShortener(direction: FuzzDirection): void {
  const ctx = setupShortener();
  const headers: Record<string, Record<string, string>> = {};
  const ids: string[] = [];
  const names: string[] = [];

  beforeAll(async () => {
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
  });

  function knownIds(operation: Operation): string[] {
    return operation.path === "/{name}" ? [...names, "api", "docs"] : ids;
  }

  fuzzEveryOperation(`fuzzing every operation of the shortener document (${direction})`, {
    committedDocument: new URL("../../../openapi/shortener.json", import.meta.url),
    target: () => ({ app: ctx.app, databaseUrl: ctx.db.url }),
    schemas: ["shortener"],
    requests: () => ({
      callers: ["owner", "other"],
      auth: (caller) => ({ headers: headers[caller]! }),
      knownIds,
      bodyLimit: ctx.config.BODY_LIMIT,
    }),
    settings: inject("fuzz"),
    // A deleted short's visits go in the background, and the visits' sums are folded in after
    // their redirects (docs/adr/0234): not changes a later request made.
    settle: async () => {
      await ctx.app.visitLog.settle();
      await ctx.app.visitMaintenance.sweep();
    },
    // A 404 of the redirect is an orphan visit, counted by design (docs/adr/0227): a 4xx that
    // adds to these counts (and the id of the flush that added them: docs/adr/0288) changes
    // nothing else.
    ignoredTables: [
      "shortener.orphan_visit_hours",
      "shortener.orphan_visit_hour_values",
      "shortener.orphan_visit_batches",
    ],
    directions: [direction],
  });
}
