// Slow clients cannot hold either service: a request whose body never finishes arriving is
// answered 408 and its connection closed once REQUEST_TIMEOUT_MS has passed.

import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "../apps/scheduling/src/api-keys.ts";
import { buildApp as buildScheduling } from "../apps/scheduling/src/app.ts";
import { loadConfig as loadSchedulingConfig } from "../apps/scheduling/src/config.ts";
import { createUser as createShortenerUser } from "../apps/shortener/src/accounts.ts";
import { buildApp as buildShortener } from "../apps/shortener/src/app.ts";
import { defaultConfig } from "../apps/shortener/src/config.ts";

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

/** Sends headers announcing 1000 bytes, then one byte, and resolves with what the server said when it closed. */
function slowRequest(port: number, path: string, headers: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => {});
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
  });
}

// Authenticated, so the request reaches body parsing (without credentials it is answered 401 at once).
describe.each([
  [
    "shortener",
    () => buildShortener({ config: defaultConfig({ REQUEST_TIMEOUT_MS: 500 }), prisma }),
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
      }),
    async () => {
      const user = await prisma.user.create({ data: { email: `slow-${Date.now()}@example.com` } });
      const { apiKey } = await issueApiKey(prisma, { userId: user.id, prefix: "cal_" });
      return { path: `/v1/teams?apiKey=${apiKey}`, headers: "" };
    },
  ],
] as const)("%s", (_name, build, credentials) => {
  it("answers a body that never finishes with 408 and closes the connection", async () => {
    const app = await build();
    const { path, headers } = await credentials();
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { port } = app.server.address() as AddressInfo;
      // Fifty at once: none of them holds the server, each is closed after the timeout.
      const answers = await Promise.all(Array.from({ length: 50 }, () => slowRequest(port, path, headers)));
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
