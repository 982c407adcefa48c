import { Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { newUser } from "./helpers.ts";

const lines: string[] = [];
let db: TestDatabase;
let prisma: PrismaClient;
let app: ShortenerApp;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 2 });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config: defaultConfig({ LOG_LEVEL: "trace" }), prisma, logger: { stream } });
});
afterAll(async () => {
  await app?.close();
  await prisma?.$disconnect();
  await db?.drop();
});

it("never writes a bearer token to the request log", async () => {
  const user = await newUser(prisma);
  await app.inject({ url: "/api/me", headers: user.headers });
  await app.inject({
    method: "POST",
    url: "/api/shorts",
    headers: user.headers,
    payload: { url: "https://e.example/" },
  });
  await app.inject({ url: "/api/me", headers: { authorization: "Bearer shr_wrong-token-value" } });
  const log = lines.join("");
  // One access line per request, with the request and its status.
  const access = lines.filter((line) => line.includes('"request completed"')).map((line) => JSON.parse(line));
  expect(access.map((line) => line.res.statusCode)).toEqual([200, 201, 401]);
  expect(access[0]).toMatchObject({ req: { method: "GET", url: "/api/me" } });
  expect(log).not.toContain(user.token);
  expect(log).not.toContain("shr_wrong-token-value");
});
