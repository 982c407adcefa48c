// `pnpm db:migrate [--contract]`: applies pending migrations to DATABASE_URL (or to the embedded
// database under DATA_DIR when DATABASE_URL is unset), then exits. Contract steps (migrations
// that remove what the previous release reads) only with --contract, once every instance runs
// the new release (docs/adr/0218).
import { openDatabase } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { loadConfig, readEnvironment } from "@app/shortener/config";

const USAGE = "usage: pnpm db:migrate [--contract]";
const args = process.argv.slice(2);
if (args.some((arg) => arg !== "--contract")) {
  console.error(`unknown argument ${args.find((arg) => arg !== "--contract")}\n${USAGE}`);
  process.exit(2);
}

try {
  const config = loadConfig(readEnvironment());
  const database = await openDatabase({
    ...databaseOptions(config),
    log: (line) => console.log(line),
    contractSteps: args.includes("--contract") ? true : "unless-in-use",
  });
  await database.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
