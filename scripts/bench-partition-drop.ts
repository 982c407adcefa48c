// The partition-drop row of `pnpm bench` (issue 18): what dropping a month of visits costs the
// redirect at full load. A month far ahead gets its own partition of short_logs, filled with
// `rows` visits of a short that does not exist (so no redirect's figures count them); then the
// redirect is measured twice at the same load: once as it is, once while that partition is
// detached (CONCURRENTLY, as VISIT_RETENTION_DAYS does: visit-maintenance.ts) and dropped.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@app/db";

/** A month no instance creates or drops on its own. */
const MONTH = { name: "short_logs_209901", from: "2099-01-01T00:00:00Z", to: "2099-02-01T00:00:00Z" };

/** Creates and fills the partition; returns how long the fill took, in seconds. */
export async function seedDroppablePartition(prisma: PrismaClient, rows: number): Promise<number> {
  const started = performance.now();
  await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS "shortener"."${MONTH.name}"`);
  await prisma.$executeRawUnsafe(
    `CREATE TABLE "shortener"."${MONTH.name}" PARTITION OF "shortener"."short_logs"
     FOR VALUES FROM ('${MONTH.from}') TO ('${MONTH.to}')`,
  );
  // One million rows per statement: each stays under the statement timeout.
  const shortId = randomUUID();
  for (let first = 0; first < rows; first += 1_000_000) {
    const count = Math.min(1_000_000, rows - first);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "shortener"."${MONTH.name}" ("short_id", "ip_address", "user_agent", "referer", "created_at")
       SELECT $1::uuid, '192.0.2.1', 'bench', '', '${MONTH.from}'::timestamptz + (i % 2500000) * interval '1 second'
       FROM generate_series(${first}, ${first + count - 1}) AS i`,
      shortId,
    );
  }
  return (performance.now() - started) / 1000;
}

/** Detaches and drops the partition; returns how long each step took, in ms. */
export async function dropPartition(prisma: PrismaClient): Promise<{ detachMs: number; dropMs: number }> {
  const started = performance.now();
  await prisma.$executeRawUnsafe(
    `ALTER TABLE "shortener"."short_logs" DETACH PARTITION "shortener"."${MONTH.name}" CONCURRENTLY`,
  );
  const detached = performance.now();
  await prisma.$executeRawUnsafe(`DROP TABLE "shortener"."${MONTH.name}"`);
  return { detachMs: detached - started, dropMs: performance.now() - detached };
}
