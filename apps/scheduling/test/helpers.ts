// Shared by every scheduling test file: one migrated database per file, the real app on it.
import { randomBytes } from "node:crypto";
import { createPrisma, type PrismaClient, type PrismaOptions, type User } from "@app/db";
import { conformance, formatViolation } from "@app/testing/conformance";
import { createTestDatabase, secretScan, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, expect } from "vitest";
import { type BuildAppOptions, buildApp, type SchedulingApp } from "../src/app.ts";
import { loadConfig, type SchedulingConfig } from "../src/config.ts";
import { issueApiKey } from "../src/credentials.ts";

/** This file's own rate-limit counters in a shared Redis: two suites at once never share a budget. */
export const REDIS_PREFIX = `test-${process.pid}-${randomBytes(4).toString("hex")}:`;

/**
 * The config tests run with: the defaults, a budget high enough that only the rate-limit
 * tests ever reach it, and the given overrides. Never reads the environment.
 */
export function testConfig(overrides: Partial<SchedulingConfig> = {}): SchedulingConfig {
  return { ...loadConfig({}), RATE_LIMIT_MAX: 100_000, RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX, ...overrides };
}

export interface TestApp {
  app: SchedulingApp;
  prisma: PrismaClient;
  config: SchedulingConfig;
  /** The test database's URL (for a CLI child process, or a second app). */
  databaseUrl: string;
  /** The same database without the test PgBouncer (equal to databaseUrl when there is none). */
  directUrl: string;
}

/**
 * Call at the top of a test file (or describe block): beforeAll creates a database for the
 * file and builds the app on it, afterAll tears both down. Read the fields inside tests.
 */
export interface SetupOptions extends Pick<BuildAppOptions, "logger" | "redis" | "authCacheMs"> {
  /** Extra routes a test needs (registered on the root, so behind auth), added before ready(). */
  routes?: (app: SchedulingApp) => void | Promise<void>;
  /** The app's pool: 4 connections with the service's waits unless a test says otherwise. */
  database?: Pick<PrismaOptions, "poolMax" | "connectTimeoutMs">;
}

export function setupApp(
  overrides: Partial<SchedulingConfig> = {},
  { routes, database: pool, ...options }: SetupOptions = {},
): TestApp {
  let database: TestDatabase | undefined;
  let state: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(overrides);
    const prisma = createPrisma(database.url, { poolMax: 4, directUrl: database.directUrl, ...pool });
    // Logs at trace into the secret scan unless the test reads its own logs.
    const logger = options.logger ?? { level: "trace", stream: secretScan.logStream };
    const app = await buildApp({ config, prisma, ...options, logger });
    secretScan.watch(app);
    conformance.watch(app);
    await routes?.(app);
    await app.ready();
    state = { app, prisma, config, databaseUrl: database.url, directUrl: database.directUrl };
  });
  afterAll(async () => {
    try {
      // No key this file created was logged or answered, whatever its requests did.
      expect(secretScan.leaks()).toEqual([]);
      // Every answer the app gave agreed with its OpenAPI document.
      expect(conformance.violations().map(formatViolation)).toEqual([]);
    } finally {
      // Torn down either way: a file that fails leaves no database behind.
      await state?.app.close();
      await state?.prisma.$disconnect();
      await database?.drop();
    }
  });
  const get = <K extends keyof TestApp>(key: K): TestApp[K] => {
    if (!state) throw new Error("setupApp() state is only available inside tests and hooks");
    return state[key];
  };
  return {
    get app() {
      return get("app");
    },
    get prisma() {
      return get("prisma");
    },
    get config() {
      return get("config");
    },
    get databaseUrl() {
      return get("databaseUrl");
    },
    get directUrl() {
      return get("directUrl");
    },
  };
}

let userCounter = 0;

export interface CreateUserOptions {
  admin?: boolean;
  locked?: boolean;
  email?: string;
  username?: string;
  /** Default "cal_"; pass the app's APIKEY_PREFIX when a test changes it. */
  prefix?: string;
}

/** Inserts a user with one valid, non-expiring API key, issued exactly as the CLI issues them. */
export async function createUser(
  prisma: PrismaClient,
  { admin = false, locked = false, email, username, prefix = "cal_" }: CreateUserOptions = {},
): Promise<{ user: User; apiKey: string }> {
  const n = `${process.pid}_${++userCounter}_${Math.random().toString(36).slice(2, 8)}`;
  const user = await prisma.user.create({
    data: {
      email: email ?? `user_${n}@example.com`,
      username: username ?? `user_${n}`,
      role: admin ? "ADMIN" : "USER",
      locked,
    },
  });
  const { apiKey } = await issueApiKey(prisma, { userId: user.id, prefix });
  secretScan.remember(apiKey);
  return { user, apiKey };
}

/** `url` with `apiKey` added to its query. */
export function withKey(url: string, apiKey: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}apiKey=${encodeURIComponent(apiKey)}`;
}
