import { request } from "node:http";
import { createPrisma, type PrismaClient } from "@app/db";
import { conformance, formatViolation } from "@app/testing/conformance";
import { createTestDatabase, secretScan, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, expect } from "vitest";
import { buildApp, type ShortenerApp } from "../src/app.ts";
import { defaultConfig, type ShortenerConfig } from "../src/config.ts";
import { createUser } from "../src/credentials.ts";
import { scryptHasher } from "../src/shorts/password-hash.ts";

/**
 * Password hashing at a test cost (N = 2^10: about a millisecond, not a tenth of a second): the
 * tests hash passwords by the hundred. The service's own cost is asserted in link-passwords.test.ts.
 */
export const TEST_PASSWORDS = scryptHasher({ logN: 10, r: 8, p: 1 });

export interface ShortenerContext {
  app: ShortenerApp;
  prisma: PrismaClient;
  config: ShortenerConfig;
  db: TestDatabase;
}

/** The real app on this file's own database, built once for the file. */
export function setupShortener(
  overrides: Partial<ShortenerConfig> = {},
  database: { statementTimeoutMs?: number } = {},
): ShortenerContext {
  const ctx = {} as ShortenerContext;
  beforeAll(async () => {
    ctx.db = await createTestDatabase();
    ctx.prisma = createPrisma(ctx.db.url, { poolMax: 5, directUrl: ctx.db.directUrl, ...database });
    ctx.config = defaultConfig({ SHORT_BASE_URL: "https://sho.rt", ...overrides });
    // Logs at trace into the secret scan, which also reads every answer.
    const logger = { level: "trace", stream: secretScan.logStream };
    ctx.app = await buildApp({ config: ctx.config, prisma: ctx.prisma, logger, passwords: TEST_PASSWORDS });
    secretScan.watch(ctx.app);
    // Shlink's API (/rest) against its own document, v1 and v2 as the v3 it describes.
    conformance.watch(ctx.app, [
      {
        covers: (route) => route.startsWith("/rest/"),
        document: () => ctx.app.restSwagger(),
        route: (route) => route.replace(/^\/rest\/v[12]\//, "/rest/v3/"),
      },
    ]);
    await ctx.app.ready();
  });
  afterAll(async () => {
    try {
      // No token this file created was logged or answered, whatever its requests did.
      expect(secretScan.leaks()).toEqual([]);
      // Every answer the app gave agreed with its OpenAPI document.
      expect(conformance.violations().map(formatViolation)).toEqual([]);
    } finally {
      // Torn down either way: a file that fails leaves no database behind.
      await ctx.app?.close();
      await ctx.prisma?.$disconnect();
      await ctx.db?.drop();
    }
  });
  return ctx;
}

let counter = 0;

/** A user with a bearer token, and the header that carries it. */
export async function newUser(prisma: PrismaClient) {
  const email = `user${++counter}-${process.pid}-${Date.now()}@example.com`;
  const user = await createUser(prisma, email);
  secretScan.remember(user.token);
  return { ...user, email, headers: { authorization: `Bearer ${user.token}` } };
}

/** POST /api/shorts as `user`. */
export function postShort(app: ShortenerApp, user: { headers: Record<string, string> }, payload: object) {
  return app.inject({ method: "POST", url: "/api/shorts", headers: user.headers, payload });
}

/** One GET over a fresh connection; 0 when refused or reset (not acknowledged, so not counted). */
export function visit(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}
