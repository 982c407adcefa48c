// Slow clients cannot hold either service: a request whose body never finishes arriving is
// answered 408 and its connection closed once REQUEST_TIMEOUT_MS has passed; and every request
// Node's parser refuses (a raw non-ASCII byte, headers too large) is answered in the service's
// own error shape and logged.

import { STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp as buildScheduling } from "../apps/scheduling/src/app.ts";
import { loadConfig as loadSchedulingConfig } from "../apps/scheduling/src/config.ts";
import { issueApiKey } from "../apps/scheduling/src/credentials.ts";
import { buildApp as buildShortener } from "../apps/shortener/src/app.ts";
import { defaultConfig } from "../apps/shortener/src/config.ts";
import { createUser as createShortenerUser } from "../apps/shortener/src/credentials.ts";

let db: TestDatabase;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { poolMax: 2 });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

/** Every log line the apps of this file wrote. */
const logged: string[] = [];
const logger = { level: "info", stream: { write: (line: string) => void logged.push(line) } };

/** Sends raw bytes as they are (no client library would let a raw non-ASCII byte through) and resolves with what the server said when it closed. */
function rawRequest(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => {});
    socket.write(bytes);
  });
}

/** Sends headers announcing 1000 bytes, then one byte, and resolves with what the server said when it closed. */
const slowRequest = (port: number, path: string, headers: string) =>
  rawRequest(
    port,
    Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    ),
  );

// Authenticated, so the request reaches body parsing (without credentials it is answered 401 at once).
describe.each([
  [
    "shortener",
    () => buildShortener({ config: defaultConfig({ REQUEST_TIMEOUT_MS: 500 }), prisma, logger }),
    async () => {
      const { token } = await createShortenerUser(prisma, `slow-${Date.now()}@example.com`);
      return { path: "/api/shorts", headers: `Authorization: Bearer ${token}\r\n` };
    },
  ],
  [
    "scheduling",
    () =>
      buildScheduling({
        config: { ...loadSchedulingConfig({}), REQUEST_TIMEOUT_MS: 500, RATE_LIMIT_MAX: 1_000 },
        prisma,
        logger,
      }),
    async () => {
      const user = await prisma.user.create({ data: { email: `slow-${Date.now()}@example.com` } });
      const { apiKey } = await issueApiKey(prisma, { userId: user.id, prefix: "cal_" });
      return { path: `/v1/teams?apiKey=${apiKey}`, headers: "" };
    },
  ],
] as const)("%s", (name, build, credentials) => {
  // The service's own error shape: the shortener's JSON Error, scheduling's v1 `{message}`.
  const errorShape = (status: number) =>
    name === "shortener"
      ? { status: STATUS_CODES[status], error: expect.any(String) }
      : { message: expect.any(String) };
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));

  it("answers a raw non-ASCII character in the URL, and headers too large, in its own error shape, and logs them", async () => {
    const app = await build();
    const { path, headers } = await credentials();
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { port } = app.server.address() as AddressInfo;
      logged.length = 0;
      const separator = path.includes("?") ? "&" : "?";
      const nonAscii = await rawRequest(
        port,
        Buffer.concat([
          Buffer.from(`GET ${path}${separator}x=`),
          Buffer.from("é", "utf8"),
          Buffer.from(` HTTP/1.1\r\nHost: x\r\n${headers}\r\n`),
        ]),
      );
      expect(nonAscii).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(nonAscii).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      expect(bodyOf(nonAscii)).toEqual(errorShape(400));
      const tooLarge = await rawRequest(
        port,
        Buffer.from(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
      );
      expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(tooLarge)).toEqual(errorShape(431));
      const lines = logged.map((line) => JSON.parse(line)).filter((line) => line.msg === "request refused");
      expect(lines.map((line) => line.res.statusCode)).toEqual([400, 431]);
      // The refused bytes are not logged: they may carry credentials.
      if (headers) expect(logged.join("")).not.toContain(headers.trim().split(" ").at(-1));
    } finally {
      await app.close();
    }
  });

  it("answers a body that never finishes with 408 and closes the connection", async () => {
    const app = await build();
    const { path, headers } = await credentials();
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { port } = app.server.address() as AddressInfo;
      // Fifty at once: none of them holds the server, each is closed after the timeout.
      const answers = await Promise.all(Array.from({ length: 50 }, () => slowRequest(port, path, headers)));
      for (const answer of answers) {
        expect(answer).toMatch(/^HTTP\/1\.1 408/);
        expect(bodyOf(answer)).toEqual(errorShape(408));
      }
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
