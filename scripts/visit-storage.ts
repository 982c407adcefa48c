// How much disk a million visits take (docs/scaling.md): stores `--visits` visits through the
// shortener's own write path (VisitLog: the batch INSERT with its hourly aggregates), spread over
// `--shorts` shorts of `--users` users and the hours of one month, rolls the month up as the
// service does once its days are over (the daily rows and the totals), then prints the size of
// each table (heap, indexes, TOAST) per million visits. Not a timing.
//   DATABASE_URL=postgresql://…/empty_db node dist/visit-storage.js [--visits 1000000]
// It refuses a database that already holds visits: the sizes would not be this run's.
import { parseArgs } from "node:util";
import { createPrisma, dedicatedConnection, openDatabase, poolOf } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { loadConfig, readEnvironment } from "@app/shortener/config";
import { VisitLog } from "@app/shortener/visit-log";
import { VisitMaintenance } from "@app/shortener/visit-maintenance";

const USAGE = "usage: scripts/visit-storage.ts [--visits 1000000] [--shorts 1000] [--users 100]";
const values = (() => {
  try {
    return parseArgs({
      options: {
        visits: { type: "string", default: "1000000" },
        shorts: { type: "string", default: "1000" },
        users: { type: "string", default: "100" },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
})();
const visits = Number(values.visits);
const shorts = Number(values.shorts);
const users = Number(values.users);
if (![visits, shorts, users].every((n) => Number.isInteger(n) && n > 0) || users > shorts) {
  console.error(`--visits, --shorts and --users must be positive integers, users ≤ shorts\n${USAGE}`);
  process.exit(2);
}

// A handful of real clients, referrers and addresses, so enrichment fills every dimension.
const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "curl/8.5.0",
];
const REFERERS = [
  "",
  "https://news.ycombinator.com/",
  "https://www.google.com/",
  "https://t.co/x",
  "https://mail.example.com/inbox",
];
/** Deterministic, so two runs store the same rows. */
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;

const config = loadConfig(readEnvironment());
const database = await openDatabase(databaseOptions(config));
const prisma = createPrisma(database.url, { poolMax: 4 });
const pool = poolOf(prisma);
try {
  if ((await prisma.shortLog.count()) > 0)
    throw new Error("this database already holds visits: use an empty one");
  // The month after this one: its partition exists (created ahead) and holds only this run's rows.
  await new VisitMaintenance(prisma).maintainPartitions();
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const monthMs =
    new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1)).getTime() - month.getTime();
  const partition = `short_logs_${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, "0")}`;

  const userIds: string[] = [];
  for (let u = 0; u < users; u++) {
    const user = await prisma.shortenerUser.create({
      data: { email: `storage-${u}-${Date.now()}@example.com` },
    });
    userIds.push(user.id);
  }
  const shortIds: string[] = [];
  for (let s = 0; s < shorts; s++) {
    const short = await prisma.short.create({
      data: { userId: userIds[s % users]!, name: `storage-${s}-${Date.now()}`, url: "https://example.com/" },
    });
    shortIds.push(short.id);
  }

  const log = new VisitLog(prisma, { maxBatch: 1000 });
  const started = Date.now();
  // Visits in time order through the month, as they arrive; 5,000 in flight (group commit).
  for (let done = 0; done < visits; ) {
    const chunk = Math.min(5_000, visits - done);
    await Promise.all(
      Array.from({ length: chunk }, (_, i) =>
        log.record({
          shortId: pick(shortIds),
          ipAddress: `${10 + Math.floor(random() * 200)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`,
          userAgent: pick(AGENTS),
          referer: pick(REFERERS),
          at: new Date(month.getTime() + Math.floor(((done + i) / visits) * monthMs)),
        }),
      ),
    );
    done += chunk;
    if (done % 100_000 === 0)
      console.error(`${done} visits stored (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await log.drain();
  // The month's days rolled up into the daily rows and the totals, as once they are over: "today"
  // is the day after the month (nothing else is in this database to be closed early).
  const rolled = await new VisitMaintenance(prisma).rollUp(new Date(month.getTime() + monthMs));
  console.error(`${rolled.length} days rolled up`);
  // Settled sizes and row counts. A VACUUM of a million rows and their aggregates outlasts the
  // pool's timeouts (the server's, and the client's a second later): a session of its own.
  const client = dedicatedConnection(prisma);
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }

  const { rows } = await pool.query<{
    name: string;
    rows: string;
    heap: string;
    indexes: string;
    total: string;
  }>(
    `SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_relation_size(c.oid) AS heap,
            pg_indexes_size(c.oid) AS indexes, pg_total_relation_size(c.oid) AS total
       FROM pg_class c
      WHERE c.relnamespace = 'shortener'::regnamespace AND c.relkind = 'r'
        AND (c.relname = $1 OR c.relname LIKE 'visit\\_%') AND c.relname <> 'visitor_salts'
      ORDER BY pg_total_relation_size(c.oid) DESC`,
    [partition],
  );
  const perMillion = (bytes: string) => ((Number(bytes) / visits) * 1_000_000) / 2 ** 20;
  const mb = (n: number) => n.toFixed(1).padStart(9);
  console.log(
    `${visits} visits over ${shorts} shorts of ${users} users and the ${Math.round(monthMs / 3_600_000)} hours of ${partition}`,
  );
  console.log(`${"table".padEnd(28)}${"rows".padStart(11)}   MB per million visits: heap  indexes    total`);
  let total = 0;
  for (const row of rows) {
    total += perMillion(row.total);
    console.log(
      `${row.name.padEnd(28)}${row.rows.padStart(11)}${" ".repeat(24)}${mb(perMillion(row.heap))}${mb(perMillion(row.indexes))}${mb(perMillion(row.total))}`,
    );
  }
  console.log(`${"all of them".padEnd(28)}${" ".repeat(11 + 24 + 18)}${mb(total)}`);
} catch (error) {
  console.error(`cannot measure: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await prisma.$disconnect();
  await database.close();
}
