// Management commands: `pnpm -s scheduling <command> ...` (`--help` lists them). The shared
// runner (@app/db/cli) parses, opens the database once the flags are valid, and exits 0, 1 or 2.
import { fileURLToPath } from "node:url";
import { createPrisma, databaseAddress, isUniqueViolation, migrate, type PrismaClient } from "@app/db";
import { type Command, CommandError, type OptionValues, runCli, table, UsageError } from "@app/server/cli";
import { z } from "zod";
import { issueApiKey, revokeApiKey } from "./api-keys.ts";
import { loadConfig, type SchedulingConfig } from "./config.ts";
import {
  databaseUrlKey,
  generateLicenseKey,
  openDatabaseUrl,
  SealedUrlError,
  sealDatabaseUrl,
  uuidv7,
} from "./hosting/secrets.ts";
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
const tenantName = z
  .string()
  .trim()
  .min(1, "--name must not be empty")
  .max(255, "--name must be at most 255 characters");
const tenantId = z.uuid("--id must be a tenant id from tenant:list");
const databaseUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/, "--database-url must be a postgresql:// URL");

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

/** The key that seals tenant database URLs; the tenant commands need TENANT_SECRET even when HOSTED_MODE is off. */
function tenantUrlKey(config: SchedulingConfig): Buffer {
  if (config.TENANT_SECRET === undefined) {
    throw new CommandError(
      "TENANT_SECRET is not set: the tenants' database URLs are sealed with it (see README, Hosted mode)",
    );
  }
  return databaseUrlKey(config.TENANT_SECRET);
}

/** `--id` or `--name`, exactly one. */
function tenantSelector(values: OptionValues): { id: string } | { name: string } {
  const id = flag(tenantId, values, "id");
  const name = flag(tenantName, values, "name");
  if ((id === undefined) === (name === undefined))
    throw new UsageError("give exactly one of --id and --name");
  return id !== undefined ? { id } : { name: name! };
}

async function findTenant(prisma: PrismaClient, where: { id: string } | { name: string }) {
  const tenant = await prisma.tenant.findUnique({
    where,
    select: { id: true, name: true, disabledAt: true },
  });
  if (!tenant) throw new CommandError("No such tenant");
  return tenant;
}

/** host:port/database, for telling two URLs of one database apart from two databases. */
function databaseOf(url: string): string {
  try {
    return `${databaseAddress(url)}${new URL(url).pathname || "/"}`;
  } catch {
    return url;
  }
}

/** Which PostgreSQL cluster and database a client is on, whatever URL reached it; null if not allowed to ask. */
async function databaseIdentity(db: PrismaClient): Promise<string | null> {
  try {
    const [row] = await db.$queryRaw<{ identity: string }[]>`
      SELECT (SELECT system_identifier::text FROM pg_control_system()) || '/' || current_database() AS identity`;
    return row?.identity ?? null;
  } catch {
    return null;
  }
}

/**
 * A tenant's database must be its own: not the default database (its users would be the
 * installation's) and not another tenant's. The default one is recognised by the server's own
 * identity, other tenants' by host, port and database name.
 */
async function refuseSharedDatabase(prisma: PrismaClient, key: Buffer, url: string): Promise<void> {
  const probe = createPrisma(url, { poolMax: 1 });
  try {
    const [own, theirs] = await Promise.all([databaseIdentity(prisma), databaseIdentity(probe)]);
    if (own !== null && own === theirs) {
      throw new CommandError("That is the default database: a tenant needs a database of its own");
    }
  } finally {
    await probe.$disconnect();
  }
  const others = await prisma.tenant.findMany({
    select: { id: true, name: true, databaseUrlEncrypted: true },
  });
  for (const other of others) {
    let otherUrl: string;
    try {
      otherUrl = openDatabaseUrl(key, other.id, other.databaseUrlEncrypted);
    } catch (error) {
      if (error instanceof SealedUrlError) continue;
      throw error;
    }
    if (databaseOf(otherUrl) === databaseOf(url)) {
      throw new CommandError(`Tenant ${other.name} already uses the database at ${databaseOf(url)}`);
    }
  }
}

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
  "tenant:create": {
    summary:
      "Hosted mode: register a tenant's database (checked, migrated) and print its license key (shown once)",
    usage: "--name <name> --database-url <postgresql://...> [--json]",
    options: {
      name: { type: "string", description: "A unique name for people (1-255 characters)" },
      "database-url": { type: "string", description: "The tenant's own PostgreSQL database" },
    },
    prepare(values) {
      const name = flag(tenantName, values, "name", true);
      const url = flag(databaseUrl, values, "database-url", true);
      return async (prisma, config) => {
        const key = tenantUrlKey(config);
        if (await prisma.tenant.findUnique({ where: { name }, select: { id: true } })) {
          throw new CommandError(`A tenant named ${name} already exists`);
        }
        // Reachable and at this build's schema before anyone gets a key for it.
        const { applied } = await migrate(url, {
          log: (line) => process.stderr.write(`tenant database: ${line}\n`),
        }).catch((error: unknown) => {
          throw new CommandError(`The tenant's database cannot be used: ${(error as Error).message}`);
        });
        await refuseSharedDatabase(prisma, key, url);
        const id = uuidv7();
        const { licenseKey, hash } = generateLicenseKey();
        await prisma.tenant
          .create({
            data: { id, name, licenseKeyHash: hash, databaseUrlEncrypted: sealDatabaseUrl(key, id, url) },
          })
          .catch((error: unknown) => {
            throw isUniqueViolation(error)
              ? new CommandError(`A tenant named ${name} already exists`)
              : error;
          });
        return {
          json: { id, name, licenseKey, migrationsApplied: applied },
          text:
            `Created tenant ${id} "${name}" on ${databaseOf(url)} (${applied.length} migrations applied). ` +
            `License key (shown once): ${licenseKey}`,
        };
      };
    },
  },
  "tenant:list": {
    summary: "Hosted mode: list the tenants (id, name, created, disabled), never a key or a database URL",
    usage: "[--json]",
    options: {},
    prepare() {
      return async (prisma) => {
        const tenants = await prisma.tenant.findMany({
          orderBy: { createdAt: "asc" },
          select: { id: true, name: true, createdAt: true, disabledAt: true },
        });
        return {
          json: tenants,
          text: table(
            ["ID", "NAME", "CREATED", "DISABLED"],
            tenants.map((t) => [t.id, t.name, when(t.createdAt), when(t.disabledAt)]),
          ),
        };
      };
    },
  },
  "tenant:disable": {
    summary: "Hosted mode: refuse a tenant's license key from now on, on every instance (401)",
    usage: "(--id <id> | --name <name>) [--json]",
    options: {
      id: { type: "string", description: "The tenant's id, as tenant:list shows it" },
      name: { type: "string", description: "The tenant's name" },
    },
    prepare(values) {
      const where = tenantSelector(values);
      return async (prisma) => {
        const tenant = await findTenant(prisma, where);
        // The table's trigger tells every instance at commit.
        const { count } = await prisma.tenant.updateMany({
          where: { id: tenant.id, disabledAt: null },
          data: { disabledAt: new Date() },
        });
        if (count === 0) throw new CommandError(`Tenant ${tenant.name} is already disabled`);
        return {
          json: { id: tenant.id, name: tenant.name, disabled: true },
          text: `Tenant ${tenant.id} "${tenant.name}" disabled: its license key is refused from now on`,
        };
      };
    },
  },
  "tenant:enable": {
    summary: "Hosted mode: accept a disabled tenant's license key again",
    usage: "(--id <id> | --name <name>) [--json]",
    options: {
      id: { type: "string", description: "The tenant's id, as tenant:list shows it" },
      name: { type: "string", description: "The tenant's name" },
    },
    prepare(values) {
      const where = tenantSelector(values);
      return async (prisma) => {
        const tenant = await findTenant(prisma, where);
        const { count } = await prisma.tenant.updateMany({
          where: { id: tenant.id, disabledAt: { not: null } },
          data: { disabledAt: null },
        });
        if (count === 0) throw new CommandError(`Tenant ${tenant.name} is not disabled`);
        return {
          json: { id: tenant.id, name: tenant.name, disabled: false },
          text: `Tenant ${tenant.id} "${tenant.name}" enabled`,
        };
      };
    },
  },
  "tenant:rotate-key": {
    summary: "Hosted mode: give a tenant a new license key (shown once); the old one stops working at once",
    usage: "(--id <id> | --name <name>) [--json]",
    options: {
      id: { type: "string", description: "The tenant's id, as tenant:list shows it" },
      name: { type: "string", description: "The tenant's name" },
    },
    prepare(values) {
      const where = tenantSelector(values);
      return async (prisma) => {
        const tenant = await findTenant(prisma, where);
        const { licenseKey, hash } = generateLicenseKey();
        await prisma.tenant.update({ where: { id: tenant.id }, data: { licenseKeyHash: hash } });
        return {
          json: { id: tenant.id, name: tenant.name, licenseKey },
          text: `New license key for tenant ${tenant.id} "${tenant.name}" (shown once; the old one is refused now): ${licenseKey}`,
        };
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
  loadConfig,
  database: (config: SchedulingConfig) => ({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
  }),
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(schedulingCli, process.argv.slice(2));
}
