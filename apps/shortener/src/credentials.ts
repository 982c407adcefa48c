// Users and their bearer tokens, as the CLI, the auth hook and the tests make and check them.
// Tokens are returned once, when made; only their SHA-256 is kept, and no listing ever shows either.
import { createHash, randomBytes } from "node:crypto";
import { isUniqueViolation, type PrismaClient } from "@app/db";
import { email } from "@app/schemas/email";

const TOKEN_PREFIX = "shr_";

/** A new bearer token: shown to its owner once, never stored. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A credential command that cannot be done (no such user, already exists...): its message says why. */
export class CredentialError extends Error {
  override name = "CredentialError";
}

/** user:create for an e-mail that has a user: the CLI names the command that gives it a token. */
export class UserExists extends CredentialError {
  override name = "UserExists";
  constructor(readonly email: string) {
    super(`a user with e-mail ${email} already exists`);
  }
}

/** The schema every e-mail field of both services shares (RFC 5321's lengths). */
const Email = email();

function validEmail(email: string): string {
  const parsed = Email.safeParse(email.trim());
  if (!parsed.success) throw new CredentialError(`not an e-mail address: ${JSON.stringify(email)}`);
  return parsed.data.toLowerCase();
}

/** A new user with a first token; the token is returned once and only its hash is kept. */
export async function createUser(prisma: PrismaClient, email: string) {
  const token = generateToken();
  try {
    const user = await prisma.shortenerUser.create({
      data: { email: validEmail(email), tokens: { create: { tokenHash: hashToken(token) } } },
    });
    return { id: user.id, username: user.email, token };
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserExists(email);
    throw error;
  }
}

/** Every user, oldest first, with how many tokens and shorts each has. */
export async function listUsers(prisma: PrismaClient) {
  const users = await prisma.shortenerUser.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, createdAt: true, _count: { select: { tokens: true, shorts: true } } },
  });
  return users.map((u) => ({
    id: u.id,
    username: u.email,
    createdAt: u.createdAt,
    tokens: u._count.tokens,
    shorts: u._count.shorts,
  }));
}

async function userIdOf(prisma: PrismaClient, email: string): Promise<string> {
  const user = await prisma.shortenerUser.findUnique({ where: { email: validEmail(email) } });
  if (!user) throw new CredentialError(`no user with e-mail ${email}`);
  return user.id;
}

/** A further token for an existing user. */
export async function createToken(prisma: PrismaClient, email: string, note: string | null = null) {
  const userId = await userIdOf(prisma, email);
  const token = generateToken();
  const { id } = await prisma.shortenerToken.create({ data: { userId, tokenHash: hashToken(token), note } });
  return { id, token };
}

/** The tokens of one user (by e-mail) or of everyone: never the secret or its hash. */
export async function listTokens(prisma: PrismaClient, email?: string) {
  const where = email === undefined ? {} : { userId: await userIdOf(prisma, email) };
  const tokens = await prisma.shortenerToken.findMany({
    where,
    orderBy: { createdAt: "asc" },
    select: { id: true, note: true, createdAt: true, lastUsedAt: true, user: { select: { email: true } } },
  });
  return tokens.map(({ user, ...token }) => ({ ...token, username: user.email }));
}

/** Revokes a token at once, by its secret or by its id: the next request with it is 401. */
export async function revokeToken(prisma: PrismaClient, which: { token: string } | { id: string }) {
  const where = "token" in which ? { tokenHash: hashToken(which.token) } : { id: which.id };
  const { count } = await prisma.shortenerToken.deleteMany({ where });
  if (count === 0) throw new CredentialError("no such token (already revoked?)");
  return { revoked: true };
}
