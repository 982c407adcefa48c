// One Prisma client (and so one node-postgres pool) per tenant database, made on the tenant's
// first request to this instance and kept in a least-recently-used list bounded by connections:
// at most TENANT_CONNECTIONS_MAX / TENANT_POOL_MAX clients of TENANT_POOL_MAX connections each.
// A new tenant beyond that closes the least recently used client that no request is using; if
// every client is in use, the request is answered 503 rather than exceeding the bound. Clients
// unused for TENANT_CLIENT_IDLE_MS are closed, and each pool closes its own idle connections
// after 10 s (node-postgres's default), so a quiet tenant holds no connection at all.
//
// Before a new client serves anything, the tenant database is brought up to this build's
// migrations by the same runner as the default database (advisory lock, so several instances
// migrate it once); concurrent first requests on one instance share that one run.
import {
  createPrisma,
  DatabaseUnreachable,
  defaultMigrationsDir,
  MigrationError,
  migrate,
  type PrismaClient,
  poolStats,
} from "@app/db";
import type { FastifyBaseLogger } from "fastify";
import { ServiceUnavailable } from "../errors.ts";
import type { Tenant } from "./tenant-directory.ts";

/** A tenant client no request has used for this long is closed. */
export const TENANT_CLIENT_IDLE_MS = 60_000;
/** After a tenant database could not be opened or migrated, its requests fail at once for this long, then one tries again. */
export const TENANT_RETRY_MS = 1_000;

export interface TenantLease {
  db: PrismaClient;
  /** Idempotent: the client may be closed once no lease holds it. */
  release(): void;
}

export interface TenantClientsOptions {
  poolMax: number;
  connectionsMax: number;
  log: FastifyBaseLogger;
  idleMs?: number;
  retryMs?: number;
  /** The migrations tenant databases are brought up to (default: prisma/migrations). */
  migrationsDir?: string;
  /**
   * DATABASE_WAIT_MS: while a tenant's database accepts no connection (its failover), that
   * tenant's work waits this long for one, as the default database's does (docs/adr/0280).
   */
  waitMs?: number | undefined;
}

interface Entry {
  tenantId: string;
  prisma: PrismaClient;
  ready: Promise<void>;
  /** Requests using the client now: it is never closed under them. */
  leases: number;
  lastUsed: number;
}

export interface TenantClientStats {
  clients: number;
  maxClients: number;
  /** Connections open across the tenant pools. */
  connections: number;
}

export class TenantClients {
  /** Least recently used first (a Map iterates in insertion order; a use re-inserts). */
  private readonly entries = new Map<string, Entry>();
  readonly maxClients: number;
  private readonly poolMax: number;
  private readonly idleMs: number;
  private readonly retryMs: number;
  private readonly migrationsDir: string;
  private readonly waitMs: number;
  private readonly log: FastifyBaseLogger;
  private readonly sweeper: NodeJS.Timeout;
  /**
   * Tenants whose database this process has brought up to its migrations: a client reopened
   * after eviction skips the check (migrations change only with a new build, i.e. a new process).
   */
  private readonly migrated = new Set<string>();

  constructor({
    poolMax,
    connectionsMax,
    log,
    idleMs = TENANT_CLIENT_IDLE_MS,
    retryMs = TENANT_RETRY_MS,
    migrationsDir = defaultMigrationsDir,
    waitMs = 0,
  }: TenantClientsOptions) {
    this.poolMax = poolMax;
    this.maxClients = Math.max(1, Math.floor(connectionsMax / poolMax));
    this.idleMs = idleMs;
    this.retryMs = retryMs;
    this.migrationsDir = migrationsDir;
    this.waitMs = waitMs;
    this.log = log;
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(Math.min(idleMs, 30_000) / 2, 10)).unref();
  }

  /** The tenant's client, opened (and its database migrated) on first use; release the lease when the request is done. */
  async acquire(tenant: Tenant): Promise<TenantLease> {
    let entry = this.entries.get(tenant.id);
    if (entry) {
      this.entries.delete(tenant.id);
      this.entries.set(tenant.id, entry);
    } else {
      entry = this.open(tenant);
    }
    const held = entry;
    held.leases++;
    held.lastUsed = Date.now();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      held.leases--;
      held.lastUsed = Date.now();
    };
    try {
      await held.ready;
    } catch (error) {
      release();
      throw error;
    }
    return { db: held.prisma, release };
  }

  private open(tenant: Tenant): Entry {
    if (this.entries.size >= this.maxClients) {
      let victim: Entry | undefined;
      for (const entry of this.entries.values()) {
        if (entry.leases === 0) {
          victim = entry;
          break;
        }
      }
      if (!victim) {
        throw new ServiceUnavailable("Too many tenants are being served at once; try again shortly");
      }
      this.close(victim, "least recently used");
    }
    const entry: Entry = {
      tenantId: tenant.id,
      prisma: createPrisma(tenant.databaseUrl, { poolMax: this.poolMax, waitMs: this.waitMs }),
      ready: Promise.resolve(),
      leases: 0,
      lastUsed: Date.now(),
    };
    entry.ready = (this.migrated.has(tenant.id) ? Promise.resolve() : this.migrate(tenant)).catch(
      (error: unknown) => {
        // Requests meanwhile fail at once with the same error; after retryMs the next one tries again.
        setTimeout(() => this.close(entry, "could not be opened"), this.retryMs).unref();
        throw error;
      },
    );
    // Awaited by every acquire; this keeps a rejection nobody awaits from being "unhandled".
    entry.ready.catch(() => {});
    this.entries.set(tenant.id, entry);
    return entry;
  }

  private async migrate(tenant: Tenant): Promise<void> {
    try {
      const { applied } = await migrate(tenant.databaseUrl, { dir: this.migrationsDir });
      for (const migration of applied) {
        this.log.info({ tenantId: tenant.id, migration }, "tenant database migrated");
      }
      this.migrated.add(tenant.id);
    } catch (error) {
      if (error instanceof DatabaseUnreachable) {
        // Down, refusing, or refusing these credentials: that tenant's problem, not the API's (503).
        // The message names host:port, never the URL.
        this.log.warn({ tenantId: tenant.id, err: error }, "tenant database unavailable");
        throw new ServiceUnavailable("The database is unavailable; try again shortly");
      }
      if (!(error instanceof MigrationError)) throw error;
      // Needs an operator (a changed or failing migration); the message names the migration, not the URL.
      this.log.error({ tenantId: tenant.id, err: error }, "tenant database cannot be migrated");
      throw new ServiceUnavailable("The tenant's database is not ready; try again later");
    }
  }

  private close(entry: Entry, reason: string): void {
    if (this.entries.get(entry.tenantId) !== entry) return;
    this.entries.delete(entry.tenantId);
    this.log.debug({ tenantId: entry.tenantId, reason }, "tenant client closed");
    void entry.prisma.$disconnect().catch(() => {});
  }

  /** Closes the clients nobody has used for idleMs. */
  closeIdle(now = Date.now()): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.leases === 0 && now - entry.lastUsed >= this.idleMs) this.close(entry, "idle");
    }
  }

  stats(): TenantClientStats {
    let connections = 0;
    for (const entry of this.entries.values()) connections += poolStats(entry.prisma)?.total ?? 0;
    return { clients: this.entries.size, maxClients: this.maxClients, connections };
  }

  /** Whether this instance holds an open client for the tenant (for tests and metrics). */
  has(tenantId: string): boolean {
    return this.entries.has(tenantId);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(entries.map((entry) => entry.prisma.$disconnect()));
  }
}
