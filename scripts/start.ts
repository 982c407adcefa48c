// `pnpm start`: both services in one process, on one database. Without DATABASE_URL an
// embedded PostgreSQL is started (data under DATA_DIR) and migrated on first start.
// `pnpm start` execs node (package.json), so a SIGTERM to its PID reaches this process.
import { loadConfig as loadSchedulingConfig, SCHEDULING_VARIABLES } from "@app/scheduling/config";
import { startScheduling } from "@app/scheduling/server";
import { databaseOptions } from "@app/server/config";
import { runServices } from "@app/server/service-process";
import { loadConfig as loadShortenerConfig, SHORTENER_VARIABLES } from "@app/shortener/config";
import { startShortener } from "@app/shortener/server";

await runServices((environment) => {
  const shortener = loadShortenerConfig(environment);
  const scheduling = loadSchedulingConfig(environment);
  return {
    variables: [...SHORTENER_VARIABLES, ...SCHEDULING_VARIABLES],
    database: databaseOptions(shortener),
    stopWaitMs: shortener.STOP_WAIT_MS,
    services: [
      (prisma) => startShortener(shortener, prisma),
      (prisma) => startScheduling(scheduling, prisma),
    ],
  };
});
