// The documents' examples are valid requests (a generator that builds its requests from them
// must be answered with success): for every operation of both served documents, the request
// their examples make is sent to the real app and gets the operation's documented success.
// A body is built from its schema's examples (an `example` is taken whole; an object takes each
// property that has one, or is built from them, and cannot be built when a required one is
// neither); parameters take their examples. An operation no example reaches is not exercised;
// what the examples cannot give (a path id, the rows a name or a domain names) the test's world
// of each service makes first, as a client would have them.
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser as createSchedulingUser, setupApp } from "../apps/scheduling/test/helpers.ts";
import { addDomain } from "../apps/shortener/src/domains/domain-registry.ts";
import { newUser, setupShortener } from "../apps/shortener/test/helpers.ts";

type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  example?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses: Record<string, unknown>;
}

/** What a schema's examples make: the value and how many examples went into it; none when they cannot. */
type Built = { value: unknown; examples: number } | undefined;

function fromExamples(document: Json, input: Schema): Built {
  let schema = input;
  while (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    schema = ((document.components as Json).schemas as Record<string, Schema>)[name]!;
  }
  if ("example" in schema) return { value: schema.example, examples: 1 };
  if (schema.allOf) {
    const parts = schema.allOf.map((part) => fromExamples(document, part));
    if (parts.some((part) => part === undefined)) return undefined;
    const objects = parts.map((part) => part!.value);
    if (objects.length === 1) return parts[0];
    return {
      value: Object.assign({}, ...objects),
      examples: parts.reduce((sum, part) => sum + part!.examples, 0),
    };
  }
  for (const alternative of schema.anyOf ?? schema.oneOf ?? []) {
    const built = fromExamples(document, alternative);
    if (built) return built;
  }
  if (schema.properties) {
    const value: Json = {};
    let examples = 0;
    for (const [name, property] of Object.entries(schema.properties)) {
      const built = fromExamples(document, property);
      if (built) {
        value[name] = built.value;
        examples += built.examples;
      } else if (schema.required?.includes(name)) {
        return undefined;
      }
    }
    return { value, examples };
  }
  if (schema.items) {
    const item = fromExamples(document, schema.items);
    return item && { value: [item.value], examples: item.examples };
  }
  return undefined;
}

const exampleOf = (parameter: Parameter): unknown => parameter.example ?? parameter.schema?.example;

/** What a service's tests provide besides the examples. */
interface World {
  app: () => FastifyInstance;
  /** The caller's credentials. */
  auth: () => { headers?: Record<string, string>; query?: Record<string, string> };
  /** Makes what the request names and the examples cannot make (a row to address): path values. */
  prepare: (
    path: string,
    method: string,
    examplePath: Record<string, string>,
  ) => Promise<Record<string, string>>;
}

interface Planned {
  operation: string;
  method: string;
  url: string;
  body: unknown;
  success: string[];
}

/** The request the examples make for each operation they reach, or why an operation is not sent. */
function plan(document: Json) {
  const planned: (Omit<Planned, "url"> & {
    path: string;
    pathValues: Record<string, string>;
    query: [string, string][];
  })[] = [];
  const skipped: string[] = [];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const name = `${method.toUpperCase()} ${path}`;
      let examples = 0;
      let missing: string | undefined;
      const pathValues: Record<string, string> = {};
      const query: [string, string][] = [];
      for (const parameter of operation.parameters ?? []) {
        const example = exampleOf(parameter);
        if (example === undefined) {
          if (parameter.required && parameter.in !== "path") missing = `${parameter.in} ${parameter.name}`;
          continue;
        }
        examples++;
        if (parameter.in === "path") pathValues[parameter.name] = String(example);
        else if (parameter.in === "query") {
          for (const value of Array.isArray(example) ? example : [example])
            query.push([parameter.name, String(value)]);
        }
      }
      let body: unknown;
      const json = operation.requestBody?.content["application/json"]?.schema;
      if (operation.requestBody) {
        const built = json ? fromExamples(document, json) : undefined;
        if (built && built.examples > 0) {
          body = built.value;
          examples += built.examples;
        } else if (operation.requestBody.required) {
          missing = "a body the examples do not make";
        }
      }
      if (examples === 0) continue;
      if (missing) {
        skipped.push(`${name}: ${missing}`);
        continue;
      }
      const success = Object.keys(operation.responses).filter((status) => /^[23]/.test(status));
      planned.push({ operation: name, method: method.toUpperCase(), path, pathValues, query, body, success });
    }
  }
  return { planned, skipped };
}

/** Sends each planned request; answers every one that is not the documented success. */
async function sendAll(document: Json, world: World) {
  const { planned, skipped } = plan(document);
  const refused: string[] = [];
  for (const request of planned) {
    const values = {
      ...(await world.prepare(request.path, request.method, request.pathValues)),
      ...request.pathValues,
    };
    const unnamed = [...request.path.matchAll(/\{(\w+)\}/g)]
      .map(([, name]) => name!)
      .filter((name) => !(name in values));
    if (unnamed.length > 0) {
      skipped.push(`${request.operation}: no ${unnamed.join(", ")} to address`);
      continue;
    }
    const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
    const { headers = {}, query = {} } = world.auth();
    const search = new URLSearchParams([...request.query, ...Object.entries(query)]).toString();
    const response = await world.app().inject({
      method: request.method as "GET",
      url: search ? `${path}?${search}` : path,
      headers,
      ...(request.body === undefined ? {} : { payload: request.body as object }),
    });
    const status = String(response.statusCode);
    // A bulk answer holds one result per item: each is the item's own success or refusal.
    const results = /json/.test(String(response.headers["content-type"]))
      ? (response.json() as { results?: { status?: number }[] }).results
      : undefined;
    const itemsRefused = results?.some((result) => (result.status ?? 200) >= 400);
    if (!request.success.includes(status) || itemsRefused) {
      refused.push(
        `${request.operation} ${JSON.stringify(request.body)} → ${status} ${response.body.slice(0, 300)}`,
      );
    }
  }
  const sent = planned
    .map((request) => request.operation)
    .filter((name) => !skipped.some((skip) => skip.startsWith(`${name}:`)));
  return { sent, skipped, refused };
}

describe("the shortener document's examples", () => {
  const ctx = setupShortener();
  let user: Awaited<ReturnType<typeof newUser>>;
  const host = (ctx: { config: { SHORT_BASE_URL: string } }) => new URL(ctx.config.SHORT_BASE_URL).host;

  beforeAll(async () => {
    user = await newUser(ctx.prisma);
    // The domain the examples name exists, open to every user, before the app first reads the domains.
    await addDomain(ctx.prisma, host(ctx), "links.example.com");
  });

  const world: World = {
    app: () => ctx.app,
    // The Host of SHORT_BASE_URL: with a domain registered, any other Host names no domain.
    auth: () => ({ headers: { ...user.headers, host: host(ctx) } }),
    async prepare(path, _method, examplePath): Promise<Record<string, string>> {
      // Each request starts from none of the user's shorts (an example's name is free), and a
      // path names a short made for it: by id, or by the name the example gives.
      const listed = await ctx.app.inject({ url: "/api/shorts?limit=1000", headers: user.headers });
      expect(listed.statusCode, listed.body).toBe(200);
      for (const short of listed.json() as { id: string }[]) {
        await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${short.id}`, headers: user.headers });
      }
      if (!path.includes("{")) return {};
      const made = await ctx.app.inject({
        method: "POST",
        url: "/api/shorts",
        headers: user.headers,
        payload: {
          url: "https://example.com/made-by-the-test",
          ...(examplePath.name ? { name: examplePath.name } : {}),
        },
      });
      expect(made.statusCode, made.body).toBe(201);
      return { id: (made.json() as { id: string }).id };
    },
  };

  it("each make a request the server takes, with the operation's documented success", async () => {
    const document = (await ctx.app.inject({ url: "/docs" })).json();
    const { sent, skipped, refused } = await sendAll(document, world);
    expect(refused).toEqual([]);
    // What the examples reach today; an operation whose examples stop reaching it leaves this list.
    expect(sent).toEqual(
      expect.arrayContaining([
        "GET /api/orphan-visits",
        "GET /api/shorts",
        "POST /api/shorts",
        "POST /api/shorts/bulk",
        "PATCH /api/shorts/{id}",
        "GET /api/stats",
        "GET /{name}",
      ]),
    );
    // The password form's fields have no example: its body cannot be made from them.
    expect(skipped).toEqual(["POST /{name}: a body the examples do not make"]);
  });
});

describe("Shlink's API document's examples (/rest/docs)", () => {
  const ctx = setupShortener();
  let user: Awaited<ReturnType<typeof newUser>>;

  beforeAll(async () => {
    user = await newUser(ctx.prisma);
  });

  const world: World = {
    app: () => ctx.app,
    // The key as X-Api-Key, and as ?apiKey= for GET /short-urls/shorten (the others ignore it).
    auth: () => ({ headers: { "x-api-key": user.token }, query: { apiKey: user.token } }),
    async prepare(path, method): Promise<Record<string, string>> {
      // Each request starts from one short, my-link, tagged launch (the names the examples
      // give), but a creation's, which makes it from the examples.
      const listed = await ctx.app.inject({ url: "/api/shorts?limit=1000", headers: user.headers });
      for (const short of listed.json() as { id: string }[]) {
        await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${short.id}`, headers: user.headers });
      }
      const creates =
        (path === "/rest/v3/short-urls" && method === "POST") || path === "/rest/v3/short-urls/shorten";
      if (!creates) {
        const made = await ctx.app.inject({
          method: "POST",
          url: "/api/shorts",
          headers: user.headers,
          payload: { url: "https://example.com/made-by-the-test", name: "my-link", tags: ["launch"] },
        });
        expect(made.statusCode, made.body).toBe(201);
      }
      return {};
    },
  };

  it("each make a request the server takes, with the operation's documented success", async () => {
    const document = (await ctx.app.inject({ url: "/rest/docs" })).json();
    const { sent, skipped, refused } = await sendAll(document, world);
    expect(refused).toEqual([]);
    expect(sent).toEqual(
      expect.arrayContaining([
        "GET /rest/v3/short-urls",
        "POST /rest/v3/short-urls",
        "GET /rest/v3/short-urls/shorten",
        "GET /rest/v3/short-urls/{shortCode}",
        "PATCH /rest/v3/short-urls/{shortCode}",
        "DELETE /rest/v3/short-urls/{shortCode}",
        "POST /rest/v3/short-urls/{shortCode}/redirect-rules",
        "GET /rest/v3/short-urls/{shortCode}/visits",
        "GET /rest/v3/tags/{tag}/visits",
        "GET /rest/v3/domains/{domain}/visits",
        "GET /rest/v3/visits/orphan",
        "GET /rest/v3/tags/stats",
        "PUT /rest/v3/tags",
        "DELETE /rest/v3/tags",
      ]),
    );
    // A domain's redirects are set on a domain assigned to the caller, which no example can name:
    // PATCH /rest/v3/domains/redirects is not reached (its required domain has no example).
    expect(skipped).toEqual([]);
    expect(sent).not.toContain("PATCH /rest/v3/domains/redirects");
  });
});

describe("the scheduling document's examples", () => {
  const t = setupApp();

  it("each make a request the server takes, with the operation's documented success", async () => {
    const { apiKey } = await createSchedulingUser(t.prisma, { admin: true });
    const world: World = {
      app: () => t.app,
      auth: () => ({ query: { apiKey } }),
      // No row is made for a path: an operation whose path needs one the examples do not give is
      // skipped (today no example of this document reaches an operation at all).
      prepare: async () => ({}),
    };
    const document = (await t.app.inject({ url: "/docs" })).json();
    const { refused } = await sendAll(document, world);
    expect(refused).toEqual([]);
  });
});
