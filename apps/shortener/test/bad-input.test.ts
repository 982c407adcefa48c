// Every kind of bad input gets the status DESIGN §3 names and changes nothing.
import { describe, expect, it } from "vitest";
import { newUser, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

async function counts() {
  return { shorts: await ctx.prisma.short.count(), logs: await ctx.prisma.shortLog.count() };
}

async function post(headers: Record<string, string>, payload: string, contentType = "application/json") {
  return ctx.app.inject({
    method: "POST",
    url: "/api/shorts",
    headers: { ...headers, "content-type": contentType },
    payload,
  });
}

function expectJsonError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body = res.json() as { status: string; error: string };
  expect(Object.keys(body).sort()).toEqual(["error", "status"]);
  expect(body.error.length).toBeGreaterThan(0);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  return body;
}

describe("POST /api/shorts rejects bad bodies and stores nothing", () => {
  const cases: [string, string, number, string?][] = [
    ["malformed JSON", '{"url": "https://example.com"', 400],
    ["an empty body", "", 400],
    ["JSON null", "null", 400],
    ["a JSON array", '["https://example.com"]', 400],
    ["a JSON string", '"https://example.com"', 400],
    ["a missing url", "{}", 400],
    ["an extra field", '{"url":"https://example.com","extra":1}', 400],
    ["a numeric url", '{"url":42}', 400],
    ["a __proto__ key", '{"url":"https://example.com","__proto__":{"admin":true}}', 400],
    ["a constructor.prototype key", '{"url":"https://example.com","constructor":{"prototype":{"x":1}}}', 400],
    ["a url that is an object", '{"url":{"href":"https://example.com"}}', 400],
    ["a numeric name", '{"url":"https://example.com","name":7}', 400],
    ["a null name", '{"url":"https://example.com","name":null}', 400],
    ["a javascript: URL", '{"url":"javascript:alert(1)"}', 400],
    ["a data: URL", '{"url":"data:text/html,<script>alert(1)</script>"}', 400],
    ["a relative URL", '{"url":"/just/a/path"}', 400],
    ["a scheme-relative URL", '{"url":"//example.com/x"}', 400],
    ["an ftp URL", '{"url":"ftp://example.com/file"}', 400],
    ["a file URL", '{"url":"file:///etc/passwd"}', 400],
    ["a URL without host", '{"url":"http://"}', 400],
    ["a URL with a space", '{"url":"https://exa mple.com/"}', 400],
    ["a URL with a NUL byte", '{"url":"https://example.com/\\u0000"}', 400],
    ["a URL with a newline", '{"url":"https://example.com/\\r\\nSet-Cookie: a=b"}', 400],
    ["a URL over 2048 characters", JSON.stringify({ url: `https://example.com/${"a".repeat(2030)}` }), 400],
    ["an empty name", '{"url":"https://example.com","name":""}', 400],
    ["a name over 64 characters", JSON.stringify({ url: "https://example.com", name: "a".repeat(65) }), 400],
    ["a name with a slash", '{"url":"https://example.com","name":"a/b"}', 400],
    ["a name with a dot", '{"url":"https://example.com","name":"a.b"}', 400],
    ["a name with a space", '{"url":"https://example.com","name":"a b"}', 400],
    ["a name with unicode", '{"url":"https://example.com","name":"ünï"}', 400],
    ["a name with percent-encoding", '{"url":"https://example.com","name":"a%20b"}', 400],
    ["a name with SQL", '{"url":"https://example.com","name":"x\' OR 1=1 --"}', 400],
    ["a reserved name (api)", '{"url":"https://example.com","name":"api"}', 400],
    ["a reserved name (docs)", '{"url":"https://example.com","name":"docs"}', 400],
    ["a reserved name (health)", '{"url":"https://example.com","name":"health"}', 400],
    ["a reserved name in another case (READY)", '{"url":"https://example.com","name":"READY"}', 400],
    ["a body over the limit", JSON.stringify({ url: `https://example.com/?q=${"a".repeat(20_000)}` }), 413],
    ["a form body", "url=https%3A%2F%2Fexample.com", 415, "application/x-www-form-urlencoded"],
    ["a text body", "https://example.com", 415, "text/plain"],
  ];

  for (const [label, payload, status, contentType] of cases) {
    it(`${label} → ${status}`, async () => {
      const user = await newUser(ctx.prisma);
      const before = await counts();
      const res = await post(user.headers, payload, contentType);
      expectJsonError(res, status);
      expect(await counts()).toEqual(before);
    });
  }

  it("says which field is wrong", async () => {
    const user = await newUser(ctx.prisma);
    const body = expectJsonError(await post(user.headers, '{"url":"ftp://x","name":"a/b"}'), 400);
    expect(body.status).toBe("Bad Request");
    expect(body.error).toMatch(/url/);
    expect(body.error).toMatch(/name/);
  });

  it("answers a taken name with 409 and keeps the original short", async () => {
    const owner = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    const first = await post(owner.headers, '{"url":"https://first.example/","name":"taken"}');
    expect(first.statusCode).toBe(201);
    const before = await counts();
    for (const user of [owner, other]) {
      const body = expectJsonError(
        await post(user.headers, '{"url":"https://second.example/","name":"taken"}'),
        409,
      );
      expect(body.status).toBe("Conflict");
    }
    expect(await counts()).toEqual(before);
    const stored = await ctx.prisma.short.findFirst({ where: { name: "taken" } });
    expect(stored?.url).toBe("https://first.example/");
  });

  it("lets the same name be created by exactly one of many concurrent requests", async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => newUser(ctx.prisma)));
    const results = await Promise.all(
      users.map((u) => post(u.headers, '{"url":"https://race.example/","name":"race"}')),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await ctx.prisma.short.count({ where: { name: "race" } })).toBe(1);
  });

  it("accepts the longest valid URL and name", async () => {
    const user = await newUser(ctx.prisma);
    const url = `https://example.com/${"a".repeat(2048 - 20)}`;
    expect(url.length).toBe(2048);
    const res = await post(user.headers, JSON.stringify({ url, name: "n".repeat(64) }));
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toBe(url);
  });
});

describe("query strings", () => {
  for (const query of ["limit=0", "limit=1001", "limit=abc", "offset=-1", "unknown=1"]) {
    it(`GET /api/shorts?${query} → 400`, async () => {
      const user = await newUser(ctx.prisma);
      expectJsonError(await ctx.app.inject({ url: `/api/shorts?${query}`, headers: user.headers }), 400);
    });
  }
});

describe("hostile requests never reach a 500", () => {
  it("badly percent-encoded paths", async () => {
    const user = await newUser(ctx.prisma);
    for (const url of ["/%E0%A4%A", "/api/shorts/%ZZ", "/%"]) {
      const res = await ctx.app.inject({ url, headers: user.headers });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });

  it("methods the API does not offer (405 with Allow; operations.test.ts covers every path)", async () => {
    const user = await newUser(ctx.prisma);
    for (const [method, url, allow] of [
      ["PUT", "/api/shorts", "GET, POST"],
      ["PATCH", "/api/me", "GET"],
      ["DELETE", "/api/shorts", "GET, POST"],
    ] as const) {
      const res = await ctx.app.inject({ method, url, headers: user.headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe(allow);
    }
  });
});
