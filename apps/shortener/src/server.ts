import { fileURLToPath } from "node:url";
import { createPrisma, openDatabase, type PrismaClient } from "@app/db";
import { serveMetrics } from "@app/server/metrics";
import { closeGracefully } from "@app/server/shutdown";
import { buildApp } from "./app.ts";
import { loadConfig, readEnvironment, type ShortenerConfig } from "./config.ts";
import { SERVICE } from "./logger.ts";

const startupLine = (address: string) => `${SERVICE} listening on ${address}, docs at ${address}/docs`;

/** Builds the shortener with its production logger and starts listening. */
export async function startShortener(config: ShortenerConfig, prisma: PrismaClient) {
  const app = await buildApp({ config, prisma, logger: true });
  if (config.metricsPort !== undefined) {
    const metrics = await serveMetrics(app.metrics, config.metricsPort, config.host);
    app.addHook("onClose", () => new Promise<void>((resolve) => metrics.close(() => resolve())));
  }
  await app.listen({ port: config.port, host: config.host, listenTextResolver: startupLine });
  return app;
}

async function main() {
  const config = loadConfig(readEnvironment());
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log: (line) => console.log(line),
  });
  const prisma = createPrisma(database.url);
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
