// Test-only servers of our own, next to the shared one: a PostgreSQL primary with a streaming
// replica (Debian's PostgreSQL binaries: initdb, pg_basebackup -R), and a PgBouncer in
// transaction mode. Each lives in a temporary folder, listens on 127.0.0.1 on a free port, and is
// stopped (its folder removed) by `stop()`. As root, the servers run as user `postgres`
// (PostgreSQL refuses root). Without the binaries, `missing` says what to install and tests skip.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** The newest Debian PostgreSQL binaries folder, e.g. /usr/lib/postgresql/15/bin. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, "bin");
    if (["initdb", "pg_ctl", "pg_basebackup", "postgres"].every((tool) => existsSync(path.join(bin, tool))))
      return bin;
  }
  return undefined;
}

/** PgBouncer's executable, if installed. */
export function pgbouncerBinary(): string | undefined {
  for (const candidate of ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Why the servers below cannot start here, or undefined when they can. */
export function missingServers(need: { replica?: boolean; pgbouncer?: boolean }): string | undefined {
  const missing = [
    need.replica && !postgresBinaries() ? "PostgreSQL server binaries (apt-get install postgresql)" : "",
    need.pgbouncer && !pgbouncerBinary() ? "pgbouncer (apt-get install pgbouncer)" : "",
    asRoot && !hasPostgresUser() ? "a `postgres` user to run them as" : "",
  ].filter(Boolean);
  return missing.length ? `skipped: needs ${missing.join(" and ")}` : undefined;
}

function hasPostgresUser(): boolean {
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Runs a server tool, as user `postgres` when we are root. */
async function tool(file: string, args: string[]): Promise<string> {
  const [command, all] = asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  const { stdout } = await run(command, all, { timeout: 120_000 });
  return stdout;
}

/** A folder the servers' user owns. */
function serverFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (asRoot) execFileSync("chown", ["postgres:", dir]);
  return dir;
}

export async function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const urlOf = (port: number, database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;

export async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A PostgreSQL server of a test's own: a `postgres` maintenance URL, and its stop (which deletes it). */
export interface OwnPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A server of the test's own (trust auth, fsync off), for a test that creates databases by
 * name, which other test files on the shared server could be creating too.
 */
export async function startPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries");
  const dir = serverFolder("pg-own-");
  const port = await freeTcpPort();
  const data = path.join(dir, "data");
  await tool(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-N"]);
  await tool(path.join(bin, "pg_ctl"), [
    ...["-D", data, "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`],
    ...["-l", `${data}.log`, "-w", "start"],
  ]);
  return {
    url: urlOf(port),
    port,
    stop: async () => {
      await tool(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => "");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ReplicatedPostgres {
  /** `postgres` maintenance URLs; `withDatabase` makes others. */
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica's WAL replay (it keeps receiving): it lags from now on. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the replica (fast shutdown: its connections are cut). */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A primary and a streaming replica of it (pg_basebackup -R: primary_conninfo and standby.signal),
 * both with pg_stat_statements loaded so that tests can count where statements ran.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries");
  const dir = serverFolder("pg-replicated-");
  const [primaryPort, replicaPort] = [await freeTcpPort(), await freeTcpPort()];
  const primaryData = path.join(dir, "primary");
  const replicaData = path.join(dir, "replica");
  const options = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements -c fsync=off`;
  const start = (data: string, port: number) =>
    tool(path.join(bin, "pg_ctl"), ["-D", data, "-o", options(port), "-l", `${data}.log`, "-w", "start"]);
  const stopServer = (data: string) =>
    tool(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => "");
  await tool(path.join(bin, "initdb"), ["-D", primaryData, "-U", "postgres", "--auth=trust", "-N"]);
  await start(primaryData, primaryPort);
  const primaryUrl = urlOf(primaryPort);
  let replicaRunning = false;
  try {
    await tool(path.join(bin, "pg_basebackup"), [
      ...["-D", replicaData, "-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres"],
      ...["-R", "-X", "stream", "-c", "fast"],
    ]);
    await start(replicaData, replicaPort);
    replicaRunning = true;
  } catch (error) {
    await stopServer(primaryData);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const replicaUrl = urlOf(replicaPort);
  await sql(primaryUrl, "CREATE EXTENSION pg_stat_statements");
  const handle: ReplicatedPostgres = {
    primaryUrl,
    replicaUrl,
    pauseReplay: async () => {
      await sql(replicaUrl, "SELECT pg_wal_replay_pause()");
    },
    resumeReplay: async () => {
      await sql(replicaUrl, "SELECT pg_wal_replay_resume()");
    },
    stopReplica: async () => {
      await stopServer(replicaData);
      replicaRunning = false;
    },
    startReplica: async () => {
      await start(replicaData, replicaPort);
      replicaRunning = true;
    },
    caughtUp: async () => {
      const [{ lsn }] = (await sql<{ lsn: string }>(
        primaryUrl,
        "SELECT pg_current_wal_lsn()::text AS lsn",
      )) as [{ lsn: string }];
      // A minute: a loaded machine replays the migrations slowly; the test's limit is the outer one.
      for (let attempt = 0; attempt < 1_200; attempt++) {
        const [row] = await sql<{ done: boolean }>(
          replicaUrl,
          "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done",
          [lsn],
        );
        if (row?.done) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the replica did not catch up within a minute");
    },
    stop: async () => {
      if (replicaRunning) await stopServer(replicaData);
      await stopServer(primaryData);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await handle.caughtUp();
  return handle;
}

export interface PgBouncer {
  port: number;
  /** `url` with its host and port replaced by PgBouncer's (the database name is kept: the `*` entry routes it). */
  via(url: string): string;
  /** The admin console's answer to e.g. `SHOW POOLS` (simple protocol only). */
  show(what: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction pooling mode in front of `target`: any database name is routed there
 * (`* =` fallback). Its clients connect as `postgres` without a password; PgBouncer logs in to
 * the target with `target.password` when it has one (the embedded server asks for it).
 */
export async function startPgBouncer(
  target: { host: string; port: number; password?: string },
  {
    poolSize = 20,
    settings = {},
  }: {
    poolSize?: number;
    /** More `[pgbouncer]` settings, e.g. `{ server_login_retry: "1" }`. */
    settings?: Record<string, string>;
  } = {},
): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error("no pgbouncer");
  const dir = serverFolder("pgbouncer-");
  const port = await freeTcpPort();
  const config = path.join(dir, "pgbouncer.ini");
  // auth_type trust asks clients for nothing; the file's password is what PgBouncer logs in with.
  writeFileSync(
    path.join(dir, "users.txt"),
    `"postgres" "${(target.password ?? "").replaceAll('"', '""')}"\n`,
  );
  writeFileSync(
    config,
    `[databases]
* = host=${target.host} port=${target.port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${dir}/users.txt
admin_users = postgres
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 2000
max_db_connections = 0
server_reset_query =
logfile = ${dir}/pgbouncer.log
pidfile = ${dir}/pgbouncer.pid
${Object.entries(settings)
  .map(([name, value]) => `${name} = ${value}\n`)
  .join("")}`,
  );
  if (asRoot) execFileSync("chown", ["-R", "postgres:", dir]);
  await tool(binary, ["-d", config]);
  // -d returns once it forked; wait until it accepts.
  for (let attempt = 0; ; attempt++) {
    try {
      await sql(urlOf(port, "pgbouncer"), "SHOW VERSION");
      break;
    } catch (error) {
      if (attempt > 300) throw error; // 30 s
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    show: async (what) => {
      const client = new pg.Client({ connectionString: urlOf(port, "pgbouncer") });
      await client.connect();
      try {
        // The console speaks the simple protocol only: no parameters.
        return (await client.query(`SHOW ${what}`)).rows;
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      try {
        const pid = Number(
          execFileSync("cat", [path.join(dir, "pgbouncer.pid")])
            .toString()
            .trim(),
        );
        // SIGTERM: immediate shutdown (SIGINT would wait for every client to leave).
        process.kill(pid, "SIGTERM");
        for (let attempt = 0; attempt < 50; attempt++) {
          process.kill(pid, 0);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } catch {
        // gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
