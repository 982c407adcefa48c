// Backups that restore (issue 38, docs/adr/0217): restore drills, not a check that a file was
// written. On a PostgreSQL server of the test's own (Debian's binaries) with WAL archived by
// pgBackRest: shorts, visits and bookings, a full backup through `pnpm db:backup --stanza`,
// more writes, a point in time, more writes, then a point-in-time restore holds exactly the rows
// written before that point and the services run on it; `pnpm db:backup <file>` with
// DATABASE_URL (pg_dump) the same way. On the embedded default: its copy restored into an empty
// DATA_DIR, and over the database it was taken from with --force. No timing is asserted: the
// point in time is read from the server between two sets of writes, each awaited.
import { execFile, execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createPrisma, migrate, openDatabase, type PrismaClient } from "@app/db";
import { buildApp as buildScheduling, type SchedulingApp } from "@app/scheduling";
import { buildApp as buildShortener, type ShortenerApp } from "@app/shortener";
import { defaultConfig } from "@app/shortener/config";
import { createUser as createShortenerUser } from "@app/shortener/credentials";
import { withDatabase } from "@app/testing/database";
import { freeTcpPort, missingServers, postgresBinaries, sql } from "@app/testing/postgres-servers";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { at, futureMonday, makeHost } from "../apps/scheduling/test/booking-helpers.ts";
import { createUser as createSchedulingUser, testConfig, withKey } from "../apps/scheduling/test/helpers.ts";
import { TEST_PASSWORDS } from "../apps/shortener/test/helpers.ts";
import { backupCommand, type Io, restoreCommand } from "../scripts/database-backup.ts";

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const pgbackrestBinary = ["/usr/bin/pgbackrest", "/usr/local/bin/pgbackrest"].find((file) =>
  existsSync(file),
);
const onPath = (tool: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, tool)));
const missing =
  missingServers({ replica: true }) ??
  (pgbackrestBinary ? undefined : "skipped: needs pgbackrest (apt-get install pgbackrest)") ??
  (onPath("pg_dump") && onPath("pg_restore")
    ? undefined
    : "skipped: needs pg_dump and pg_restore (apt-get install postgresql-client)");

/** Output of an in-process `pnpm db:backup` / `pnpm db:restore`. */
function captured(): Io & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (line) => out.push(line), stderr: (line) => err.push(line) };
}

/** Runs a tool as the servers' user (`postgres` when we are root: PostgreSQL and pgBackRest refuse root). */
async function asServerUser(file: string, args: string[]): Promise<string> {
  const [command, all] = asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  const { stdout } = await run(command, all, { timeout: 300_000 });
  return stdout;
}

/** Both services on `url`'s database, with a shortener user, a scheduling host and a booker. */
class Services {
  prisma!: PrismaClient;
  shortener!: ShortenerApp;
  scheduling!: SchedulingApp;
  headers!: { authorization: string };
  apiKey!: string;
  eventTypeId!: number;
  slot = 0;

  static async open(url: string, users = true): Promise<Services> {
    const services = new Services();
    services.prisma = createPrisma(url, { poolMax: 4 });
    services.shortener = await buildShortener({
      config: defaultConfig({ SHORT_BASE_URL: "https://sho.rt" }),
      prisma: services.prisma,
      passwords: TEST_PASSWORDS,
    });
    services.scheduling = await buildScheduling({ config: testConfig(), prisma: services.prisma });
    await Promise.all([services.shortener.ready(), services.scheduling.ready()]);
    if (users) {
      const user = await createShortenerUser(services.prisma, `drill-${process.pid}@example.com`);
      services.headers = { authorization: `Bearer ${user.token}` };
      const host = await createSchedulingUser(services.prisma);
      services.eventTypeId = (await makeHost(services.prisma, host.user.id)).id;
      ({ apiKey: services.apiKey } = await createSchedulingUser(services.prisma));
    }
    return services;
  }

  /** Two shorts through the API, 25 visits each (the visits table), and a booking through the API. */
  async write(label: string, url: string): Promise<void> {
    for (const i of [1, 2]) {
      const created = await this.shortener.inject({
        method: "POST",
        url: "/api/shorts",
        headers: this.headers,
        payload: { url: `https://example.com/${label}/${i}`, name: `${label}-${i}` },
      });
      expect(created.statusCode, created.body).toBe(201);
      await sql(
        url,
        `INSERT INTO shortener.short_logs (short_id, ip_address, user_agent, referer)
         SELECT $1, '127.0.0.1', 'drill', '' FROM generate_series(1, 25)`,
        [created.json().id],
      );
    }
    const booked = await this.scheduling.inject({
      method: "POST",
      url: withKey("/v1/bookings", this.apiKey),
      payload: {
        eventTypeId: this.eventTypeId,
        start: at(futureMonday(), 30 * this.slot++).toISOString(),
        timeZone: "UTC",
        language: "en",
        metadata: { label },
        responses: {
          name: "Drill",
          email: "drill@example.com",
          location: { value: "inPerson", optionValue: "HQ" },
        },
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
  }

  async close(): Promise<void> {
    await Promise.all([this.shortener?.close(), this.scheduling?.close()]);
    await this.prisma?.$disconnect();
  }
}

/** What the drills compare: every short, its visit count, and every booking (by its label). */
async function contents(url: string) {
  const [shorts, visits, bookings] = await Promise.all([
    sql<{ name: string }>(url, "SELECT name FROM shortener.shorts ORDER BY name"),
    sql<{ name: string; visits: number }>(
      url,
      `SELECT s.name, count(*)::int AS visits FROM shortener.short_logs l
         JOIN shortener.shorts s ON s.id = l.short_id GROUP BY 1 ORDER BY 1`,
    ),
    sql<{ label: string }>(url, `SELECT metadata->>'label' AS label FROM scheduling.bookings ORDER BY 1`),
  ]);
  return {
    shorts: shorts.map((row) => row.name),
    visits: Object.fromEntries(visits.map((row) => [row.name, row.visits])),
    bookings: bookings.map((row) => row.label),
  };
}

/** What `contents` reads after writing the sets `labels` (Services.write). */
const expected = (...labels: string[]) => ({
  shorts: labels.flatMap((label) => [`${label}-1`, `${label}-2`]).sort(),
  visits: Object.fromEntries(
    labels.flatMap((label) => [`${label}-1`, `${label}-2`].map((name) => [name, 25])),
  ),
  bookings: [...labels].sort(),
});

/** The services start on a restored database: nothing to migrate, a short redirects, a booking reads. */
async function servicesRunOn(url: string, short: string): Promise<void> {
  expect((await migrate(url)).applied).toEqual([]);
  const services = await Services.open(url, false);
  try {
    const redirect = await services.shortener.inject({ method: "HEAD", url: `/${short}` });
    expect(redirect.headers.location).toBe(`https://example.com/${short.replace(/-(\d)$/, "/$1")}`);
    const { apiKey } = await createSchedulingUser(services.prisma, { admin: true });
    const listed = await services.scheduling.inject({ url: withKey("/v1/bookings", apiKey) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().bookings.length).toBeGreaterThan(0);
  } finally {
    await services.close();
  }
}

describe.skipIf(missing)(
  `pgBackRest with WAL archiving, and pg_dump${missing ? ` (${missing})` : ""}`,
  () => {
    const bin = postgresBinaries()!;
    let dir: string;
    let config: string;
    let port: number;
    let serverUrl: string;
    const data = () => path.join(dir, "data");
    const pgCtl = (args: string[]) => asServerUser(path.join(bin, "pg_ctl"), args);
    const startServer = (folder: string, serverPort: number, extra = "") =>
      pgCtl([
        "-D",
        folder,
        "-o",
        `-p ${serverPort} -k ${dir} ${extra}`,
        "-l",
        `${folder}.log`,
        "-w",
        "-t",
        "300",
        "start",
      ]);
    const stopServer = (folder: string) => pgCtl(["-D", folder, "-m", "fast", "-w", "stop"]).catch(() => "");
    const pgbackrest = (...args: string[]) =>
      asServerUser(pgbackrestBinary!, [`--config=${config}`, ...args]);

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "backup-drill-"));
      if (asRoot) execFileSync("chown", ["postgres:", dir]);
      port = await freeTcpPort();
      serverUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
      // The repository, its lock and log folders and this config live in the test's folder only.
      config = path.join(dir, "pgbackrest.conf");
      writeFileSync(
        config,
        `[global]
repo1-path=${dir}/repo
lock-path=${dir}/lock
log-path=${dir}/log
spool-path=${dir}/spool
log-level-file=off
start-fast=y

[drill]
pg1-path=${data()}
pg1-port=${port}
pg1-socket-path=${dir}
`,
      );
      await asServerUser(path.join(bin, "initdb"), ["-D", data(), "-U", "postgres", "--auth=trust", "-N"]);
      writeFileSync(
        path.join(data(), "postgresql.auto.conf"),
        `listen_addresses = '127.0.0.1'
fsync = off
archive_mode = on
archive_command = '${pgbackrestBinary} --config=${config} --stanza=drill archive-push %p'
`,
      );
      if (asRoot) execFileSync("chown", ["-R", "postgres:", dir]);
      await startServer(data(), port);
      await pgbackrest("--stanza=drill", "stanza-create");
      await sql(serverUrl, "CREATE DATABASE app");
      await migrate(withDatabase(serverUrl, "app"));
    });
    afterAll(async () => {
      if (!dir) return;
      await stopServer(path.join(dir, "restored"));
      await stopServer(data());
      rmSync(dir, { recursive: true, force: true });
    });

    it("restores a full backup to a point in time: exactly the rows written before it, and the services run on it", async () => {
      const appUrl = withDatabase(serverUrl, "app");
      const services = await Services.open(appUrl);
      let target: string;
      try {
        await services.write("before-backup", appUrl);
        const io = captured();
        expect(
          await backupCommand(["--stanza", "drill", "--config", config], {}, io),
          io.err.join("\n"),
        ).toBe(0);
        // One line of ours; pgBackRest's log only with --verbose.
        expect(io.out).toEqual([
          expect.stringMatching(/^backed up stanza drill with pgBackRest: a full backup, \d{8}-\d{6}F$/),
        ]);
        expect(io.err).toEqual([]);
        await services.write("after-backup", appUrl);
        // The point in time: read from the server once the writes before it have committed, and
        // before any write after it starts (PITR compares it with the commits' own timestamps).
        [{ target }] = (await sql<{ target: string }>(
          appUrl,
          "SELECT clock_timestamp()::text AS target",
        )) as [{ target: string }];
        await services.write("after-target", appUrl);
      } finally {
        await services.close();
      }
      // Every WAL segment up to now archived (check switches to a new one and waits for it).
      await pgbackrest("--stanza=drill", "check");
      expect(await contents(appUrl)).toEqual(expected("before-backup", "after-backup", "after-target"));

      const restored = path.join(dir, "restored");
      // The backup named, not chosen by its stop time: that has a resolution of one second.
      const [{ backup }] = JSON.parse(await pgbackrest("--stanza=drill", "--output=json", "info")) as [
        { backup: { label: string }[] },
      ];
      await pgbackrest(
        `--set=${backup.at(-1)!.label}`,
        "--stanza=drill",
        `--pg1-path=${restored}`,
        "--type=time",
        `--target=${target}`,
        "--target-action=promote",
        "restore",
      );
      const restoredPort = await freeTcpPort();
      // Archiving off: the restored copy must not push a timeline of its own into the drill's repository.
      await startServer(restored, restoredPort, "-c archive_mode=off");
      const restoredUrl = `postgresql://postgres@127.0.0.1:${restoredPort}/app`;
      // Recovery replays to the target, then promotes; a minute per try is an outer limit only.
      for (let attempt = 0; ; attempt++) {
        const [row] = await sql<{ recovering: boolean }>(
          restoredUrl,
          "SELECT pg_is_in_recovery() AS recovering",
        );
        if (!row?.recovering) break;
        if (attempt > 1_200) throw new Error("the restored server did not finish recovery in 10 minutes");
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(await contents(restoredUrl)).toEqual(expected("before-backup", "after-backup"));
      await servicesRunOn(restoredUrl, "after-backup-1");
    });

    it("dumps DATABASE_URL with pg_dump and restores it into an empty database only, unless forced", async () => {
      await sql(serverUrl, "CREATE DATABASE dumped");
      await sql(serverUrl, "CREATE DATABASE copy");
      const url = withDatabase(serverUrl, "dumped");
      await migrate(url);
      const file = path.join(dir, "dumped.dump");
      const services = await Services.open(url);
      try {
        await services.write("dumped", url);
        const io = captured();
        expect(await backupCommand([file], { DATABASE_URL: url }, io), io.err.join("\n")).toBe(0);
        await services.write("not-dumped", url);
      } finally {
        await services.close();
      }
      expect(readFileSync(file).subarray(0, 5).toString()).toBe("PGDMP");

      const copyUrl = withDatabase(serverUrl, "copy");
      const io = captured();
      expect(await restoreCommand([file], { DATABASE_URL: copyUrl }, io), io.err.join("\n")).toBe(0);
      expect(await contents(copyUrl)).toEqual(expected("dumped"));
      await servicesRunOn(copyUrl, "dumped-1");

      // Into a database that holds data: refused, in one line that says how to force it.
      const refused = captured();
      expect(await restoreCommand([file], { DATABASE_URL: url }, refused)).toBe(1);
      expect(refused.err).toHaveLength(1);
      expect(refused.err[0]).toMatch(
        /^cannot restore: the database .*dumped already holds tables .*add --force/,
      );
      const forced = captured();
      expect(
        await restoreCommand([file, "--force"], { DATABASE_URL: url }, forced),
        forced.err.join("\n"),
      ).toBe(0);
      expect(await contents(url)).toEqual(expected("dumped"));
    });
  },
);

describe("the embedded database's backup (pnpm db:backup <file> with no DATABASE_URL)", () => {
  let root: string;
  beforeAll(() => {
    // 0700, as mkdtemp makes it: as root, the embedded server runs as `postgres`, which cannot
    // enter it, so its clusters live in the shared folder, linked from each DATA_DIR (ADR 0251),
    // and the backup and the restores go through those links.
    root = mkdtempSync(path.join(tmpdir(), "embedded-backup-"));
  });
  afterAll(() => {
    if (!root) return;
    for (const dataDir of ["live", "fresh"]) {
      const link = path.join(root, dataDir, "postgres");
      if (existsSync(link) && lstatSync(link).isSymbolicLink())
        rmSync(readlinkSync(link), { recursive: true, force: true });
    }
    rmSync(root, { recursive: true, force: true });
  });

  it("restores into an empty DATA_DIR exactly what it held, refuses a DATA_DIR with data, and replaces it with --force", async () => {
    const dataDir = path.join(root, "live");
    const file = path.join(root, "embedded.tar.gz");
    const database = await openDatabase({ dataDir });
    const services = await Services.open(database.url);
    try {
      await services.write("backed-up", database.url);
      // Taken while the server runs and the services are connected.
      const io = captured();
      expect(await backupCommand([file], { DATA_DIR: dataDir }, io), io.err.join("\n")).toBe(0);
      await services.write("later", database.url);
      expect(await contents(database.url)).toEqual(expected("backed-up", "later"));
    } finally {
      await services.close();
      await database.close();
    }

    const freshDir = path.join(root, "fresh");
    const restored = captured();
    expect(await restoreCommand([file], { DATA_DIR: freshDir }, restored), restored.err.join("\n")).toBe(0);
    if (asRoot) expect(lstatSync(path.join(freshDir, "postgres")).isSymbolicLink()).toBe(true);
    const fresh = await openDatabase({ dataDir: freshDir });
    try {
      expect(await contents(fresh.url)).toEqual(expected("backed-up"));
      await servicesRunOn(fresh.url, "backed-up-2");
    } finally {
      await fresh.close();
    }

    // Over the database it was taken from (stopped): refused in one line naming --force, then forced.
    const refused = captured();
    expect(await restoreCommand([file], { DATA_DIR: dataDir }, refused)).toBe(1);
    expect(refused.err).toHaveLength(1);
    expect(refused.err[0]).toMatch(/^cannot restore: .* already holds a database: .*add --force/);
    const forced = captured();
    expect(
      await restoreCommand([file, "--force"], { DATA_DIR: dataDir }, forced),
      forced.err.join("\n"),
    ).toBe(0);
    const replaced = await openDatabase({ dataDir });
    try {
      expect(await contents(replaced.url)).toEqual(expected("backed-up"));
    } finally {
      await replaced.close();
    }
  }, 600_000);

  it("as `pnpm db:backup` / `pnpm db:restore` processes: one line on stderr and exit code 1", async () => {
    const dist = path.resolve(import.meta.dirname, "../dist");
    const env = { PATH: process.env.PATH, DATA_DIR: path.join(root, "none") };
    for (const [script, reason] of [
      ["db-backup.js", /^cannot back up: no repository or file: give a file .* --stanza app\)$/],
      ["db-restore.js", /^cannot restore: give the file pnpm db:backup wrote .*#backup-and-restore\)$/],
    ] as const) {
      const failure = await run(process.execPath, [path.join(dist, script)], { env, cwd: root }).catch(
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      expect(failure, script).toMatchObject({ code: 1, stdout: "" });
      const lines = (failure as { stderr: string }).stderr.trim().split("\n");
      expect(lines, script).toHaveLength(1);
      expect(lines[0], script).toMatch(reason);
    }
  });

  it("says what to give when there is neither a file nor a pgBackRest stanza, in one line", async () => {
    const io = captured();
    expect(await backupCommand([], { DATA_DIR: path.join(root, "none") }, io)).toBe(1);
    expect(io.err).toEqual([
      "cannot back up: no repository or file: give a file (pnpm db:backup backups/app.dump) or a pgBackRest " +
        "stanza whose repository (repo1-path) is set in pgbackrest.conf (pnpm db:backup --stanza app)",
    ]);
    const restore = captured();
    expect(await restoreCommand([path.join(root, "missing.dump")], { DATA_DIR: root }, restore)).toBe(1);
    expect(restore.err).toEqual([`cannot restore: ${path.join(root, "missing.dump")} is not a file`]);
  });

  it.skipIf(!pgbackrestBinary)(
    "says what to set when pgBackRest has no such stanza or repository, in one line",
    async () => {
      // An empty configuration: no stanza, no cluster, no repository. In a folder of its own that
      // pgBackRest's user (`postgres`, as root) can enter.
      const folder = mkdtempSync(path.join(tmpdir(), "pgbackrest-conf-"));
      chmodSync(folder, 0o755);
      onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
      const config = path.join(folder, "empty-pgbackrest.conf");
      writeFileSync(config, "");
      chmodSync(config, 0o644);
      const io = captured();
      expect(await backupCommand(["--stanza", "app", "--config", config], { DATA_DIR: root }, io)).toBe(1);
      expect(io.err).toEqual([
        expect.stringMatching(
          /^cannot back up: pgBackRest has no usable stanza here \(.+\): set the stanza's pg1-path and the repository's repo1-path in pgbackrest\.conf .*stanza-create.* \(--verbose shows pgBackRest's output\)$/,
        ),
      ]);
      // pgBackRest's own lines stay out of sight, unless asked for: then on stderr, before ours.
      expect(io.out).toEqual([]);
      const verbose = captured();
      expect(
        await backupCommand(
          ["--stanza", "app", "--config", config, "--verbose"],
          { DATA_DIR: root },
          verbose,
        ),
      ).toBe(1);
      expect(verbose.out).toEqual([]);
      expect(verbose.err[0]).toMatch(/^ERROR: \[\d+\]: backup command requires option: pg1-path/);
      expect(verbose.err.at(-1)).toMatch(
        /^cannot back up: pgBackRest has no usable stanza here .*stanza-create/,
      );
      expect(verbose.err.at(-1)).not.toContain("--verbose");
    },
  );
});
