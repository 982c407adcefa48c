// Time-ordered UUIDs (version 7, RFC 9562), as Prisma's `uuid(7)` makes them, for rows whose id
// is needed before (or without) Prisma's insert: raw set-based inserts, hosted-mode tenants.
import { randomBytes } from "node:crypto";

function format(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One version-7 UUID: 48 bits of milliseconds, then random bits. */
export function uuidv7(): string {
  return uuidv7s(1)[0]!;
}

/** Most ids one call orders: rand_a's 12 bits hold the position (RFC 9562 §6.2, method 1). */
export const UUIDV7_BATCH_MAX = 4096;

/**
 * `count` version-7 UUIDs of one millisecond that sort in the order returned: the position is
 * in the 12 bits after the version, the remaining 62 bits are random. Rows inserted together
 * (same `created_at`) thus list in the order they were sent.
 */
export function uuidv7s(count: number): string[] {
  if (count > UUIDV7_BATCH_MAX) throw new RangeError(`at most ${UUIDV7_BATCH_MAX} ids at once`);
  const now = Date.now();
  const random = randomBytes(16 * count);
  return Array.from({ length: count }, (_, index) => {
    const bytes = random.subarray(index * 16, index * 16 + 16);
    bytes.writeUIntBE(now, 0, 6);
    // A single id keeps rand_a random, as Prisma's do; a batch counts in it.
    if (count > 1) bytes.writeUInt16BE(index, 6);
    bytes[6] = (bytes[6]! & 0x0f) | 0x70;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    return format(bytes);
  });
}

/**
 * The least version-7 UUID of the millisecond `time` (and more than every one of before it): ids
 * made before `time` sort below it, so `id < uuidv7Floor(t)` picks the rows made before t.
 */
export function uuidv7Floor(time: number): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(time)), 0, 6);
  return format(bytes);
}
