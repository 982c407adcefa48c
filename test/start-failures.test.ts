// Start-up failures that must print one clear line, exit 1 and leave nothing running.
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseEnv, repoRoot, run, startScript } from "./start-processes.ts";

let db: TestDatabase;
let cwd: string;
beforeAll(async () => {
  db = await createTestDatabase();
  cwd = await mkdtemp(path.join(tmpdir(), "start-test-"));
});
afterAll(async () => {
  await db?.drop();
  await rm(cwd, { recursive: true, force: true });
});

describe("start-up failures", () => {
  async function failedStart(env: Record<string, string>) {
    const started = run(process.execPath, ["--enable-source-maps", startScript], { ...baseEnv, ...env }, cwd);
    const code = await started.exited;
    const lines = started.output().trim().split("\n");
    return { code, lines };
  }

  it("a database host that accepts TCP and never answers: one line naming host:port, not the password", async () => {
    const silent = createServer(() => {}).listen(0, "127.0.0.1");
    await new Promise((r) => silent.once("listening", r));
    const port = (silent.address() as { port: number }).port;
    try {
      // It gives up after its connect timeout (5 s): an exit at all, within the test's limit, shows it.
      const { code, lines } = await failedStart({
        DATABASE_URL: `postgresql://app:s3cret@127.0.0.1:${port}/app`,
      });
      expect(code).toBe(1);
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^cannot start: .*127\\.0\\.0\\.1:${port}`))]);
      expect(lines.join("\n")).not.toContain("s3cret");
    } finally {
      silent.close();
    }
  });

  // The embedded PostgreSQL is a process of its own: a start that stops half-way must stop it too.
  it("a port already taken, with nothing set: one line, exit 1, the embedded PostgreSQL stopped, for every entry point", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "start-embedded-"));
    // As root the server runs as a `postgres` user, which must be able to enter the folder.
    await chmod(folder, 0o755);
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((r) => taken.once("listening", r));
    const port = String((taken.address() as { port: number }).port);
    const free = String(await freePort());
    try {
      const entries: [string, Record<string, string>][] = [
        // The shortener starts, then the scheduling API cannot listen: the shortener is closed too.
        [startScript, { SHORTENER_PORT: free, SCHEDULING_PORT: port }],
        [path.join(repoRoot, "apps/shortener/dist/server.js"), { SHORTENER_PORT: port }],
        [path.join(repoRoot, "apps/scheduling/dist/server.js"), { SCHEDULING_PORT: port }],
      ];
      for (const [entry, ports] of entries) {
        const started = run(
          process.execPath,
          ["--enable-source-maps", entry],
          { ...baseEnv, DATA_DIR: path.join(folder, "data"), ...ports },
          folder,
        );
        expect(await started.exited, started.output()).toBe(1);
        const failures = started
          .output()
          .split("\n")
          .filter((line) => line.startsWith("cannot start"));
        expect(failures, entry).toEqual([expect.stringMatching(new RegExp(`EADDRINUSE.*:${port}$`))]);
        expect(
          existsSync(path.join(folder, "data/postgres/postmaster.pid")),
          `${entry} left PostgreSQL running`,
        ).toBe(false);
      }
    } finally {
      taken.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("a refused connection and a bad setting: one line each, exit 1", async () => {
    const closed = await freePort();
    const refused = await failedStart({ DATABASE_URL: `postgresql://app:s3cret@127.0.0.1:${closed}/app` });
    expect(refused.code).toBe(1);
    expect(refused.lines).toEqual([
      expect.stringMatching(/^cannot start: cannot connect to the database at 127\.0\.0\.1:/),
    ]);
    expect(refused.lines.join("\n")).not.toContain("s3cret");

    const bad = await failedStart({ SHORTENER_PORT: "not-a-port", DATABASE_URL: db.url });
    expect(bad.code).toBe(1);
    expect(bad.lines).toEqual([
      expect.stringMatching(/^cannot start: Invalid shortener configuration: SHORTENER_PORT/),
    ]);
  });
});
