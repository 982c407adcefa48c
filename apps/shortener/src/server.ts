import { fileURLToPath } from "node:url";
import { createPrisma, openDatabase, type PrismaClient } from "@app/db";
import { unknownVariablesWarning } from "@app/server/config";
import { serveMetrics } from "@app/server/metrics";
import { closeGracefully } from "@app/server/shutdown";
import { buildApp } from "./app.ts";
import { loadConfig, readEnvironment, SHORTENER_VARIABLES, type ShortenerConfig } from "./config.ts";
import { SERVICE } from "./logger.ts";

const startupLine = (address: string) =>
  `${SERVICE} listening on ${address}, API reference at ${address}/docs/reference (OpenAPI document: ${address}/docs)`;

/** Builds the shortener with its production logger and starts listening. */
export async function startShortener(config: ShortenerConfig, prisma: PrismaClient) {
  const app = await buildApp({ config, prisma, logger: true });
  if (config.SHORTENER_METRICS_PORT !== undefined) {
    const metrics = await serveMetrics(app.metrics, config.SHORTENER_METRICS_PORT, config.HOST);
    app.addHook("onClose", () => new Promise<void>((resolve) => metrics.close(() => resolve())));
  }
  await app.listen({ port: config.SHORTENER_PORT, host: config.HOST, listenTextResolver: startupLine });
  return app;
}

async function main() {
  const environment = readEnvironment();
  const config = loadConfig(environment);
  const warning = unknownVariablesWarning(environment, SHORTENER_VARIABLES);
  if (warning) console.warn(warning);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    dataDir: config.DATA_DIR,
    log: (line) => console.log(line),
  });
  const prisma = createPrisma(database.url, { directUrl: database.directUrl });
  const app = await startShortener(config, prisma);
  // SIGTERM/SIGINT: stop accepting, let in-flight requests (and their visit rows) finish,
  // then close the pool and the embedded database.
  closeGracefully(15_000, async ({ err }) => {
    if (err) app.log.error({ err }, "shutting down after an error");
    await app.close();
    await prisma.$disconnect();
    await database.close();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
