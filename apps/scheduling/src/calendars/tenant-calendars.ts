// Hosted mode's connected calendars (docs/adr/0259): a tenant's accounts, calendars, busy times
// and calendar writes live in the tenant's own database, as the default database's live in it.
// Reading busy times needs nothing more (the request's database). What is new is who syncs and
// who writes, without holding a connection for a tenant that has no calendars, as the tenants'
// mail sender does (docs/adr/0230):
//
// - A registry in the default database (hosting.tenant_calendars): the tenants whose database
//   holds calendar accounts. `calendar:connect --tenant` registers the tenant (so does a booking
//   of a tenant that finds selected calendars, for accounts connected otherwise).
// - Every instance sweeps the registry (a few times per CALENDAR_SYNC_INTERVAL_MS) and visits the
//   tenants due: through the tenant client (bounded LRU, ADR 0104), it syncs the calendars due
//   (the same leases as the default database's sync: instances never sync one calendar at once),
//   writes the calendar writes due, then moves the tenant's `sync_at` to its earliest calendar due
//   and `writes_due_at` to its next retry, or removes the tenant once it has no account left.
// - A booking write of a registered tenant marks it before the write (writes_due_at, due after the
//   grace: the mark survives this instance) and is visited at once after its answer.
// - A booking's check looks for its hosts' selected calendars on the request's own client; when
//   there are some, it refreshes them through a CalendarSync of the tenant's database: one per
//   tenant, made on demand with a pool of its own (2 connections, each closed after 10 s unused),
//   at most MAX_SYNCS kept, each closed after SYNC_IDLE_MS unused.
import { createPrisma, type PrismaClient } from "@app/db";
import type { FastifyBaseLogger } from "fastify";
import { openDatabaseUrl } from "../hosting/secrets.ts";
import type { TenantClients } from "../hosting/tenant-clients.ts";
import { selectedCalendarsOf } from "./busy.ts";
import { type CredentialKeys, credentialKeyProblem } from "./logins.ts";
import { CalendarSync, type SyncCounters, type SyncSettings } from "./sync.ts";
import { CalendarWriter } from "./writes.ts";

/**
 * How long a booking's mark is kept: longer than a booking transaction can last (statements time
 * out after 30 s), as the tenants' mail marks are (ADR 0230).
 */
const MARK_GRACE_MS = 60_000;
/** Tenants' syncs kept open on one instance (least recently used closed first). */
const MAX_SYNCS = 8;
/** A tenant's sync unused for this long is closed. */
const SYNC_IDLE_MS = 60_000;
/** Connections of one tenant's sync (a booking's check syncs its hosts' calendars in parallel). */
const SYNC_POOL_MAX = 2;
/** Calendars synchronised and writes applied by one visit before the next tenant's turn. */
const VISIT_BATCH = 20;
/** Registry rows read by one sweep (the earliest due first). */
const SWEEP_BATCH = 100;

/** Registers a tenant whose database holds calendar accounts: it is visited from now on. */
export async function registerTenantCalendars(prisma: PrismaClient, tenantId: string): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO "hosting"."tenant_calendars" (tenant_id, sync_at, marked_at)
    VALUES (${tenantId}::uuid, now(), now())
    ON CONFLICT (tenant_id) DO UPDATE SET sync_at = now(), marked_at = now()`;
}

/** Registered tenants' databases checked at once by the startup check. */
const STARTUP_CHECKS = 4;

/**
 * The startup check's hosted half (docs/adr/0260): why CREDENTIALS_KEY cannot open the
 * logins of a registered tenant's database (the first such tenant, by name), or null. A tenant
 * whose database cannot be reached now is not a reason to refuse to start: its calendars fail
 * closed and say why when they are synchronised; it is reported through `onUnreachable`.
 */
export async function tenantCredentialKeyProblem(
  prisma: PrismaClient,
  urlKey: Buffer,
  keys: CredentialKeys | undefined,
  onUnreachable: (tenant: string, err: unknown) => void,
): Promise<string | null> {
  const tenants = await prisma.$queryRaw<{ id: string; name: string; sealed: string }[]>`
    SELECT t.id::text, t.name, t.database_url_encrypted AS sealed
      FROM "hosting"."tenant_calendars" c JOIN "hosting"."tenants" t ON t.id = c.tenant_id
     WHERE t.disabled_at IS NULL ORDER BY t.name`;
  const problems = new Map<string, string>();
  let next = 0;
  const check = async () => {
    for (let tenant = tenants[next++]; tenant; tenant = tenants[next++]) {
      let db: PrismaClient | undefined;
      try {
        db = createPrisma(openDatabaseUrl(urlKey, tenant.id, tenant.sealed), { poolMax: 1 });
        const problem = await credentialKeyProblem(db, keys);
        if (problem) problems.set(tenant.name, problem);
      } catch (err) {
        onUnreachable(tenant.name, err);
      } finally {
        await db?.$disconnect();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STARTUP_CHECKS, tenants.length) }, check));
  const first = tenants.find((tenant) => problems.has(tenant.name));
  return first
    ? `tenant ${first.name}${problems.size > 1 ? ` (and ${problems.size - 1} other tenant(s))` : ""}: ${problems.get(first.name)}`
    : null;
}

export interface TenantCalendarsOptions {
  /** The default database: the tenant registry and the marks. */
  prisma: PrismaClient;
  clients: TenantClients;
  /** Opens the tenants' sealed database URLs. */
  urlKey: Buffer;
  sync: SyncSettings;
  keys: CredentialKeys | undefined;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  log: FastifyBaseLogger;
  counters?: SyncCounters | undefined;
  markGraceMs?: number;
}

interface SyncEntry {
  sync: CalendarSync;
  users: number;
  lastUsed: number;
}

export class TenantCalendars {
  /** Least recently used first. */
  private readonly syncs = new Map<string, SyncEntry>();
  private readonly wanted = new Set<string>();
  /** Tenants this instance found registered when it marked them (its answer visits them). */
  private readonly registered = new Set<string>();
  private readonly graceMs: number;
  private readonly pollMs: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private nextSweep = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: TenantCalendarsOptions) {
    this.graceMs = options.markGraceMs ?? MARK_GRACE_MS;
    this.pollMs = Math.max(200, Math.min(5_000, Math.floor(options.sync.intervalMs / 4)));
    this.sweeper = setInterval(() => this.closeIdle(), SYNC_IDLE_MS / 2).unref();
  }

  /**
   * Before a booking write on a registered tenant's database: its calendar writes are looked at
   * after the grace even if this instance dies after the commit. Nothing for a tenant without calendars.
   */
  async mark(tenantId: string): Promise<void> {
    const count = await this.options.prisma.$executeRaw`
      UPDATE "hosting"."tenant_calendars"
         SET writes_due_at = LEAST(coalesce(writes_due_at, 'infinity'),
                                   now() + make_interval(secs => ${this.graceMs}::double precision / 1000)),
             marked_at = now()
       WHERE tenant_id = ${tenantId}::uuid`;
    if (count > 0) this.registered.add(tenantId);
    else this.registered.delete(tenantId);
  }

  /** After a booking write was answered: a registered tenant's writes are made now. */
  due(tenantId: string): void {
    if (!this.registered.has(tenantId)) return;
    this.wanted.add(tenantId);
    this.wake?.();
  }

  /**
   * A booking's check on the tenant's database (`db`: the request's tenant client): syncs the
   * hosts' selected calendars now; answers from when a calendar counts as confirmed.
   */
  async refresh(tenantId: string, db: PrismaClient, userIds: number[]): Promise<Date> {
    // Most tenants' hosts have no calendar: one query on the request's client, no sync's pool.
    const since = new Date();
    if ((await selectedCalendarsOf(db, userIds)).length === 0) return since;
    const entry = this.syncOf(tenantId, db);
    entry.users++;
    try {
      return await entry.sync.refreshForBooking(userIds, () => {
        // Calendars connected without `--tenant`'s registration: visited from now on.
        if (!this.registered.has(tenantId))
          void registerTenantCalendars(this.options.prisma, tenantId)
            .then(() => this.registered.add(tenantId))
            .catch((err: unknown) =>
              this.options.log.warn({ err, tenantId }, "calendars: could not register a tenant's calendars"),
            );
      });
    } finally {
      entry.users--;
      entry.lastUsed = Date.now();
      this.closeBeyondBound();
    }
  }

  private syncOf(tenantId: string, db: PrismaClient): SyncEntry {
    let entry = this.syncs.get(tenantId);
    if (entry) {
      this.syncs.delete(tenantId);
    } else {
      // Its pool is made from the tenant client's connection settings, not on the client's
      // pool: a tenant client evicted meanwhile does not close it.
      entry = {
        sync: new CalendarSync(
          db,
          this.options.sync,
          this.options.log.child({ tenantId }),
          this.options.counters,
          SYNC_POOL_MAX,
        ),
        users: 0,
        lastUsed: Date.now(),
      };
    }
    this.syncs.set(tenantId, entry);
    return entry;
  }

  /** Beyond MAX_SYNCS, the least recently used syncs nobody is using are closed. */
  private closeBeyondBound(): void {
    for (const [tenantId, entry] of this.syncs) {
      if (this.syncs.size <= MAX_SYNCS) return;
      if (entry.users > 0) continue;
      this.syncs.delete(tenantId);
      void entry.sync.stop();
    }
  }

  /** Closes the syncs nobody has used for SYNC_IDLE_MS. */
  closeIdle(now = Date.now()): void {
    for (const [tenantId, entry] of [...this.syncs]) {
      if (entry.users === 0 && now - entry.lastUsed >= SYNC_IDLE_MS) {
        this.syncs.delete(tenantId);
        void entry.sync.stop();
      }
    }
  }

  start(): void {
    if (this.running || !this.options.keys) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the visit in flight, then stops and closes every tenant's sync. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.sweeper);
    this.wake?.();
    await this.loop;
    const entries = [...this.syncs.values()];
    this.syncs.clear();
    await Promise.allSettled(entries.map((entry) => entry.sync.stop()));
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (Date.now() >= this.nextSweep) {
        this.nextSweep = Date.now() + this.pollMs;
        await this.sweep().catch((err: unknown) =>
          this.options.log.error({ err }, "calendars: the tenants' registry could not be read; trying again"),
        );
      }
      const tenantId = this.wanted.values().next().value;
      if (tenantId !== undefined) {
        this.wanted.delete(tenantId);
        await this.visit(tenantId).catch((err: unknown) =>
          this.options.log.error({ err, tenantId }, "calendars: a tenant's calendars could not be served"),
        );
        continue;
      }
      await new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(finish, Math.max(this.nextSweep - Date.now(), 0));
        this.wake = finish;
      });
    }
  }

  private async sweep(): Promise<void> {
    const rows = await this.options.prisma.$queryRaw<{ tenant_id: string }[]>`
      SELECT tenant_id::text FROM "hosting"."tenant_calendars"
       WHERE sync_at <= now() OR writes_due_at <= now()
       ORDER BY LEAST(sync_at, coalesce(writes_due_at, sync_at)) LIMIT ${SWEEP_BATCH}`;
    for (const row of rows) this.wanted.add(row.tenant_id);
  }

  /** Writes the tenant's due calendar writes and syncs its due calendars (a batch), then moves or removes its row. */
  async visit(tenantId: string): Promise<void> {
    const { prisma, clients, urlKey } = this.options;
    const startedAt = new Date();
    const row = await prisma.tenant.findFirst({
      where: { id: tenantId, disabledAt: null },
      select: { id: true, databaseUrlEncrypted: true },
    });
    if (!row) {
      // Disabled (or gone): looked at again after the grace, served if it is enabled again.
      await this.postpone(tenantId, new Date(Date.now() + this.graceMs));
      return;
    }
    const tenant = { id: row.id, databaseUrl: openDatabaseUrl(urlKey, row.id, row.databaseUrlEncrypted) };
    let lease: Awaited<ReturnType<TenantClients["acquire"]>>;
    try {
      lease = await clients.acquire(tenant);
    } catch (err) {
      this.options.log.warn(
        { err, tenantId },
        "calendars: a tenant's database cannot be reached; will retry",
      );
      await this.postpone(tenantId, new Date(Date.now() + Math.max(this.pollMs, 1_000)));
      return;
    }
    try {
      const log = this.options.log.child({ tenantId });
      let done = 0;
      // Writes first: a booking just answered waits for them.
      const writer = new CalendarWriter({
        prisma: lease.db,
        keys: this.options.keys,
        timeoutMs: this.options.timeoutMs,
        maxAttempts: this.options.maxAttempts,
        retryBaseMs: this.options.retryBaseMs,
        pollMs: this.pollMs,
        log,
      });
      try {
        while (this.running && done < VISIT_BATCH && (await writer.writeOne())) done++;
      } finally {
        await writer.stop();
      }
      const entry = this.syncOf(tenantId, lease.db);
      entry.users++;
      try {
        while (this.running && done < VISIT_BATCH) {
          const synced = await entry.sync.syncDue(Math.min(4, VISIT_BATCH - done));
          if (synced.length === 0) break;
          done += synced.length;
        }
        if (done >= VISIT_BATCH || !this.running) {
          this.wanted.add(tenantId);
          return;
        }
        const nextSync = await entry.sync.nextDue();
        const [state] = await lease.db.$queryRaw<{ writes: Date | null; accounts: boolean }[]>`
          SELECT (SELECT min(next_attempt_at) FROM "scheduling"."calendar_writes" WHERE status = 'PENDING') AS writes,
                 EXISTS (SELECT 1 FROM "scheduling"."credentials") AS accounts`;
        await this.record(tenantId, startedAt, {
          // No calendar selected: looked at once an interval. One leased elsewhere (due now):
          // after a poll, not at once.
          sync:
            nextSync === null
              ? new Date(Date.now() + this.options.sync.intervalMs)
              : new Date(Math.max(nextSync.getTime(), Date.now() + this.pollMs)),
          writes: state?.writes ?? null,
          accounts: state?.accounts ?? true,
        });
      } finally {
        entry.users--;
        entry.lastUsed = Date.now();
        this.closeBeyondBound();
      }
    } finally {
      lease.release();
    }
  }

  /** After a visit: the row's next times, or no row once the tenant has no account and nothing pending. */
  private async record(
    tenantId: string,
    startedAt: Date,
    next: { sync: Date; writes: Date | null; accounts: boolean },
  ): Promise<void> {
    const { prisma } = this.options;
    const grace = `${this.graceMs} milliseconds`;
    if (!next.accounts && next.writes === null) {
      // Unregistered, unless something marked it since the visit began (a connect, a booking).
      const cutoff = new Date(startedAt.getTime() - this.graceMs);
      const removed = await prisma.$executeRaw`
        DELETE FROM "hosting"."tenant_calendars" WHERE tenant_id = ${tenantId}::uuid AND marked_at < ${cutoff}`;
      if (removed > 0) {
        this.registered.delete(tenantId);
        return;
      }
    }
    const syncAt = next.sync;
    // Writes: the next retry, or after the grace of a booking that marked it since (it may still commit).
    await prisma.$executeRaw`
      UPDATE "hosting"."tenant_calendars"
         SET sync_at = CASE WHEN marked_at > ${startedAt} THEN LEAST(sync_at, ${syncAt}) ELSE ${syncAt} END,
             writes_due_at = CASE
               WHEN marked_at + ${grace}::interval > now()
                 THEN LEAST(coalesce(${next.writes}::timestamptz, 'infinity'), marked_at + ${grace}::interval)
               ELSE ${next.writes}::timestamptz END
       WHERE tenant_id = ${tenantId}::uuid`;
  }

  private async postpone(tenantId: string, at: Date): Promise<void> {
    await this.options.prisma.$executeRaw`
      UPDATE "hosting"."tenant_calendars"
         SET sync_at = ${at}, writes_due_at = CASE WHEN writes_due_at IS NULL THEN NULL ELSE ${at}::timestamptz END
       WHERE tenant_id = ${tenantId}::uuid`;
  }
}
