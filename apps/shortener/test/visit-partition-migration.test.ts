// The migration to a partitioned visit table, on a copy holding 1,000,000 visits, while visits
// keep being written (issue 18): no visit is lost (every write acknowledged has its row, the old
// rows are all there), none is refused for good, and the statistics equal the rows afterwards.
// The writes are the visit inserts of the release that shipped this migration (its redirect's,
// one row each): this build's redirect writes columns and tables of migrations after the previous
// release, and every supported upgrade to it starts from that release's schema (ADR 0218),
// which is partitioned already.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma, defaultMigrationsDir, isDatabaseUnavailable, migrate } from "@app/db";
import { createTestDatabase } from "@app/testing/database";
import { expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { defaultConfig } from "../src/config.ts";
import { createUser } from "../src/credentials.ts";

const PARTITIONING = "20261125010000_visit_partitions";
const ANALYTICS = "20261125000000_visit_analytics";
const ROWS = 1_000_000;
const SEED_SLICE = 100_000;
/** A migrations folder holding those before `name`, and `also`. */
async function migrationsBefore(name: string, also: string[] = []): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "migrations-"));
  for (const entry of await readdir(defaultMigrationsDir, { withFileTypes: true })) {
    if (entry.isDirectory() && (entry.name < name || also.includes(entry.name))) {
      await cp(path.join(defaultMigrationsDir, entry.name), path.join(dir, entry.name), { recursive: true });
    }
  }
  await cp(path.join(defaultMigrationsDir, "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
  return dir;
}

it("partitions a table of 1,000,000 visits while visits keep being written: none lost", async () => {
  const db = await createTestDatabase({ empty: true });
  const beforeAnalytics = await migrationsBefore(ANALYTICS);
  const beforePartitioning = await migrationsBefore(PARTITIONING);
  const prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 5 });
  try {
    // Today's single table, as deployed, with a million visits.
    await migrate(db.url, { dir: beforeAnalytics });
    const user = await createUser(prisma, "mover@example.com");
    // In SQL: this build's client would write columns later migrations add (tags).
    const [short] = await prisma.$queryRaw<{ id: string }[]>`
      INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url")
      VALUES (gen_random_uuid(), ${user.id}::uuid, 'moving', 'https://example.com/') RETURNING "id"`;
    if (!short) throw new Error("no short inserted");
    // In slices: one statement of a million rows outlasted the 30 s statement timeout on a
    // slower machine under the suite's load.
    for (let first = 1; first <= ROWS; first += SEED_SLICE) {
      await prisma.$executeRawUnsafe(
        `INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer", "created_at")
         SELECT $1::uuid, '192.0.2.1', 'old', '', now() - i * interval '1 second'
         FROM generate_series($2::int, $3::int) AS i`,
        short.id,
        first,
        Math.min(first + SEED_SLICE - 1, ROWS),
      );
    }
    await migrate(db.url, { dir: beforePartitioning });

    // A write refused meanwhile is written again, as that release's visit log kept a refused
    // batch and retried it. On a loaded machine the key index over a million rows can outlast the
    // time a waiting write is given (its statement timeout, or the pool's wait for a connection
    // the waiting writes all hold): such a refusal is allowed, any other is not.
    const refusals: unknown[] = [];
    let served = 0;
    let migrating = true;
    const worker = async () => {
      while (migrating) {
        for (;;) {
          try {
            await prisma.$executeRaw`
              INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer")
              VALUES (${short.id}::uuid, '192.0.2.2', 'during', '')`;
            served++;
            break;
          } catch (error) {
            refusals.push(error);
            if (refusals.length > 100) throw error;
          }
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const { applied } = await migrate(db.url);
    const took = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 300));
    migrating = false;
    await Promise.all(workers);

    console.log(
      `partitioning ${ROWS} visits took ${took.toFixed(0)} ms; ${served} visits written meanwhile, ${refusals.length} refused once and written again`,
    );
    expect(applied[0]).toBe(PARTITIONING);
    expect(served).toBeGreaterThan(0);
    const waitedTooLong = (error: unknown) =>
      isDatabaseUnavailable(error) || /statement timeout/i.test(String(error));
    expect(refusals.filter((refusal) => !waitedTooLong(refusal)).map(String)).toEqual([]);
    const [{ kind }] = (await prisma.$queryRaw<{ kind: string }[]>`
      SELECT relkind::text AS kind FROM pg_class WHERE oid = '"shortener"."short_logs"'::regclass`) as [
      { kind: string },
    ];
    expect(kind).toBe("p");
    // Every partition, the legacy one included, keeps two indexes: its primary key and the
    // order of a short's visit list (docs/adr/0285); no other (each stored visit pays for each).
    const indexes = await prisma.$queryRaw<{ partition: string; indexes: number }[]>`
      SELECT c.relname AS "partition", count(i.indexrelid)::int AS "indexes"
      FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
      LEFT JOIN pg_index i ON i.indrelid = c.oid
      WHERE h.inhparent = '"shortener"."short_logs"'::regclass GROUP BY 1 ORDER BY 1`;
    expect(indexes.length).toBeGreaterThan(1);
    for (const row of indexes) expect(row, row.partition).toMatchObject({ indexes: 2 });
    expect(await prisma.shortLog.count({ where: { shortId: short.id } })).toBe(ROWS + served);
    // The statistics of this build, on the migrated database: the old rows' aggregates (the
    // analytics migration's backfill); the rows written during the move had no redirect to sum them.
    const app = await buildApp({ config: defaultConfig({ SHORT_BASE_URL: "https://sho.rt" }), prisma });
    const stats = await app.stats.forShort(short.id, {
      from: new Date(Date.now() - 20 * 86_400_000).toISOString(),
      interval: "day",
      timezone: "UTC",
    });
    expect(stats.totals.visits).toBe(ROWS);
    await app.close();
  } finally {
    await prisma.$disconnect();
    await db.drop();
    await rm(beforeAnalytics, { recursive: true, force: true });
    await rm(beforePartitioning, { recursive: true, force: true });
  }
}, 600_000);
