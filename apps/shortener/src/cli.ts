// pnpm shortener user:create --email you@example.com [--json]
// pnpm shortener token:create --email you@example.com [--json]
// pnpm shortener token:revoke --token <token>
import { parseArgs } from "node:util";
import { withPrisma } from "@app/db";
import { AccountError, createToken, createUser, revokeToken } from "./accounts.ts";
import { loadConfig, readEnvironment } from "./config.ts";

const USAGE = `usage:
  pnpm shortener user:create --email <e-mail> [--json]
  pnpm shortener token:create --email <e-mail> [--json]
  pnpm shortener token:revoke --token <token> [--json]`;

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: "string" }, token: { type: "string" }, json: { type: "boolean" } },
  });
  const [command, ...extra] = positionals;
  if (!command) throw new UsageError("missing command");
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`);
  if (!["user:create", "token:create", "token:revoke"].includes(command)) {
    throw new UsageError(`unknown command: ${command}`);
  }

  const config = loadConfig(readEnvironment());
  const database = { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
  const output = await withPrisma(database, async (prisma) => {
    if (command === "user:create") {
      const user = await createUser(prisma, required(values.email, "email"));
      return values.json
        ? JSON.stringify(user)
        : `created user ${user.username} (id ${user.id}); bearer token, shown only now: ${user.token}`;
    }
    if (command === "token:create") {
      const { token } = await createToken(prisma, required(values.email, "email"));
      return values.json ? JSON.stringify({ token }) : `new bearer token, shown only now: ${token}`;
    }
    await revokeToken(prisma, required(values.token, "token"));
    return values.json ? JSON.stringify({ revoked: true }) : "token revoked";
  });
  console.log(output);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`error: ${error.message}\n${USAGE}`);
  else if (error instanceof AccountError) console.error(`error: ${error.message}`);
  else console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
