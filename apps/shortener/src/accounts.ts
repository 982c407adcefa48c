import { isUniqueViolation, type PrismaClient } from "@app/db";
import { z } from "zod";
import { generateToken, hashToken } from "./tokens.ts";

export class AccountError extends Error {
  override name = "AccountError";
}

const Email = z.email();

function validEmail(email: string): string {
  const parsed = Email.safeParse(email.trim());
  if (!parsed.success) throw new AccountError(`not an e-mail address: ${JSON.stringify(email)}`);
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
    if (isUniqueViolation(error)) throw new AccountError(`a user with e-mail ${email} already exists`);
    throw error;
  }
}

/** A further token for an existing user. */
export async function createToken(prisma: PrismaClient, email: string) {
  const user = await prisma.shortenerUser.findUnique({ where: { email: validEmail(email) } });
  if (!user) throw new AccountError(`no user with e-mail ${email}`);
  const token = generateToken();
  await prisma.shortenerToken.create({ data: { userId: user.id, tokenHash: hashToken(token) } });
  return { token };
}

/** Revokes a token at once: the next request with it is 401. */
export async function revokeToken(prisma: PrismaClient, token: string) {
  const { count } = await prisma.shortenerToken.deleteMany({ where: { tokenHash: hashToken(token) } });
  if (count === 0) throw new AccountError("no such token (already revoked?)");
  return { revoked: true };
}
