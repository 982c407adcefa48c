// API keys as v1 issues them: the caller gets `<prefix><32 hex chars>`; the database keeps
// only the SHA-256 hex of the part after the prefix. The auth hook, the CLI, the seed and
// the tests all go through these functions, so they agree on the hashing.
import { createHash, randomBytes } from "node:crypto";
import type { ApiKey, PrismaClient } from "@app/db";

/** SHA-256 hex of the key without its prefix. Only a leading prefix is stripped (v1 stripped it anywhere). */
export function hashApiKey(apiKey: string, prefix: string): string {
  const secret = prefix !== "" && apiKey.startsWith(prefix) ? apiKey.slice(prefix.length) : apiKey;
  return createHash("sha256").update(secret).digest("hex");
}

export function generateApiKey(prefix: string): { apiKey: string; hashedKey: string } {
  const apiKey = prefix + randomBytes(16).toString("hex");
  return { apiKey, hashedKey: hashApiKey(apiKey, prefix) };
}

export interface IssueApiKeyOptions {
  userId: number;
  prefix: string;
  expiresAt?: Date | null;
  note?: string | null;
}

/** Stores a new key for the user and returns it: the only time the plain key exists. */
export async function issueApiKey(
  prisma: Pick<PrismaClient, "apiKey">,
  { userId, prefix, expiresAt = null, note = null }: IssueApiKeyOptions,
): Promise<{ apiKey: string; record: ApiKey }> {
  const { apiKey, hashedKey } = generateApiKey(prefix);
  const record = await prisma.apiKey.create({ data: { userId, hashedKey, expiresAt, note } });
  return { apiKey, record };
}

/** Deletes the key; false when no such key exists. */
export async function revokeApiKey(
  prisma: Pick<PrismaClient, "apiKey">,
  apiKey: string,
  prefix: string,
): Promise<boolean> {
  const { count } = await prisma.apiKey.deleteMany({ where: { hashedKey: hashApiKey(apiKey, prefix) } });
  return count > 0;
}
