// `pnpm db:backup` and `pnpm db:restore` (docs/operations.md#backup-and-restore, docs/adr/0217):
//   pnpm db:backup <file>                 DATABASE_URL's database with pg_dump (custom format); with
//                                         no DATABASE_URL, the embedded cluster under DATA_DIR (a
//                                         .tar.gz: its pg_dump 17 is not shipped, Debian's 15 refuses
//                                         a 17 server)
//   pnpm db:backup --stanza <name> [--type full|diff|incr] [--config <pgbackrest.conf>] [--verbose]
//                                         a pgBackRest backup (the repository is pgbackrest.conf's);
//                                         pgBackRest's own output only with --verbose (on stderr)
//   pnpm db:restore <file> [--force]      into an empty database (or empty DATA_DIR); --force
//                                         replaces what is there
// Errors are one line, `cannot back up: …` / `cannot restore: …`, and a non-zero exit code.
import { execFile, spawn } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { embeddedClusterFolder, startEmbeddedPostgres } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { loadConfig } from "@app/shortener/config";
import pg from "pg";

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

export interface Io {
  stdout(line: string): void;
  stderr(line: string): void;
}
const processIo: Io = { stdout: (line) => console.log(line), stderr: (line) => console.error(line) };

/** A failure to report as one line after `cannot back up:` / `cannot restore:`. */
class Refusal extends Error {}

const HELP_BACKUP =
  "give a file (pnpm db:backup backups/app.dump) or a pgBackRest stanza whose repository " +
  "(repo1-path) is set in pgbackrest.conf (pnpm db:backup --stanza app)";

/** Runs a PostgreSQL client tool; its last stderr line is the reason when it fails. */
async function clientTool(tool: string, args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT")
      throw new Refusal(`${tool} is not installed (apt-get install postgresql-client)`);
    const lines = (failure.stderr ?? "").trim().split("\n").filter(Boolean);
    throw new Refusal(lines.at(-1) ?? `${tool} failed`);
  }
}

/** How a backup file was made: pg_dump's custom format starts "PGDMP", a cluster copy is gzip. */
function formatOf(file: string): "dump" | "cluster" {
  if (!existsSync(file) || !statSync(file).isFile()) throw new Refusal(`${file} is not a file`);
  const head = Buffer.alloc(5);
  const fd = openSync(file, "r");
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString("latin1") === "PGDMP") return "dump";
  if (head[0] === 0x1f && head[1] === 0x8b) return "cluster";
  throw new Refusal(
    `${file} is neither a pg_dump custom-format file nor a db:backup of the embedded database`,
  );
}

function clusterOf(dataDir: string): string {
  return path.resolve(dataDir, "postgres");
}

/** The pid of a server running on `cluster`, if any (postmaster.pid's first line, alive). */
function runningServer(cluster: string): number | undefined {
  const pidFile = path.join(cluster, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

async function withClient<T>(url: string, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** The first few tables of the database (none: it is empty enough to restore into). */
async function tablesIn(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_%'
        ORDER BY 1 LIMIT 3`,
    );
    return rows.map((row) => row.name);
  });
}

/**
 * Files pg_basebackup leaves out of a copy (PostgreSQL's "Backing Up the Data Directory"): the
 * running server's own and temporary state; pg_wal gets only the backup's segments, added after.
 */
const SKIPPED_FILES = new Set(["postmaster.pid", "postmaster.opts", "backup_label.old", "current_logfiles"]);
const EMPTIED_DIRS = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);

/** Copies `from` to `to` while the server writes: a file removed meanwhile is no loss (WAL redoes it). */
function copyLiveTree(from: string, to: string, top = true): void {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries) {
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (top && SKIPPED_FILES.has(entry.name)) continue;
    if (entry.name.startsWith("pgsql_tmp")) continue;
    if (entry.isDirectory()) {
      if (top && EMPTIED_DIRS.has(entry.name)) {
        mkdirSync(target, { mode: 0o700 });
        if (entry.name === "pg_wal") mkdirSync(path.join(target, "archive_status"), { mode: 0o700 });
        continue;
      }
      copyLiveTree(source, target, false);
    } else if (entry.isFile()) {
      try {
        copyFileSync(source, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  }
}

/**
 * An online copy of the embedded cluster, the way pg_basebackup -X fetch makes one (whose
 * version 15 refuses the 17 server): pg_backup_start, the files, pg_backup_stop's backup_label,
 * and the WAL from the start to the end of the backup (held by a temporary replication slot),
 * so the copy starts consistent at the backup's end. Packed with tar -z.
 */
async function backUpEmbedded(dataDir: string, file: string, io: Io): Promise<void> {
  const cluster = clusterOf(dataDir);
  if (!existsSync(path.join(cluster, "PG_VERSION")))
    throw new Refusal(
      `there is no embedded database under ${cluster} (set DATABASE_URL to back up a server)`,
    );
  // Staged beside the file: the copy is packed once the backup has ended.
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const stage = mkdtempSync(path.join(path.dirname(path.resolve(file)), ".db-backup-"));
  const server = await startEmbeddedPostgres({ dataDir: cluster }).catch((error) => {
    rmSync(stage, { recursive: true, force: true });
    throw error;
  });
  try {
    await withClient(withDatabase(server.url, "postgres"), async (client) => {
      await client.query("SELECT pg_create_physical_replication_slot($1, true, true)", [
        `db_backup_${process.pid}`,
      ]);
      const start = await client.query<{ wal: string }>(
        "SELECT pg_walfile_name(pg_backup_start('pnpm db:backup', true)) AS wal",
      );
      copyLiveTree(cluster, stage);
      const stop = await client.query<{ labelfile: string; spcmapfile: string; wal: string }>(
        "SELECT labelfile, spcmapfile, pg_walfile_name(lsn) AS wal FROM pg_backup_stop(false)",
      );
      // The backup's last record flushed, in a segment of its own.
      await client.query("SELECT pg_switch_wal()");
      const { labelfile, spcmapfile, wal: last } = stop.rows[0]!;
      const first = start.rows[0]!.wal;
      writeFileSync(path.join(stage, "backup_label"), labelfile);
      if (spcmapfile) writeFileSync(path.join(stage, "tablespace_map"), spcmapfile);
      for (const name of readdirSync(path.join(cluster, "pg_wal"))) {
        const segment = /^[0-9A-F]{24}$/.test(name) && name >= first && name <= last;
        if (segment || name.endsWith(".history"))
          copyFileSync(path.join(cluster, "pg_wal", name), path.join(stage, "pg_wal", name));
      }
    });
    await run("tar", ["-czf", path.resolve(file), "-C", stage, "."]);
    io.stdout(`backed up the embedded database under ${cluster} to ${file} (${statSync(file).size} bytes)`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
    await server.stop();
  }
}

async function restoreEmbeddedCluster(dataDir: string, file: string, force: boolean, io: Io): Promise<void> {
  const place = clusterOf(dataDir);
  // As root, where PostgreSQL's user can reach it: maybe elsewhere, linked from DATA_DIR (ADR 0251).
  const cluster = await embeddedClusterFolder(place, { notice: io.stdout });
  const pid = runningServer(cluster);
  if (pid)
    throw new Refusal(
      `the embedded database under ${cluster} is running (pid ${pid}): stop pnpm start first`,
    );
  if (existsSync(cluster) && readdirSync(cluster).length > 0 && !force)
    throw new Refusal(
      `${cluster} already holds a database: restore into an empty DATA_DIR, or add --force to replace it (its data is deleted)`,
    );
  mkdirSync(path.dirname(cluster), { recursive: true });
  const incoming = `${cluster}.restoring`;
  rmSync(incoming, { recursive: true, force: true });
  mkdirSync(incoming, { mode: 0o700 });
  try {
    await run("tar", ["-xzf", path.resolve(file), "-C", incoming, "--no-same-owner"]);
    // PostgreSQL wants its cluster folder private, and owned by the user it runs as.
    await run("chmod", ["0700", incoming]);
    if (asRoot) await run("chown", ["-R", "postgres:", incoming]);
  } catch (error) {
    rmSync(incoming, { recursive: true, force: true });
    const reason = (error as { stderr?: string }).stderr?.trim().split("\n").at(-1);
    throw new Refusal(`${file} could not be unpacked: ${reason ?? String(error)}`);
  }
  rmSync(cluster, { recursive: true, force: true });
  renameSync(incoming, cluster);
  // Started once here: it replays the copy's WAL to the backup's end, so a failure shows now.
  const server = await startEmbeddedPostgres({ dataDir: place });
  await server.stop();
  io.stdout(`restored ${file} into the embedded database under ${cluster}`);
}

/** Drops every schema of the database with all it holds; `public` comes back empty. */
async function emptyDatabase(url: string): Promise<void> {
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT format('%I', nspname) AS name FROM pg_namespace
        WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'`,
    );
    await client.query("BEGIN");
    for (const { name } of rows) await client.query(`DROP SCHEMA ${name} CASCADE`);
    await client.query("CREATE SCHEMA public AUTHORIZATION pg_database_owner");
    await client.query("COMMIT");
  });
}

/** pg_restore of a pg_dump file into `url`'s database, which must be empty unless forced. */
async function restoreDump(url: string, file: string, force: boolean, io: Io): Promise<void> {
  const tables = await tablesIn(url);
  const where = (() => {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  })();
  if (tables.length > 0 && !force)
    throw new Refusal(
      `the database ${where} already holds tables (${tables.join(", ")}…): restore into an empty database, ` +
        "or add --force to empty it first (every schema is dropped)",
    );
  // pg_restore --clean cannot drop a partition's inherited keys: --force empties the database
  // (every schema, dropped with what it holds) instead, then restores into it.
  if (force && tables.length > 0) await emptyDatabase(url);
  await clientTool("pg_restore", [
    ...["--dbname", url, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"],
    file,
  ]);
  io.stdout(`restored ${file} into ${where}`);
}

/** `pnpm db:backup`'s arguments and run; resolves to the exit code. */
export async function backupCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io = processIo,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stanza: { type: "string" },
        type: { type: "string" },
        config: { type: "string" },
        verbose: { type: "boolean", default: false },
      },
    });
    if (values.stanza !== undefined) {
      if (positionals.length > 0) throw new Refusal("give either a file or --stanza, not both");
      const type = values.type ?? "full";
      if (!["full", "diff", "incr"].includes(type)) throw new Refusal(`--type must be full, diff or incr`);
      const label = await pgbackrest(
        ["--stanza", values.stanza, "--type", type, "backup"],
        values.config,
        values.verbose,
        io,
      );
      io.stdout(
        `backed up stanza ${values.stanza} with pgBackRest: a ${type} backup${label ? `, ${label}` : ""}`,
      );
      return 0;
    }
    if (values.type !== undefined || values.config !== undefined || values.verbose)
      throw new Refusal("--type, --config and --verbose go with --stanza (a pgBackRest backup)");
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) throw new Refusal(`no repository or file: ${HELP_BACKUP}`);
    if (existsSync(file)) throw new Refusal(`${file} exists: give a new file`);
    const database = databaseOptions(loadConfig(env));
    if (database.databaseUrl) {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      // The direct URL: pg_dump's session must not go through a transaction-mode pooler.
      await clientTool("pg_dump", [
        "--format=custom",
        "--file",
        file,
        database.directUrl ?? database.databaseUrl,
      ]);
      io.stdout(`backed up the database to ${file} (${statSync(file).size} bytes)`);
    } else {
      await backUpEmbedded(database.dataDir, file, io);
    }
    return 0;
  } catch (error) {
    io.stderr(`cannot back up: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** `pnpm db:restore`'s arguments and run; resolves to the exit code. */
export async function restoreCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io = processIo,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { force: { type: "boolean", default: false } },
    });
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0)
      throw new Refusal(
        "give the file pnpm db:backup wrote (pnpm db:restore backups/app.dump); a pgBackRest backup " +
          "is restored with pgbackrest restore (docs/operations.md#backup-and-restore)",
      );
    const format = formatOf(file);
    const database = databaseOptions(loadConfig(env));
    if (database.databaseUrl) {
      if (format === "cluster")
        throw new Refusal(`${file} is a copy of the embedded database: restore it with DATABASE_URL unset`);
      await restoreDump(database.directUrl ?? database.databaseUrl, file, values.force, io);
    } else if (format === "cluster") {
      await restoreEmbeddedCluster(database.dataDir, file, values.force, io);
    } else {
      // A server's dump into the embedded database: Debian's pg_restore loads into the newer server.
      const server = await startEmbeddedPostgres({ dataDir: clusterOf(database.dataDir) });
      try {
        await restoreDump(server.url, file, values.force, io);
      } finally {
        await server.stop();
      }
    }
    return 0;
  } catch (error) {
    io.stderr(`cannot restore: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * pgBackRest, its output kept out of sight unless `verbose` (then passed on to stderr as it
 * comes): its INFO lines are a log, and a failure's ERROR line is turned into one line of ours,
 * which says how to see the rest. Resolves to the new backup's label, when pgBackRest names it.
 */
function pgbackrest(
  args: string[],
  config: string | undefined,
  verbose: boolean,
  io: Io,
): Promise<string | undefined> {
  const all = [...(config ? ["--config", config] : []), "--log-level-console", "info", ...args];
  // pgBackRest refuses root; its repository and the cluster belong to `postgres`.
  const [command, full] = asRoot
    ? ["runuser", ["-u", "postgres", "--", "pgbackrest", ...all]]
    : ["pgbackrest", all];
  const more = verbose ? "" : " (--verbose shows pgBackRest's output)";
  return new Promise((resolve, reject) => {
    const child = spawn(command, full, { stdio: ["ignore", "pipe", "pipe"] });
    let last = "";
    let error = "";
    let label: string | undefined;
    const lines = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean)) {
        if (verbose) io.stderr(line);
        last = line;
        if (/^ERROR: /.test(line)) error = line;
        label = line.match(/new backup label = (\S+)/)?.[1] ?? label;
      }
    };
    child.stdout.on("data", lines);
    child.stderr.on("data", lines);
    child.on("error", (error) =>
      reject(
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? new Refusal("pgbackrest is not installed (apt-get install pgbackrest)")
          : error,
      ),
    );
    child.on("close", (code) => {
      if (code === 0) return resolve(label);
      // No stanza, or one without a cluster or a repository: say what to set, not pgBackRest's hint.
      if (/requires option: (pg1-path|repo1-path)|does not exist|missing stanza path/i.test(error)) {
        return reject(
          new Refusal(
            `pgBackRest has no usable stanza here (${error.replace(/^ERROR: \[\d+\]: /, "")}): set the stanza's ` +
              "pg1-path and the repository's repo1-path in pgbackrest.conf (or --config), then run " +
              `\`pgbackrest --stanza <name> stanza-create\` (docs/operations.md#pgbackrest-on-a-plain-postgresql)${more}`,
          ),
        );
      }
      reject(new Refusal(`pgbackrest: ${error || last || `exit code ${code}`}${more}`));
    });
  });
}
