// Hosted-mode tests: tenants registered exactly as `tenant:create` registers them (without the
// child process), and the URLs that carry a license key.
import { createHash, randomBytes } from "node:crypto";
import { type PrismaClient, uuidv7 } from "@app/db";
import { adminQuery } from "@app/testing/database";
import { databaseUrlKey, generateLicenseKey, sealDatabaseUrl } from "../src/hosting/secrets.ts";

/** A TENANT_SECRET for one test file. */
export function newTenantSecret(): string {
  return randomBytes(32).toString("base64");
}

export interface TestTenant {
  id: string;
  name: string;
  licenseKey: string;
}

/** Registers a tenant whose database is `databaseUrl` (already migrated, or to be migrated on first use). */
export async function registerTenant(
  prisma: PrismaClient,
  tenantSecret: string,
  databaseUrl: string,
  name = `tenant-${randomBytes(4).toString("hex")}`,
): Promise<TestTenant> {
  const id = uuidv7();
  const { licenseKey, hash } = generateLicenseKey();
  await prisma.tenant.create({
    data: {
      id,
      name,
      licenseKeyHash: hash,
      databaseUrlEncrypted: sealDatabaseUrl(databaseUrlKey(tenantSecret), id, databaseUrl),
    },
  });
  return { id, name, licenseKey };
}

/** `url` with `apiKey` and, when given, the license key `key` added to its query. */
export function hostedUrl(url: string, apiKey: string, licenseKey?: string): string {
  const query = new URLSearchParams({ apiKey, ...(licenseKey === undefined ? {} : { key: licenseKey }) });
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

/**
 * `url` as a login role whose password is `password`, so tests can prove the password never
 * reaches a log or an answer. The role is created once per password (a superuser, test-only):
 * the machine's PostgreSQL trusts local connections and ignores it, the embedded one checks it.
 */
export async function withPassword(url: string, password: string): Promise<string> {
  const role = `hosted_test_${createHash("sha256").update(password).digest("hex").slice(0, 12)}`;
  const literal = password.replaceAll("'", "''");
  // Several files may create it at once: whoever loses the race finds it there.
  await adminQuery(
    url,
    `DO $$ BEGIN CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD '${literal}';
       EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
  );
  const parsed = new URL(url);
  parsed.username = role;
  parsed.password = password;
  return parsed.toString();
}
