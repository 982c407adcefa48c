// Hosted mode's secrets: license keys (shown once, stored as SHA-256), and tenant database
// URLs sealed at rest with AES-256-GCM under a key derived from TENANT_SECRET. The CLI, the
// request path and the tests all go through these functions, so they agree on every format.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/** What every license key starts with, so one is recognisable in a config file or a ticket. */
export const LICENSE_KEY_PREFIX = "lk_";

const HEX_SECRET = /^[0-9a-fA-F]{64}$/;
const BASE64_SECRET = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * TENANT_SECRET as its 32 bytes: 64 hex characters (`openssl rand -hex 32`) or base64 /
 * base64url (`openssl rand -base64 32`). Anything else is null.
 */
export function parseTenantSecret(value: string): Buffer | null {
  if (HEX_SECRET.test(value)) return Buffer.from(value, "hex");
  if (BASE64_SECRET.test(value)) {
    const bytes = Buffer.from(value, "base64");
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

export const TENANT_SECRET_FORMAT =
  "must be 32 random bytes, as 64 hex characters (openssl rand -hex 32) or base64 (openssl rand -base64 32)";

/**
 * The AES-256 key that seals database URLs: HKDF-SHA256 of TENANT_SECRET with a fixed,
 * purpose-naming info string, so the secret itself never keys a cipher and could later derive
 * other keys without reuse.
 */
export function databaseUrlKey(tenantSecret: string): Buffer {
  const secret = parseTenantSecret(tenantSecret);
  if (!secret) throw new Error(`TENANT_SECRET ${TENANT_SECRET_FORMAT}`);
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "scheduling/hosting/database-url/v1", 32));
}

export function hashLicenseKey(licenseKey: string): string {
  return createHash("sha256").update(licenseKey).digest("hex");
}

/** A new license key (32 random bytes) and the hash to store. */
export function generateLicenseKey(): { licenseKey: string; hash: string } {
  const licenseKey = LICENSE_KEY_PREFIX + randomBytes(32).toString("base64url");
  return { licenseKey, hash: hashLicenseKey(licenseKey) };
}

const SEALED_VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * `v1.<base64url(iv ‖ tag ‖ ciphertext)>`. The tenant id is the associated data: a sealed URL
 * copied onto another tenant's row does not open.
 */
export function sealDatabaseUrl(key: Buffer, tenantId: string, databaseUrl: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`tenant:${tenantId}`));
  const ciphertext = Buffer.concat([cipher.update(databaseUrl, "utf8"), cipher.final()]);
  return `${SEALED_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
}

export class SealedUrlError extends Error {
  override name = "SealedUrlError";
}

/** The URL, or SealedUrlError when it was sealed under another TENANT_SECRET (or altered). */
export function openDatabaseUrl(key: Buffer, tenantId: string, sealed: string): string {
  const [version, payload] = sealed.split(".", 2);
  if (version !== SEALED_VERSION || payload === undefined) {
    throw new SealedUrlError(`tenant ${tenantId}: unknown database URL format`);
  }
  const bytes = Buffer.from(payload, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(`tenant:${tenantId}`));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch (error) {
    throw new SealedUrlError(
      `tenant ${tenantId}: its database URL does not open with this TENANT_SECRET (was the secret changed?)`,
      { cause: error },
    );
  }
}
