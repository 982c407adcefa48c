// Upgrade under load (issue 38 item 3, docs/adr/0218): the previous release
// (deploy/previous-release) serves 3 + 3 instances behind HAProxy from a git worktree of its
// commit, on a database its own instances migrated. Under 64 redirecting and 4 booking
// connections, this commit's migrations are applied while it serves (`pnpm db:migrate`: the
// expand steps), the instances are rolled to this commit one at a time, and then the contract
// steps run (`pnpm db:migrate --contract`). The bar: no client error, a visit row per 302, a
// booking per 201. No timing is asserted; the figures are logged.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, previousRelease } from "../scripts/previous-release.ts";
import { startBookingLoad, startBurst } from "../scripts/scale-drill.ts";
import { haproxyBinary, startTopology, type Topology } from "../scripts/scale-topology.ts";
import { alwaysBookableHost, count, drillShort } from "./drill-fixtures.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const INSTANCES = 3;
const CHECK = { interMs: 500, fall: 2, rise: 2 };
const CONNECTIONS = 64;
const BOOKERS = 4;

const commit = previousRelease();
const held = (() => {
  try {
    return git(["cat-file", "-t", commit]) === "commit";
  } catch {
    return false;
  }
})();
const haproxy = haproxyBinary();
if (!haproxy) console.warn("test/upgrade.test.ts skipped: haproxy is not installed (.ci/run installs it)");
if (!held)
  console.warn(`test/upgrade.test.ts skipped: this clone does not hold ${commit} (a shallow clone?)`);

let db: TestDatabase;
let prisma: PrismaClient;
let topology: Topology;
let workDir: string;
let previous: string;

/** This checkout's `pnpm db:migrate [--contract]` on the drill's database; its output. */
function migrateWithThisRelease(...args: string[]): string {
  return execFileSync(
    process.execPath,
    ["--enable-source-maps", path.join(root, "dist/migrate.js"), ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: db.directUrl },
      encoding: "utf8",
    },
  );
}

describe.skipIf(!haproxy || !held)(
  `an upgrade from the previous release (${commit.slice(0, 12)}) under load`,
  () => {
    beforeAll(async () => {
      workDir = mkdtempSync(path.join(tmpdir(), "upgrade-"));
      previous = path.join(workDir, "previous");
      git(["worktree", "add", "--detach", previous, commit]);
      // Its own dependencies and build, from the local store (nothing is downloaded).
      execFileSync("pnpm", ["install", "--frozen-lockfile", "--offline"], {
        cwd: previous,
        env: { ...process.env, CI: "true" },
        stdio: "ignore",
      });
      // A database the previous release's instances migrate themselves, as in production.
      db = await createTestDatabase({ empty: true });
      topology = await startTopology({
        root: previous,
        shortener: INSTANCES,
        scheduling: INSTANCES,
        databaseUrl: db.url,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", RATE_LIMIT_MAX: "1000000" },
        check: CHECK,
      });
      prisma = createPrisma(db.url, { poolMax: 2 });
    }, 300_000);

    afterAll(async () => {
      await topology?.stop();
      await prisma?.$disconnect();
      await db?.drop();
      if (previous) {
        try {
          git(["worktree", "remove", "--force", previous]);
        } catch {}
      }
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    }, 120_000);

    it(`its migrations applied while the previous release serves, then every instance rolled to this commit: no client error, nothing lost`, async () => {
      const short = await drillShort(prisma, "upgrade");
      const host = await alwaysBookableHost(prisma);
      const burst = startBurst(`${topology.url.shortener}/${short.name}`, CONNECTIONS);
      const booking = startBookingLoad(topology.url.scheduling, {
        ...host,
        connections: BOOKERS,
      });
      while (burst.outcome.redirects < 500 || booking.statuses.length < 10) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }

      const began = Date.now();
      const expand = migrateWithThisRelease();
      const expandedAt = Date.now();
      const restarted = await topology.rollingRestart((line) => console.log(`upgrade: ${line}`), { root });
      const rolledAt = Date.now();
      const contract = migrateWithThisRelease("--contract");
      // The load goes on a moment on the upgraded instances.
      const redirectsAtEnd = burst.outcome.redirects;
      while (burst.outcome.redirects < redirectsAtEnd + 500)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const outcome = await burst.stop();
      const statuses = await booking.stop();

      const rows = await prisma.shortLog.count({ where: { shortId: short.id } });
      const bookings = await prisma.booking.count({ where: { eventTypeId: host.eventTypeId } });
      console.log(
        `upgrade from ${commit.slice(0, 12)}: migrations in ${expandedAt - began} ms (${expand.trim().split("\n").join("; ")}), ` +
          `${restarted.length} instances rolled in ${rolledAt - expandedAt} ms, contract steps: ${contract.trim().split("\n").join("; ")}; ` +
          `${outcome.redirects} redirects, ${rows} visit rows, ${outcome.errors.length} redirect errors; ` +
          `booking answers ${JSON.stringify(count(statuses))}, ${bookings} bookings stored`,
      );
      expect(restarted.map((instance) => instance.exitCode)).toEqual(Array(2 * INSTANCES).fill(0));
      // Every instance now runs this checkout's build.
      for (const instance of [...topology.instances.shortener, ...topology.instances.scheduling]) {
        expect(instance.process.spawnargs.join(" ")).toContain(
          path.join(root, "apps", instance.service, "dist"),
        );
      }
      expect(outcome.errors).toEqual([]);
      expect(rows).toBe(outcome.redirects);
      expect(count(statuses), booking.refusals.join("\n")).toEqual({ 201: statuses.length });
      expect(bookings).toBe(statuses.length);
      // A hang's bound, not a speed: on a loaded machine one instance took 20 s to replace.
    }, 600_000);
  },
);
