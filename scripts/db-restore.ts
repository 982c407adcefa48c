// `pnpm db:restore <file> [--force]`: see database-backup.ts.
import { readEnvironment } from "@app/shortener/config";
import { restoreCommand } from "./database-backup.ts";

process.exitCode = await restoreCommand(process.argv.slice(2), readEnvironment());
