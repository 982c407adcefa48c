// `pnpm start`: both services in one process, on one database. Without DATABASE_URL an
// embedded PostgreSQL is started (data under DATA_DIR) and migrated on first start.
import { createPrisma, openDatabase } from "@app/db";
import { loadConfig as loadSchedulingConfig } from "@app/scheduling/config";
import { startScheduling } from "@app/scheduling/server";
import { loadConfig as loadShortenerConfig, readEnvironment } from "@app/shortener/config";
import { startShortener } from "@app/shortener/server";
import closeWithGrace from "close-with-grace";

const shortenerConfig = loadShortenerConfig(readEnvironment());
const schedulingConfig = loadSchedulingConfig(readEnvironment());

const database = await openDatabase({
  databaseUrl: shortenerConfig.databaseUrl,
  dataDir: shortenerConfig.dataDir,
  log: (line) => console.log(line),
});
const shortenerPrisma = createPrisma(database.url);
const schedulingPrisma = createPrisma(database.url);

try {
  const shortener = await startShortener(shortenerConfig, shortenerPrisma);
  const scheduling = await startScheduling(schedulingConfig, schedulingPrisma);
  // SIGTERM/SIGINT: both stop accepting and finish in-flight work, then the pools close,
  // then the embedded database (if any) stops.
  closeWithGrace({ delay: 15_000 }, async ({ err }) => {
    if (err) console.error(err);
    await Promise.all([shortener.close(), scheduling.close()]);
    await Promise.all([shortenerPrisma.$disconnect(), schedulingPrisma.$disconnect()]);
    await database.close();
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await Promise.allSettled([shortenerPrisma.$disconnect(), schedulingPrisma.$disconnect()]);
  await database.close();
  process.exit(1);
}
