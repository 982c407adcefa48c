// Idempotency-Key for operations that create (POST /bookings): the same key and request within
// IDEMPOTENCY_WINDOW_HOURS answer the first answer again and change nothing (docs/adr/0148).
// The key is claimed by inserting its row first, in the operation's own transaction: a second
// request with the key waits on that row (on any instance: the database holds the lock) and
// replays once it commits. If the operation fails, the row goes with the rollback, so a retry
// after an error runs again.
import { createHash } from "node:crypto";
import type { PrismaClient } from "@app/db";
import { IDEMPOTENCY_WINDOW_HOURS } from "@app/schemas/scheduling";
import { UnprocessableEntity } from "../errors.ts";

/** What an idempotent operation answered: its status and its JSON body exactly as sent. */
export interface Answer {
  status: number;
  body: string;
}

interface Stored {
  requestHash: string;
  status: number | null;
  response: string | null;
}

/** JSON with object keys sorted, so one request hashes the same whatever its keys' order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** The request as the operation understood it (its validated body), and which operation it was. */
export function requestHash(operationId: string, body: unknown): string {
  return createHash("sha256")
    .update(`${operationId}\n${canonicalJson(body)}`)
    .digest("hex");
}

function replay(row: Stored, hash: string): Answer & { replayed: true } {
  if (row.requestHash !== hash) {
    throw new UnprocessableEntity(
      `This Idempotency-Key was already used with a different request within the last ` +
        `${IDEMPOTENCY_WINDOW_HOURS} hours; send a new key for a new request`,
    );
  }
  // Committed rows always hold the answer: both are written before the claim commits.
  return { status: row.status!, body: row.response!, replayed: true };
}

// Waiting on the key's row counts against these: a repeat waits for the first to finish.
const TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

/**
 * Runs `run` once per (user, key) within the window and keeps its answer; a repeat with the same
 * request hash gets that answer (`replayed`), one with another hash a 422. `run` works in the
 * transaction that holds the claim, so its writes and the kept answer commit together.
 */
export async function answerOnce(
  db: PrismaClient,
  claim: { userId: number; key: string; hash: string },
  run: (tx: PrismaClient) => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  const { userId, key, hash } = claim;
  const [stored] = await db.$queryRaw<Stored[]>`
    SELECT "requestHash", "status", "response" FROM "scheduling"."idempotency_keys"
     WHERE "userId" = ${userId} AND "key" = ${key}
       AND "createdAt" > now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;
  if (stored) return replay(stored, hash);

  return db.$transaction(async (tx) => {
    // Expired keys are forgotten a few at a time, on the way; rows another request holds are skipped.
    await tx.$executeRaw`
      DELETE FROM "scheduling"."idempotency_keys" WHERE ctid IN (
        SELECT ctid FROM "scheduling"."idempotency_keys"
         WHERE "createdAt" <= now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
         LIMIT 100 FOR UPDATE SKIP LOCKED)`;
    // Waits while another transaction holds this key's row; takes over a row that has expired.
    const claimed = await tx.$executeRaw`
      INSERT INTO "scheduling"."idempotency_keys" ("userId", "key", "requestHash")
      VALUES (${userId}, ${key}, ${hash})
      ON CONFLICT ("userId", "key") DO UPDATE
        SET "requestHash" = EXCLUDED."requestHash", "status" = NULL, "response" = NULL, "createdAt" = now()
        WHERE "idempotency_keys"."createdAt" <= now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;
    if (claimed === 0) {
      // Another request with this key committed while this one waited: answer as it did.
      const [row] = await tx.$queryRaw<Stored[]>`
        SELECT "requestHash", "status", "response" FROM "scheduling"."idempotency_keys"
         WHERE "userId" = ${userId} AND "key" = ${key}`;
      return replay(row!, hash);
    }
    const answer = await run(tx as unknown as PrismaClient);
    await tx.$executeRaw`
      UPDATE "scheduling"."idempotency_keys" SET "status" = ${answer.status}, "response" = ${answer.body}
       WHERE "userId" = ${userId} AND "key" = ${key}`;
    return { ...answer, replayed: false };
  }, TRANSACTION);
}

/**
 * `work` in the caller's transaction when `db` already is one (an idempotent operation runs in
 * the transaction that holds its key), else in a new one.
 */
export function inTransaction<T>(
  db: PrismaClient,
  work: (tx: PrismaClient) => Promise<T>,
  options?: { maxWait?: number; timeout?: number },
): Promise<T> {
  if (!("$transaction" in db)) return work(db);
  return db.$transaction((tx) => work(tx as unknown as PrismaClient), options);
}
