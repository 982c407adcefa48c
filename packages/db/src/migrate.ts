import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { CONNECT_TIMEOUT_MS, databaseAddress } from "./client.ts";
import { isTransactionConflict } from "./errors.ts";

/** prisma/migrations at the repository root. */
export const defaultMigrationsDir = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

// Any constant works; it only has to be the same for every process of this project.
const MIGRATION_LOCK_KEY = 72_797_001;

// A migration that alters a table the running service writes can meet a deadlock: it locks
// tables one statement at a time, in its own order (ADR 0191). PostgreSQL then aborts one side;
// when that is the migration, it was rolled back whole, so it simply goes again.
const CONFLICT_ATTEMPTS = 5;
const CONFLICT_BACKOFF_MS = 200;

export interface MigrationFile {
  name: string;
  sql: string;
  /** SHA-256 hex of the file, as Prisma Migrate records it. */
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Contract steps left for `pnpm db:migrate --contract`, in order. */
  deferred: string[];
}

/**
 * A contract step (docs/adr/0218): a migration that removes or renames what an older release
 * may still read, marked by a line `-- contract step: …`. It runs only once every instance runs
 * the new release (`pnpm db:migrate --contract`), never when a service starts.
 */
export const isContractStep = (file: Pick<MigrationFile, "sql">) => /^-- contract step\b/m.test(file.sql);

export class MigrationError extends Error {
  override name = "MigrationError";
}

export async function readMigrations(dir = defaultMigrationsDir): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

// The table Prisma Migrate keeps, so `prisma migrate status` agrees with this runner.
const CREATE_HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** The start cannot go on: one line naming host:port (never the password) and why. */
export class DatabaseUnreachable extends Error {
  override name = "DatabaseUnreachable";
  constructor(connectionString: string, cause: unknown) {
    const reason = cause instanceof Error && cause.message ? cause.message : String(cause);
    super(`cannot connect to the database at ${databaseAddress(connectionString)}: ${reason}`, { cause });
  }
}

/**
 * Whether contract steps run: `true` (one-shot tools, tests, `pnpm db:migrate --contract`),
 * `false` (never), or `"unless-in-use"` (a service starting, `pnpm db:migrate`): only on a
 * database no migration has touched yet, which no older release can be serving.
 */
export type ContractSteps = boolean | "unless-in-use";

/**
 * Applies the pending migrations in name order, each in its own transaction, under a
 * session advisory lock so that two processes starting at once never both migrate.
 * Refuses to start when an applied migration's file has changed since. A contract step that
 * `contractSteps` holds back is `deferred`, and the migrations after it still run: they are
 * expand steps, which the check (`pnpm migrations:check`) keeps from removing anything.
 */
export async function migrate(
  connectionString: string,
  {
    dir = defaultMigrationsDir,
    log = (_line: string) => {},
    contractSteps = true,
  }: { dir?: string; log?: (line: string) => void; contractSteps?: ContractSteps } = {},
): Promise<MigrateResult> {
  const files = await readMigrations(dir);
  // A connect timeout, but no statement timeout: waiting for another process's migration is fine.
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new DatabaseUnreachable(connectionString, error);
  }
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_HISTORY_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const result: MigrateResult = { applied: [], alreadyApplied: [], deferred: [] };
    const applyContractSteps = contractSteps === "unless-in-use" ? done.size === 0 : contractSteps;
    for (const file of files) {
      const recorded = done.get(file.name);
      if (recorded === undefined && !applyContractSteps && isContractStep(file)) {
        result.deferred.push(file.name);
        continue;
      }
      if (recorded !== undefined) {
        if (recorded !== file.checksum) {
          throw new MigrationError(
            `Migration ${file.name} was applied to this database, but its file has changed since ` +
              `(recorded checksum ${recorded.slice(0, 12)}…, file ${file.checksum.slice(0, 12)}…). ` +
              "Restore the original file and put the change in a new migration.",
          );
        }
        result.alreadyApplied.push(file.name);
        continue;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await applyOne(client, file);
          break;
        } catch (error) {
          if (isTransactionConflict(error) && attempt < CONFLICT_ATTEMPTS) {
            log(`migration ${file.name} was rolled back (${(error as Error).message}); trying again`);
            await new Promise((resolve) => setTimeout(resolve, CONFLICT_BACKOFF_MS * attempt));
            continue;
          }
          throw new MigrationError(
            `Migration ${file.name} failed and was rolled back: ${(error as Error).message}`,
            { cause: error },
          );
        }
      }
      log(`applied migration ${file.name}`);
      result.applied.push(file.name);
    }
    if (result.deferred.length > 0) {
      log(
        `contract step(s) not applied: ${result.deferred.join(", ")}: ` +
          "run `pnpm db:migrate --contract` once every instance runs this release",
      );
    }
    return result;
  } finally {
    // Closing the session releases the advisory lock too.
    await client.end();
  }
}

/** One migration and its history row, in one transaction: all of it is kept or none. */
async function applyOne(client: pg.Client, file: MigrationFile): Promise<void> {
  const startedAt = new Date();
  try {
    await client.query("BEGIN");
    await client.query(file.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, $4, 1)`,
      [randomUUID(), file.checksum, file.name, startedAt],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
