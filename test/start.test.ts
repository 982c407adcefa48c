// The ways a person starts and stops the services: `pnpm start` and its PID, `.env` in the
// working directory, and start-up failures that must print one clear line.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPrisma, freePort, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../apps/shortener/src/credentials.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// What `pnpm start` runs, compiled (the global setup builds it); these runs start elsewhere too.
const startScript = path.join(repoRoot, "dist/start.js");
// The child gets only what a person's shell would have, not this run's TEST_* variables.
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn" };

let db: TestDatabase;
let prisma: PrismaClient;
let cwd: string;
beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { poolMax: 2 });
  cwd = await mkdtemp(path.join(tmpdir(), "start-test-"));
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
  await rm(cwd, { recursive: true, force: true });
});

function get(port: number, urlPath: string) {
  return new Promise<number>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

async function waitFor(port: number, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`exited early with ${child.exitCode}`);
    if ((await get(port, "/health")) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("not healthy in time");
}

/** Every descendant of `pid`, from /proc (Linux). */
function descendants(pid: number): number[] {
  const children: number[] = [];
  for (const task of safeReaddir(`/proc/${pid}/task`)) {
    const listed = safeRead(`/proc/${pid}/task/${task}/children`).trim();
    for (const child of listed ? listed.split(/\s+/).map(Number) : []) {
      children.push(child, ...descendants(child));
    }
  }
  return children;
}
const safeReaddir = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const safeRead = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
/** A process's identity: its pid plus its start time (pids are reused on a busy machine). */
const identity = (pid: number) =>
  `${pid}:${safeRead(`/proc/${pid}/stat`).split(") ")[1]?.split(" ")[19] ?? ""}`;
const alive = (id: string) => identity(Number(id.split(":")[0])) === id;

/** Processes of the tree still running after `ms` (a child may exit a moment after its parent). */
async function survivors(tree: string[], ms = 5_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = tree.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function run(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  workdir = repoRoot,
  { ownGroup = false } = {},
) {
  // ownGroup: the command leads its own process group, as a terminal's foreground job does.
  const child = spawn(command, args, {
    cwd: workdir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: ownGroup,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe("pnpm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} to the PID of pnpm start drains a burst of visits and leaves no process behind`, async () => {
      const { id: userId } = await createUser(prisma, `start-${signal}@example.com`);
      const name = `start-${signal}`;
      const short = await prisma.short.create({ data: { userId, name, url: "https://example.com/" } });
      const [port, schedulingPort] = [await freePort(), await freePort()];
      const started = run("pnpm", ["start"], {
        ...baseEnv,
        DATABASE_URL: db.url,
        SHORTENER_PORT: String(port),
        SCHEDULING_PORT: String(schedulingPort),
      });
      await waitFor(port, started.child);
      const tree = descendants(started.child.pid!).map(identity);
      expect(tree.length).toBeGreaterThan(0);

      const burst = Array.from({ length: 300 }, () => get(port, `/${name}`));
      await Promise.race(burst);
      started.child.kill(signal);
      const late = Array.from({ length: 100 }, () => get(port, `/${name}`));
      const statuses = await Promise.all([...burst, ...late]);
      expect(await started.exited, started.output()).toBe(0);

      const acknowledged = statuses.filter((s) => s === 302).length;
      expect(acknowledged).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 302 || s === 503 || s === 0)).toBe(true);
      expect(await prisma.shortLog.count({ where: { shortId: short.id } })).toBe(acknowledged);
      expect(await survivors(tree)).toEqual([]);
    });
  }
});

describe("Ctrl-C in a terminal", () => {
  it("drains and exits 0: the SIGINT reaches pnpm and node at once, and pnpm forwards its copy", async () => {
    const { id: userId } = await createUser(prisma, "start-ctrl-c@example.com");
    const name = "start-ctrl-c";
    const short = await prisma.short.create({ data: { userId, name, url: "https://example.com/" } });
    const [port, schedulingPort] = [await freePort(), await freePort()];
    const started = run(
      "pnpm",
      ["start"],
      {
        ...baseEnv,
        DATABASE_URL: db.url,
        SHORTENER_PORT: String(port),
        SCHEDULING_PORT: String(schedulingPort),
      },
      repoRoot,
      { ownGroup: true },
    );
    await waitFor(port, started.child);
    const tree = descendants(started.child.pid!).map(identity);

    const burst = Array.from({ length: 200 }, () => get(port, `/${name}`));
    await Promise.race(burst);
    process.kill(-started.child.pid!, "SIGINT"); // the whole foreground group, as the terminal does
    const statuses = await Promise.all(burst);
    expect(await started.exited, started.output()).toBe(0);
    expect(started.output()).not.toContain("second SIGINT");

    const acknowledged = statuses.filter((s) => s === 302).length;
    expect(acknowledged).toBeGreaterThan(0);
    expect(await prisma.shortLog.count({ where: { shortId: short.id } })).toBe(acknowledged);
    expect(await survivors(tree)).toEqual([]);
  });
});

describe(".env in the working directory", () => {
  it("is read at start, and a real environment variable wins over it", async () => {
    const [fromFile, scheduling] = [await freePort(), await freePort()];
    await writeFile(
      path.join(cwd, ".env"),
      `DATABASE_URL=${db.url}\nSHORTENER_PORT=${fromFile}\nSCHEDULING_PORT=${fromFile}\n`,
    );
    const started = run(
      process.execPath,
      ["--enable-source-maps", startScript],
      { ...baseEnv, SCHEDULING_PORT: String(scheduling) },
      cwd,
    );
    try {
      await waitFor(fromFile, started.child);
      // The scheduling API starts after the shortener.
      await waitFor(scheduling, started.child);
      expect(await get(scheduling, "/health")).toBe(200);
    } finally {
      started.child.kill("SIGTERM");
      expect(await started.exited, started.output()).toBe(0);
    }
  });
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
