import { Prisma } from "./generated/prisma/client.ts";

/** A unique constraint refused the write (Prisma P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** A foreign key refused the write: the row it names is gone (Prisma P2003). */
export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2003";
}

/** The row an update/delete targeted does not exist (Prisma P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025";
}

/**
 * PostgreSQL aborted the statement to break a deadlock (40P01) or for a serialization failure
 * (40001): nothing it did was kept, and the same statement run again may well succeed.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/** A statement gave up waiting for a lock (lock_timeout, 55P03): nothing it did was kept. */
export function isLockTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "55P03";
}

// Driver-adapter error kinds and Prisma codes that mean "the database cannot be reached or
// dropped the connection" rather than "the query was wrong".
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseAccessDenied",
  "AuthenticationFailed",
]);
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1003", "P1008", "P1017", "P2024"]);
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, terminated),
// and 25006 (read_only_sql_transaction): a write refused by a standby, which is what a failover's
// demoted leader is while the proxy still routes to it (the write did nothing: no leader took it).
const UNAVAILABLE_SQLSTATE = /^(08|57P|25006$)/;
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|Connection terminated|timeout exceeded when trying to connect|Query read timeout|terminating connection|Can't reach database server|Unable to start a transaction in the given time|Client has encountered a connection error and is not queryable|cannot execute \w+ in a read-only transaction/i;

/**
 * The database is down, unreachable or dropped the connection: a 503 for the client, who
 * may retry, not a 500. Walks the error's causes, whatever layer (pg, the adapter, Prisma) raised it.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const e = current as {
      code?: unknown;
      kind?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
      cause?: unknown;
    };
    if (
      typeof e.code === "string" &&
      (UNAVAILABLE_PRISMA_CODES.has(e.code) || UNAVAILABLE_SQLSTATE.test(e.code))
    ) {
      return true;
    }
    const adapterCause = e.meta?.driverAdapterError?.cause;
    if (adapterCause?.kind && UNAVAILABLE_KINDS.has(adapterCause.kind)) return true;
    if (adapterCause?.originalCode && UNAVAILABLE_SQLSTATE.test(adapterCause.originalCode)) return true;
    if (typeof e.kind === "string" && UNAVAILABLE_KINDS.has(e.kind)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    current = e.cause;
  }
  return false;
}
