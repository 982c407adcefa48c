// Short passwords are stored as salted scrypt hashes (Node's crypto; docs/adr/0173). The cost
// parameters are written into each hash, so raising them later leaves older hashes verifiable.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

export interface ScryptCost {
  /** log2 of N, the CPU and memory cost. */
  logN: number;
  r: number;
  p: number;
}

/** N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s of one core per hash, in the thread pool. */
export const PRODUCTION_COST: ScryptCost = { logN: 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** Hashes new passwords and checks given ones against stored hashes. */
export interface PasswordHasher {
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`, salt and key in base64url. */
  hash(password: string): Promise<string>;
  /** Whether `password` is the one `stored` was made from; a malformed `stored` matches nothing. */
  verify(password: string, stored: string): Promise<boolean>;
}

function derive(password: string, salt: Buffer, { logN, r, p }: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 2 ** logN * r * 128 * 2 };
  return new Promise((resolve, reject) =>
    // NFC: the same password typed on two keyboards is the same string.
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * scrypt at `cost` for new hashes. A stored hash is checked at the cost written in it. The
 * service always uses PRODUCTION_COST; only tests pass a cheaper one (hashes by the hundred).
 */
export function scryptHasher(cost: ScryptCost = PRODUCTION_COST): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomBytes(SALT_LENGTH);
      const key = await derive(password, salt, cost);
      return [
        "scrypt",
        cost.logN,
        cost.r,
        cost.p,
        salt.toString("base64url"),
        key.toString("base64url"),
      ].join("$");
    },
    async verify(password, stored) {
      const [scheme, logN, r, p, salt, key] = stored.split("$");
      if (scheme !== "scrypt" || !salt || !key) return false;
      const expected = Buffer.from(key, "base64url");
      const written = { logN: Number(logN), r: Number(r), p: Number(p) };
      const actual = await derive(password, Buffer.from(salt, "base64url"), written);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
