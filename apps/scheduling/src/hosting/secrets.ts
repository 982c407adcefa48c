// Hosted mode's secrets: license keys (shown once, stored as SHA-256), and tenant database
// URLs sealed at rest (../sealing.ts) under a key derived from TENANT_SECRET. The CLI, the
// request path and the tests all go through these functions, so they agree on every format.
import { createHash, randomBytes } from "node:crypto";
import { deriveKey, parseSecret, SECRET_FORMAT, seal, UnsealError, unseal } from "../sealing.ts";

/** What every license key starts with, so one is recognisable in a config file or a ticket. */
export const LICENSE_KEY_PREFIX = "lk_";

/** TENANT_SECRET as its 32 bytes (hex or base64); anything else is null. */
export const parseTenantSecret = parseSecret;

export const TENANT_SECRET_FORMAT = SECRET_FORMAT;

/** The AES-256 key that seals database URLs, derived from TENANT_SECRET for that purpose only. */
export function databaseUrlKey(tenantSecret: string): Buffer {
  return deriveKey(tenantSecret, "scheduling/hosting/database-url/v1", "TENANT_SECRET");
}

export function hashLicenseKey(licenseKey: string): string {
  return createHash("sha256").update(licenseKey).digest("hex");
}

/** A new license key (32 random bytes) and the hash to store. */
export function generateLicenseKey(): { licenseKey: string; hash: string } {
  const licenseKey = LICENSE_KEY_PREFIX + randomBytes(32).toString("base64url");
  return { licenseKey, hash: hashLicenseKey(licenseKey) };
}

/** The tenant id is the associated data: a sealed URL copied onto another tenant's row does not open. */
export function sealDatabaseUrl(key: Buffer, tenantId: string, databaseUrl: string): string {
  return seal(key, `tenant:${tenantId}`, databaseUrl);
}

export class SealedUrlError extends Error {
  override name = "SealedUrlError";
}

/** The URL, or SealedUrlError when it was sealed under another TENANT_SECRET (or altered). */
export function openDatabaseUrl(key: Buffer, tenantId: string, sealed: string): string {
  try {
    return unseal(key, `tenant:${tenantId}`, sealed);
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    throw new SealedUrlError(
      error.message === "unknown sealed format"
        ? `tenant ${tenantId}: unknown database URL format`
        : `tenant ${tenantId}: its database URL does not open with this TENANT_SECRET (was the secret changed?)`,
      { cause: error },
    );
  }
}
