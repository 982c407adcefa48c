// Idempotency-Key for operations that create, in both services (docs/adr/0148, 0160): the same
// key and request within IDEMPOTENCY_WINDOW_HOURS answer the first answer again and change
// nothing. The key is claimed by inserting its row first, in the operation's own transaction: a
// second request with the key waits on that row (on any instance: the database holds the lock)
// and replays once it commits. If the operation fails, the row goes with the rollback, so a
// retry after an error runs again. Each service keeps its keys in a table of its own schema.
import { createHash } from "node:crypto";
import { isDatabaseUnavailable, Prisma, type PrismaClient, waitMsOf } from "@app/db";
import { IDEMPOTENCY_WINDOW_HOURS } from "@app/schemas/idempotency";
import type { FastifyReply } from "fastify";
import { UnprocessableEntity } from "./errors.ts";

/** What an idempotent operation answered: its status and its JSON body exactly as sent. */
export interface Answer {
  status: number;
  body: string;
}

/** Where a service keeps its keys: the table, named in the service's own style. */
export interface IdempotencyTable {
  /** Schema-qualified and quoted, e.g. `"scheduling"."idempotency_keys"`. */
  table: string;
  /** Each column's quoted name. */
  columns: Record<"user" | "key" | "requestHash" | "status" | "response" | "createdAt", string>;
  /** SQL type of the user column. */
  userType: "integer" | "uuid";
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

/**
 * The transaction clients answerOnce hands to its operations. Prisma 7's transaction client
 * still has `$transaction`, so inTransaction cannot tell one by that: it used to open a nested
 * transaction there, after which every later transaction of the client failed ("Transaction
 * already closed").
 */
const transactionClients = new WeakSet<object>();

// Waiting on the key's row counts against `timeout`: a repeat waits for the first to finish.
// Waiting for a connection is bounded by the pool's own connect timeout, which answers 503;
// `maxWait` only has to be longer, or Prisma gives up first with an error that answered 500
// (seen: 8 of 20 keyed creates sharing one connection on a loaded machine).
const TRANSACTION = { maxWait: 600_000, timeout: 15_000 };

/** Expired keys forgotten by each claim, on the way: the table stays bounded without a job. */
export const PRUNED_PER_CLAIM = 100;

/** One service's keys: `answerOnce` runs an operation once per (user, key) within the window. */
export class IdempotencyKeys {
  private readonly sql: Record<"table" | "userType" | keyof IdempotencyTable["columns"], Prisma.Sql>;

  constructor(table: IdempotencyTable) {
    const { columns } = table;
    // Identifiers from the service's own constant, never from a request.
    this.sql = {
      table: Prisma.raw(table.table),
      userType: Prisma.raw(table.userType),
      user: Prisma.raw(columns.user),
      key: Prisma.raw(columns.key),
      requestHash: Prisma.raw(columns.requestHash),
      status: Prisma.raw(columns.status),
      response: Prisma.raw(columns.response),
      createdAt: Prisma.raw(columns.createdAt),
    };
  }

  /**
   * Runs `run` once per (user, key) within the window and keeps its answer; a repeat with the
   * same request hash gets that answer (`replayed`), one with another hash a 422. `run` works in
   * the transaction that holds the claim, so its writes and the kept answer commit together.
   */
  async answerOnce(
    db: PrismaClient,
    claim: { userId: number | string; key: string; hash: string },
    run: (tx: PrismaClient) => Promise<Answer>,
  ): Promise<Answer & { replayed: boolean }> {
    const { table, userType, user, key, requestHash, status, response, createdAt } = this.sql;
    const owner = Prisma.sql`${claim.userId}::${userType}`;
    const window = Prisma.sql`now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;
    const select = Prisma.sql`SELECT ${requestHash} AS "requestHash", ${status} AS "status", ${response} AS "response"
        FROM ${table} WHERE ${user} = ${owner} AND ${key} = ${claim.key}`;
    const [stored] = await db.$queryRaw<Stored[]>`${select} AND ${createdAt} > ${window}`;
    if (stored) return replay(stored, claim.hash);

    return beforeCommitAgain(db, (finished) =>
      db.$transaction(async (tx) => {
        // Rows another request holds are skipped: pruning never waits.
        await tx.$executeRaw`
        DELETE FROM ${table} WHERE ctid IN (
          SELECT ctid FROM ${table} WHERE ${createdAt} <= ${window}
           LIMIT ${PRUNED_PER_CLAIM} FOR UPDATE SKIP LOCKED)`;
        // Waits while another transaction holds this key's row; takes over a row that has expired.
        const claimed = await tx.$executeRaw`
        INSERT INTO ${table} AS k (${user}, ${key}, ${requestHash})
        VALUES (${owner}, ${claim.key}, ${claim.hash})
        ON CONFLICT (${user}, ${key}) DO UPDATE
          SET ${requestHash} = EXCLUDED.${requestHash}, ${status} = NULL, ${response} = NULL, ${createdAt} = now()
          WHERE k.${createdAt} <= ${window}`;
        if (claimed === 0) {
          // Another request with this key committed while this one waited: answer as it did.
          const [row] = await tx.$queryRaw<Stored[]>`${select}`;
          return replay(row!, claim.hash);
        }
        transactionClients.add(tx);
        const answer = await run(tx as unknown as PrismaClient);
        await tx.$executeRaw`
        UPDATE ${table} SET ${status} = ${answer.status}, ${response} = ${answer.body}
         WHERE ${user} = ${owner} AND ${key} = ${claim.key}`;
        return finished({ ...answer, replayed: false });
      }, TRANSACTION),
    );
  }
}

/** Sends what answerOnce gave: the kept status and body, marked when it is a replay. */
export function sendAnswer(reply: FastifyReply, answer: Answer & { replayed: boolean }): FastifyReply {
  if (answer.replayed) reply.header("idempotent-replayed", "true");
  return reply.code(answer.status).type("application/json; charset=utf-8").send(answer.body);
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
  if (transactionClients.has(db)) return work(db);
  return beforeCommitAgain(db, (finished) =>
    db.$transaction(async (tx) => finished(await work(tx as unknown as PrismaClient)), options),
  );
}

/** The first pause before a transaction lost before its COMMIT is run a third time; doubled up to a second. */
const AGAIN_PAUSE_MS = 50;

/**
 * Runs `transaction` again when the database went away before its COMMIT was sent: its
 * connection was lost or refused while its work ran (a failover: the old leader's sessions are
 * cut), so nothing of it was kept, and running it anew on the new leader does it once. At once,
 * then after pauses, until the client's DATABASE_WAIT_MS has passed. `finished` marks the work
 * done: a failure after it is the COMMIT's, whose outcome is unknown, and goes on to the caller
 * (a 503; an Idempotency-Key retry finds what it committed, if it did: docs/adr/0280).
 */
async function beforeCommitAgain<T>(
  db: PrismaClient,
  transaction: (finished: <R>(result: R) => R) => Promise<T>,
): Promise<T> {
  const deadline = performance.now() + waitMsOf(db);
  for (let again = 0; ; again++) {
    let committing = false;
    const finished = <R>(result: R): R => {
      committing = true;
      return result;
    };
    try {
      return await transaction(finished);
    } catch (error) {
      const left = deadline - performance.now();
      if (committing || !isDatabaseUnavailable(error) || (again > 0 && left <= 0)) throw error;
      if (again > 0)
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(AGAIN_PAUSE_MS * 2 ** (again - 1), 1_000, left)),
        );
    }
  }
}
