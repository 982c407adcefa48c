// Hosted mode's tenant clients: a tenant database behind on migrations is migrated once before
// its first request, however many first requests arrive at once on however many instances;
// clients are kept in a least-recently-used list bounded by connections, idle ones closed.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { createPrisma, defaultMigrationsDir, type PrismaClient, poolStats } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { ServiceUnavailable } from "../src/errors.ts";
import { TenantClients } from "../src/hosting/tenant-clients.ts";
import { createUser, testConfig } from "./helpers.ts";
import { hostedUrl, newTenantSecret, registerTenant } from "./hosted-helpers.ts";

const TENANT_SECRET = newTenantSecret();
/** A migration newer than the tenant database, slow enough that concurrent first requests overlap it. */
const NEW_MIGRATION = "99990101000000_hosted_test_slow";

let main: TestDatabase;
let tenantDb: TestDatabase;
let mainPrisma: PrismaClient;
let tenantPrisma: PrismaClient;
let migrationsDir: string;

beforeAll(async () => {
  [main, tenantDb] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  mainPrisma = createPrisma(main.url, { poolMax: 4 });
  tenantPrisma = createPrisma(tenantDb.url, { poolMax: 2 });
  // This build's migrations plus one the tenant database has not seen yet.
  migrationsDir = await mkdtemp(path.join(tmpdir(), "hosted-migrations-"));
  await cp(defaultMigrationsDir, migrationsDir, { recursive: true });
  await mkdir(path.join(migrationsDir, NEW_MIGRATION));
  await writeFile(
    path.join(migrationsDir, NEW_MIGRATION, "migration.sql"),
    [
      "SELECT pg_sleep(0.5);",
      'CREATE TABLE "scheduling"."hosted_test_marker" ("done_at" TIMESTAMPTZ NOT NULL);',
      'INSERT INTO "scheduling"."hosted_test_marker" VALUES (clock_timestamp());',
    ].join("\n"),
  );
});

afterAll(async () => {
  await mainPrisma?.$disconnect();
  await tenantPrisma?.$disconnect();
  await Promise.all([main?.drop(), tenantDb?.drop()]);
  if (migrationsDir) await rm(migrationsDir, { recursive: true, force: true });
});

describe("a tenant database behind on migrations", () => {
  const instances: SchedulingApp[] = [];
  const lines: string[] = [];
  afterAll(async () => {
    for (const instance of instances) await instance.close();
  });

  it("is migrated once by 20 concurrent first requests on two instances, all of which then succeed", async () => {
    const { user, apiKey } = await createUser(tenantPrisma);
    const tenant = await registerTenant(mainPrisma, TENANT_SECRET, tenantDb.url);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    for (let i = 0; i < 2; i++) {
      const instance = await buildApp({
        config: testConfig({ HOSTED_MODE: "on", TENANT_SECRET }),
        prisma: mainPrisma,
        logger: { level: "info", stream },
        tenantMigrationsDir: migrationsDir,
      });
      await instance.ready();
      instances.push(instance);
    }

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        instances[i % 2]!.inject({ url: hostedUrl("/api/v1/me", apiKey, tenant.licenseKey) }).then(
          (answer) => ({ answer, at: Date.now() }),
        ),
      ),
    );
    const [recorded] = await tenantPrisma.$queryRaw<{ n: number; finished: Date }[]>`
      SELECT count(*)::int AS n, (SELECT max(done_at) FROM "scheduling"."hosted_test_marker") AS finished
        FROM "_prisma_migrations" WHERE migration_name = ${NEW_MIGRATION}`;
    expect(recorded!.n).toBe(1);
    for (const { answer, at } of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().user.id).toBe(user.id);
      // Each request waited for the migration (half a second) before it was served.
      expect(at).toBeGreaterThanOrEqual(recorded!.finished.getTime());
    }
    const migratedLines = lines
      .map((line) => JSON.parse(line) as { msg: string; migration?: string; tenantId?: string })
      .filter((line) => line.msg === "tenant database migrated");
    expect(migratedLines).toEqual([
      expect.objectContaining({ migration: NEW_MIGRATION, tenantId: tenant.id }),
    ]);
  });
});

describe("TenantClients", () => {
  const tenant = (id: string) => ({ id, databaseUrl: tenantDb.url });
  const log = pino({ level: "silent" });
  let clients: TenantClients | undefined;
  afterAll(async () => {
    await clients?.closeAll();
  });

  it("keeps at most connectionsMax / poolMax clients, closing the least recently used idle one", async () => {
    clients = new TenantClients({ poolMax: 2, connectionsMax: 5, log, migrationsDir });
    expect(clients.maxClients).toBe(2);
    const use = async (id: string) => {
      const lease = await clients!.acquire(tenant(id));
      await lease.db.$queryRaw`SELECT 1`;
      lease.release();
      return lease.db;
    };
    const first = await use("t1");
    await use("t2");
    await use("t1"); // t2 is now the least recently used
    await use("t3");
    expect([clients.has("t1"), clients.has("t2"), clients.has("t3")]).toEqual([true, false, true]);
    expect(clients.stats()).toMatchObject({ clients: 2, maxClients: 2 });
    expect(clients.stats().connections).toBeLessThanOrEqual(2 * 2);
    // A client is the same object until it is closed.
    expect(await use("t1")).toBe(first);
  });

  it("answers 503 rather than exceed the bound when every client is in use, and never closes one under a request", async () => {
    const held = [await clients!.acquire(tenant("t1")), await clients!.acquire(tenant("t3"))];
    await expect(clients!.acquire(tenant("t4"))).rejects.toBeInstanceOf(ServiceUnavailable);
    expect(clients!.has("t1") && clients!.has("t3")).toBe(true);
    await held[0]!.db.$queryRaw`SELECT 1`;
    held[0]!.release();
    held[0]!.release(); // idempotent
    const next = await clients!.acquire(tenant("t4"));
    expect(clients!.has("t1")).toBe(false);
    expect(clients!.has("t3")).toBe(true);
    next.release();
    held[1]!.release();
  });

  it("closes clients idle for idleMs, releasing their connections", async () => {
    const idle = new TenantClients({ poolMax: 1, connectionsMax: 10, log, migrationsDir, idleMs: 50 });
    try {
      const lease = await idle.acquire(tenant("quiet"));
      await lease.db.$queryRaw`SELECT 1`;
      expect(poolStats(lease.db)?.total).toBe(1);
      lease.release();
      idle.closeIdle(Date.now() + 60);
      expect(idle.has("quiet")).toBe(false);
      expect(idle.stats()).toMatchObject({ clients: 0, connections: 0 });
    } finally {
      await idle.closeAll();
    }
  });
});
