// Idempotency-Key on POST /bookings (issue 19, docs/adr/0148): a retried request books once and
// answers the first answer again; the key is kept in the database, so it holds across instances.
import { createPrisma } from "@app/db";
import { secretScan } from "@app/testing/database";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

function v1Body(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
  return {
    eventTypeId,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "en",
    metadata: {},
    responses: { name: "Rita Retry", email: "rita@example.com" },
    ...extra,
  };
}

function post(apiKey: string, body: unknown, key?: string, app: SchedulingApp = t.app) {
  return app.inject({
    method: "POST",
    url: withKey("/v1/bookings", apiKey),
    headers: key === undefined ? {} : { "idempotency-key": key },
    payload: body as object,
  });
}

const bookingsOf = (eventTypeId: number) => t.prisma.booking.count({ where: { eventTypeId } });
let keys = 0;
const newKey = () => `key-${process.pid}-${++keys}-${Math.random().toString(36).slice(2)}`;

/** A URL of `app` served over real HTTP (the app listens on a free port for the rest of the file). */
async function httpBase(app: SchedulingApp): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

function postOverHttp(base: string, apiKey: string, body: unknown, key: string) {
  return fetch(`${base}${withKey("/v1/bookings", apiKey)}`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: await response.text() }));
}

describe("POST /bookings with Idempotency-Key", () => {
  it("answers a repeat with the first answer, byte for byte, and books nothing more", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const body = v1Body(eventType.id, at(futureMonday(), 60));
    const key = newKey();
    const first = await post(host.apiKey, body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    // The same request, its keys in another order: the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    for (const again of [body, reordered]) {
      const repeat = await post(host.apiKey, again, key);
      expect(repeat.statusCode).toBe(201);
      expect(repeat.body).toBe(first.body);
      expect(repeat.headers["idempotent-replayed"]).toBe("true");
      expect(repeat.headers["content-type"]).toBe("application/json; charset=utf-8");
    }
    expect(await bookingsOf(eventType.id)).toBe(1);
    // The key may come with the API key in a header too: the caller is the same user.
    const viaHeader = await t.app.inject({
      method: "POST",
      url: "/v1/bookings",
      headers: { "x-api-key": host.apiKey, "idempotency-key": key },
      payload: body,
    });
    expect(viaHeader.body).toBe(first.body);
  });

  // Prisma 7's transaction client still has $transaction: the booking opened a second,
  // nested transaction inside the key's, and every later booking without a key answered 500.
  it("leaves bookings without a key working after one with a key", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    const plain = await post(host.apiKey, v1Body(eventType.id, at(monday, 60)));
    expect(plain.statusCode, plain.body).toBe(201);
    const keyed = await post(host.apiKey, v1Body(eventType.id, at(monday, 90)), newKey());
    expect(keyed.statusCode, keyed.body).toBe(201);
    for (const minutes of [120, 150]) {
      const after = await post(host.apiKey, v1Body(eventType.id, at(monday, minutes)));
      expect(after.statusCode, after.body).toBe(201);
    }
    expect(await bookingsOf(eventType.id)).toBe(4);
  });

  it("answers 422 in v1's error shape for the same key with another body, and changes nothing", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const key = newKey();
    const start = at(futureMonday(), 120);
    expect((await post(host.apiKey, v1Body(eventType.id, start), key)).statusCode).toBe(201);
    for (const other of [
      v1Body(eventType.id, at(start, 30)),
      v1Body(eventType.id, start, { language: "de" }),
      v1Body(eventType.id, start, { responses: { name: "Someone Else", email: "else@example.com" } }),
    ]) {
      const response = await post(host.apiKey, other, key);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message:
          "This Idempotency-Key was already used with a different request within the last 24 hours; send a new key for a new request",
      });
    }
    expect(await bookingsOf(eventType.id)).toBe(1);
  });

  it("keeps keys per user: another user's same key is another request", async () => {
    const host = await createUser(t.prisma);
    const other = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const key = newKey();
    const start = at(futureMonday(), 180);
    const mine = await post(host.apiKey, v1Body(eventType.id, start), key);
    const theirs = await post(other.apiKey, v1Body(eventType.id, at(start, 30)), key);
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await bookingsOf(eventType.id)).toBe(2);
  });

  it("keeps no error: a retry after a failed request runs again", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const key = newKey();
    const past = await post(host.apiKey, v1Body(eventType.id, new Date(Date.now() - 86_400_000)), key);
    expect(past.statusCode).toBe(400);
    const retry = await post(host.apiKey, v1Body(eventType.id, at(futureMonday(), 240)), key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await t.prisma.idempotencyKey.count({ where: { userId: host.user.id, key } })).toBe(1);
  });

  it("refuses a malformed key with 400 and books nothing", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const body = v1Body(eventType.id, at(futureMonday(), 300));
    for (const key of ["", "x".repeat(256), "caf\u00e9"]) {
      const response = await post(host.apiKey, body, key);
      expect(response.statusCode, JSON.stringify(key)).toBe(400);
      expect(response.json().message).toMatch(/idempotency-key/);
    }
    expect(await bookingsOf(eventType.id)).toBe(0);
    expect((await post(host.apiKey, body, "x".repeat(255))).statusCode).toBe(201);
  });

  it("forgets a key after 24 hours: it books again, and expired keys are purged", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const key = newKey();
    const start = at(futureMonday(), 330);
    expect((await post(host.apiKey, v1Body(eventType.id, start), key)).statusCode).toBe(201);
    const stale = newKey();
    await t.prisma.idempotencyKey.create({
      data: { userId: host.user.id, key: stale, requestHash: "0".repeat(64), status: 201, response: "{}" },
    });
    const dayAgo = new Date(Date.now() - 24 * 3_600_000 - 1_000);
    await t.prisma.idempotencyKey.updateMany({
      where: { userId: host.user.id },
      data: { createdAt: dayAgo },
    });
    // Another body with the old key: no 422, the key is free again.
    const again = await post(host.apiKey, v1Body(eventType.id, at(start, 30)), key);
    expect(again.statusCode, again.body).toBe(201);
    expect(await bookingsOf(eventType.id)).toBe(2);
    const kept = await t.prisma.idempotencyKey.findMany({ where: { userId: host.user.id } });
    expect(kept.map((row) => row.key)).toEqual([key]);
    expect(kept[0]!.createdAt.getTime()).toBeGreaterThan(dayAgo.getTime());
  });

  it("books exactly once for 20 parallel requests with one key over HTTP; all 20 get the same answer", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const body = v1Body(eventType.id, at(futureMonday(3), 60));
    const key = newKey();
    const base = await httpBase(t.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postOverHttp(base, host.apiKey, body, key)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await bookingsOf(eventType.id)).toBe(1);
    expect(await t.prisma.attendee.count({ where: { booking: { eventTypeId: eventType.id } } })).toBe(1);
  });

  describe("across two instances on one database", () => {
    let second: SchedulingApp | undefined;
    const secondPrisma = () => createPrisma(t.databaseUrl, { poolMax: 4, directUrl: t.directUrl });
    let disconnect: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await second?.close();
      await disconnect?.();
    });

    it("books once for 10 + 10 parallel requests with one key, half to each instance", async () => {
      const prisma = secondPrisma();
      disconnect = () => prisma.$disconnect();
      second = await buildApp({
        config: t.config,
        prisma,
        logger: { level: "trace", stream: secretScan.logStream },
      });
      const host = await createUser(t.prisma);
      const eventType = await makeHost(t.prisma, host.user.id);
      const body = v1Body(eventType.id, at(futureMonday(4), 60));
      const key = newKey();
      const bases = [await httpBase(t.app), await httpBase(second)];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => postOverHttp(bases[i % 2]!, host.apiKey, body, key)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
      expect(await bookingsOf(eventType.id)).toBe(1);
    });
  });

  it("is documented: the header on POST /bookings, and its 422", async () => {
    const document = (await t.app.inject({ url: "/docs" })).json();
    const operation = document.paths["/api/v1/bookings"].post;
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ in: "header", name: "idempotency-key", required: false }),
    );
    expect(operation.responses["422"]).toBeDefined();
  });
});
