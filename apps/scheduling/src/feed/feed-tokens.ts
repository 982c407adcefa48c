// Calendar feed tokens (docs/adr/0229): `feed_<43 base64url chars>` (256 random bits), stored
// only as the SHA-256 hex of the whole token. The API resource (resources/feed-tokens.ts), the
// CLI and the feed's authentication (auth.ts) all go through these functions.
import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "@app/db";
import { CredentialError, findUserId } from "../credentials.ts";

export const FEED_TOKEN_PREFIX = "feed_";

// Writing lastUsedAt on every fetch would turn every calendar app's poll into a write.
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashFeedToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function generateFeedToken(): { token: string; hashedToken: string } {
  const token = FEED_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, hashedToken: hashFeedToken(token) };
}

/** The feed's path and query for a token: what a calendar app subscribes to, after the API's origin. */
export function feedPath(token: string): string {
  return `/v1/bookings.ics?${new URLSearchParams({ feedToken: token })}`;
}

export const feedTokenSelect = {
  id: true,
  userId: true,
  note: true,
  createdAt: true,
  lastUsedAt: true,
} as const;

/** Stores a new token for the user and returns it: the only time the plain token exists. */
export async function issueFeedToken(
  prisma: Pick<PrismaClient, "calendarFeedToken">,
  { userId, note = null }: { userId: number; note?: string | null },
) {
  const { token, hashedToken } = generateFeedToken();
  const record = await prisma.calendarFeedToken.create({
    data: { userId, hashedToken, note },
    select: feedTokenSelect,
  });
  return { token, record };
}

/**
 * The user a presented token opens, or null: a missing, malformed, unknown or revoked token all
 * take this one lookup (and are answered alike). Records the use, to the minute.
 */
export async function feedTokenUser(db: PrismaClient, token: unknown): Promise<number | null> {
  if (typeof token !== "string" || !token.startsWith(FEED_TOKEN_PREFIX) || token.length > 100) return null;
  const row = await db.calendarFeedToken.findUnique({
    where: { hashedToken: hashFeedToken(token) },
    select: { id: true, userId: true, lastUsedAt: true, user: { select: { locked: true } } },
  });
  // A locked user's feed stops, as their API keys do.
  if (!row || row.user.locked) return null;
  const now = new Date();
  if (now.getTime() - (row.lastUsedAt?.getTime() ?? 0) >= LAST_USED_RESOLUTION_MS) {
    // updateMany: the token may be revoked meanwhile, which is not an error.
    await db.calendarFeedToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return row.userId;
}

/** Every token (or one user's), oldest first, with its owner's e-mail; never the secret nor its hash. */
export async function listFeedTokens(prisma: PrismaClient, user?: string) {
  const where = user === undefined ? {} : { userId: await userIdOf(prisma, user) };
  const rows = await prisma.calendarFeedToken.findMany({
    where,
    orderBy: { id: "asc" },
    select: { ...feedTokenSelect, user: { select: { email: true } } },
  });
  return rows.map(({ user: owner, ...row }) => ({ ...row, email: owner.email }));
}

/** Revokes (deletes) a token by its id; CredentialError when there is no such token. */
export async function revokeFeedToken(prisma: PrismaClient, id: number): Promise<void> {
  const { count } = await prisma.calendarFeedToken.deleteMany({ where: { id } });
  if (count === 0) throw new CredentialError(`No feed token has id ${id}`);
}

/** A user named by e-mail, or by id (digits); CredentialError when there is none. */
export async function userIdOf(prisma: PrismaClient, user: string): Promise<number> {
  if (!/^\d+$/.test(user)) return findUserId(prisma, user);
  if (Number(user) > 2_147_483_647) throw new CredentialError(`No user with id ${user}`);
  const found = await prisma.user.findUnique({ where: { id: Number(user) }, select: { id: true } });
  if (!found) throw new CredentialError(`No user with id ${user}`);
  return found.id;
}
