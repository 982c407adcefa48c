// License key → tenant, read from hosting.tenants in the default database. An unknown key and
// a disabled tenant's key take the same path: one indexed lookup that excludes disabled rows,
// answered null either way. Found tenants are cached for at most `ttlMs` (the API key cache's
// 5 s), and only while this instance LISTENs to the table's change notifications (a trigger
// sends one at the commit of every update or delete, whoever made it), which drop the tenant
// at once: a disabled tenant or a rotated key is refused by every instance within
// milliseconds, and within `ttlMs` even if a notification were lost. While the listening
// connection is down nothing is cached, so every request reads the row. Misses are never
// cached (random keys cannot fill memory; a new tenant works at once).
import { dedicatedConnection, type PrismaClient } from "@app/db";
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
  /** Called when the listening connection fails, once per outage. */
  onError?: (error: unknown) => void;
}

export class TenantDirectory {
  private readonly entries = new Map<string, { tenant: Tenant; until: number }>();
  /** Bumped by every notification: a lookup that started before one does not fill the cache. */
  private generation = 0;
  private listening = false;
  /** Reported once per outage, not at every retry. */
  private failing = false;
  private stopped = false;
  private connection: ReturnType<typeof dedicatedConnection> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly retryMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly urlKey: Buffer,
    { ttlMs, maxEntries = 10_000, retryMs = 1_000, onError = () => {} }: TenantDirectoryOptions,
  ) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.retryMs = retryMs;
    this.onError = onError;
  }

  /** The enabled tenant holding this license key, or null (unknown and disabled alike). */
  async find(licenseKey: string): Promise<Tenant | null> {
    const hash = hashLicenseKey(licenseKey);
    const now = Date.now();
    if (this.listening) {
      const cached = this.entries.get(hash);
      if (cached && cached.until > now) return cached.tenant;
    }
    const generation = this.generation;
    const row = await this.prisma.tenant.findFirst({
      where: { licenseKeyHash: hash, disabledAt: null },
      select: { id: true, databaseUrlEncrypted: true },
    });
    if (!row) return null;
    const tenant = {
      id: row.id,
      databaseUrl: openDatabaseUrl(this.urlKey, row.id, row.databaseUrlEncrypted),
    };
    if (this.listening && generation === this.generation) {
      // Oldest first out: a Map iterates in insertion order.
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { tenant, until: now + this.ttlMs });
    }
    return tenant;
  }

  private forget(tenantId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (entry.tenant.id === tenantId) this.entries.delete(hash);
  }

  /** Connects the listening connection; the cache is used only while it is up. */
  async start(): Promise<void> {
    this.stopped = false;
    const connection = dedicatedConnection(this.prisma);
    this.connection = connection;
    const lost = (error?: unknown) => {
      if (this.connection !== connection) return;
      this.listening = false;
      this.generation++;
      this.entries.clear();
      this.connection = undefined;
      void connection.end().catch(() => {});
      if (error && !this.failing) {
        this.failing = true;
        this.onError(error);
      }
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), this.retryMs).unref();
    };
    connection.on("error", lost);
    connection.on("end", () => lost());
    connection.on("notification", ({ payload }) => {
      if (payload !== undefined) this.forget(payload);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${TENANT_CHANGED_CHANNEL}`);
      if (this.connection === connection) {
        this.listening = true;
        this.failing = false;
      }
    } catch (error) {
      lost(error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.listening = false;
    this.entries.clear();
    const connection = this.connection;
    this.connection = undefined;
    await connection?.end().catch(() => {});
  }
}
