// Management commands: `pnpm -s scheduling <command> ...` (`--help` lists them). The shared
// runner (@app/server/cli) parses, opens the database once the flags are valid, and exits 0, 1 or 2.
// This file only parses flags and prints: users and keys are credentials.ts's, tenants hosting/tenants.ts's.

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createPrisma, migrate, type PrismaClient } from "@app/db";
import { email as emailAddress } from "@app/schemas/email";
import {
  type Command,
  CommandError,
  flag,
  type OptionValues,
  runCliProcess,
  table,
  UsageError,
  when,
} from "@app/server/cli";
import { z } from "zod";
import {
  AccountError,
  CALENDAR_INTEGRATIONS,
  connectAccount,
  disconnectAccount,
  isCalendarIntegration,
  listAccounts,
  selectCalendars,
} from "./calendars/accounts.ts";
import { credentialKeys, rotateLogins } from "./calendars/logins.ts";
import { CalendarSync } from "./calendars/sync.ts";
import { registerTenantCalendars } from "./calendars/tenant-calendars.ts";
import { listDeadCalendarWrites, resendDeadCalendarWrites } from "./calendars/writes.ts";
import { loadConfig, type SchedulingConfig } from "./config.ts";
import {
  createUserWithKey,
  findUserId,
  issueApiKey,
  listApiKeys,
  listUsers,
  revokeApiKeyBy,
  UserExists,
} from "./credentials.ts";
import { feedPath, issueFeedToken, listFeedTokens, revokeFeedToken, userIdOf } from "./feed/feed-tokens.ts";
import {
  createTenant,
  databaseOf,
  listTenants,
  NEW_DATABASE_NAME,
  rotateLicenseKey,
  setTenantDisabled,
  TenantError,
  type TenantSelector,
  tenantDatabase,
} from "./hosting/tenants.ts";
import { listDeadMail, resendDeadMail } from "./mail/outbox.ts";
import { SeedRefused, seedDemoData } from "./seed.ts";

const email = emailAddress(
  "--email must be an e-mail address, of at most 64 characters before the @ and 254 in all",
);
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
const mailId = z.uuid("--id must be an e-mail id from mail:dead");
const feedUser = z
  .string()
  .regex(/^(\d{1,10}|[^@\s]+@[^@\s]+)$/, "--user must be a user's e-mail address or id");
const feedTokenId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "--id must be a feed token id from feed-token:list")
  .transform(Number);
const databaseUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/, "--database-url must be a postgresql:// URL");
const newDatabaseName = z
  .string()
  .regex(NEW_DATABASE_NAME, "--create-database must be 1-63 of a-z, 0-9 and _, not starting with a digit");

const TOOL = "pnpm -s scheduling";

/** `--id` or `--name`, exactly one. */
function tenantSelector(values: OptionValues): TenantSelector {
  const id = flag(tenantId, values, "id");
  const name = flag(tenantName, values, "name");
  if ((id === undefined) === (name === undefined))
    throw new UsageError("give exactly one of --id and --name");
  return id !== undefined ? { id } : { name: name! };
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
        const { user, apiKey } = await createUserWithKey(prisma, {
          email: address,
          username: name,
          role,
          prefix: config.APIKEY_PREFIX,
        }).catch((error: unknown) => {
          // Run twice (the README's tour again): what the person wants is most likely a key.
          if (error instanceof UserExists) {
            throw new CommandError(
              `${error.message} (a further API key for it: ${TOOL} apikey:create --email ${address})`,
            );
          }
          throw error;
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
        const users = await listUsers(prisma);
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
        const rows = await listApiKeys(prisma, address);
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
        await revokeApiKeyBy(
          prisma,
          id !== undefined ? { id } : { apiKey: key!, prefix: config.APIKEY_PREFIX },
        );
        return { json: { revoked: true }, text: "API key revoked" };
      };
    },
  },
  "tenant:create": {
    summary:
      "Hosted mode: register a tenant's database (checked, migrated) and print its license key (shown once)",
    usage: "--name <name> (--database-url <postgresql://...> | --create-database <name>) [--json]",
    options: {
      name: { type: "string", description: "A unique name for people (1-255 characters)" },
      "database-url": { type: "string", description: "The tenant's own PostgreSQL database" },
      "create-database": {
        type: "string",
        description: "Create the tenant's database, with this name, on the default database's server",
      },
    },
    prepare(values) {
      const name = flag(tenantName, values, "name", true);
      const url = flag(databaseUrl, values, "database-url");
      const create = flag(newDatabaseName, values, "create-database");
      if ((url === undefined) === (create === undefined)) {
        throw new UsageError("give exactly one of --database-url and --create-database");
      }
      return async (prisma, config, io) => {
        const created = await createTenant(prisma, {
          secret: config.TENANT_SECRET,
          name,
          database: url !== undefined ? { url } : { create: create! },
          // The result says how many were applied; each one only with --verbose.
          log: (line) => io.detail(`tenant database: ${line}`),
        });
        const { id, licenseKey, migrationsApplied: applied } = created;
        return {
          json: { id, name, licenseKey, migrationsApplied: applied },
          text:
            `Created tenant ${id} "${name}" on ${databaseOf(created.databaseUrl)} (${applied.length} migrations applied). ` +
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
        const tenants = await listTenants(prisma);
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
        const tenant = await setTenantDisabled(prisma, where, true);
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
        const tenant = await setTenantDisabled(prisma, where, false);
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
        const { licenseKey, ...tenant } = await rotateLicenseKey(prisma, where);
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
  "feed-token:create": {
    summary: "Give a user a calendar feed token (shown once) and print the feed's path",
    usage: "--user <e-mail or id> [--note <text>] [--json]",
    options: {
      user: { type: "string", description: "The user whose bookings the feed shows: e-mail or id" },
      note: { type: "string", description: "What the token is for (at most 255 characters)" },
    },
    prepare(values) {
      const user = flag(feedUser, values, "user", true);
      const text = flag(note, values, "note") ?? null;
      return async (prisma) => {
        const userId = await userIdOf(prisma, user);
        const { token, record } = await issueFeedToken(prisma, { userId, note: text });
        const path = feedPath(token);
        return {
          json: { id: record.id, userId, token, path },
          text: `Feed token ${record.id} for user ${userId} (shown once): ${token}\nFeed: <API origin>${path}`,
        };
      };
    },
  },
  "feed-token:list": {
    summary: "List calendar feed tokens (id, user, note, created, last used), never the secret",
    usage: "[--user <e-mail or id>] [--json]",
    options: { user: { type: "string", description: "Only this user's tokens: e-mail or id" } },
    prepare(values) {
      const user = flag(feedUser, values, "user");
      return async (prisma) => {
        const rows = await listFeedTokens(prisma, user);
        return {
          json: rows,
          text: table(
            ["ID", "USER", "EMAIL", "NOTE", "CREATED", "LAST USED"],
            rows.map((t) => [t.id, t.userId, t.email, t.note, when(t.createdAt), when(t.lastUsedAt)]),
          ),
        };
      };
    },
  },
  "feed-token:revoke": {
    summary: "Revoke a calendar feed token at once, by its id (from feed-token:list)",
    usage: "--id <id> [--json]",
    options: { id: { type: "string", description: "The token's id, as feed-token:list shows it" } },
    prepare(values) {
      const id = flag(feedTokenId, values, "id", true);
      return async (prisma) => {
        await revokeFeedToken(prisma, id);
        return { json: { revoked: true }, text: "Feed token revoked" };
      };
    },
  },
  "mail:dead": {
    summary:
      "List the booking e-mails given up on (a 5xx answer, MAIL_MAX_ATTEMPTS failures, or a booking change whose e-mails could not be rendered: kind unrendered), oldest first",
    usage: "[--json]",
    options: {},
    prepare() {
      return async (prisma) => {
        const rows = await listDeadMail(prisma);
        return {
          json: rows,
          text: table(
            ["ID", "BOOKING", "KIND", "TO", "ATTEMPTS", "LAST ERROR", "CREATED"],
            rows.map((m) => [
              m.id,
              m.bookingUid,
              m.kind,
              m.recipient,
              m.attempts,
              m.lastError,
              when(m.createdAt),
            ]),
          ),
        };
      };
    },
  },
  "mail:resend": {
    summary:
      "Put dead booking e-mails back to be sent (attempts counted afresh; an unrendered change to be rendered again): one by --id, or --all",
    usage: "(--id <id> | --all) [--json]",
    options: {
      id: { type: "string", description: "The e-mail's id, as mail:dead shows it" },
      all: { type: "boolean", description: "Every dead e-mail" },
    },
    prepare(values) {
      const id = flag(mailId, values, "id");
      if ((id === undefined) === (values.all !== true))
        throw new UsageError("give exactly one of --id and --all");
      return async (prisma) => {
        const count = await resendDeadMail(prisma, id !== undefined ? { id } : { all: true });
        if (id !== undefined && count === 0) throw new CommandError(`no dead e-mail has id ${id}`);
        return {
          json: { resent: count },
          text: `${count} e-mail${count === 1 ? "" : "s"} put back to be sent`,
        };
      };
    },
  },
};

/** AccountError is the person's to fix: exit 1 with its message. */
async function account<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw error instanceof AccountError ? new CommandError(error.message) : error;
  });
}

/** A password from a file (its first line), or from stdin with `-`: never from the command line. */
async function readPassword(file: string): Promise<string> {
  let text: string;
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString("utf8");
  } else {
    text = await readFile(file, "utf8").catch(() => {
      throw new CommandError(`cannot read --password-file ${file}`);
    });
  }
  const password = text.split(/\r?\n/)[0] ?? "";
  if (password === "") throw new CommandError("the password is empty");
  return password;
}

/** The sync, as the service runs it, for a command that synchronises now. */
function syncFor(prisma: Parameters<typeof listAccounts>[0], config: SchedulingConfig) {
  return new CalendarSync(
    prisma,
    {
      intervalMs: config.CALENDAR_SYNC_INTERVAL_MS,
      timeoutMs: config.CALENDAR_TIMEOUT_MS,
      horizonDays: config.CALENDAR_HORIZON_DAYS,
      keys: credentialKeys(config),
    },
    { info: () => {}, warn: () => {} },
  );
}

const integration = z
  .string()
  .refine(
    isCalendarIntegration,
    `--integration must be one of ${Object.keys(CALENDAR_INTEGRATIONS).join(", ")}`,
  );
const credentialId = z.coerce
  .number({ error: "--id must be an account id from calendar:list" })
  .int("--id must be an account id from calendar:list")
  .min(1, "--id must be an account id from calendar:list")
  .max(2_147_483_647, "--id must be an account id from calendar:list");

const tenantFlag = z
  .string()
  .trim()
  .min(1, "--tenant must be a tenant's id or name, as tenant:list shows them")
  .max(255, "--tenant must be a tenant's id or name, as tenant:list shows them");
const TENANT_OPTION = {
  type: "string",
  description: "Hosted mode: on this tenant's own database (its id or name, as tenant:list shows them)",
} as const;

/** `--tenant <id or name>`, when given. */
function tenantOf(values: OptionValues): TenantSelector | undefined {
  const value = flag(tenantFlag, values, "tenant");
  if (value === undefined) return undefined;
  return z.uuid().safeParse(value).success ? { id: value } : { name: value };
}

/**
 * A calendar command's work on the default database, or with `--tenant` on the tenant's own
 * (docs/adr/0259): opened with TENANT_SECRET, brought up to this build's migrations first.
 */
async function onDatabase<T>(
  prisma: PrismaClient,
  config: SchedulingConfig,
  tenant: TenantSelector | undefined,
  work: (db: PrismaClient, tenantId: string | null) => Promise<T>,
): Promise<T> {
  if (tenant === undefined) return work(prisma, null);
  const opened = await tenantDatabase(prisma, config.TENANT_SECRET, tenant).catch((error: unknown) => {
    throw error instanceof TenantError ? new CommandError(error.message) : error;
  });
  await migrate(opened.databaseUrl).catch((error: unknown) => {
    throw new CommandError(`The tenant's database cannot be used: ${(error as Error).message}`);
  });
  const db = createPrisma(opened.databaseUrl, { poolMax: 2 });
  try {
    return await work(db, opened.id);
  } finally {
    await db.$disconnect();
  }
}

const calendarCommands: Record<string, Command<SchedulingConfig>> = {
  "calendar:connect": {
    summary:
      "Connect a user's CalDAV account (its login sealed with CREDENTIALS_KEY): its calendars of events are discovered, selected (their events block the user's time) and synchronised",
    usage:
      "--user <e-mail or id> --url <CalDAV URL> --username <login> --password-file <file, or - for stdin> [--integration caldav_calendar|apple_calendar] [--no-select] [--tenant <id or name>] [--json]",
    options: {
      user: { type: "string", description: "The user the account belongs to: e-mail or id" },
      url: { type: "string", description: "The server's CalDAV URL (not needed for apple_calendar)" },
      username: { type: "string", description: "The account's username" },
      "password-file": {
        type: "string",
        description: "A file whose first line is the password, or - to read it from stdin",
      },
      integration: { type: "string", description: "caldav_calendar (default) or apple_calendar (iCloud)" },
      "no-select": {
        type: "boolean",
        description: "Do not make its calendars selected calendars (they then block nothing)",
      },
      tenant: TENANT_OPTION,
    },
    prepare(values) {
      const user = flag(feedUser, values, "user", true);
      const type = (flag(integration, values, "integration") ??
        "caldav_calendar") as keyof typeof CALENDAR_INTEGRATIONS;
      const url = flag(z.string().min(1, "--url must not be empty"), values, "url");
      if (url === undefined && !CALENDAR_INTEGRATIONS[type].fixedUrl)
        throw new UsageError("--url is required");
      const login = flag(z.string().min(1, "--username must not be empty"), values, "username", true);
      const passwordFile = flag(z.string().min(1), values, "password-file", true);
      const select = values["no-select"] !== true;
      const tenant = tenantOf(values);
      return async (defaultDb, config) => {
        const keys = credentialKeys(config);
        if (!keys) {
          throw new CommandError(
            "CREDENTIALS_KEY is not set: it seals the account's login (openssl rand -hex 32; keep it with the database's secrets)",
          );
        }
        const password = await readPassword(passwordFile);
        return onDatabase(defaultDb, config, tenant, async (prisma, tenantId) => {
          const userId = await userIdOf(prisma, user);
          const connected = await account(
            connectAccount(prisma, keys, {
              userId,
              integration: type,
              url,
              username: login,
              password,
              timeoutMs: config.CALENDAR_TIMEOUT_MS,
            }),
          );
          if (select) await selectCalendars(prisma, connected.credentialId);
          // A tenant's calendars are synchronised and written by the instances' visits from now on.
          if (tenantId !== null) await registerTenantCalendars(defaultDb, tenantId);
          const sync = syncFor(prisma, config);
          const outcomes = select
            ? await Promise.all(connected.calendars.map((calendar) => sync.syncNow(calendar.id))).finally(
                () => sync.stop(),
              )
            : [];
          if (!select) await sync.stop();
          // What each calendar holds now, not what this sync changed: a running instance may have
          // synchronised it first (its sync is then this one's, and this one changes nothing).
          const calendars = await Promise.all(
            connected.calendars.map(async (calendar, i) => {
              const [objects, state] = await Promise.all([
                prisma.calendarObject.count({ where: { calendarId: calendar.id } }),
                prisma.connectedCalendar.findUnique({
                  where: { id: calendar.id },
                  select: { syncedAt: true, lastError: true },
                }),
              ]);
              const error = outcomes[i] ? outcomes[i].error : (state?.lastError ?? undefined);
              return {
                ...calendar,
                selected: select,
                synced: outcomes[i]?.ok ?? (state?.syncedAt != null && !state.lastError),
                objects,
                ...(error ? { error } : {}),
              };
            }),
          );
          return {
            json: { id: connected.credentialId, userId, calendars },
            text: [
              `Connected calendar account ${connected.credentialId} for user ${userId}:`,
              ...calendars.map(
                (c) =>
                  `  ${c.url} (${c.displayName ?? "no name"}): ${
                    !select
                      ? "not selected"
                      : c.synced
                        ? `selected, ${c.objects} event${c.objects === 1 ? "" : "s"} synchronised`
                        : `selected, sync failed: ${c.error}`
                  }`,
              ),
            ].join("\n"),
          };
        });
      };
    },
  },
  "calendar:list": {
    summary:
      "List connected calendar accounts and their calendars: selected or not, last sync, failing since, error (never a login)",
    usage: "[--user <e-mail or id>] [--tenant <id or name>] [--json]",
    options: {
      user: { type: "string", description: "Only this user's accounts: e-mail or id" },
      tenant: TENANT_OPTION,
    },
    prepare(values) {
      const user = flag(feedUser, values, "user");
      const tenant = tenantOf(values);
      return async (defaultDb, config) => {
        const rows = await onDatabase(defaultDb, config, tenant, async (prisma) =>
          listAccounts(prisma, user === undefined ? undefined : await userIdOf(prisma, user)),
        );
        return {
          json: rows,
          text: table(
            ["ID", "USER", "INTEGRATION", "CALENDAR", "SELECTED", "SYNCED", "FAILING SINCE", "ERROR"],
            rows.flatMap((a) =>
              a.calendars.map((c) => [
                a.id,
                a.email,
                a.integration,
                c.url,
                c.selected ? "yes" : "no",
                when(c.syncedAt),
                when(c.failingSince),
                c.lastError,
              ]),
            ),
          ),
        };
      };
    },
  },
  "calendar:sync": {
    summary: "Synchronise every selected calendar now (or one account's), and say how each went",
    usage: "[--id <account id>] [--tenant <id or name>] [--json]",
    options: {
      id: { type: "string", description: "Only this account's calendars (calendar:list's ID)" },
      tenant: TENANT_OPTION,
    },
    prepare(values) {
      const id = flag(credentialId, values, "id");
      const tenant = tenantOf(values);
      return async (defaultDb, config) =>
        onDatabase(defaultDb, config, tenant, async (prisma, tenantId) => {
          const calendars = await prisma.connectedCalendar.findMany({
            where: id === undefined ? {} : { credentialId: id },
            select: { id: true, url: true },
            orderBy: { id: "asc" },
          });
          if (id !== undefined && calendars.length === 0)
            throw new CommandError(`no calendar account has id ${id}`);
          if (tenantId !== null && calendars.length > 0) await registerTenantCalendars(defaultDb, tenantId);
          const sync = syncFor(prisma, config);
          const outcomes = await Promise.all(calendars.map((calendar) => sync.syncNow(calendar.id))).finally(
            () => sync.stop(),
          );
          const rows = calendars.map((calendar, i) => ({
            url: calendar.url,
            ok: outcomes[i]?.ok ?? false,
            changed: outcomes[i]?.changed ?? 0,
            removed: outcomes[i]?.removed ?? 0,
            error: outcomes[i]?.error ?? null,
          }));
          return {
            json: rows,
            text: table(
              ["CALENDAR", "OK", "CHANGED", "REMOVED", "ERROR"],
              rows.map((r) => [r.url, r.ok ? "yes" : "no", r.changed, r.removed, r.error]),
            ),
          };
        });
    },
  },
  "calendar:disconnect": {
    summary: "Disconnect a calendar account: its login, calendars and busy times are deleted",
    usage: "--id <account id> [--tenant <id or name>] [--json]",
    options: {
      id: { type: "string", description: "The account's id, as calendar:list shows it" },
      tenant: TENANT_OPTION,
    },
    prepare(values) {
      const id = flag(credentialId, values, "id", true);
      const tenant = tenantOf(values);
      return async (defaultDb, config) => {
        const userId = await onDatabase(defaultDb, config, tenant, (prisma) =>
          account(disconnectAccount(prisma, id)),
        );
        return { json: { disconnected: id, userId }, text: `Calendar account ${id} disconnected` };
      };
    },
  },
  "calendar:dead": {
    summary:
      "List the bookings given up on writing into their calendar (CALENDAR_WRITE_MAX_ATTEMPTS failures), oldest first",
    usage: "[--tenant <id or name>] [--json]",
    options: { tenant: TENANT_OPTION },
    prepare(values) {
      const tenant = tenantOf(values);
      return async (defaultDb, config) => {
        const rows = await onDatabase(defaultDb, config, tenant, (prisma) => listDeadCalendarWrites(prisma));
        return {
          json: rows,
          text: table(
            ["ID", "BOOKING", "OP", "CALENDAR", "ATTEMPTS", "LAST ERROR", "CREATED"],
            rows.map((w) => [
              w.id,
              w.bookingId,
              w.op,
              w.calendarUrl,
              w.attempts,
              w.lastError,
              when(w.createdAt),
            ]),
          ),
        };
      };
    },
  },
  "calendar:resend": {
    summary: "Put dead calendar writes back to be written (attempts counted afresh): one by --id, or --all",
    usage: "(--id <id> | --all) [--tenant <id or name>] [--json]",
    options: {
      id: { type: "string", description: "The write's id, as calendar:dead shows it" },
      all: { type: "boolean", description: "Every dead write" },
      tenant: TENANT_OPTION,
    },
    prepare(values) {
      const id = flag(z.uuid("--id must be a write id from calendar:dead"), values, "id");
      if ((id === undefined) === (values.all !== true))
        throw new UsageError("give exactly one of --id and --all");
      const tenant = tenantOf(values);
      return async (defaultDb, config) => {
        const count = await onDatabase(defaultDb, config, tenant, async (prisma, tenantId) => {
          const resent = await resendDeadCalendarWrites(prisma, id !== undefined ? { id } : { all: true });
          // The instances' next visit writes them.
          if (tenantId !== null && resent > 0) await registerTenantCalendars(defaultDb, tenantId);
          return resent;
        });
        if (id !== undefined && count === 0) throw new CommandError(`no dead calendar write has id ${id}`);
        return { json: { resent: count }, text: `${count} calendar write${count === 1 ? "" : "s"} put back` };
      };
    },
  },
  "calendar:rotate-key": {
    summary:
      "Seal every calendar login again under CREDENTIALS_KEY (those sealed under CREDENTIALS_KEY_PREVIOUS, during a key rotation)",
    usage: "[--tenant <id or name>] [--json]",
    options: { tenant: TENANT_OPTION },
    prepare(values) {
      const tenant = tenantOf(values);
      return async (defaultDb, config) => {
        const keys = credentialKeys(config);
        if (!keys) throw new CommandError("CREDENTIALS_KEY is not set");
        const count = await onDatabase(defaultDb, config, tenant, (prisma) =>
          rotateLogins(prisma, keys).catch((error: unknown) => {
            throw new CommandError(error instanceof Error ? error.message : String(error));
          }),
        );
        return {
          json: { resealed: count },
          text: `${count} calendar login${count === 1 ? "" : "s"} sealed again under CREDENTIALS_KEY`,
        };
      };
    },
  },
};

export const schedulingCli = {
  tool: TOOL,
  commands: { ...commands, ...calendarCommands },
  loadConfig,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runCliProcess(schedulingCli);
}
