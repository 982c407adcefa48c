import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { defaultMigrationsDir, MigrationError, migrate, readMigrations } from "../src/migrate.ts";

const databases: TestDatabase[] = [];
async function emptyDatabase(): Promise<string> {
  const db = await createTestDatabase({ empty: true });
  databases.push(db);
  return db.url;
}
afterEach(async () => {
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

/** A copy of the migrations folder `dir` with only the migrations `names`. */
async function only(dir: string, names: string[]): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), "migrations-"));
  for (const name of names) await cp(path.join(dir, name), path.join(copy, name), { recursive: true });
  return copy;
}

async function history(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`);
    return rows;
  } finally {
    await client.end();
  }
}

describe("migration runner", () => {
  it("defers a contract step until asked for contract steps, and applies the expand steps after it (docs/adr/0218)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
    const write = async (name: string, sql: string) => {
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, "migration.sql"), sql);
    };
    await write("1_expand", 'CREATE TABLE "t" ("old" int, "new" int);');
    await write(
      "2_contract",
      '-- contract step: the release before this one reads "old" no more\nALTER TABLE "t" DROP COLUMN "old";',
    );
    await write("3_after", 'CREATE TABLE "u" ("id" int);');
    // A database in use (a migration applied): a service starting beside an older release.
    const url = await emptyDatabase();
    await migrate(url, { dir: await only(dir, ["1_expand"]) });
    const lines: string[] = [];
    const started = await migrate(url, {
      dir,
      contractSteps: "unless-in-use",
      log: (line) => lines.push(line),
    });
    expect(started).toMatchObject({ applied: ["3_after"], deferred: ["2_contract"] });
    expect(lines).toContainEqual(expect.stringContaining("pnpm db:migrate --contract"));
    expect((await history(url)).map((row) => row.migration_name)).toEqual(["1_expand", "3_after"]);
    const contracted = await migrate(url, { dir });
    expect(contracted).toMatchObject({ applied: ["2_contract"], deferred: [] });
    // A new database: no older release can be serving on it, so everything is applied.
    const fresh = await emptyDatabase();
    expect(await migrate(fresh, { dir, contractSteps: "unless-in-use" })).toMatchObject({
      applied: ["1_expand", "2_contract", "3_after"],
      deferred: [],
    });
    // Never, when asked so (a test of the state before the contract step).
    const never = await emptyDatabase();
    expect(await migrate(never, { dir, contractSteps: false })).toMatchObject({ deferred: ["2_contract"] });
  });

  it("applies every migration to a fresh database and records it as Prisma Migrate does", async () => {
    const url = await emptyDatabase();
    const files = await readMigrations();
    const result = await migrate(url);
    expect(result.applied).toEqual(files.map((f) => f.name));
    const rows = await history(url);
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((f) => [f.name, f.checksum]));
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    expect(files[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does nothing on an up-to-date database", async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const again = await migrate(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBe((await readMigrations()).length);
  });

  it("refuses to start when an applied migration's file has changed", async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(defaultMigrationsDir, dir, { recursive: true });
    await migrate(url, { dir });
    const [first] = await readMigrations(dir);
    const file = path.join(dir, first!.name, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- edited afterwards\n`);
    await expect(migrate(url, { dir })).rejects.toThrow(MigrationError);
    await expect(migrate(url, { dir })).rejects.toThrow(/has changed/);
  });

  it("rolls a failing migration back whole and records nothing", async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(defaultMigrationsDir, dir, { recursive: true });
    const broken = path.join(dir, "99999999999999_broken");
    await cp(path.join(dir, (await readMigrations(dir))[0]!.name), broken, { recursive: true });
    await writeFile(
      path.join(broken, "migration.sql"),
      "CREATE TABLE half_done (id int);\nSELECT no_such_function();\n",
    );
    await expect(migrate(url, { dir })).rejects.toThrow(/99999999999999_broken failed/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rowCount } = await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
    await client.end();
    expect(rowCount).toBe(0);
    expect((await history(url)).map((r) => r.migration_name)).not.toContain("99999999999999_broken");
  });

  it("lets two runners start at once and applies each migration exactly once", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const files = await readMigrations();
    expect(results.flatMap((r) => r.applied).sort()).toEqual(files.map((f) => f.name).sort());
    expect((await history(url)).length).toBe(files.length);
  });

  it("applies a migration again when PostgreSQL broke a deadlock by rolling it back", async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(defaultMigrationsDir, dir, { recursive: true });
    await migrate(url, { dir });
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query("CREATE TABLE first_locked (id int); CREATE TABLE then_locked (id int)");
    // Locks the two tables in the opposite order to a writer that holds the second one. Between
    // the two, it waits at a gate (an advisory lock this test holds), so that the writer waits
    // first: PostgreSQL then finds the deadlock when the migration's own wait times out, and the
    // migration is the one rolled back, whatever the machine's load.
    const GATE = 4_242;
    const name = "99999999999999_locks_in_order";
    await cp(path.join(dir, (await readMigrations(dir))[0]!.name), path.join(dir, name), { recursive: true });
    await writeFile(
      path.join(dir, name, "migration.sql"),
      "LOCK TABLE first_locked IN ACCESS EXCLUSIVE MODE;\n" +
        `SELECT pg_advisory_xact_lock_shared(${GATE});\n` +
        "LOCK TABLE then_locked IN ACCESS EXCLUSIVE MODE;\n" +
        "CREATE TABLE made_once (id int);\n",
    );
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    const waitingFor = async (condition: string) => {
      while (
        (await setup.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND ${condition}`)).rowCount === 0
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      await setup.query("SELECT pg_advisory_lock($1)", [GATE]);
      // The writer never looks for the deadlock itself (superuser setting, test-only).
      await writer.query("SET deadlock_timeout = '60s'");
      await writer.query("BEGIN");
      await writer.query("LOCK TABLE then_locked IN ROW EXCLUSIVE MODE");
      const lines: string[] = [];
      const migrating = migrate(url, { dir, log: (line) => lines.push(line) });
      await waitingFor(`locktype = 'advisory' AND objid = ${GATE}`);
      const writing = writer.query("LOCK TABLE first_locked IN ROW EXCLUSIVE MODE");
      await waitingFor(`relation = 'first_locked'::regclass`);
      await setup.query("SELECT pg_advisory_unlock($1)", [GATE]);
      await writing;
      await writer.query("COMMIT");
      const { applied } = await migrating;
      expect(applied).toEqual([name]);
      expect(lines.some((line) => /locks_in_order was rolled back \(deadlock detected\)/.test(line))).toBe(
        true,
      );
      expect(lines).toContain(`applied migration ${name}`);
      expect((await history(url)).filter((r) => r.migration_name === name)).toHaveLength(1);
    } finally {
      await writer.end();
      await setup.end();
    }
  });
});
