import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { readMigrations } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { sql } from "@app/testing/postgres-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

let database: TestDatabase;
beforeAll(async () => {
  // A new database: the start migrates it whole.
  database = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await database?.drop();
});

/** Starts the built server.ts (dist/server.js) as `node` would run it and resolves with its address once it logs that it listens. */
async function startServer(): Promise<{ child: ChildProcess; url: string; lines: string[] }> {
  const child = spawn(process.execPath, ["--enable-source-maps", "apps/scheduling/dist/server.js"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // No proxy checks it: stop without the readiness wait.
      STOP_WAIT_MS: "0",
      DATABASE_URL: database.url,
      DATABASE_DIRECT_URL: database.directUrl,
      SCHEDULING_PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${lines.join("\n")}`)));
    createInterface({ input: child.stderr! }).on("line", (line) => lines.push(line));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      const address =
        /"service":"scheduling".*scheduling listening on (http:\/\/127\.0\.0\.1:\d+), API reference at http:\/\/127\.0\.0\.1:\d+\/docs\/reference/.exec(
          line,
        )?.[1];
      if (address) resolve(address);
    });
  });
  return { child, url, lines };
}

describe("server.ts", () => {
  it("serves on the configured database and shuts down cleanly on SIGTERM", async () => {
    const { child, url, lines } = await startServer();
    try {
      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      expect(await home.json()).toEqual({ message: expect.stringContaining("/docs") });
      const guarded = await fetch(`${url}/v1/users`);
      expect(guarded.status).toBe(401);
      // On a new database no older release can be serving: contract steps are applied too, and
      // so is every migration after one (the mail outbox after the domains' contract step).
      const applied = await sql<{ migration_name: string }>(
        database.directUrl,
        'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(applied.map((row) => row.migration_name)).toEqual(
        (await readMigrations()).map((file) => file.name),
      );
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code] = await exited;
      expect(code).toBe(0);
    }
    expect(lines.join("\n")).toContain("shutting down");
    // One line once stopped, with the requests the stop waited for.
    expect(lines.filter((line) => line.includes("scheduling stopped:"))).toEqual([
      expect.stringMatching(/"msg":"scheduling stopped: \d+ requests? drained"/),
    ]);
  });
});
