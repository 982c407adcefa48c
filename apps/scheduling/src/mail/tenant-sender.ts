// Hosted mode's booking e-mails (docs/adr/0230): a tenant's bookings write their outbox rows
// into the tenant's own database, in the booking's transaction, as the default database's do.
// One sender per instance serves every tenant, holding no connection for a tenant without mail:
//
// - Before a tenant's booking write, the request marks the tenant in the default database
//   (hosting.tenant_mail_due: "this tenant may have mail"); after its answer, the instance that
//   wrote the rows visits the tenant at once (the common case: the mail leaves within
//   milliseconds, through the tenant client the request used).
// - Every MAIL_POLL_MS each instance reads the marks that are due and visits those tenants:
//   mail left by an instance that died between the commit and its visit, and retries.
// - A visit sends what is due (FOR UPDATE SKIP LOCKED, as for the default database: instances
//   never send one row twice), then moves the mark to the next retry, or removes it when nothing
//   is pending and no booking can still commit under it (its mark older than MARK_GRACE_MS).
import type { PrismaClient } from "@app/db";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import { openDatabaseUrl } from "../hosting/secrets.ts";
import type { TenantClients } from "../hosting/tenant-clients.ts";
import { expandRequests } from "./requests.ts";
import {
  giveWay,
  type MailCounters,
  pooledConnection,
  SEND_BATCH,
  sendDue,
  smtpTransport,
} from "./sender.ts";

/**
 * How long a mark is kept after the request that made it: longer than a booking transaction
 * can last (statements time out after 30 s), so a row committed after a visit found none is
 * still found by a later one.
 */
export const MARK_GRACE_MS = 60_000;
/** Messages (and requests rendered) one visit handles before the next tenant's turn (the rest: at its next visit, at once). */
const VISIT_BATCH = 50;
/** Marks read by one sweep (the oldest due first). */
const SWEEP_BATCH = 100;

export interface TenantMailSenderOptions {
  /** The default database: the tenant registry and the marks. */
  prisma: PrismaClient;
  clients: TenantClients;
  /** Opens the tenants' sealed database URLs. */
  urlKey: Buffer;
  smtpUrl: string;
  from: string;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  sendTimeoutMs: number;
  busy?: (() => boolean) | undefined;
  giveWayMs?: number | undefined;
  counters?: MailCounters | undefined;
  log: FastifyBaseLogger;
  markGraceMs?: number;
}

export class TenantMailSender {
  private readonly transport: Transporter;
  /** Tenants to visit, with when each was first wanted (the sender gives way from then on). */
  private readonly wanted = new Map<string, number>();
  private readonly graceMs: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private nextSweep = 0;

  constructor(private readonly options: TenantMailSenderOptions) {
    this.transport = smtpTransport(options.smtpUrl, options.sendTimeoutMs);
    this.graceMs = options.markGraceMs ?? MARK_GRACE_MS;
  }

  /**
   * Before a booking write on the tenant's database: the mark that makes some instance visit the
   * tenant even if this one dies after the commit. Due after the grace: this instance visits first.
   */
  async mark(tenantId: string): Promise<void> {
    await this.options.prisma.$executeRaw`
      INSERT INTO "hosting"."tenant_mail_due" AS d (tenant_id, due_at, marked_at)
      VALUES (${tenantId}::uuid, now() + make_interval(secs => ${this.graceMs}::double precision / 1000), now())
      ON CONFLICT (tenant_id) DO UPDATE
        SET marked_at = now(), due_at = LEAST(d.due_at, EXCLUDED.due_at)`;
  }

  /** After a tenant's booking write was answered: visit the tenant now. */
  due(tenantId: string): void {
    this.want(tenantId);
    this.wake?.();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  private want(tenantId: string, since = Date.now()): void {
    if (!this.wanted.has(tenantId)) this.wanted.set(tenantId, since);
  }

  /** Finishes the visit in flight, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.transport.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (Date.now() >= this.nextSweep) {
        this.nextSweep = Date.now() + this.options.pollMs;
        await this.sweep().catch((err: unknown) =>
          this.options.log.error({ err }, "mail: the tenants' marks could not be read; trying again"),
        );
      }
      const [tenantId, since] = this.wanted.entries().next().value ?? [];
      if (tenantId !== undefined) {
        // As the default database's sender, it gives way to this instance's requests.
        await giveWay(this.options, since!, () => this.running);
        this.wanted.delete(tenantId);
        await this.visit(tenantId).catch((err: unknown) =>
          this.options.log.error({ err, tenantId }, "mail: a tenant's outbox could not be served"),
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
      SELECT tenant_id::text FROM "hosting"."tenant_mail_due"
       WHERE due_at <= now() ORDER BY due_at LIMIT ${SWEEP_BATCH}`;
    for (const row of rows) this.want(row.tenant_id);
  }

  /** Sends the tenant's due e-mails (a batch), then moves or removes its mark. */
  private async visit(tenantId: string): Promise<void> {
    const { prisma, clients, urlKey } = this.options;
    const startedAt = new Date();
    const row = await prisma.tenant.findFirst({
      where: { id: tenantId, disabledAt: null },
      select: { id: true, databaseUrlEncrypted: true },
    });
    if (!row) {
      // Disabled (or gone): its mail waits, looked at again after the grace, sent if it is enabled.
      await this.setDue(tenantId, new Date(Date.now() + this.graceMs));
      return;
    }
    const tenant = { id: row.id, databaseUrl: openDatabaseUrl(urlKey, row.id, row.databaseUrlEncrypted) };
    let lease: Awaited<ReturnType<TenantClients["acquire"]>>;
    try {
      lease = await clients.acquire(tenant);
    } catch (err) {
      // Its database is down or every tenant client is busy: try again at a later sweep.
      this.options.log.warn({ err, tenantId }, "mail: a tenant's database cannot be reached; will retry");
      await this.setDue(tenantId, new Date(Date.now() + Math.max(this.options.pollMs, 1_000)));
      return;
    }
    try {
      const log = this.options.log.child({ tenantId });
      const connect = pooledConnection(lease.db);
      // The tenant's requests rendered into its outbox first (docs/adr/0236), then its due rows.
      let sent = 0;
      while (this.running && sent < VISIT_BATCH) {
        const rendered = await expandRequests(connect, log);
        if (rendered === 0) break;
        sent += rendered;
      }
      while (this.running && sent < VISIT_BATCH) {
        const claimed = await sendDue(
          connect,
          this.transport,
          { ...this.options, log },
          this.options.counters,
          Math.min(SEND_BATCH, VISIT_BATCH - sent),
          () => this.running,
        );
        if (claimed === 0) break;
        sent += claimed;
      }
      if (sent >= VISIT_BATCH || !this.running) {
        // The rest has waited its turn already: no giving way for it.
        this.want(tenantId, 0);
        return;
      }
      // The next retry, or now when a request is still to be rendered (one written after this
      // visit's look); one that could not be rendered waits for mail:resend, not for a visit.
      const [next] = await lease.db.$queryRaw<{ at: Date | null }[]>`
        SELECT LEAST(
          (SELECT min(next_attempt_at) FROM "scheduling"."mail_outbox" WHERE status = 'PENDING'),
          (SELECT min(created_at) FROM "scheduling"."mail_requests" WHERE failed_at IS NULL)) AS at`;
      const grace = `${this.graceMs} milliseconds`;
      if (next?.at) {
        // The next retry, or sooner when a booking marked the tenant since (it may still commit).
        await prisma.$executeRaw`
          INSERT INTO "hosting"."tenant_mail_due" AS d (tenant_id, due_at, marked_at)
          VALUES (${tenantId}::uuid, ${next.at}, ${new Date(0)})
          ON CONFLICT (tenant_id) DO UPDATE
            SET due_at = CASE WHEN d.marked_at + ${grace}::interval > now()
                              THEN LEAST(EXCLUDED.due_at, d.marked_at + ${grace}::interval)
                              ELSE EXCLUDED.due_at END`;
        return;
      }
      // Nothing pending: the mark goes, unless a booking marked it so recently that it may still commit.
      const cutoff = new Date(startedAt.getTime() - this.graceMs);
      await prisma.$executeRaw`
        DELETE FROM "hosting"."tenant_mail_due" WHERE tenant_id = ${tenantId}::uuid AND marked_at < ${cutoff}`;
      await prisma.$executeRaw`
        UPDATE "hosting"."tenant_mail_due"
           SET due_at = marked_at + make_interval(secs => ${this.graceMs}::double precision / 1000)
         WHERE tenant_id = ${tenantId}::uuid`;
    } finally {
      lease.release();
    }
  }

  private async setDue(tenantId: string, at: Date): Promise<void> {
    await this.options.prisma.$executeRaw`
      INSERT INTO "hosting"."tenant_mail_due" (tenant_id, due_at, marked_at)
      VALUES (${tenantId}::uuid, ${at}, ${new Date(0)})
      ON CONFLICT (tenant_id) DO UPDATE SET due_at = EXCLUDED.due_at`;
  }
}
