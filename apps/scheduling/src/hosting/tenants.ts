// Hosted mode's tenant registry as the CLI manages it (hosting.tenants in the default database):
// register a tenant's database (checked, migrated, never the default's nor another tenant's),
// list, disable, enable, rotate the license key. Keys are shown once and stored as SHA-256;
// database URLs are sealed with TENANT_SECRET (secrets.ts).
import {
  createPrisma,
  databaseAddress,
  dedicatedConnection,
  directUrlOf,
  isUniqueViolation,
  migrate,
  type PrismaClient,
  uuidv7,
} from "@app/db";
import {
  databaseUrlKey,
  generateLicenseKey,
  openDatabaseUrl,
  SealedUrlError,
  sealDatabaseUrl,
} from "./secrets.ts";

/** A tenant command that cannot be done (no such tenant, name taken, database shared...): its message says why. */
export class TenantError extends Error {
  override name = "TenantError";
}

export type TenantSelector = { id: string } | { name: string };

/** The key that seals tenant database URLs; tenant commands need TENANT_SECRET even when HOSTED_MODE is off. */
export function tenantUrlKey(secret: string | undefined): Buffer {
  if (secret === undefined) {
    throw new TenantError(
      "TENANT_SECRET is not set: the tenants' database URLs are sealed with it (see README, Hosted mode)",
    );
  }
  return databaseUrlKey(secret);
}

async function findTenant(prisma: PrismaClient, where: TenantSelector) {
  const tenant = await prisma.tenant.findUnique({
    where,
    select: { id: true, name: true, disabledAt: true },
  });
  if (!tenant) throw new TenantError("No such tenant");
  return tenant;
}

/** host:port/database, for telling two URLs of one database apart from two databases. */
export function databaseOf(url: string): string {
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
      throw new TenantError("That is the default database: a tenant needs a database of its own");
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
      throw new TenantError(`Tenant ${other.name} already uses the database at ${databaseOf(url)}`);
    }
  }
}

/** A database name `--create-database` accepts: a plain identifier, nothing to quote. */
export const NEW_DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Creates a database for a tenant on the default database's own server (the embedded one, or
 * DATABASE_URL's), and returns its URL: the default one's, with this database's name. The
 * server's user must be allowed to create databases.
 */
export async function createTenantDatabase(prisma: PrismaClient, name: string): Promise<string> {
  if (!NEW_DATABASE_NAME.test(name))
    throw new TenantError(`Not a database name for --create-database: ${name}`);
  const client = dedicatedConnection(prisma);
  try {
    await client.connect();
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount) throw new TenantError(`A database named ${name} already exists on that server`);
    await client.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    if (error instanceof TenantError) throw error;
    throw new TenantError(`Could not create the database ${name}: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  // A tenant's URL is a direct one (docs/adr/0177): its migrations and LISTEN need a session.
  const url = new URL(directUrlOf(prisma));
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Registers a tenant on its own database (an existing one by URL, or one it creates on the
 * default database's server), migrated first; returns its license key, the only time it exists.
 */
export async function createTenant(
  prisma: PrismaClient,
  {
    secret,
    name,
    database,
    log,
  }: {
    secret: string | undefined;
    name: string;
    database: { url: string } | { create: string };
    log: (line: string) => void;
  },
) {
  const key = tenantUrlKey(secret);
  if (await prisma.tenant.findUnique({ where: { name }, select: { id: true } })) {
    throw new TenantError(`A tenant named ${name} already exists`);
  }
  const databaseUrl = "url" in database ? database.url : await createTenantDatabase(prisma, database.create);
  // Reachable and at this build's schema before anyone gets a key for it.
  const { applied } = await migrate(databaseUrl, { log }).catch((error: unknown) => {
    throw new TenantError(`The tenant's database cannot be used: ${(error as Error).message}`);
  });
  await refuseSharedDatabase(prisma, key, databaseUrl);
  const id = uuidv7();
  const { licenseKey, hash } = generateLicenseKey();
  await prisma.tenant
    .create({
      data: { id, name, licenseKeyHash: hash, databaseUrlEncrypted: sealDatabaseUrl(key, id, databaseUrl) },
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? new TenantError(`A tenant named ${name} already exists`) : error;
    });
  return { id, name, licenseKey, migrationsApplied: applied, databaseUrl };
}

/** The tenants, oldest first: never a key or a database URL. */
export function listTenants(prisma: PrismaClient) {
  return prisma.tenant.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, createdAt: true, disabledAt: true },
  });
}

/**
 * Disables (its license key is refused from now on, on every instance: the table's trigger
 * tells them at commit) or enables a tenant. TenantError when it already is.
 */
export async function setTenantDisabled(prisma: PrismaClient, where: TenantSelector, disabled: boolean) {
  const tenant = await findTenant(prisma, where);
  const { count } = await prisma.tenant.updateMany({
    where: { id: tenant.id, disabledAt: disabled ? null : { not: null } },
    data: { disabledAt: disabled ? new Date() : null },
  });
  if (count === 0) {
    throw new TenantError(`Tenant ${tenant.name} ${disabled ? "is already disabled" : "is not disabled"}`);
  }
  return { id: tenant.id, name: tenant.name };
}

/** A tenant's database URL, opened, for the commands that work on its database (`calendar:* --tenant`). */
export async function tenantDatabase(
  prisma: PrismaClient,
  secret: string | undefined,
  where: TenantSelector,
) {
  const key = tenantUrlKey(secret);
  const tenant = await prisma.tenant.findUnique({
    where,
    select: { id: true, name: true, databaseUrlEncrypted: true },
  });
  if (!tenant) throw new TenantError("No such tenant");
  return {
    id: tenant.id,
    name: tenant.name,
    databaseUrl: openDatabaseUrl(key, tenant.id, tenant.databaseUrlEncrypted),
  };
}

/** A new license key (returned, the only time it exists); the old one is refused at once. */
export async function rotateLicenseKey(prisma: PrismaClient, where: TenantSelector) {
  const tenant = await findTenant(prisma, where);
  const { licenseKey, hash } = generateLicenseKey();
  await prisma.tenant.update({ where: { id: tenant.id }, data: { licenseKeyHash: hash } });
  return { id: tenant.id, name: tenant.name, licenseKey };
}
