// Management commands: `pnpm -s scheduling <command> ...` (`--help` lists them). The shared
// runner (@app/db/cli) parses, opens the database once the flags are valid, and exits 0, 1 or 2.
import { fileURLToPath } from "node:url";
import { isUniqueViolation, type PrismaClient } from "@app/db";
import { type Command, CommandError, type OptionValues, runCli, table, UsageError } from "@app/db/cli";
import { z } from "zod";
import { issueApiKey, revokeApiKey } from "./api-keys.ts";
import { loadConfig, readEnvironment, type SchedulingConfig } from "./config.ts";
import { SeedRefused, seedDemoData } from "./seed.ts";

const email = z.email("--email must be an e-mail address");
const username = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, "--username must be 1-64 letters, digits, '.', '_' or '-'");
const expiresAt = z.iso
  .datetime({ offset: true, message: "--expires-at must be an ISO date-time, e.g. 2030-01-31T12:00:00Z" })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), "--expires-at must be in the future");
const note = z.string().max(255, "--note must be at most 255 characters");
const keyId = z.uuid("--id must be a key id from apikey:list");

/** The flag's value checked by `schema`; `undefined` when absent unless `required`. */
function flag<T>(schema: z.ZodType<T>, values: OptionValues, name: string, required: true): T;
function flag<T>(schema: z.ZodType<T>, values: OptionValues, name: string, required?: false): T | undefined;
function flag<T>(schema: z.ZodType<T>, values: OptionValues, name: string, required = false) {
  const value = values[name];
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(result.error.issues[0]?.message ?? `--${name} is invalid`);
  return result.data;
}

async function findUserId(prisma: PrismaClient, address: string): Promise<number> {
  const user = await prisma.user.findUnique({ where: { email: address }, select: { id: true } });
  if (!user) throw new CommandError(`No user with e-mail ${address}`);
  return user.id;
}

const when = (date: Date | null) => date?.toISOString() ?? null;

const commands: Record<string, Command<SchedulingConfig>> = {
  "user:create": {
    summary: "Create a user and its first API key (shown once)",
    usage: "--email <e-mail> [--username <name>] [--admin] [--json]",
    options: {
      email: { type: "string", description: "The user's e-mail address" },
      username: { type: "string", description: "1-64 letters, digits, '.', '_' or '-'" },
      admin: { type: "boolean", description: "Make the user an ADMIN (sees and acts for everyone)" },
    },
    prepare(values) {
      const address = flag(email, values, "email", true);
      const name = flag(username, values, "username") ?? null;
      const role = values.admin ? "ADMIN" : "USER";
      return async (prisma, config) => {
        const taken = await prisma.user.findFirst({
          where: { OR: [{ email: address }, ...(name ? [{ username: name }] : [])] },
          select: { email: true },
        });
        if (taken) {
          throw new CommandError(
            taken.email === address
              ? `A user with e-mail ${address} already exists`
              : `Username ${name} is taken`,
          );
        }
        const { user, apiKey } = await prisma
          .$transaction(async (tx) => {
            const created = await tx.user.create({ data: { email: address, username: name, role } });
            const key = await issueApiKey(tx, { userId: created.id, prefix: config.APIKEY_PREFIX });
            return { user: created, apiKey: key.apiKey };
          })
          .catch((error: unknown) => {
            // Lost a race with another writer between the check and the insert.
            throw isUniqueViolation(error) ? new CommandError("That user already exists") : error;
          });
        return {
          json: { id: user.id, email: user.email, username: user.username, role: user.role, apiKey },
          text: `Created ${user.role} user ${user.id} <${user.email}>. API key (shown once): ${apiKey}`,
        };
      };
    },
  },
  "user:list": {
    summary: "List the users, by id",
    usage: "[--json]",
    options: {},
    prepare() {
      return async (prisma) => {
        const users = await prisma.user.findMany({
          orderBy: { id: "asc" },
          select: { id: true, email: true, username: true, role: true, locked: true, createdDate: true },
        });
        return {
          json: users,
          text: table(
            ["ID", "EMAIL", "USERNAME", "ROLE", "LOCKED", "CREATED"],
            users.map((u) => [
              u.id,
              u.email,
              u.username,
              u.role,
              u.locked ? "yes" : "no",
              when(u.createdDate),
            ]),
          ),
        };
      };
    },
  },
  "apikey:create": {
    summary: "Give a user a further API key (shown once)",
    usage: "--email <e-mail> [--expires-at <ISO date-time>] [--note <text>] [--json]",
    options: {
      email: { type: "string", description: "The user's e-mail address" },
      "expires-at": { type: "string", description: "When the key stops working (default: never)" },
      note: { type: "string", description: "What the key is for (at most 255 characters)" },
    },
    prepare(values) {
      const address = flag(email, values, "email", true);
      const expiry = flag(expiresAt, values, "expires-at") ?? null;
      const text = flag(note, values, "note") ?? null;
      return async (prisma, config) => {
        const userId = await findUserId(prisma, address);
        const { apiKey, record } = await issueApiKey(prisma, {
          userId,
          prefix: config.APIKEY_PREFIX,
          expiresAt: expiry,
          note: text,
        });
        const expires = when(record.expiresAt);
        return {
          json: { id: record.id, apiKey, expiresAt: expires },
          text: `API key ${record.id} for <${address}> (shown once, ${expires ? `expires ${expires}` : "never expires"}): ${apiKey}`,
        };
      };
    },
  },
  "apikey:list": {
    summary: "List API keys (id, note, created, last used, expiry), never the secret",
    usage: "[--email <e-mail>] [--json]",
    options: { email: { type: "string", description: "Only this user's keys" } },
    prepare(values) {
      const address = flag(email, values, "email");
      return async (prisma) => {
        const where = address === undefined ? {} : { userId: await findUserId(prisma, address) };
        const keys = await prisma.apiKey.findMany({
          where,
          orderBy: { createdAt: "asc" },
          select: {
            id: true,
            userId: true,
            note: true,
            createdAt: true,
            lastUsedAt: true,
            expiresAt: true,
            user: { select: { email: true } },
          },
        });
        const rows = keys.map(({ user, ...key }) => ({ ...key, email: user?.email ?? null }));
        return {
          json: rows,
          text: table(
            ["ID", "EMAIL", "NOTE", "CREATED", "LAST USED", "EXPIRES"],
            rows.map((k) => [
              k.id,
              k.email,
              k.note,
              when(k.createdAt),
              when(k.lastUsedAt),
              when(k.expiresAt),
            ]),
          ),
        };
      };
    },
  },
  "apikey:revoke": {
    summary: "Revoke an API key at once, by its id (from apikey:list) or by the key itself",
    usage: "(--id <id> | --key <apiKey>) [--json]",
    options: {
      id: { type: "string", description: "The key's id, as apikey:list shows it" },
      key: { type: "string", description: "The API key itself" },
    },
    prepare(values) {
      const id = flag(keyId, values, "id");
      const key = flag(z.string().min(1, "--key must not be empty"), values, "key");
      if ((id === undefined) === (key === undefined))
        throw new UsageError("give exactly one of --id and --key");
      return async (prisma, config) => {
        const revoked =
          id !== undefined
            ? (await prisma.apiKey.deleteMany({ where: { id } })).count > 0
            : await revokeApiKey(prisma, key!, config.APIKEY_PREFIX);
        if (!revoked) throw new CommandError("No such API key");
        return { json: { revoked: true }, text: "API key revoked" };
      };
    },
  },
  "db:seed": {
    summary: "Add the demo data set (3 users, a team, event types, a booking...) next to existing data",
    usage: "[--force] [--json]",
    options: {
      force: {
        type: "boolean",
        description: "Delete the demo users (and their data) first, then seed again",
      },
    },
    prepare(values) {
      const force = values.force === true;
      return async (prisma, config) => {
        const users = await seedDemoData(prisma, { prefix: config.APIKEY_PREFIX, force }).catch(
          (error: unknown) => {
            throw error instanceof SeedRefused ? new CommandError(error.message) : error;
          },
        );
        return {
          json: { users },
          text: [
            "Seeded: 3 users, a team, 3 event types, 2 schedules, a booking with an attendee,",
            "a booking reference, an event reference and a payment. API keys (shown once):",
            ...users.map((user) => `  ${user.email.padEnd(20)} ${user.role.padEnd(6)} ${user.apiKey}`),
          ].join("\n"),
        };
      };
    },
  },
};

export const schedulingCli = {
  tool: "pnpm -s scheduling",
  commands,
  loadConfig: () => loadConfig(readEnvironment()),
  database: (config: SchedulingConfig) => ({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    log: (line: string) => process.stderr.write(`${line}\n`),
  }),
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(schedulingCli, process.argv.slice(2));
}
