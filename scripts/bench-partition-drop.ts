// The partition-drop row of `pnpm bench` (issue 18): what dropping a month of visits costs the
// redirect at full load. A month far ahead gets its own partition of short_logs, made as the
// service makes every month (in pieces by short id: visit-maintenance.ts), and is filled with
// `rows` visits of 10,000 shorts that do not exist (so no redirect's figures count them); then
// the redirect is measured twice at the same load: once as it is, once while the service's
// retention detaches that month and drops it, a piece at a time.
import { existsSync, readFileSync } from "node:fs";
import type { PrismaClient } from "@app/db";
import { MONTH_PIECES, monthPartition, VisitMaintenance } from "@app/shortener/visit-maintenance";

/** A month no instance creates or drops on its own. */
const MONTH = monthPartition(new Date("2099-01-01T00:00:00Z"));
const SHORTS = 10_000;

/** Creates, fills and vacuums the partition; returns how long that took, in seconds. */
export async function seedDroppablePartition(prisma: PrismaClient, rows: number): Promise<number> {
  const started = performance.now();
  await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS "shortener"."${MONTH.name}"`);
  await prisma.$transaction(MONTH.statements.map((statement) => prisma.$executeRawUnsafe(statement)));
  // One million rows per statement: each stays under the statement timeout.
  for (let first = 0; first < rows; first += 1_000_000) {
    const count = Math.min(1_000_000, rows - first);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "shortener"."${MONTH.name}" ("short_id", "ip_address", "user_agent", "referer", "created_at")
       SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i % ${SHORTS}), 12, '0'))::uuid, '192.0.2.1', 'bench', '',
         '2099-01-01T00:00:00Z'::timestamptz + (i % 2500000) * interval '1 second'
       FROM generate_series(${first}, ${first + count - 1}) AS i`,
    );
  }
  // Vacuumed, as a month past its retention long has been: else autovacuum takes up the fresh
  // rows (setting their hint bits writes the whole month again) while the redirect is measured.
  await prisma.$executeRawUnsafe(`VACUUM (ANALYZE) "shortener"."${MONTH.name}"`);
  return (performance.now() - started) / 1000;
}

/** Detaches and drops the partition as the retention does; returns how long it took, in ms. */
export async function dropPartition(prisma: PrismaClient): Promise<{ dropMs: number; pieces: number }> {
  const started = performance.now();
  const dropped = await new VisitMaintenance(prisma).dropMonth({ name: MONTH.name, detachPending: false });
  if (!dropped) throw new Error(`${MONTH.name} was not dropped`);
  return { dropMs: performance.now() - started, pieces: MONTH_PIECES };
}

/**
 * The mount point of PostgreSQL's data directory when that filesystem discards freed blocks
 * online (mounted with `discard`); undefined otherwise, or when the server is not on this
 * machine. Online discard is what the drop's p99 depends on: the DROP's unlink of a 10 M-row
 * partition waits for the device to discard 1.3 GB, and the redirect's WAL flushes wait behind it
 * (docs/performance.md, 2026-11-25: a probe committing alone saw its slowest commit go from 5-7
 * ms to 45-90 ms with it, and the DROP take 0.7 s instead of 0.2 s).
 */
export async function onlineDiscardMount(prisma: PrismaClient): Promise<string | undefined> {
  try {
    const [row] = await prisma.$queryRawUnsafe<{ data_directory: string }[]>("SHOW data_directory");
    const directory = row?.data_directory;
    if (directory === undefined || !existsSync(directory)) return undefined;
    const mounts = readFileSync("/proc/mounts", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .filter(
        ([, point]) =>
          point && (directory === point || directory.startsWith(point === "/" ? "/" : `${point}/`)),
      )
      .sort((a, b) => b[1]!.length - a[1]!.length);
    const [, point, , options = ""] = mounts[0] ?? [];
    return options.split(",").includes("discard") ? point : undefined;
  } catch {
    return undefined;
  }
}
