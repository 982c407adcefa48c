import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

/**
 * How long to wait for a connection, and for one statement, before giving up. Without them
 * a database host that accepts TCP and never answers hangs a start or a request for ever.
 */
export const CONNECT_TIMEOUT_MS = 5_000;
export const STATEMENT_TIMEOUT_MS = 30_000;

export interface PrismaOptions {
  /** Connections in this process's pool. */
  poolMax?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/** node-postgres settings shared by the Prisma pool and the migration runner's connection. */
export function connectionSettings(
  connectionString: string,
  { connectTimeoutMs = CONNECT_TIMEOUT_MS, statementTimeoutMs = STATEMENT_TIMEOUT_MS } = {},
) {
  return {
    connectionString,
    connectionTimeoutMillis: connectTimeoutMs,
    // Server-side limit, plus a client-side one a little later for a server that stopped answering.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1_000,
  };
}

export interface PoolStats {
  /** Connections open (idle + in use). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

const pools = new WeakMap<PrismaClient, pg.Pool>();

/** Distinct statements kept prepared, per process (and so per connection at most). */
export const PREPARED_STATEMENTS_MAX = 500;

/**
 * Names Prisma's statements so that node-postgres prepares each once per connection and
 * reuses its plan: PostgreSQL then skips parsing and planning, which for a list with its
 * relations (LATERAL joins) costs more than running it (docs/performance.md). A statement is
 * named by its text; past the bound, new texts run unnamed (as before), so a caller varying
 * a query's shape (e.g. the length of an IN list) cannot grow memory on either side.
 */
export function statementNames(max = PREPARED_STATEMENTS_MAX): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined) return known;
    // node-postgres runs a statement with an empty name unnamed.
    if (names.size >= max) return "";
    const name = `p${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}

/** A Prisma client over node-postgres (the Rust-free client needs a driver adapter). */
export function createPrisma(
  connectionString: string,
  { poolMax = 10, ...timeouts }: PrismaOptions = {},
): PrismaClient {
  // Our own pool, so that its use can be reported; $disconnect() still ends it.
  const pool = new pg.Pool({ ...connectionSettings(connectionString, timeouts), max: poolMax });
  // An idle connection the server dropped must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true, statementNameGenerator: statementNames() }),
  });
  pools.set(prisma, pool);
  return prisma;
}

/** The client's node-postgres pool: for hot paths that bypass Prisma (the visit log's group commit). */
export function poolOf(prisma: PrismaClient): pg.Pool {
  const pool = pools.get(prisma);
  if (!pool) throw new Error("this Prisma client was not made by createPrisma()");
  return pool;
}

// Prisma stores DateTime as `timestamp(3)` in UTC; node-postgres would read it as local time.
const TIMESTAMP_OID = 1114;
const UTC_TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_OID && format !== "binary"
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * One named (prepared once per connection) statement on the client's pool, bypassing Prisma
 * for a hot path; rows come back as Prisma would return them (timestamps in UTC).
 */
export async function queryPrepared<R extends pg.QueryResultRow>(
  prisma: PrismaClient,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  const result = await poolOf(prisma).query<R>({ ...statement, values, types: UTC_TYPES });
  return result.rows;
}

/** A connection of its own on the client's database, e.g. for LISTEN (never from the pool). */
export function dedicatedConnection(prisma: PrismaClient): pg.Client {
  const { connectionString, connectionTimeoutMillis } = poolOf(prisma).options;
  return new pg.Client({ connectionString, connectionTimeoutMillis });
}

/** The URL this client connects with (its password included: never log it). */
export function connectionUrlOf(prisma: PrismaClient): string {
  return poolOf(prisma).options.connectionString!;
}

/** How the client's connection pool is used right now (for metrics). */
export function poolStats(prisma: PrismaClient): PoolStats | undefined {
  const pool = pools.get(prisma);
  return (
    pool && {
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }
  );
}

/** `host:port` of a PostgreSQL URL, never its password: what error messages may name. */
export function databaseAddress(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || "localhost"}:${url.port || "5432"}`;
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}
