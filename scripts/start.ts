// `pnpm start`: both services in one process, on one database. Without DATABASE_URL an
// embedded PostgreSQL is started (data under DATA_DIR) and migrated on first start.
// `pnpm start` execs node (package.json), so a SIGTERM to its PID reaches this process.
import { createPrisma, type Database, openDatabase, type PrismaClient } from "@app/db";
import { loadConfig as loadSchedulingConfig, SCHEDULING_VARIABLES } from "@app/scheduling/config";
import { startScheduling } from "@app/scheduling/server";
import { unknownVariablesWarning } from "@app/server/config";
import { closeGracefully } from "@app/server/shutdown";
import {
  loadConfig as loadShortenerConfig,
  readEnvironment,
  SHORTENER_VARIABLES,
} from "@app/shortener/config";
import { startShortener } from "@app/shortener/server";

let database: Database | undefined;
const clients: PrismaClient[] = [];
const services: { close(): Promise<unknown> }[] = [];

// SIGTERM/SIGINT, from the first moment (a signal during start-up too): the services started
// so far stop accepting and finish in-flight work, then the pools close, then the embedded
// database (if any) stops.
closeGracefully(15_000, async ({ err }) => {
  if (err) console.error(err);
  await Promise.all(services.map((service) => service.close()));
  await Promise.all(clients.map((client) => client.$disconnect()));
  await database?.close();
});

try {
  const environment = readEnvironment();
  const shortenerConfig = loadShortenerConfig(environment);
  const schedulingConfig = loadSchedulingConfig(environment);
  const warning = unknownVariablesWarning(environment, [...SHORTENER_VARIABLES, ...SCHEDULING_VARIABLES]);
  if (warning) console.warn(warning);
  database = await openDatabase({
    databaseUrl: shortenerConfig.DATABASE_URL,
    directUrl: shortenerConfig.DATABASE_DIRECT_URL,
    dataDir: shortenerConfig.DATA_DIR,
    log: (line) => console.log(line),
  });
  const shortenerPrisma = createPrisma(database.url, { directUrl: database.directUrl });
  const schedulingPrisma = createPrisma(database.url, { directUrl: database.directUrl });
  clients.push(shortenerPrisma, schedulingPrisma);
  services.push(await startShortener(shortenerConfig, shortenerPrisma));
  services.push(await startScheduling(schedulingConfig, schedulingPrisma));
} catch (error) {
  // One line, no stack trace: a configuration or connection problem the operator must fix.
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  await Promise.allSettled(clients.map((client) => client.$disconnect()));
  await database?.close();
  process.exit(1);
}
