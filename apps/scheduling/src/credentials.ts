// Users and their API keys, as the CLI, the seed and the tests make them. API keys as v1 issues
// them: the caller gets `<prefix><32 hex chars>`; the database keeps only the SHA-256 hex of
// the part after the prefix. The auth hook and everyone else go through these functions, so
// they agree on the hashing.
import { hash, randomBytes } from "node:crypto";
import { type ApiKey, isUniqueViolation, type PrismaClient } from "@app/db";

/** SHA-256 hex of the key without its prefix. Only a leading prefix is stripped (v1 stripped it anywhere). */
export function hashApiKey(apiKey: string, prefix: string): string {
  const secret = prefix !== "" && apiKey.startsWith(prefix) ? apiKey.slice(prefix.length) : apiKey;
  // The one-shot digest: a third of createHash's time, on every authenticated request (docs/adr/0257).
  return hash("sha256", secret, "hex");
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

/** A credential command that cannot be done (no such user, already exists...): its message says why. */
export class CredentialError extends Error {
  override name = "CredentialError";
}

/** user:create for an e-mail that has a user: the CLI names the command that gives it a key. */
export class UserExists extends CredentialError {
  override name = "UserExists";
  constructor(readonly email: string) {
    super(`A user with e-mail ${email} already exists`);
  }
}

export async function findUserId(prisma: PrismaClient, email: string): Promise<number> {
  const user = await prisma.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) throw new CredentialError(`No user with e-mail ${email}`);
  return user.id;
}

/** A user and their first API key, in one transaction: the key is returned, only this once. */
export async function createUserWithKey(
  prisma: PrismaClient,
  {
    email,
    username,
    role,
    prefix,
  }: { email: string; username: string | null; role: "ADMIN" | "USER"; prefix: string },
) {
  const taken = await prisma.user.findFirst({
    where: { OR: [{ email }, ...(username ? [{ username }] : [])] },
    select: { email: true },
  });
  if (taken) {
    throw taken.email === email
      ? new UserExists(email)
      : new CredentialError(`Username ${username} is taken`);
  }
  return prisma
    .$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, username, role } });
      const key = await issueApiKey(tx, { userId: user.id, prefix });
      return { user, apiKey: key.apiKey };
    })
    .catch((error: unknown) => {
      // Lost a race with another writer between the check and the insert.
      throw isUniqueViolation(error) ? new CredentialError("That user already exists") : error;
    });
}

export function listUsers(prisma: PrismaClient) {
  return prisma.user.findMany({
    orderBy: { id: "asc" },
    select: { id: true, email: true, username: true, role: true, locked: true, createdDate: true },
  });
}

/** Every key (or one user's), oldest first: id, owner, note, times; never the secret nor its hash. */
export async function listApiKeys(prisma: PrismaClient, email?: string) {
  const where = email === undefined ? {} : { userId: await findUserId(prisma, email) };
  const keys = await prisma.apiKey.findMany({
    where,
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      userId: true,
      note: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      user: { select: { email: true } },
    },
  });
  return keys.map(({ user, ...key }) => ({ ...key, email: user?.email ?? null }));
}

/** Revokes a key by its id or by the key itself; CredentialError when there is no such key. */
export async function revokeApiKeyBy(
  prisma: PrismaClient,
  which: { id: string } | { apiKey: string; prefix: string },
): Promise<void> {
  const revoked =
    "id" in which
      ? (await prisma.apiKey.deleteMany({ where: { id: which.id } })).count > 0
      : await revokeApiKey(prisma, which.apiKey, which.prefix);
  if (!revoked) throw new CredentialError("No such API key");
}
