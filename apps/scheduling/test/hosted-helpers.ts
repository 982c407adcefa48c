// Hosted-mode tests: tenants registered exactly as `tenant:create` registers them (without the
// child process), and the URLs that carry a license key.
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@app/db";
import { databaseUrlKey, generateLicenseKey, sealDatabaseUrl, uuidv7 } from "../src/hosting/secrets.ts";

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

/** A database URL with a password in it, so tests can prove it never reaches a log or an answer (the test server trusts local connections). */
export function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}
