// The syncing process of `pnpm bench --only calendar-sync`: a calendar sync as an instance runs
// it (the same CalendarSync, its settings from the configuration), in a process of its own so
// the bench can read its resident memory from /proc while it syncs. On DATABASE_URL and
// CREDENTIALS_KEY; says "ready", then syncs each calendar id it is sent and answers the outcome
// and the time it took.
import { createPrisma } from "@app/db";
import { credentialKeys } from "@app/scheduling/calendars/logins";
import { CalendarSync } from "@app/scheduling/calendars/sync";
import { loadConfig, readEnvironment } from "@app/scheduling/config";

const config = loadConfig(readEnvironment());
const prisma = createPrisma(config.DATABASE_URL!);
const sync = new CalendarSync(
  prisma,
  {
    intervalMs: config.CALENDAR_SYNC_INTERVAL_MS,
    timeoutMs: config.CALENDAR_TIMEOUT_MS,
    horizonDays: config.CALENDAR_HORIZON_DAYS,
    keys: credentialKeys(config),
  },
  { info() {}, warn() {} },
);

process.on("message", async (message: { calendarId: number } | "exit") => {
  if (message === "exit") {
    await sync.stop();
    await prisma.$disconnect();
    process.exit(0);
  }
  const began = performance.now();
  const outcome = await sync.syncNow(message.calendarId);
  process.send!({ outcome, ms: performance.now() - began, heapUsed: process.memoryUsage().heapUsed });
});
process.send!("ready");
