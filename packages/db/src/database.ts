import path from "node:path";
import { createPrisma } from "./client.ts";
import { startEmbeddedPostgres } from "./embedded.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";
import { type ContractSteps, migrate } from "./migrate.ts";

export interface DatabaseOptions {
  /** A PostgreSQL URL; without one an embedded server is started under `dataDir`. */
  databaseUrl?: string | undefined;
  /** The same database without a pooler in between (DATABASE_DIRECT_URL): migrations run there. */
  directUrl?: string | undefined;
  /** Where the embedded server keeps its cluster (`<dataDir>/postgres`). */
  dataDir: string;
  /** The clients' wait for a database that accepts no connection (createPrisma's `waitMs`); not used here. */
  waitMs?: number | undefined;
  log?: (line: string) => void;
  /** What a person should know even when `log` is quiet (where the embedded data went); default `log`. */
  notice?: (line: string) => void;
  /**
   * Whether contract steps are applied too (docs/adr/0218): "unless-in-use" for a service
   * starting (an older release may still be serving beside it, unless the database is new).
   * Default true (one-shot tools, tests).
   */
  contractSteps?: ContractSteps;
}

export interface Database {
  url: string;
  /** Where sessions go (migrations, LISTEN): `url` unless a direct URL was configured. */
  directUrl: string;
  embedded: boolean;
  /** Stops the embedded server, if one was started. */
  close(): Promise<void>;
}

/**
 * The database a service runs on: the configured one, or an embedded PostgreSQL when none
 * is configured. Either way it is migrated before this resolves.
 */
export async function openDatabase({
  databaseUrl,
  directUrl,
  dataDir,
  log = () => {},
  notice = log,
  contractSteps = true,
}: DatabaseOptions): Promise<Database> {
  const embedded = databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: path.resolve(dataDir, "postgres"), log, notice });
  const url = databaseUrl ?? embedded!.url;
  const direct = (databaseUrl && directUrl) || url;
  try {
    // The runner holds a session advisory lock across statements: never through a pooler.
    const { applied, deferred } = await migrate(direct, { log, contractSteps });
    if (applied.length === 0 && deferred.length === 0) log("database schema is up to date");
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, directUrl: direct, embedded: embedded !== undefined, close: async () => embedded?.stop() };
}

/**
 * For one-shot commands (CLIs, seed): runs `task` with a Prisma client on the configured
 * (or embedded) database, then closes the client and the database, whatever happened.
 */
export async function withPrisma<T>(
  options: DatabaseOptions & { poolMax?: number },
  task: (prisma: PrismaClient) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(options);
  const prisma = createPrisma(database.url, { poolMax: options.poolMax ?? 2, directUrl: database.directUrl });
  try {
    return await task(prisma);
  } finally {
    await prisma.$disconnect();
    await database.close();
  }
}
