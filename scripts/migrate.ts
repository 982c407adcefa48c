// `pnpm db:migrate`: applies pending migrations to DATABASE_URL (or to the embedded
// database under DATA_DIR when DATABASE_URL is unset), then exits.
import { openDatabase } from "@app/db";
import { loadConfig, readEnvironment } from "@app/shortener/config";

try {
  const config = loadConfig(readEnvironment());
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    dataDir: config.DATA_DIR,
    log: (line) => console.log(line),
  });
  await database.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
