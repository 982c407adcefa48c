// Short passwords are stored as salted scrypt hashes (Node's crypto; docs/adr/0173). The cost
// parameters are written into each hash, so raising them later leaves older hashes verifiable.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

// N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s of one core per hash, in the thread pool.
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 2 ** logN * r * 128 * 2 };
  return new Promise((resolve, reject) =>
    // NFC: the same password typed on two keyboards is the same string.
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<key>`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, LOG_N, R, P);
  return ["scrypt", LOG_N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` is the one `stored` was made from; a malformed `stored` matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
