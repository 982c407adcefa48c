// The syncing process of `pnpm bench --only calendar-sync`: a calendar sync as an instance runs
// it (the same CalendarSync, its settings from the configuration), in a process of its own so
// the bench can read its resident memory from /proc while it syncs. On DATABASE_URL and
// CREDENTIALS_KEY; says "ready", then syncs each calendar id it is sent and answers the outcome
// and the time it took.
import v8 from "node:v8";
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
  // V8's spaces while it runs (their peaks): what of the resident memory is the young
  // generation (up to 2 × the 64 MB semi-space, docs/adr/0237) and what the old one.
  const spaces = () => {
    const found = { newSpace: 0, oldSpace: 0, heapUsed: process.memoryUsage().heapUsed };
    for (const space of v8.getHeapSpaceStatistics()) {
      if (space.space_name === "new_space") found.newSpace = space.physical_space_size;
      if (space.space_name === "old_space") found.oldSpace = space.physical_space_size;
    }
    return found;
  };
  const start = spaces();
  const peak = { ...start };
  const sampler = setInterval(() => {
    const now = spaces();
    peak.newSpace = Math.max(peak.newSpace, now.newSpace);
    peak.oldSpace = Math.max(peak.oldSpace, now.oldSpace);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  }, 50);
  const outcome = await sync.syncNow(message.calendarId).finally(() => clearInterval(sampler));
  process.send!({
    outcome,
    ms: performance.now() - began,
    heapUsed: process.memoryUsage().heapUsed,
    start,
    peak,
  });
});
process.send!("ready");
