// Secrets the service must use again (a tenant's database URL, a calendar login) are sealed at rest
// with AES-256-GCM under a key derived from a 32-byte secret of the configuration, with the row
// they belong to as associated data: a sealed value copied onto another row does not open. One
// format for all of them: `v1.<base64url(iv ‖ tag ‖ ciphertext)>`.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

const HEX_SECRET = /^[0-9a-fA-F]{64}$/;
const BASE64_SECRET = /^[A-Za-z0-9+/_-]{43}=?$/;

/** What a configured secret must be (TENANT_SECRET, CREDENTIALS_KEY). */
export const SECRET_FORMAT =
  "must be 32 random bytes, as 64 hex characters (openssl rand -hex 32) or base64 (openssl rand -base64 32)";

/** A configured secret as its 32 bytes: 64 hex characters, or base64 / base64url. Anything else is null. */
export function parseSecret(value: string): Buffer | null {
  if (HEX_SECRET.test(value)) return Buffer.from(value, "hex");
  if (BASE64_SECRET.test(value)) {
    const bytes = Buffer.from(value, "base64");
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

/**
 * The AES-256 key for one purpose: HKDF-SHA256 of the secret with a purpose-naming info string,
 * so the secret itself never keys a cipher and derives other keys without reuse.
 */
export function deriveKey(secret: string, purpose: string, name: string): Buffer {
  const bytes = parseSecret(secret);
  if (!bytes) throw new Error(`${name} ${SECRET_FORMAT}`);
  return Buffer.from(hkdfSync("sha256", bytes, Buffer.alloc(0), purpose, 32));
}

/** A short, public name of a key (the first bytes of its SHA-256): which key sealed a value. */
export function keyFingerprint(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

const SEALED_VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function seal(key: Buffer, associated: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associated));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${SEALED_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url")}`;
}

/** A sealed value that does not open: another key, another row, or altered. */
export class UnsealError extends Error {
  override name = "UnsealError";
}

export function unseal(key: Buffer, associated: string, sealed: string): string {
  const [version, payload] = sealed.split(".", 2);
  if (version !== SEALED_VERSION || payload === undefined) throw new UnsealError("unknown sealed format");
  const bytes = Buffer.from(payload, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch (error) {
    throw new UnsealError("does not open with this key", { cause: error });
  }
}
