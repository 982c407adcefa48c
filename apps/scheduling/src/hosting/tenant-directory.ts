// License key → tenant, read from hosting.tenants in the default database. An unknown key and
// a disabled tenant's key take the same path: one indexed lookup that excludes disabled rows,
// answered null either way. Found tenants are cached for at most `ttlMs` (the API key cache's
// 5 s), and only while this instance LISTENs to the table's change notifications (a trigger
// sends one at the commit of every update or delete, whoever made it), which drop the tenant
// at once: a disabled tenant or a rotated key is refused by every instance within
// milliseconds, and within `ttlMs` even if a notification were lost. While the listening
// connection is down nothing is cached, so every request reads the row. Misses are never
// cached (random keys cannot fill memory; a new tenant works at once).
import { ChangeNotifiedCache, type PrismaClient } from "@app/db";
import { hashLicenseKey, openDatabaseUrl } from "./secrets.ts";

/** Sent by the trigger on hosting.tenants, with the tenant id as payload. */
export const TENANT_CHANGED_CHANNEL = "scheduling_tenant_changed";

export interface Tenant {
  id: string;
  /** Opened from the sealed column; never logged. */
  databaseUrl: string;
}

export interface TenantDirectoryOptions {
  ttlMs: number;
  maxEntries?: number;
  /** Delay before listening again after the connection failed. */
  retryMs?: number;
  /** The listening connection failed: called once per outage. */
  onOutage?: (error: unknown) => void;
  /** Listening again after an outage: called once. */
  onRecovery?: () => void;
}

export class TenantDirectory {
  /** Keyed by the license key's hash; a notification's payload is a tenant id. */
  private readonly cache: ChangeNotifiedCache<Tenant>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly urlKey: Buffer,
    { maxEntries = 10_000, ...options }: TenantDirectoryOptions,
  ) {
    this.cache = new ChangeNotifiedCache<Tenant>(prisma, {
      channel: TENANT_CHANGED_CHANNEL,
      maxEntries,
      matches: (tenantId, _hash, tenant) => tenant.id === tenantId,
      ...options,
    });
  }

  /** The enabled tenant holding this license key, or null (unknown and disabled alike). */
  async find(licenseKey: string): Promise<Tenant | null> {
    const hash = hashLicenseKey(licenseKey);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const readAt = this.cache.generation();
    const row = await this.prisma.tenant.findFirst({
      where: { licenseKeyHash: hash, disabledAt: null },
      select: { id: true, databaseUrlEncrypted: true },
    });
    if (!row) return null;
    const tenant = {
      id: row.id,
      databaseUrl: openDatabaseUrl(this.urlKey, row.id, row.databaseUrlEncrypted),
    };
    this.cache.set(hash, tenant, readAt);
    return tenant;
  }

  /** Connects the listening connection; the cache is used only while it is up. */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }
}
