import { createHash, randomBytes } from "node:crypto";

const TOKEN_PREFIX = "shr_";

/** A new bearer token: shown to its owner once, never stored. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
