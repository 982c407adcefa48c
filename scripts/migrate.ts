// `pnpm db:migrate`: applies pending migrations to DATABASE_URL (or to the embedded
// database under DATA_DIR when DATABASE_URL is unset), then exits.
import { openDatabase } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { loadConfig, readEnvironment } from "@app/shortener/config";

try {
  const config = loadConfig(readEnvironment());
  const database = await openDatabase({ ...databaseOptions(config), log: (line) => console.log(line) });
  await database.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
