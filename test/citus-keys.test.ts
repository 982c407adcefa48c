// The shortener's schema is ready for Citus (docs/scaling.md): read from the catalog of a
// database migrated by this build, every table of the `shortener` schema has its place in the
// plan below, and each distributed table keeps the rules Citus enforces: the distribution column
// in every primary key and unique index (partitions included), and no foreign key Citus cannot
// keep (between distributed tables only on the distribution column; none from a reference table
// to a distributed one).

import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Placement = { distributedBy: "short_id" | "user_id" } | { reference: true };

/**
 * Where each table goes on a Citus cluster. Visits and their per-short aggregates are one
 * co-location group by short id (a batch's rows for one short land on one node); the per-user
 * aggregates are a second group by user id (an account's statistics read one node). What is
 * small or looked up by something other than those keys (a short by its name, a token by its
 * hash) is a reference table, copied to every node.
 */
const CITUS_PLAN: Record<string, Placement> = {
  short_logs: { distributedBy: "short_id" },
  visit_hours: { distributedBy: "short_id" },
  visit_hour_values: { distributedBy: "short_id" },
  visit_day_values: { distributedBy: "short_id" },
  visit_day_visitors: { distributedBy: "short_id" },
  visit_pending_sums: { distributedBy: "short_id" },
  // A stored batch's shorts, by batch id and short id (docs/adr/0279): a batch's row of a short
  // lands with that short's visits.
  visit_batches: { distributedBy: "short_id" },
  visit_value_totals: { distributedBy: "short_id" },
  visit_user_hours: { distributedBy: "user_id" },
  visit_user_hour_values: { distributedBy: "user_id" },
  visit_user_day_values: { distributedBy: "user_id" },
  visit_user_short_hours: { distributedBy: "user_id" },
  visit_user_short_days: { distributedBy: "user_id" },
  visit_user_short_totals: { distributedBy: "user_id" },
  visit_user_value_totals: { distributedBy: "user_id" },
  // Per user too: a create's claim reads and writes one user's keys.
  idempotency_keys: { distributedBy: "user_id" },
  // An import's records, looked up by (user, domain, source, key): one user's on one node.
  short_imports: { distributedBy: "user_id" },
  users: { reference: true },
  tokens: { reference: true },
  shorts: { reference: true },
  stats_links: { reference: true },
  // Few rows, read by host on every redirect: on every node.
  domains: { reference: true },
  domain_users: { reference: true },
  deleted_shorts: { reference: true },
  visitor_salts: { reference: true },
  // One row, read by every batch and statistics statement.
  visit_rollup: { reference: true },
  // Orphan visits (docs/adr/0227): a few hundred rows per domain and hour at most, read by domain.
  orphan_visit_hours: { reference: true },
  orphan_visit_hour_values: { reference: true },
  // The ids of the flushes stored (docs/adr/0288), written with those rows.
  orphan_visit_batches: { reference: true },
};

let db: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.drop();
});

interface Table {
  name: string;
  /** The table at the root of the partitions it is in (a month's piece: short_logs), if any. */
  parent: string | null;
}

async function tables(): Promise<Table[]> {
  const { rows } = await client.query<Table>(`
    SELECT c.relname AS name, p.relname AS parent
      FROM pg_class c
      LEFT JOIN pg_class p ON p.oid = pg_partition_root(c.oid) AND p.oid <> c.oid
     WHERE c.relnamespace = 'shortener'::regnamespace AND c.relkind IN ('r', 'p')
     ORDER BY 1`);
  return rows;
}

/** The plan of a table: its own, or its partitioned parent's. */
const placementOf = (table: Table) => CITUS_PLAN[table.parent ?? table.name];

describe("the shortener's schema on Citus (docs/scaling.md)", () => {
  it("places every table: distributed by short id, by user id, or a reference table", async () => {
    const all = await tables();
    expect(all.filter((table) => !placementOf(table)).map((table) => table.name)).toEqual([]);
    // The plan names no table that is gone.
    const names = new Set(all.map((table) => table.name));
    expect(Object.keys(CITUS_PLAN).filter((name) => !names.has(name))).toEqual([]);
    // The visit table is partitioned by month: each partition is distributed like it.
    expect(all.filter((table) => table.parent === "short_logs").length).toBeGreaterThan(0);
  });

  it("has the distribution column in every primary key and unique index of a distributed table, partitions included", async () => {
    const { rows } = await client.query<{ table: string; index: string; columns: string[] }>(`
      SELECT t.relname AS "table", ix.relname AS "index",
             array(SELECT a.attname FROM unnest(i.indkey) k JOIN pg_attribute a
                     ON a.attrelid = t.oid AND a.attnum = k)::text[] AS columns
        FROM pg_index i
        JOIN pg_class t ON t.oid = i.indrelid
        JOIN pg_class ix ON ix.oid = i.indexrelid
       WHERE t.relnamespace = 'shortener'::regnamespace AND (i.indisunique OR i.indisprimary)`);
    const all = await tables();
    const checked = new Set<string>();
    const breaking: string[] = [];
    for (const row of rows) {
      const table = all.find((t) => t.name === row.table)!;
      const placement = placementOf(table);
      if (!placement || !("distributedBy" in placement)) continue;
      checked.add(table.name);
      if (!row.columns.includes(placement.distributedBy)) {
        breaking.push(`${row.index} on ${row.table} (${row.columns}) lacks ${placement.distributedBy}`);
      }
    }
    expect(breaking).toEqual([]);
    // Every distributed table (each partition too) has a primary key that was checked.
    const distributed = all.filter((table) => {
      const placement = placementOf(table);
      return placement && "distributedBy" in placement;
    });
    expect(distributed.filter((table) => !checked.has(table.name)).map((t) => t.name)).toEqual([]);
  });

  it("has no foreign key Citus cannot keep", async () => {
    const { rows } = await client.query<{
      from: string;
      to: string;
      columns: string[];
      referenced: string[];
    }>(`
      SELECT f.relname AS "from", t.relname AS "to",
             array(SELECT a.attname FROM unnest(c.conkey) k JOIN pg_attribute a
                     ON a.attrelid = c.conrelid AND a.attnum = k)::text[] AS columns,
             array(SELECT a.attname FROM unnest(c.confkey) k JOIN pg_attribute a
                     ON a.attrelid = c.confrelid AND a.attnum = k)::text[] AS referenced
        FROM pg_constraint c
        JOIN pg_class f ON f.oid = c.conrelid
        JOIN pg_class t ON t.oid = c.confrelid
       WHERE c.contype = 'f' AND (f.relnamespace = 'shortener'::regnamespace
                                  OR t.relnamespace = 'shortener'::regnamespace)`);
    expect(rows.length).toBeGreaterThan(0);
    const all = await tables();
    const breaking: string[] = [];
    for (const key of rows) {
      const from = CITUS_PLAN[all.find((t) => t.name === key.from)?.parent ?? key.from];
      const to = CITUS_PLAN[all.find((t) => t.name === key.to)?.parent ?? key.to];
      const name = `${key.from}(${key.columns}) -> ${key.to}(${key.referenced})`;
      if (!from || !to) breaking.push(`${name}: outside the shortener's plan`);
      // To a reference table: kept on every node.
      else if ("reference" in to) continue;
      // From a reference (or local) table to a distributed one: Citus refuses it.
      else if ("reference" in from)
        breaking.push(`${name}: a reference table cannot point into a distributed one`);
      // Between distributed tables: co-located, on the distribution column.
      else if (
        from.distributedBy !== to.distributedBy ||
        key.columns.indexOf(from.distributedBy) !== key.referenced.indexOf(to.distributedBy) ||
        !key.columns.includes(from.distributedBy)
      ) {
        breaking.push(`${name}: not on the distribution column of one co-location group`);
      }
    }
    expect(breaking).toEqual([]);
  });
});
