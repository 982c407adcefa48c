// Hosted mode's management commands, run as the CLI itself against this file's databases, and
// the sealing of tenant database URLs they rely on.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createPrisma, type PrismaClient } from "@app/db";
import { runCliInProcess } from "@app/testing/cli";
import { adminQuery, createTestDatabase, type TestDatabase } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { schedulingCli } from "../src/cli.ts";
import {
  databaseUrlKey,
  generateLicenseKey,
  openDatabaseUrl,
  parseTenantSecret,
  SealedUrlError,
  sealDatabaseUrl,
} from "../src/hosting/secrets.ts";
import { createUser, setupApp } from "./helpers.ts";
import { hostedUrl, newTenantSecret, withPassword } from "./hosted-helpers.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const TENANT_SECRET = newTenantSecret();
const PASSWORD = "cli-tenant-password";

// A tenant found is trusted for ten minutes here (5 s in the service): what follows a change at
// once can only be the registry's notification, however long a loaded machine takes.
const t = setupApp({ HOSTED_MODE: "on", TENANT_SECRET }, { authCacheMs: 600_000 });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root against this file's default database. */
function run(command: string, args: string[], env: Record<string, string> = { TENANT_SECRET }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: t.databaseUrl,
          DATABASE_DIRECT_URL: t.directUrl,
          ...env,
        },
        timeout: 110_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A command through the CLI's own runner, in this process (no child process per command). */
const cli = (...args: string[]) => cliWith(args, { TENANT_SECRET });
const cliWith = (args: string[], env: Record<string, string>) =>
  runCliInProcess(schedulingCli, args, {
    DATABASE_URL: t.databaseUrl,
    DATABASE_DIRECT_URL: t.directUrl,
    ...env,
  });

let empty: TestDatabase;
let second: TestDatabase;
let tenantPrisma: PrismaClient;

beforeAll(async () => {
  [empty, second] = await Promise.all([createTestDatabase({ empty: true }), createTestDatabase()]);
  tenantPrisma = createPrisma(empty.url, { poolMax: 2 });
});

afterAll(async () => {
  await tenantPrisma?.$disconnect();
  await Promise.all([empty?.drop(), second?.drop()]);
});

const me = (apiKey: string, licenseKey: string) =>
  t.app.inject({ url: hostedUrl("/api/v1/me", apiKey, licenseKey) });

describe("pnpm scheduling tenant:*", () => {
  let tenant: { id: string; name: string; licenseKey: string };
  let apiKey: string;

  it("tenant:create migrates an empty database, registers it sealed, and prints a working license key once", async () => {
    const url = await withPassword(empty.url, PASSWORD);
    // Through the documented entry point once: the root package.json script.
    const result = await run("pnpm", [
      "-s",
      "scheduling",
      "tenant:create",
      "--name",
      "Acme Hosting",
      "--database-url",
      url,
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    // Only the document: its migrations are in it, not printed one by one around it.
    expect(result.stderr).toBe("");
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const created = JSON.parse(result.stdout);
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: "Acme Hosting",
      licenseKey: expect.stringMatching(/^lk_[A-Za-z0-9_-]{43}$/),
      migrationsApplied: expect.arrayContaining(["20261121010000_scheduling"]),
    });
    tenant = created;
    // The database holds this build's schema now.
    const migrated = await tenantPrisma.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM "_prisma_migrations"`;
    expect(migrated[0]!.n).toBe(created.migrationsApplied.length);
    // Stored: the key's SHA-256 and the URL sealed, never either in the clear.
    const row = await t.prisma.tenant.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.licenseKeyHash).toBe(createHash("sha256").update(created.licenseKey).digest("hex"));
    expect(row.databaseUrlEncrypted).toMatch(/^v1\./);
    for (const secret of [url, PASSWORD, new URL(url).pathname])
      expect(row.databaseUrlEncrypted).not.toContain(secret);
    expect(openDatabaseUrl(databaseUrlKey(TENANT_SECRET), row.id, row.databaseUrlEncrypted)).toBe(url);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);

    // The key routes to that database: a user made there is found through it.
    const user = await createUser(tenantPrisma);
    apiKey = user.apiKey;
    const answer = await me(apiKey, created.licenseKey);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().user.email).toBe(user.user.email);

    const human = await cli("tenant:create", "--name", "Second", "--database-url", second.url);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      /^Created tenant \S+ "Second" on .* \(\d+ migrations applied\)\. License key \(shown once\): lk_\S+\n$/,
    );
    expect(human.stderr).toBe("");
  });

  it("refuses a taken name, the default database, another tenant's database, one it cannot reach, or no TENANT_SECRET", async () => {
    const cases: [string[], string, Record<string, string>?][] = [
      [
        ["--name", "Acme Hosting", "--database-url", second.url],
        "A tenant named Acme Hosting already exists",
      ],
      [["--name", "Self", "--database-url", t.databaseUrl], "That is the default database"],
      [["--name", "Twin", "--database-url", empty.url], "Tenant Acme Hosting already uses the database at"],
      [
        ["--name", "Nowhere", "--database-url", `postgresql://u:${PASSWORD}@127.0.0.1:1/x`],
        "cannot connect to the database at 127.0.0.1:1",
      ],
      [["--name", "Unsealed", "--database-url", second.url], "TENANT_SECRET is not set", {}],
    ];
    const results = await Promise.all(
      cases.map(([args, , env]) => cliWith(["tenant:create", ...args], env ?? { TENANT_SECRET })),
    );
    results.forEach((result, i) => {
      expect(result.code, cases[i]![1]).toBe(1);
      expect(result.stderr).toContain(cases[i]![1]);
      expect(result.stderr).not.toContain(PASSWORD);
      expect(result.stdout).toBe("");
    });
    expect(await t.prisma.tenant.count()).toBe(2);
  });

  it("tenant:list shows id, name and dates, never a key, a hash or a database URL", async () => {
    const listed = await cli("tenant:list", "--json");
    expect(listed.code).toBe(0);
    const tenants = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(tenants.map((row) => row.name)).toEqual(["Acme Hosting", "Second"]);
    expect(tenants[0]).toEqual({
      id: tenant.id,
      name: "Acme Hosting",
      createdAt: expect.any(String),
      disabledAt: null,
    });
    const human = await cli("tenant:list");
    expect(human.stdout).toMatch(/^ID +NAME +CREATED +DISABLED/);
    const rows = await t.prisma.tenant.findMany();
    for (const output of [listed.stdout, human.stdout]) {
      for (const secret of [
        tenant.licenseKey,
        empty.url,
        second.url,
        "postgresql://",
        ...rows.map((r) => r.licenseKeyHash),
      ]) {
        expect(output).not.toContain(secret);
      }
    }
  });

  it("tenant:disable refuses the key at once (401), tenant:enable accepts it again", async () => {
    const disabled = await cli("tenant:disable", "--name", "Acme Hosting", "--json");
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toEqual({ id: tenant.id, name: "Acme Hosting", disabled: true });
    await vi.waitFor(async () => {
      const refused = await me(apiKey, tenant.licenseKey);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ message: "Your license key is not valid." });
    }, SOON);
    const again = await cli("tenant:disable", "--id", tenant.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Tenant Acme Hosting is already disabled");

    const enabled = await cli("tenant:enable", "--id", tenant.id);
    expect(enabled.code, enabled.stderr).toBe(0);
    await vi.waitFor(async () => expect((await me(apiKey, tenant.licenseKey)).statusCode).toBe(200), SOON);
  });

  it("tenant:rotate-key prints a new key that works; the old one is refused at once", async () => {
    const rotated = await cli("tenant:rotate-key", "--id", tenant.id, "--json");
    expect(rotated.code, rotated.stderr).toBe(0);
    const { licenseKey } = JSON.parse(rotated.stdout);
    expect(licenseKey).toMatch(/^lk_/);
    expect(licenseKey).not.toBe(tenant.licenseKey);
    expect((await me(apiKey, licenseKey)).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await me(apiKey, tenant.licenseKey)).statusCode).toBe(401), SOON);
  });

  it("--help documents each command; bad invocations exit 2 with the usage", async () => {
    const names = ["tenant:create", "tenant:list", "tenant:disable", "tenant:enable", "tenant:rotate-key"];
    const [tool, ...helps] = await Promise.all([cli("--help"), ...names.map((name) => cli(name, "--help"))]);
    names.forEach((name, i) => {
      expect(tool!.stdout).toContain(name);
      expect(helps[i]!.code).toBe(0);
      expect(helps[i]!.stdout).toMatch(new RegExp(`^Usage: pnpm -s scheduling ${name}`));
    });
    const bad: [string[], string][] = [
      [["tenant:create", "--database-url", second.url], "--name is required"],
      [["tenant:create", "--name", "x"], "give exactly one of --database-url and --create-database"],
      [
        ["tenant:create", "--name", "x", "--database-url", "mysql://db"],
        "--database-url must be a postgresql:// URL",
      ],
      [["tenant:create", "--name", " ", "--database-url", second.url], "--name must not be empty"],
      [["tenant:disable"], "give exactly one of --id and --name"],
      [["tenant:rotate-key", "--id", "nope"], "--id must be a tenant id"],
    ];
    const results = await Promise.all(bad.map(([args]) => cli(...args)));
    results.forEach((result, i) => {
      expect(result.code, bad[i]![1]).toBe(2);
      expect(result.stderr).toContain(bad[i]![1]);
      expect(result.stderr).toContain("Usage: pnpm -s scheduling");
    });
    const unknown = await cli("tenant:disable", "--name", "Nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such tenant");
  });

  it("tenant:create --create-database makes the tenant's database on the default database's server", async () => {
    const name = `tenant_${randomBytes(4).toString("hex")}`;
    const result = await cli("tenant:create", "--name", `Made ${name}`, "--create-database", name);
    const [, id, count, licenseKey] =
      result.stdout.match(/^Created tenant (\S+) .* \((\d+) migrations applied\)\. .*: (lk_\S+)\n$/) ?? [];
    const created = { id: id!, licenseKey: licenseKey! };
    const tenantUrl = new URL(t.databaseUrl);
    tenantUrl.pathname = `/${name}`;
    const db = createPrisma(tenantUrl.toString(), { poolMax: 1 });
    try {
      expect(result.code, result.stderr).toBe(0);
      // A new database, migrated: the line counts its migrations, which are not printed one by
      // one (--verbose prints them).
      expect(Number(count)).toBeGreaterThan(1);
      expect(result.stderr).toBe("");
      const user = await createUser(db);
      const answer = await me(user.apiKey, created.licenseKey);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().user.email).toBe(user.user.email);
      const again = await cli("tenant:create", "--name", "Again", "--create-database", name);
      expect(again).toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`A database named ${name} already exists`),
      });
      const both = await cli(
        "tenant:create",
        "--name",
        "Both",
        "--create-database",
        "x",
        "--database-url",
        empty.url,
      );
      expect(both).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("exactly one of --database-url and --create-database"),
      });
      const bad = await cli("tenant:create", "--name", "Bad", "--create-database", 'x"; DROP');
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining("--create-database must be") });
    } finally {
      await db.$disconnect();
      if (created.id) await t.prisma.tenant.deleteMany({ where: { id: created.id } });
      await adminQuery(inject("databaseServerUrl"), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});

describe("sealed database URLs and license keys", () => {
  const key = databaseUrlKey(TENANT_SECRET);
  const url = "postgresql://app:secret@db.example.com:5432/tenant";

  it("accept TENANT_SECRET as hex or base64 of exactly 32 bytes", () => {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString("hex"), bytes.toString("base64"), bytes.toString("base64url")]) {
      expect(parseTenantSecret(text)).toEqual(bytes);
    }
    for (const text of [
      "",
      "x".repeat(64),
      randomBytes(16).toString("hex"),
      randomBytes(33).toString("base64"),
    ]) {
      expect(parseTenantSecret(text), text).toBeNull();
    }
  });

  it("seal a URL so that only the same secret and the same tenant open it, and any change is detected", () => {
    const sealed = sealDatabaseUrl(key, "tenant-1", url);
    expect(sealed).not.toContain("secret");
    expect(sealDatabaseUrl(key, "tenant-1", url)).not.toBe(sealed); // a fresh IV each time
    expect(openDatabaseUrl(key, "tenant-1", sealed)).toBe(url);
    expect(() => openDatabaseUrl(key, "tenant-2", sealed)).toThrow(SealedUrlError);
    expect(() => openDatabaseUrl(databaseUrlKey(newTenantSecret()), "tenant-1", sealed)).toThrow(
      /does not open with this TENANT_SECRET/,
    );
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(() => openDatabaseUrl(key, "tenant-1", `v1.${bytes.toString("base64url")}`)).toThrow(
      SealedUrlError,
    );
    expect(() => openDatabaseUrl(key, "tenant-1", "v2.abc")).toThrow(/unknown database URL format/);
  });

  it("make license keys of 32 random bytes, stored as their SHA-256", () => {
    const { licenseKey, hash } = generateLicenseKey();
    expect(licenseKey).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(createHash("sha256").update(licenseKey).digest("hex"));
    expect(generateLicenseKey().licenseKey).not.toBe(licenseKey);
  });
});
