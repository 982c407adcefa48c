// The scheduling API as a process: config from the environment, the database (embedded when
// no DATABASE_URL), the app, listen, and an orderly shutdown. Everything else is in app.ts.
import { fileURLToPath } from "node:url";
import { createPrisma, openDatabase, type PrismaClient } from "@app/db";
import { unknownVariablesWarning } from "@app/server/config";
import { serveMetrics } from "@app/server/metrics";
import { closeGracefully } from "@app/server/shutdown";
import { buildApp, type SchedulingApp } from "./app.ts";
import { loadConfig, readEnvironment, SCHEDULING_VARIABLES, type SchedulingConfig } from "./config.ts";
import { SERVICE } from "./logger.ts";

const startupLine = (address: string) =>
  `${SERVICE} listening on ${address}, API reference at ${address}/docs/reference (OpenAPI document: ${address}/docs)`;

/**
 * Builds the app with its production logger and starts listening. Used standalone (below)
 * and by the root `pnpm start`, which runs both services in one process on one database.
 * The caller owns `prisma`: close the returned app first, then disconnect it.
 */
export async function startScheduling(
  config: SchedulingConfig,
  prisma: PrismaClient,
): Promise<SchedulingApp> {
  const app = await buildApp({ config, prisma, logger: true });
  try {
    if (config.SCHEDULING_METRICS_PORT !== undefined) {
      const metrics = await serveMetrics(app.metrics, config.SCHEDULING_METRICS_PORT, config.HOST);
      app.addHook("onClose", () => new Promise<void>((resolve) => metrics.close(() => resolve())));
    }
    await app.listen({ port: config.SCHEDULING_PORT, host: config.HOST, listenTextResolver: startupLine });
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

async function main() {
  const environment = readEnvironment();
  const config = loadConfig(environment);
  const warning = unknownVariablesWarning(environment, SCHEDULING_VARIABLES);
  if (warning) console.warn(warning);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    dataDir: config.DATA_DIR,
    log: (line) => console.log(line),
  });
  const prisma = createPrisma(database.url, { directUrl: database.directUrl });
  let app: SchedulingApp;
  try {
    app = await startScheduling(config, prisma);
  } catch (error) {
    await prisma.$disconnect();
    await database.close();
    throw error;
  }
  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then the pool, then the
  // embedded database (if any).
  closeGracefully(10_000, async ({ err, signal }) => {
    if (err) app.log.error({ err }, "shutting down after an error");
    else app.log.info({ signal }, "shutting down");
    await app.close();
    await prisma.$disconnect();
    await database.close();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
