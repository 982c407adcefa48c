// POST /api/shorts/bulk (issue 20): up to 1,000 NewShorts in one request, one result per item in
// order; each item is created or refused exactly as POST /api/shorts would for what the stored
// data decides (docs/adr/0161, 0213). A body the document refuses, an invalid item included, is
// refused whole and changes nothing.
import { MAX_BULK_PASSWORDS, MAX_BULK_SHORTS } from "@app/schemas/shortener";
import { describe, expect, it } from "vitest";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener();

type User = Awaited<ReturnType<typeof newUser>>;

function bulk(user: User, payload: unknown) {
  return ctx.app.inject({
    method: "POST",
    url: "/api/shorts/bulk",
    headers: { ...user.headers, "content-type": "application/json" },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

/** Every short of the service, as stored: a refusal must leave this as it was. */
const stored = () => ctx.prisma.short.findMany({ orderBy: { id: "asc" } });

let run = 0;
/** A name no other test of this file uses. */
const unique = (label: string) => `${label}-${process.pid}-${++run}`;

describe("POST /api/shorts/bulk", () => {
  it("creates items with a window, a visit limit, an expired URL and a password, as POST /api/shorts; a password on more than MAX_BULK_PASSWORDS items is refused per item", async () => {
    const user = await newUser(ctx.prisma);
    const limited = unique("limited");
    const items = [
      {
        url: "https://example.com/limited",
        name: limited,
        validFrom: "2020-01-01T00:00:00Z",
        validUntil: "2099-01-01T00:00:00Z",
        maxVisits: 1,
        expiredUrl: "https://example.com/over",
      },
      ...Array.from({ length: MAX_BULK_PASSWORDS + 1 }, (_, i) => ({
        url: `https://example.com/secret/${i}`,
        password: `secret ${i}`,
      })),
    ];
    const res = await bulk(user, { shorts: items });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    expect(results.map((r: { status: number }) => r.status)).toEqual([
      201,
      ...Array(MAX_BULK_PASSWORDS).fill(201),
      400,
    ]);
    expect(results[0].short).toMatchObject({
      name: limited,
      validFrom: "2020-01-01T00:00:00.000Z",
      validUntil: "2099-01-01T00:00:00.000Z",
      maxVisits: 1,
      expiredUrl: "https://example.com/over",
    });
    expect(results[0].short.hasPassword).toBeUndefined();
    expect(results[1].short.hasPassword).toBe(true);
    expect(results[MAX_BULK_PASSWORDS + 1].error.error).toMatch(/password/);
    // Stored as the API says: a hash, never the password; the limit enforced by the redirect.
    const protectedRow = await ctx.prisma.short.findUniqueOrThrow({ where: { id: results[1].short.id } });
    expect(protectedRow.passwordHash).toMatch(/^scrypt\$/);
    const first = await ctx.app.inject({ method: "GET", url: `/${limited}` });
    const second = await ctx.app.inject({ method: "GET", url: `/${limited}` });
    expect([first.headers.location, second.headers.location]).toEqual([
      "https://example.com/limited",
      "https://example.com/over",
    ]);
  });

  it("answers one result per item, in order: each the status and body POST /api/shorts would answer", async () => {
    const user = await newUser(ctx.prisma);
    const taken = unique("taken");
    expect((await postShort(ctx.app, user, { url: "https://example.com/t", name: taken })).statusCode).toBe(
      201,
    );
    const named = unique("named");
    const items: unknown[] = [
      { url: "https://example.com/1" },
      { url: "https://example.com/2", name: "docs" },
      { url: "https://example.com/3", name: named, tags: ["Promo", "promo", "shop"] },
      { url: "https://example.com/4", name: taken },
      { url: "https://bücher.example/ä" },
    ];
    const res = await bulk(user, { shorts: items });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 400, 201, 409, 201]);

    // Each refused item's error is the body POST /api/shorts answers for it, byte for byte.
    for (const [index, item] of items.entries()) {
      const result = results[index];
      if (result.status === 201) continue;
      const single = await ctx.app.inject({
        method: "POST",
        url: "/api/shorts",
        headers: { ...user.headers, "content-type": "application/json" },
        payload: JSON.stringify(item),
      });
      expect(single.statusCode).toBe(result.status);
      expect(result.error).toEqual(single.json());
      expect(Object.keys(result).sort()).toEqual(["error", "status"]);
    }
    expect(results[3].error).toEqual({ status: "Conflict", error: `name "${taken}" is already taken` });

    // Each created item is a Short, stored, readable and redirecting.
    const created = [results[0].short, results[2].short, results[4].short];
    expect(created[0]).toMatchObject({ url: "https://example.com/1", visits: 0 });
    expect(created[0].name).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(created[0].shorturl).toBe(`https://sho.rt/${created[0].name}`);
    expect(created[1]).toMatchObject({ name: named, tags: ["promo", "shop"] });
    expect(created[2].url).toBe("https://xn--bcher-kva.example/%C3%A4");
    for (const short of created) {
      const read = await ctx.app.inject({ url: `/api/shorts/${short.id}`, headers: user.headers });
      expect(read.json()).toEqual(short);
      const redirect = await ctx.app.inject({ url: `/${short.name}` });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe(short.url);
    }
    // Newest first lists them as if created one by one, in the order sent.
    const list = (await ctx.app.inject({ url: "/api/shorts", headers: user.headers })).json();
    expect(list.slice(0, 3).map((s: { id: string }) => s.id)).toEqual(created.map((s) => s.id).reverse());
  });

  it("gives a name asked for twice in one request to the first item; the second is 409", async () => {
    const user = await newUser(ctx.prisma);
    const name = unique("twice");
    const res = await bulk(user, {
      shorts: [
        { url: "https://example.com/a", name },
        { url: "https://example.com/b" },
        { url: "https://example.com/c", name },
        { url: "https://example.com/d", name },
      ],
    });
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 201, 409, 409]);
    expect(results[0].short).toMatchObject({ name, url: "https://example.com/a" });
    expect(results[2].error).toEqual({ status: "Conflict", error: `name "${name}" is already taken` });
    expect(await ctx.prisma.short.count({ where: { name } })).toBe(1);
  });

  it(`creates ${MAX_BULK_SHORTS} items in one request, each once, with distinct generated names`, async () => {
    const user = await newUser(ctx.prisma);
    const shorts = Array.from({ length: MAX_BULK_SHORTS }, (_, i) =>
      i % 10 === 0
        ? { url: `https://example.com/${i}`, name: unique(`many-${i}`), tags: ["bulk"] }
        : { url: `https://example.com/${i}` },
    );
    const res = await bulk(user, { shorts });
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results).toHaveLength(MAX_BULK_SHORTS);
    expect(results.every((r: { status: number }) => r.status === 201)).toBe(true);
    results.forEach((r: { short: { url: string } }, i: number) => {
      expect(r.short.url).toBe(`https://example.com/${i}`);
    });
    expect(new Set(results.map((r: { short: { name: string } }) => r.short.name)).size).toBe(MAX_BULK_SHORTS);
    expect(await ctx.prisma.short.count({ where: { userId: user.id } })).toBe(MAX_BULK_SHORTS);
    const tagged = await ctx.app.inject({ url: "/api/shorts?tag=bulk", headers: user.headers });
    expect(tagged.json()).toHaveLength(MAX_BULK_SHORTS / 10);
  });

  it("answers an empty list with no results", async () => {
    const user = await newUser(ctx.prisma);
    const res = await bulk(user, { shorts: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ results: [] });
  });

  it("refuses a whole request that is not {shorts: [...]} of at most 1,000 NewShorts with 400 naming the item, creating nothing", async () => {
    const user = await newUser(ctx.prisma);
    const before = await stored();
    const tooMany = Array.from({ length: MAX_BULK_SHORTS + 1 }, (_, i) => ({
      url: `https://example.com/${i}`,
    }));
    const refused: [unknown, RegExp][] = [
      [{ shorts: tooMany }, /^Invalid body: shorts: at most 1000 shorts per request$/],
      [[{ url: "https://example.com/" }], /^Invalid body: /],
      [{ shorts: { url: "https://example.com/" } }, /^Invalid body: shorts: /],
      [{}, /^Invalid body: shorts: /],
      [{ shorts: [], atomic: true }, /^Invalid body: /],
      ["{", /./],
      // One item the document refuses refuses the request: the message names it.
      [
        { shorts: [{ url: "https://example.com/0" }, { url: "not a url" }] },
        /^Invalid body: shorts\.1\.url: /,
      ],
      [{ shorts: [{ url: "https://example.com/0", extra: true }] }, /^Invalid body: shorts\.0: .*extra/],
      [{ shorts: ["a string"] }, /^Invalid body: shorts\.0: /],
      [{ shorts: [{ url: "https://example.com/0", name: "bad name!" }] }, /^Invalid body: shorts\.0\.name: /],
      [
        {
          shorts: [
            {
              url: "https://example.com/w",
              validFrom: "2030-01-01T00:00:00Z",
              validUntil: "2029-01-01T00:00:00Z",
            },
          ],
        },
        /^Invalid body: shorts\.0\.validUntil: validUntil must be later than validFrom$/,
      ],
    ];
    for (const [payload, message] of refused) {
      const res = await bulk(user, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json().status).toBe("Bad Request");
      expect(res.json().error).toMatch(message);
    }
    expect(await stored()).toEqual(before);
  });

  it("takes bodies past BODY_LIMIT (1,000 long items) but refuses one past its own limit with 413", async () => {
    const user = await newUser(ctx.prisma);
    const long = `https://example.com/${"p".repeat(1900)}`;
    const big = Array.from({ length: MAX_BULK_SHORTS }, () => ({ url: long }));
    const ok = await bulk(user, { shorts: big.slice(0, 20) });
    expect(ok.statusCode).toBe(200);
    expect(JSON.stringify({ shorts: big.slice(0, 20) }).length).toBeGreaterThan(ctx.config.BODY_LIMIT);
    const before = await stored();
    const tooLarge = await bulk(user, { shorts: big, pad: "x".repeat(3 * 1024 * 1024) });
    expect(tooLarge.statusCode).toBe(413);
    expect(await stored()).toEqual(before);
  });

  it("needs a token and a JSON body", async () => {
    const user = await newUser(ctx.prisma);
    const anonymous = await ctx.app.inject({
      method: "POST",
      url: "/api/shorts/bulk",
      payload: { shorts: [{ url: "https://example.com/" }] },
    });
    expect(anonymous.statusCode).toBe(401);
    const text = await ctx.app.inject({
      method: "POST",
      url: "/api/shorts/bulk",
      headers: { ...user.headers, "content-type": "text/plain" },
      payload: "x",
    });
    expect(text.statusCode).toBe(415);
  });

  it("gives concurrent requests for one name one short: exactly one item anywhere gets it", async () => {
    const users = await Promise.all([newUser(ctx.prisma), newUser(ctx.prisma)]);
    const name = unique("race");
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        bulk(users[i % 2]!, {
          shorts: [{ url: `https://example.com/${i}` }, { url: "https://example.com/x", name }],
        }),
      ),
    );
    const statuses = answers.map((res) => res.json().results.map((r: { status: number }) => r.status));
    expect(statuses.every(([first]) => first === 201)).toBe(true);
    expect(statuses.filter(([, second]) => second === 201)).toHaveLength(1);
    expect(await ctx.prisma.short.count({ where: { name } })).toBe(1);
  });

  it("gives each name to exactly one item when parallel requests ask for the same names in opposite orders", async () => {
    const user = await newUser(ctx.prisma);
    const names = Array.from({ length: 1000 }, (_, i) => unique(`order-${i}`));
    // Four at once, within the app's pool of five: more would wait for a connection, and on a
    // loaded machine a wait past the connect timeout is a 503 (busy), not the race tested here.
    const requests = Array.from({ length: 4 }, (_, i) => {
      const ordered = i % 2 === 0 ? names : [...names].reverse();
      return bulk(user, { shorts: ordered.map((name) => ({ url: `https://example.com/${name}`, name })) });
    });
    const answers = await Promise.all(requests);
    expect(answers.map((res) => res.statusCode)).toEqual(Array(4).fill(200));
    const winners = answers.flatMap((res) =>
      res
        .json()
        .results.filter((r: { status: number }) => r.status === 201)
        .map((r: { short: { name: string } }) => r.short.name),
    );
    expect(winners.sort()).toEqual([...names].sort());
    expect(await ctx.prisma.short.count({ where: { name: { in: names } } })).toBe(names.length);
  });

  it("leaves POST /api/shorts as the seed has it without the new header", async () => {
    const user = await newUser(ctx.prisma);
    const name = unique("seed");
    const res = await postShort(ctx.app, user, { url: "https://example.com/seed", name });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(res.headers.location).toBe(`/api/shorts/${body.id}`);
    expect(res.headers["idempotent-replayed"]).toBeUndefined();
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "name", "shorturl", "url", "visits"]);
    expect((await postShort(ctx.app, user, { url: "https://example.com/seed", name })).statusCode).toBe(409);
  });

  it("is documented: the body, the per-item results and the header", async () => {
    const document = (await ctx.app.inject({ url: "/docs" })).json();
    const operation = document.paths["/api/shorts/bulk"].post;
    expect(operation.operationId).toBe("createShorts");
    expect(operation.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/NewShortsBulk",
    );
    const body = document.components.schemas.NewShortsBulk;
    expect(body.properties.shorts).toMatchObject({
      maxItems: MAX_BULK_SHORTS,
      items: { $ref: "#/components/schemas/NewShort" },
    });
    expect(operation.responses["200"]).toBeDefined();
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ in: "header", name: "idempotency-key", required: false }),
    );
  });
});
