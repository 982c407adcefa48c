// Property-based fuzzing from the served OpenAPI document (issue 9 item 10): for every
// operation, fast-check sends valid, boundary and hostile requests as the owner of the seeded
// shorts and as another user (the shortener has no admin). Properties: no 5xx, and a 4xx
// changes nothing (the change journal of the shortener schema before and after). The
// conformance watcher the app helper installs checks every answer against the document. Each
// direction is a test file of its own (fuzz-refused, fuzz-admitted), so two workers share the
// suite; this module is their one setup.
import {
  type FuzzDirection,
  fuzzEveryOperation,
  type Operation,
  type UnstatableRule,
} from "@app/testing/fuzz";
import { beforeAll, inject } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

/** What the server checks that OpenAPI 3.0 cannot say; the positive fuzz accepts these refusals only. */
const UNSTATABLE: UnstatableRule[] = [
  {
    rule: "a target URL parses as a WHATWG URL with an http(s) scheme and a host",
    reason:
      "targets may be IRIs (non-ASCII), which no OpenAPI format names; the pattern states the scheme, the parser the host",
    refuses: (_operation, answer) =>
      answer.statusCode === 400 && /url must be an absolute http\(s\) URL/.test(answer.body),
  },
  {
    rule: "a stats range starts before it ends (to defaults to now) and holds at most 1000 buckets",
    reason:
      "a rule relating two parameters, the clock and the interval: OpenAPI 3.0 cannot relate parameters",
    refuses: (_operation, answer) =>
      answer.statusCode === 400 &&
      /from must be before to|the range holds more than \d+ \w+ buckets/.test(answer.body),
  },
  {
    rule: "a short's validity window starts before it ends (in an edit, with the end already stored)",
    reason: "a rule relating two fields (and, in an edit, the stored row): OpenAPI 3.0 cannot relate fields",
    refuses: (_operation, answer) =>
      answer.statusCode === 400 && /validUntil must be later than validFrom/.test(answer.body),
  },
  {
    rule: "a validity instant falls in the years 1-9999 once in UTC",
    reason: "an offset moves the instant across a year boundary: no pattern on the text can bound it",
    refuses: (_operation, answer) =>
      answer.statusCode === 400 && /must fall in the years 1-9999 \(UTC\)/.test(answer.body),
  },
];

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
    unstatable: UNSTATABLE,
    // A deleted short's visits go in the background: not a change a later request made.
    settle: () => ctx.app.visitMaintenance.sweep(),
    directions: [direction],
  });
}
