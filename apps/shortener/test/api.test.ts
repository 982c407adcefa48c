import { describe, expect, it } from "vitest";
import { createToken, revokeToken } from "../src/credentials.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

describe("GET /api/me", () => {
  it("returns the caller", async () => {
    const user = await newUser(ctx.prisma);
    const res = await ctx.app.inject({ url: "/api/me", headers: user.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ id: user.id, username: user.email, createdAt: expect.any(String) });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });
});

describe("authentication", () => {
  const paths = [
    ["GET", "/api/me"],
    ["GET", "/api/shorts"],
    ["POST", "/api/shorts"],
    ["GET", "/api/shorts/0191e0a6-0000-7000-8000-000000000000"],
    ["DELETE", "/api/shorts/0191e0a6-0000-7000-8000-000000000000"],
    ["GET", "/api/shorts/0191e0a6-0000-7000-8000-000000000000/logs"],
    ["GET", "/api/anything-else"],
  ] as const;

  const badHeaders: [string, Record<string, string>][] = [
    ["no header", {}],
    ["empty bearer", { authorization: "Bearer " }],
    ["another scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["unknown token", { authorization: "Bearer shr_not-a-real-token" }],
    ["token without scheme", { authorization: "shr_abc" }],
  ];

  for (const [method, url] of paths) {
    for (const [label, headers] of badHeaders) {
      it(`${method} ${url} with ${label} is 401 text/plain with WWW-Authenticate`, async () => {
        const res = await ctx.app.inject({
          method,
          url,
          headers,
          payload: method === "POST" ? {} : undefined,
        });
        expect(res.statusCode).toBe(401);
        expect(res.headers["content-type"]).toMatch(/^text\/plain/);
        expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
        expect(res.body).toBe("Unauthorized");
      });
    }
  }

  it("accepts the scheme case-insensitively and every token of a user", async () => {
    const user = await newUser(ctx.prisma);
    const { token } = await createToken(ctx.prisma, user.email);
    for (const authorization of [`bearer ${user.token}`, `BEARER ${token}`]) {
      const res = await ctx.app.inject({ url: "/api/me", headers: { authorization } });
      expect(res.statusCode).toBe(200);
    }
  });

  it("refuses a revoked token at once, and keeps the user's other tokens working", async () => {
    const user = await newUser(ctx.prisma);
    const { token } = await createToken(ctx.prisma, user.email);
    await revokeToken(ctx.prisma, { token: user.token });
    expect((await ctx.app.inject({ url: "/api/me", headers: user.headers })).statusCode).toBe(401);
    const other = await ctx.app.inject({ url: "/api/me", headers: { authorization: `Bearer ${token}` } });
    expect(other.statusCode).toBe(200);
  });

  it("stores tokens only as SHA-256 hashes", async () => {
    const user = await newUser(ctx.prisma);
    const rows = await ctx.prisma.shortenerToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(user.token);
  });
});

describe("shorts", () => {
  it("creates a short with a custom name: 201, Location, shorturl", async () => {
    const user = await newUser(ctx.prisma);
    const res = await postShort(ctx.app, user, { url: "https://example.com/a?b=c#d", name: "Custom_name-1" });
    expect(res.statusCode).toBe(201);
    const short = res.json();
    expect(short).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: "https://example.com/a?b=c#d",
      name: "Custom_name-1",
      shorturl: "https://sho.rt/Custom_name-1",
      createdAt: expect.any(String),
      visits: 0,
    });
    expect(res.headers.location).toBe(`/api/shorts/${short.id}`);
    const read = await ctx.app.inject({ url: res.headers.location as string, headers: user.headers });
    expect(read.json()).toEqual(short);
  });

  it("generates a 7-character alphanumeric name when none is given", async () => {
    const user = await newUser(ctx.prisma);
    const names = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await postShort(ctx.app, user, { url: "https://example.com/" });
      expect(res.statusCode).toBe(201);
      const { name, shorturl } = res.json();
      expect(name).toMatch(/^[A-Za-z0-9]{7}$/);
      expect(shorturl).toBe(`https://sho.rt/${name}`);
      names.add(name);
    }
    expect(names.size).toBe(20);
  });

  it("treats names case-sensitively", async () => {
    const user = await newUser(ctx.prisma);
    for (const name of ["CaseName", "casename"]) {
      const res = await postShort(ctx.app, user, { url: "https://example.com/", name });
      expect(res.statusCode).toBe(201);
    }
  });

  it("normalizes the target: punycode host, percent-encoded path", async () => {
    const user = await newUser(ctx.prisma);
    const res = await postShort(ctx.app, user, { url: "https://bücher.example/straße" });
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toBe("https://xn--bcher-kva.example/stra%C3%9Fe");
  });

  it("percent-encodes what a URI refuses after the host, and redirects there (docs/adr/0196)", async () => {
    const user = await newUser(ctx.prisma);
    for (const [url, stored] of [
      [
        "https://example.com/?filter[status]=open&a[]=1",
        "https://example.com/?filter%5Bstatus%5D=open&a%5B%5D=1",
      ],
      ["https://example.com/a|b^c", "https://example.com/a%7Cb%5Ec"],
      ["https://example.com/?q={x}`", "https://example.com/?q=%7Bx%7D%60"],
      ["https://example.com/100%?p=%zz&q=%41", "https://example.com/100%25?p=%25zz&q=%41"],
      ["https://[::1]:8080/a[b]#x[1]#y", "https://[::1]:8080/a%5Bb%5D#x%5B1%5D%23y"],
    ]) {
      const res = await postShort(ctx.app, user, { url });
      expect([res.statusCode, res.json().url], url).toEqual([201, stored]);
      const followed = await ctx.app.inject({ url: `/${res.json().name}` });
      expect([followed.statusCode, followed.headers.location], url).toEqual([302, stored]);
    }
  });

  it("refuses a target whose normalized form is no URI (nothing stored), and stores only URIs", async () => {
    const user = await newUser(ctx.prisma);
    for (const url of ["HtTPs://;S}êwr", "https://exa{mple.com/", "https://exa|mple.com/"]) {
      const res = await postShort(ctx.app, user, { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    }
    expect(await ctx.prisma.short.count({ where: { userId: user.id } })).toBe(0);
  });

  it("lists only the caller's shorts, newest first, with optional paging", async () => {
    const user = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    await postShort(ctx.app, other, { url: "https://other.example/" });
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await postShort(ctx.app, user, { url: `https://example.com/${i}` });
      created.push(res.json().id);
    }
    const list = await ctx.app.inject({ url: "/api/shorts", headers: user.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((s: { id: string }) => s.id)).toEqual([...created].reverse());
    const page = await ctx.app.inject({ url: "/api/shorts?limit=1&offset=1", headers: user.headers });
    expect(page.json().map((s: { id: string }) => s.id)).toEqual([created[1]]);
    const empty = await newUser(ctx.prisma);
    expect((await ctx.app.inject({ url: "/api/shorts", headers: empty.headers })).json()).toEqual([]);
  });

  it("deletes a short with its logs: 204 and no body; then it is gone everywhere", async () => {
    const user = await newUser(ctx.prisma);
    const short = (
      await postShort(ctx.app, user, { url: "https://example.com/del", name: "to-delete" })
    ).json();
    expect((await ctx.app.inject({ url: "/to-delete" })).statusCode).toBe(302);
    expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(1);

    const del = await ctx.app.inject({
      method: "DELETE",
      url: `/api/shorts/${short.id}`,
      headers: user.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe("");
    // The visits go in the background (the sweep the DELETE started); awaited here.
    await ctx.app.visitMaintenance.sweep();
    expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(0);
    for (const url of [`/api/shorts/${short.id}`, `/api/shorts/${short.id}/logs`]) {
      expect((await ctx.app.inject({ url, headers: user.headers })).statusCode).toBe(404);
    }
    expect(
      (await ctx.app.inject({ method: "DELETE", url: `/api/shorts/${short.id}`, headers: user.headers }))
        .statusCode,
    ).toBe(404);
    expect((await ctx.app.inject({ url: "/to-delete" })).statusCode).toBe(404);
  });

  it("answers someone else's short exactly like a missing one, and changes nothing", async () => {
    const owner = await newUser(ctx.prisma);
    const intruder = await newUser(ctx.prisma);
    const short = (await postShort(ctx.app, owner, { url: "https://example.com/mine" })).json();
    await ctx.app.inject({ url: `/${short.name}` });
    const missing = "0191e0a6-0000-7000-8000-000000000000";
    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/logs"],
      ["DELETE", ""],
    ] as const) {
      const theirs = await ctx.app.inject({
        method,
        url: `/api/shorts/${short.id}${path}`,
        headers: intruder.headers,
      });
      const none = await ctx.app.inject({
        method,
        url: `/api/shorts/${missing}${path}`,
        headers: intruder.headers,
      });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.headers["content-type"]).toMatch(/^text\/plain/);
      expect([theirs.statusCode, theirs.body, theirs.headers["content-type"]]).toEqual([
        none.statusCode,
        none.body,
        none.headers["content-type"],
      ]);
    }
    expect(await ctx.prisma.short.count({ where: { id: short.id } })).toBe(1);
    expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(1);
    const own = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: owner.headers });
    expect(own.json()).toEqual({ ...short, visits: 1 });
  });

  it("answers 404 text/plain for ids that are not ids", async () => {
    const user = await newUser(ctx.prisma);
    for (const id of [
      "nope",
      "1",
      "' OR 1=1 --",
      "%00",
      "0191e0a6-0000-7000-8000-00000000000Z",
      "a".repeat(90),
    ]) {
      for (const url of [
        `/api/shorts/${encodeURIComponent(id)}`,
        `/api/shorts/${encodeURIComponent(id)}/logs`,
      ]) {
        const res = await ctx.app.inject({ url, headers: user.headers });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      }
    }
  });

  it("answers a name or id too long to exist with 404, as the document says, after authentication", async () => {
    const user = await newUser(ctx.prisma);
    // 101 was past the router's default limit (414 then); 16,000 is near what a request line can hold.
    for (const long of ["a".repeat(101), "a".repeat(16_000)]) {
      for (const url of [`/api/shorts/${long}`, `/api/shorts/${long}/logs`, `/api/shorts/${long}/stats`]) {
        const res = await ctx.app.inject({ url, headers: user.headers });
        expect([res.statusCode, res.body], `${url.length}: ${url.slice(0, 20)}`).toEqual([404, "Not Found"]);
        expect((await ctx.app.inject({ url })).statusCode).toBe(401);
      }
      for (const url of [`/${long}`, `/stats/${long}`, `/stats/${long}/data`]) {
        const res = await ctx.app.inject({ url });
        expect([res.statusCode, res.body], `${url.length}: ${url.slice(0, 20)}`).toEqual([404, "Not Found"]);
      }
    }
  });
});

describe("logs", () => {
  it("lists a short's visits newest first with IP, user agent and referer", async () => {
    const user = await newUser(ctx.prisma);
    const short = (
      await postShort(ctx.app, user, { url: "https://example.com/logged", name: "logged" })
    ).json();
    await ctx.app.inject({
      url: "/logged",
      headers: { "user-agent": "first-agent", referer: "https://ref.example/" },
    });
    await ctx.app.inject({ url: "/logged", headers: { "user-agent": "second-agent" } });
    const res = await ctx.app.inject({ url: `/api/shorts/${short.id}/logs`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    const logs = res.json();
    expect(logs).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        shortID: short.id,
        ipAddress: "127.0.0.1",
        userAgent: "second-agent",
        referer: "",
        createdAt: expect.any(String),
        // isbot reads any "…agent" string as a tool's.
        isBot: true,
        browser: "",
        os: "",
        device: "bot",
        country: "",
        referrerHost: "",
        visitedUrl: "https://sho.rt/logged",
        redirectUrl: "https://example.com/logged",
      },
      {
        id: expect.stringMatching(/^\d+$/),
        shortID: short.id,
        ipAddress: "127.0.0.1",
        userAgent: "first-agent",
        referer: "https://ref.example/",
        createdAt: expect.any(String),
        // isbot reads any "…agent" string as a tool's.
        isBot: true,
        browser: "",
        os: "",
        device: "bot",
        country: "",
        referrerHost: "ref.example",
        visitedUrl: "https://sho.rt/logged",
        redirectUrl: "https://example.com/logged",
      },
    ]);
    const page = await ctx.app.inject({ url: `/api/shorts/${short.id}/logs?limit=1`, headers: user.headers });
    expect(page.json()).toEqual([logs[0]]);
  });
});
