// Links as people share them (issue 20): editing a short (PATCH), tags, searching and ordering
// the list, and QR codes. Every refusal is checked to change nothing; the two-instance edit is in
// target-cache.test.ts.
import jsQRModule from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();
// jsqr is CommonJS declaring a default export: under ESM interop the function is the module.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

type User = Awaited<ReturnType<typeof newUser>>;
interface ShortBody {
  id: string;
  url: string;
  name: string;
  shorturl: string;
  createdAt: string;
  visits: number;
  tags?: string[];
}

const MISSING = "0191e0a6-0000-7000-8000-000000000000";

async function create(user: User, payload: object): Promise<ShortBody> {
  const res = await postShort(ctx.app, user, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

function patch(user: User, id: string, payload: object | string) {
  return ctx.app.inject({
    method: "PATCH",
    url: `/api/shorts/${id}`,
    headers: { ...user.headers, "content-type": "application/json" },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

function list(user: User, query = "") {
  return ctx.app.inject({ url: `/api/shorts${query}`, headers: user.headers });
}

/** Every short of the service, as stored: a refusal must leave this as it was. */
const stored = () => ctx.prisma.short.findMany({ orderBy: { id: "asc" } });

async function visit(name: string, times = 1) {
  for (let i = 0; i < times; i++) expect((await ctx.app.inject({ url: `/${name}` })).statusCode).toBe(302);
}

function expectJsonError(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(JSON.parse(res.body)).sort()).toEqual(["error", "status"]);
}

describe("PATCH /api/shorts/{id}", () => {
  it("changes the target and tags, keeps the rest, and the redirect follows at once", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/before", name: "edit-me" });
    await visit("edit-me"); // cached now
    const res = await patch(user, short.id, { url: "https://example.com/after", tags: ["News"] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...short, url: "https://example.com/after", visits: 1, tags: ["news"] });
    const read = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: user.headers });
    expect(read.json()).toEqual(res.json());
    const redirect = await ctx.app.inject({ url: "/edit-me" });
    expect([redirect.statusCode, redirect.headers.location]).toEqual([302, "https://example.com/after"]);
  });

  it("renames: the old name stops redirecting at once and is free again; visits stay with the short", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/renamed", name: "old-name" });
    await visit("old-name", 2);
    const res = await patch(user, short.id, { name: "new-name" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...short,
      name: "new-name",
      shorturl: "https://sho.rt/new-name",
      visits: 2,
    });
    expect((await ctx.app.inject({ url: "/old-name" })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: "/new-name" })).headers.location).toBe("https://example.com/renamed");
    const logs = await ctx.app.inject({ url: `/api/shorts/${short.id}/logs`, headers: user.headers });
    expect(logs.json()).toHaveLength(3);
    const other = await newUser(ctx.prisma);
    expect(
      (await postShort(ctx.app, other, { url: "https://example.org/", name: "old-name" })).statusCode,
    ).toBe(201);
  });

  it("normalizes the target as create does", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/" });
    const res = await patch(user, short.id, { url: "https://bücher.example/straße" });
    expect(res.json().url).toBe("https://xn--bcher-kva.example/stra%C3%9Fe");
  });

  it("changes nothing for an empty body ({}), and answers the short", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/same", tags: ["keep"] });
    const before = await stored();
    const res = await patch(user, short.id, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(short);
    expect(await stored()).toEqual(before);
  });

  it("answers 409 for a taken name (anyone's), and changes nothing", async () => {
    const owner = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    await create(other, { url: "https://example.org/", name: "theirs" });
    await create(owner, { url: "https://example.com/mine-too", name: "mine-too" });
    const short = await create(owner, { url: "https://example.com/mine", name: "mine" });
    const before = await stored();
    for (const name of ["theirs", "mine-too"]) {
      const res = await patch(owner, short.id, { name, url: "https://example.com/changed" });
      expectJsonError(res, 409);
      expect(res.json()).toEqual({ status: "Conflict", error: `name "${name}" is already taken` });
    }
    expect(await stored()).toEqual(before);
    expect((await ctx.app.inject({ url: "/mine" })).headers.location).toBe("https://example.com/mine");
  });

  it("keeping its own name is no conflict", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/own", name: "own-name" });
    expect((await patch(user, short.id, { name: "own-name" })).statusCode).toBe(200);
  });

  const badBodies: [string, string][] = [
    ["malformed JSON", '{"url":'],
    ["JSON null", "null"],
    ["an array", "[]"],
    ["an unknown field", '{"extra":1}'],
    ["the id", `{"id":"${MISSING}"}`],
    ["visits", '{"visits":0}'],
    ["a null url", '{"url":null}'],
    ["a javascript: URL", '{"url":"javascript:alert(1)"}'],
    ["a relative URL", '{"url":"/path"}'],
    ["a URL with a space", '{"url":"https://exa mple.com/"}'],
    ["a URL over 2048 characters", JSON.stringify({ url: `https://example.com/${"a".repeat(2030)}` })],
    ["an empty name", '{"name":""}'],
    ["a name with a slash", '{"name":"a/b"}'],
    ["a name over 64 characters", JSON.stringify({ name: "n".repeat(65) })],
    ["a reserved name", '{"name":"api"}'],
    ["a reserved name in another case", '{"name":"Docs"}'],
    ["tags that are a string", '{"tags":"news"}'],
    ["null tags", '{"tags":null}'],
    ["11 tags", JSON.stringify({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) })],
    ["an empty tag", '{"tags":[""]}'],
    ["a tag of 33 characters", JSON.stringify({ tags: ["t".repeat(33)] })],
    ["a tag with a space", '{"tags":["two words"]}'],
    ["a tag with a dot", '{"tags":["v1.2"]}'],
    ["a tag with unicode", '{"tags":["café"]}'],
    ["a numeric tag", '{"tags":[7]}'],
    ["a good field next to a bad one", '{"url":"https://example.com/ok","tags":["bad tag"]}'],
  ];
  it.each(badBodies)("refuses %s with 400 and changes nothing", async (_label, payload) => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/untouched", name: `u${Date.now()}` });
    const before = await stored();
    expectJsonError(await patch(user, short.id, payload), 400);
    expect(await stored()).toEqual(before);
  });

  it("refuses a body that is not JSON with 415, and one over the limit with 413", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/limits" });
    const before = await stored();
    const text = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      headers: { ...user.headers, "content-type": "text/plain" },
      payload: "https://example.com/",
    });
    expectJsonError(text, 415);
    expectJsonError(
      await patch(user, short.id, { url: `https://example.com/?q=${"a".repeat(20_000)}` }),
      413,
    );
    expect(await stored()).toEqual(before);
  });

  it("answers someone else's short exactly like a missing one (404 text/plain), and changes nothing", async () => {
    const owner = await newUser(ctx.prisma);
    const intruder = await newUser(ctx.prisma);
    const short = await create(owner, { url: "https://example.com/private", name: "private-one" });
    const before = await stored();
    const theirs = await patch(intruder, short.id, { url: "https://evil.example/" });
    const none = await patch(intruder, MISSING, { url: "https://evil.example/" });
    const notAnId = await patch(intruder, "not-an-id", { url: "https://evil.example/" });
    for (const res of [theirs, none, notAnId]) {
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.body).toBe(theirs.body);
    }
    expect(await stored()).toEqual(before);
    const unauthenticated = await ctx.app.inject({
      method: "PATCH",
      url: `/api/shorts/${short.id}`,
      payload: { url: "https://evil.example/" },
    });
    expect(unauthenticated.statusCode).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it("gives a name wanted by many shorts at once to exactly one of them", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => newUser(ctx.prisma)));
    const shorts = await Promise.all(users.map((user) => create(user, { url: "https://example.com/race" })));
    const results = await Promise.all(
      users.map((user, i) => patch(user, shorts[i]!.id, { name: "contested" })),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    const winner = results.find((res) => res.statusCode === 200)!.json();
    expect(await ctx.prisma.short.findFirst({ where: { name: "contested" } })).toMatchObject({
      id: winner.id,
    });
    // The losers kept their names and still redirect.
    for (const [i, res] of results.entries()) {
      if (res.statusCode === 409) await visit(shorts[i]!.name);
    }
  });

  it("leaves the redirect on the last edit when many edits of one short race", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/0", name: "raced" });
    await visit("raced");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => patch(user, short.id, { url: `https://example.com/${i + 1}` })),
    );
    expect(results.every((res) => res.statusCode === 200)).toBe(true);
    const final = (await ctx.prisma.short.findUniqueOrThrow({ where: { id: short.id } })).url;
    expect((await ctx.app.inject({ url: "/raced" })).headers.location).toBe(final);
  });
});

describe("tags", () => {
  it("are kept in lower case, each once, in the order sent; a short without tags has no tags key", async () => {
    const user = await newUser(ctx.prisma);
    const tagged = await create(user, {
      url: "https://example.com/t",
      tags: ["Launch", "blog", "LAUNCH", "q4_2026", "a-b", "Blog"],
    });
    expect(tagged.tags).toEqual(["launch", "blog", "q4_2026", "a-b"]);
    const plain = await create(user, { url: "https://example.com/p" });
    expect(plain).not.toHaveProperty("tags");
    expect(await create(user, { url: "https://example.com/e", tags: [] })).not.toHaveProperty("tags");
    const cleared = await patch(user, tagged.id, { tags: [] });
    expect(cleared.json()).not.toHaveProperty("tags");
  });

  it("take up to 10 (counted as sent), each 1-32 characters", async () => {
    const user = await newUser(ctx.prisma);
    const ten = Array.from({ length: 10 }, (_, i) => `${"t".repeat(31)}${i}`);
    expect((await create(user, { url: "https://example.com/10", tags: ten })).tags).toEqual(ten);
    const before = await stored();
    const elevenWithRepeat = [...ten, `${"T".repeat(31)}0`];
    expectJsonError(
      await postShort(ctx.app, user, { url: "https://example.com/11", tags: elevenWithRepeat }),
      400,
    );
    expectJsonError(
      await postShort(ctx.app, user, { url: "https://example.com/33", tags: ["x".repeat(33)] }),
      400,
    );
    expect(await stored()).toEqual(before);
  });
});

describe("GET /api/shorts: tag, search, orderBy, order", () => {
  async function seeded() {
    const user = await newUser(ctx.prisma);
    const other = await newUser(ctx.prisma);
    // Created in this order: a (oldest) … e (newest).
    const a = await create(user, {
      url: "https://shop.example/Sale",
      name: `a${Date.now()}`,
      tags: ["promo"],
    });
    const b = await create(user, { url: "https://blog.example/?q=50%25_off", tags: ["blog", "promo"] });
    const c = await create(user, { url: "https://docs.example/guide", name: `Guide-${Date.now()}` });
    const d = await create(user, { url: "https://shop.example/cart", tags: ["Shop"] });
    const e = await create(user, { url: "https://example.com/x_y", tags: ["blog"] });
    await create(other, { url: "https://shop.example/other", tags: ["promo"] });
    await visit(b.name, 3);
    await visit(d.name, 3);
    await visit(c.name, 1);
    return { user, a, b, c, d, e };
  }
  const ids = (res: { json(): unknown }) => (res.json() as ShortBody[]).map((s) => s.id);

  it("filters by tag, any letter case, among the caller's shorts only", async () => {
    const { user, a, b, d, e } = await seeded();
    expect(ids(await list(user, "?tag=promo"))).toEqual([b.id, a.id]);
    expect(ids(await list(user, "?tag=BLOG"))).toEqual([e.id, b.id]);
    expect(ids(await list(user, "?tag=shop"))).toEqual([d.id]);
    expect(ids(await list(user, "?tag=none"))).toEqual([]);
  });

  it("searches names and target URLs, ignoring case, with % and _ taken literally", async () => {
    const { user, a, b, c, d, e } = await seeded();
    expect(ids(await list(user, "?search=SHOP.example"))).toEqual([d.id, a.id]);
    expect(ids(await list(user, "?search=guide"))).toEqual([c.id]);
    expect(ids(await list(user, `?search=${c.name.toLowerCase()}`))).toEqual([c.id]);
    expect(ids(await list(user, `?search=${encodeURIComponent("%25_")}`))).toEqual([b.id]);
    expect(ids(await list(user, "?search=_"))).toEqual([e.id, b.id]);
    expect(ids(await list(user, `?search=${encodeURIComponent("\\")}`))).toEqual([]);
    expect(ids(await list(user, "?search=shop&tag=promo"))).toEqual([a.id]);
  });

  it("orders by visits (ties by creation, in the same order) or by creation, both ways, and pages", async () => {
    const { user, a, b, c, d, e } = await seeded();
    const byVisits = await list(user, "?orderBy=visits");
    expect(ids(byVisits)).toEqual([d.id, b.id, c.id, e.id, a.id]);
    expect((byVisits.json() as ShortBody[]).map((s) => s.visits)).toEqual([3, 3, 1, 0, 0]);
    // Ordered by visits, the counts come from the user's daily rows: the same as each short's own.
    const own = new Map(((await list(user)).json() as ShortBody[]).map((s) => [s.id, s.visits]));
    for (const short of byVisits.json() as ShortBody[]) expect(short.visits).toBe(own.get(short.id));
    expect(ids(await list(user, "?orderBy=visits&order=asc"))).toEqual([a.id, e.id, c.id, b.id, d.id]);
    expect(ids(await list(user, "?orderBy=createdAt&order=asc"))).toEqual([a.id, b.id, c.id, d.id, e.id]);
    expect(ids(await list(user, "?order=desc"))).toEqual([e.id, d.id, c.id, b.id, a.id]);
    expect(ids(await list(user, "?orderBy=visits&limit=2&offset=1"))).toEqual([b.id, c.id]);
    expect(ids(await list(user, "?orderBy=visits&tag=promo&search=example"))).toEqual([b.id, a.id]);
  });

  const badQueries = [
    "tag=",
    "tag=two%20words",
    `tag=${"t".repeat(33)}`,
    "tag=a&tag=b",
    "search=",
    `search=${"s".repeat(201)}`,
    "search=%00",
    "orderBy=name",
    "orderBy=VISITS",
    "order=up",
    "order=",
  ];
  it.each(badQueries)("refuses ?%s with 400", async (query) => {
    const user = await newUser(ctx.prisma);
    expectJsonError(await list(user, `?${query}`), 400);
  });

  it("takes a search of 200 characters", async () => {
    const user = await newUser(ctx.prisma);
    expect((await list(user, `?search=${"s".repeat(200)}`)).statusCode).toBe(200);
  });
});

describe("GET /api/shorts/{id}/qr", () => {
  const qr = (user: User, id: string, query = "") =>
    ctx.app.inject({ url: `/api/shorts/${id}/qr${query}`, headers: user.headers });

  function decodePng(body: Buffer) {
    const png = PNG.sync.read(body);
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    return { width: png.width, height: png.height, text: code?.data };
  }

  it("is a PNG of the short URL, 300 px by default, that a QR reader decodes", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/qr", name: "qr-code" });
    const res = await qr(user, short.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(decodePng(res.rawPayload)).toEqual({ width: 300, height: 300, text: "https://sho.rt/qr-code" });
  });

  it.each([128, 129, 517, 1024])("is exactly %i px square and decodes at that size", async (size) => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/sized" });
    const res = await qr(user, short.id, `?format=png&size=${size}`);
    expect(decodePng(res.rawPayload)).toEqual({ width: size, height: size, text: short.shorturl });
  });

  it("is an SVG of the requested size with format=svg", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/svg" });
    const res = await qr(user, short.id, "?format=svg&size=512");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(res.body).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="512" height="512" viewBox="0 0 \d+ \d+"/,
    );
  });

  it("follows a rename", async () => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/moving", name: "before-qr" });
    await patch(user, short.id, { name: "after-qr" });
    expect(decodePng((await qr(user, short.id)).rawPayload).text).toBe("https://sho.rt/after-qr");
  });

  it.each([
    "size=127",
    "size=1025",
    "size=0128",
    "size=abc",
    "size=",
    "format=gif",
    "format=PNG",
    "color=red",
  ])("refuses ?%s with 400", async (query) => {
    const user = await newUser(ctx.prisma);
    const short = await create(user, { url: "https://example.com/bad-qr" });
    expectJsonError(await qr(user, short.id, `?${query}`), 400);
  });

  it("answers someone else's short like a missing one (404), and needs a token (401)", async () => {
    const owner = await newUser(ctx.prisma);
    const intruder = await newUser(ctx.prisma);
    const short = await create(owner, { url: "https://example.com/owned-qr" });
    const theirs = await qr(intruder, short.id);
    const none = await qr(intruder, MISSING);
    expect([theirs.statusCode, theirs.body]).toEqual([404, none.body]);
    expect(none.statusCode).toBe(404);
    const anonymous = await ctx.app.inject({ url: `/api/shorts/${short.id}/qr` });
    expect(anonymous.statusCode).toBe(401);
  });
});
