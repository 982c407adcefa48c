// The shortener as a process: config from the environment, the database (embedded when no
// DATABASE_URL), the app, listen, and an orderly stop (@app/server/service-process). Everything
// else is in app.ts.
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { listenService, runServices } from "@app/server/service-process";
import { buildApp } from "./app.ts";
import { loadConfig, SHORTENER_VARIABLES, type ShortenerConfig } from "./config.ts";
import { SERVICE } from "./logger.ts";

/**
 * Builds the shortener with its production logger and starts listening. Used standalone (below)
 * and by the root `pnpm start`. The caller owns `prisma`: close the returned app first.
 */
export async function startShortener(config: ShortenerConfig, prisma: PrismaClient) {
  return listenService(await buildApp({ config, prisma, logger: true }), {
    service: SERVICE,
    host: config.HOST,
    port: config.SHORTENER_PORT,
    metricsPort: config.SHORTENER_METRICS_PORT,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runServices((environment) => {
    const config = loadConfig(environment);
    return {
      variables: SHORTENER_VARIABLES,
      database: databaseOptions(config),
      stopWaitMs: config.STOP_WAIT_MS,
      services: [(prisma) => startShortener(config, prisma)],
    };
  });
}
