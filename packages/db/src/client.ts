import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { isDatabaseUnavailable } from "./errors.ts";
import { type Prisma, PrismaClient } from "./generated/prisma/client.ts";

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
  /**
   * A direct (session) connection to the same database, for what needs a session: LISTEN,
   * session advisory locks, CREATE DATABASE. Set and different from the client's URL, that URL
   * is taken to be a transaction pooler (PgBouncer, docs/adr/0175): statements run unnamed and
   * no session setting is sent with the connection. Default: the client's URL.
   */
  directUrl?: string | undefined;
  /** Whether the URL is a transaction pooler; default: whether `directUrl` differs from it. */
  pooled?: boolean;
  /**
   * How long work waits for the database while it accepts no connection (DATABASE_WAIT_MS: a
   * failover's election), and how long the visit log sends a batch again whose outcome is
   * unknown; default 0: a connection refused fails at once.
   */
  waitMs?: number;
}

/** node-postgres settings shared by the Prisma pool and the migration runner's connection. */
export function connectionSettings(
  connectionString: string,
  {
    connectTimeoutMs = CONNECT_TIMEOUT_MS,
    statementTimeoutMs = STATEMENT_TIMEOUT_MS,
    pooled = false,
  }: { connectTimeoutMs?: number; statementTimeoutMs?: number; pooled?: boolean } = {},
) {
  return {
    connectionString,
    connectionTimeoutMillis: connectTimeoutMs,
    // Server-side limit (PgBouncer refuses it as a startup parameter: behind one, the role's
    // setting applies), plus a client-side one a little later for a server that stopped answering.
    ...(pooled ? {} : { statement_timeout: statementTimeoutMs }),
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

interface ClientInfo {
  pool: pg.Pool;
  directUrl: string;
  /** Its URL is a transaction pooler: no named statements, no session state. */
  pooled: boolean;
  waitMs: number;
}

const clients = new WeakMap<PrismaClient, ClientInfo>();

/**
 * A node-postgres client that runs every statement unnamed, whatever its caller asked: behind a
 * transaction pooler (PgBouncer < 1.21) a statement prepared on one server connection is
 * missing on the next. Unnamed statements are still parsed with parameters (no SQL injection),
 * just planned each time.
 */
class UnnamedStatementsClient extends pg.Client {}
const namedQuery = pg.Client.prototype.query;
UnnamedStatementsClient.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  const unnamed =
    config !== null && typeof config === "object" && "name" in config && !("submit" in config)
      ? { ...config, name: undefined }
      : config;
  return (namedQuery as (...args: unknown[]) => unknown).call(this, unnamed, ...rest);
} as typeof namedQuery;

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
  {
    poolMax = 10,
    directUrl = connectionString,
    pooled = directUrl !== connectionString,
    waitMs = 0,
    ...timeouts
  }: PrismaOptions = {},
): PrismaClient {
  // Our own pool, so that its use can be reported; $disconnect() still ends it.
  const pool = waitForConnections(
    new pg.Pool({
      ...connectionSettings(connectionString, { ...timeouts, pooled }),
      max: poolMax,
      ...(pooled ? { Client: UnnamedStatementsClient } : {}),
    }),
    waitMs,
  );
  // An idle connection the server dropped must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, {
      disposeExternalPool: true,
      ...(pooled ? {} : { statementNameGenerator: statementNames() }),
    }),
  });
  clients.set(prisma, { pool, directUrl, pooled, waitMs });
  return prisma;
}

/** The first pause between two connection attempts while none is accepted; doubled up to a second. */
const CONNECT_RETRY_MS = 100;

/**
 * `pool` with a connect() that goes on trying while no server accepts a connection (refused, or
 * cut during the handshake: a failover's election, HAProxy with no leader to route to), for up to
 * `waitMs`, then fails as before (a 503): nothing of the work has reached a database yet, so
 * nothing can be done twice; and reads on their own run again likewise (docs/adr/0280).
 */
function waitForConnections(pool: pg.Pool, waitMs: number): pg.Pool {
  if (waitMs <= 0) return pool;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const waiting = async (): Promise<pg.PoolClient> => {
    const deadline = performance.now() + waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await connect();
      } catch (error) {
        const left = deadline - performance.now();
        if (!isDatabaseUnavailable(error) || left <= 0) throw error;
        await pause(Math.min(CONNECT_RETRY_MS * 2 ** attempt, 1_000, left));
      }
    }
  };
  pool.connect = ((
    callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void,
  ) => {
    if (!callback) return waiting();
    waiting().then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error),
    );
  }) as typeof pool.connect;
  // A read on its own (a pool query is one statement, committed alone: never a transaction's)
  // changes nothing: when its connection is lost under it (the old leader's sessions are cut), it
  // runs again on a new one, within the same wait. Anything else (a write, a statement with a
  // writing CTE: it starts with WITH) may have committed, and fails as it did.
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<pg.QueryResult>;
  pool.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof values === "function" || callback !== undefined || !isRead(config)) {
      return (query as (...args: unknown[]) => unknown)(config, values, callback);
    }
    return (async () => {
      const deadline = performance.now() + waitMs;
      for (let again = 0; ; again++) {
        try {
          return await query(config, values);
        } catch (error) {
          const left = deadline - performance.now();
          if (!isDatabaseUnavailable(error) || (again > 0 && left <= 0)) throw error;
          if (again > 0) await pause(Math.min(CONNECT_RETRY_MS * 2 ** (again - 1), 1_000, left));
        }
      }
    })();
  }) as typeof pool.query;
  return pool;
}

/** A statement that only reads: its text starts with SELECT (Prisma's reads; not `SELECT … FOR UPDATE`). */
function isRead(config: unknown): boolean {
  const text = typeof config === "string" ? config : (config as { text?: unknown } | null)?.text;
  return (
    typeof text === "string" &&
    /^\s*SELECT\b/i.test(text) &&
    !/\bFOR\s+(UPDATE|SHARE|NO KEY|KEY)\b/i.test(text)
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the client's work waits for a database that accepts no connection (createPrisma's `waitMs`; 0 for another client). */
export function waitMsOf(prisma: PrismaClient): number {
  return clients.get(prisma)?.waitMs ?? 0;
}

function infoOf(prisma: PrismaClient): ClientInfo {
  const info = clients.get(prisma);
  if (!info) throw new Error("this Prisma client was not made by createPrisma()");
  return info;
}

/**
 * A pool of its own on the client's database, with its settings: for background work that holds
 * connections while it waits on something else (a calendar server), so it never waits for the
 * requests' connections nor makes them wait. The caller ends it.
 */
export function separatePool(prisma: PrismaClient, max: number): pg.Pool {
  const { pool, pooled } = infoOf(prisma);
  const separate = new pg.Pool({
    ...connectionSettings(pool.options.connectionString!, { pooled }),
    connectionTimeoutMillis: pool.options.connectionTimeoutMillis,
    max,
    ...(pooled ? { Client: UnnamedStatementsClient } : {}),
  });
  separate.on("error", () => {});
  return separate;
}

/** The client's node-postgres pool: for hot paths that bypass Prisma (the visit log's group commit). */
export function poolOf(prisma: PrismaClient): pg.Pool {
  return infoOf(prisma).pool;
}

/**
 * Runs `work` in one transaction on a connection of `pool`: committed when it resolves, rolled
 * back when it throws (the error goes on). The connection goes back to the pool, or is closed
 * when it failed under the work or its ROLLBACK did (its state is then unknown).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // pg-pool stops listening to a connection while it is out: one that drops between two of the
  // work's statements would throw its 'error' event at the process. It is kept here instead.
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(onError);
    throw error;
  } finally {
    // A broken connection is destroyed by release(), and may still report its death after it
    // (the server's FATAL after the failed ROLLBACK): the listener stays on it, so that is no
    // uncaught 'error' either.
    if (!broken) client.off("error", onError);
    client.release(broken);
  }
}

/** Whether the client's URL is a transaction pooler (it was given a different direct URL). */
export function isPooled(prisma: PrismaClient): boolean {
  return infoOf(prisma).pooled;
}

/** The client's direct (session) URL: its own URL unless it was given one (its password included: never log it). */
export function directUrlOf(prisma: PrismaClient): string {
  return infoOf(prisma).directUrl;
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

// As node-postgres reads types, but a `timestamp` as PostgreSQL's text ("2026-01-02 03:04:05.678").
const TIMESTAMP_TEXT = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_OID && format !== "binary"
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * The rows of `query` on the client's pool, bypassing Prisma for a hot path that reads thousands
 * of rows (Prisma's rows cost about a third more CPU). A `timestamp` comes back as its text, not
 * as a Date (select a `timestamptz` `AT TIME ZONE 'UTC'` for its UTC text); a Date given is sent
 * as UTC.
 */
export async function queryRows<R extends pg.QueryResultRow>(
  prisma: PrismaClient,
  query: Prisma.Sql,
): Promise<R[]> {
  const values = query.values.map((value) => (value instanceof Date ? value.toISOString() : value));
  const result = await poolOf(prisma).query<R>({ text: query.text, values, types: TIMESTAMP_TEXT });
  return result.rows;
}

/**
 * A session of its own on the client's database, e.g. for LISTEN (never from the pool): on the
 * direct URL, since a transaction pooler would hand its statements to any server connection.
 */
export function dedicatedConnection(prisma: PrismaClient): pg.Client {
  const { directUrl, pool } = infoOf(prisma);
  return new pg.Client({
    connectionString: directUrl,
    connectionTimeoutMillis: pool.options.connectionTimeoutMillis,
  });
}

/** The URL this client connects with (its password included: never log it). */
export function connectionUrlOf(prisma: PrismaClient): string {
  return poolOf(prisma).options.connectionString!;
}

/** How the client's connection pool is used right now (for metrics). */
export function poolStats(prisma: PrismaClient): PoolStats | undefined {
  const pool = clients.get(prisma)?.pool;
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
