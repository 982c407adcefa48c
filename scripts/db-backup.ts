// `pnpm db:backup <file>` or `pnpm db:backup --stanza <name>`: see database-backup.ts.
import { readEnvironment } from "@app/shortener/config";
import { backupCommand } from "./database-backup.ts";

process.exitCode = await backupCommand(process.argv.slice(2), readEnvironment());
