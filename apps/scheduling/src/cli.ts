// Management commands: `pnpm scheduling <command> ...`. Arguments are checked before the
// database is opened, so bad input fails fast; every failure exits non-zero with one line
// on stderr. With --json the result is one JSON object on stdout.
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isUniqueViolation, type PrismaClient, withPrisma } from "@app/db";
import { z } from "zod";
import { issueApiKey, revokeApiKey } from "./api-keys.ts";
import { loadConfig, readEnvironment, type SchedulingConfig } from "./config.ts";

const USAGE = `Usage: pnpm scheduling <command> [options]

  user:create   --email <e-mail> [--username <name>] [--admin] [--json]
  apikey:create --email <e-mail> [--expires-at <ISO date-time>] [--note <text>] [--json]
  apikey:revoke --key <apiKey> [--json]`;

/** Bad input: the message is for the person at the terminal. */
export class CliError extends Error {
  override name = "CliError";
}

type Values = Record<string, string | boolean | undefined>;
type Output = Record<string, unknown>;

interface Command {
  options: Record<string, { type: "string" | "boolean" }>;
  /** Checks the flags and returns the work to do against the database. */
  prepare(
    values: Values,
  ): (prisma: PrismaClient, config: SchedulingConfig) => Promise<{ json: Output; text: string }>;
}

const email = z.email("--email must be an e-mail address");
const username = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, "--username must be 1-64 letters, digits, '.', '_' or '-'");
const expiresAt = z.iso
  .datetime({ offset: true, message: "--expires-at must be an ISO date-time, e.g. 2030-01-31T12:00:00Z" })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), "--expires-at must be in the future");
const note = z.string().max(255, "--note must be at most 255 characters");

function parse<T>(schema: z.ZodType<T>, value: unknown, missing: string): T {
  if (value === undefined) throw new CliError(missing);
  const result = schema.safeParse(value);
  if (!result.success) throw new CliError(result.error.issues[0]?.message ?? missing);
  return result.data;
}

async function findUserId(prisma: PrismaClient, address: string): Promise<number> {
  const user = await prisma.user.findUnique({ where: { email: address }, select: { id: true } });
  if (!user) throw new CliError(`No user with e-mail ${address}`);
  return user.id;
}

const commands: Record<string, Command> = {
  "user:create": {
    options: { email: { type: "string" }, username: { type: "string" }, admin: { type: "boolean" } },
    prepare(values) {
      const address = parse(email, values.email, "--email is required");
      const name = values.username === undefined ? null : parse(username, values.username, "");
      const role = values.admin ? "ADMIN" : "USER";
      return async (prisma, config) => {
        const taken = await prisma.user.findFirst({
          where: { OR: [{ email: address }, ...(name ? [{ username: name }] : [])] },
          select: { email: true },
        });
        if (taken) {
          throw new CliError(
            taken.email === address
              ? `A user with e-mail ${address} already exists`
              : `Username ${name} is taken`,
          );
        }
        const { user, apiKey } = await prisma.$transaction(async (tx) => {
          const created = await tx.user.create({ data: { email: address, username: name, role } });
          const key = await issueApiKey(tx, { userId: created.id, prefix: config.APIKEY_PREFIX });
          return { user: created, apiKey: key.apiKey };
        });
        return {
          json: { id: user.id, email: user.email, username: user.username, role: user.role, apiKey },
          text: `Created ${user.role} user ${user.id} <${user.email}>. API key (shown once): ${apiKey}`,
        };
      };
    },
  },
  "apikey:create": {
    options: { email: { type: "string" }, "expires-at": { type: "string" }, note: { type: "string" } },
    prepare(values) {
      const address = parse(email, values.email, "--email is required");
      const expiry = values["expires-at"] === undefined ? null : parse(expiresAt, values["expires-at"], "");
      const text = values.note === undefined ? null : parse(note, values.note, "");
      return async (prisma, config) => {
        const userId = await findUserId(prisma, address);
        const { apiKey, record } = await issueApiKey(prisma, {
          userId,
          prefix: config.APIKEY_PREFIX,
          expiresAt: expiry,
          note: text,
        });
        const expires = record.expiresAt?.toISOString() ?? null;
        return {
          json: { apiKey, expiresAt: expires },
          text: `API key for <${address}> (shown once, ${expires ? `expires ${expires}` : "never expires"}): ${apiKey}`,
        };
      };
    },
  },
  "apikey:revoke": {
    options: { key: { type: "string" } },
    prepare(values) {
      const key = parse(z.string().min(1, "--key must not be empty"), values.key, "--key is required");
      return async (prisma, config) => {
        if (!(await revokeApiKey(prisma, key, config.APIKEY_PREFIX))) throw new CliError("No such API key");
        return { json: { revoked: true }, text: "API key revoked" };
      };
    },
  },
};

function parseCommand(argv: string[]) {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") throw new CliError(USAGE);
  const command = commands[name];
  if (!command) throw new CliError(`Unknown command "${name}"\n\n${USAGE}`);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    // parseArgs' own message names the bad flag ("Unknown option '--x'", "Option '--email <value>' argument missing").
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const values = parsed.values as Values;
  return { run: command.prepare(values), json: values.json === true };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { run, json } = parseCommand(argv);
  const config = loadConfig(env);
  const database = {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    log: (line: string) => process.stderr.write(`${line}\n`),
  };
  const result = await withPrisma(database, (prisma) =>
    run(prisma, config).catch((error: unknown) => {
      // Lost a race with another writer between the check and the insert.
      if (isUniqueViolation(error)) throw new CliError("That user or key already exists");
      throw error;
    }),
  );
  process.stdout.write(`${json ? JSON.stringify(result.json) : result.text}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2), readEnvironment()).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
