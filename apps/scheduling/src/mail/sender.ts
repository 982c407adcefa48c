// The outbox's sender (docs/adr/0222), one per instance, off the request path: it claims one
// due row at a time with FOR UPDATE SKIP LOCKED (so instances never take the same row), sends
// it over SMTP while holding the row's lock, and marks it in the same transaction. A process
// that dies mid-send releases the lock with its connection: the row is sent again, with the
// same Message-ID (at-least-once, docs/adr/0222). It wakes on the outbox's NOTIFY and every
// MAIL_POLL_MS (retries come due that way).
import { dedicatedConnection, NotificationListener, type PrismaClient, poolOf } from "@app/db";
import nodemailer, { type Transporter } from "nodemailer";
import { MAIL_CHANNEL } from "./outbox.ts";

export interface MailSenderOptions {
  prisma: PrismaClient;
  smtpUrl: string;
  from: string;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  sendTimeoutMs: number;
  counters?: MailCounters | undefined;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 3_600_000;

interface DueRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  ics: string | null;
  attempts: number;
}

/** `host:port` of the SMTP URL: what logs may name (never its credentials). */
export function smtpAddress(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "smtps:" ? "465" : "587")}`;
}

/** The Message-ID of an outbox row: fixed by its id, so a resend carries the same one. */
export function messageIdOf(rowId: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<${rowId}@${domain}>`;
}

/** A failed attempt: whether the server refused for good (a 5xx answer), and why, briefly. */
function classify(error: unknown): { permanent: boolean; reason: string } {
  const e = error as { responseCode?: number; code?: string; message?: string };
  const permanent = typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
  const reason = [e.responseCode ?? e.code, e.message].filter(Boolean).join(" ").slice(0, 500);
  return { permanent, reason: reason || "unknown error" };
}

/**
 * The SMTP transport a sender sends through, each wait bounded by `sendTimeoutMs`. Pooled: a
 * burst of e-mails goes over one open connection instead of a connection (and its greeting,
 * EHLO, TLS) per message (measured: docs/performance.md, mail row); closed with the sender.
 */
export function smtpTransport(smtpUrl: string, sendTimeoutMs: number): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: sendTimeoutMs,
    greetingTimeout: sendTimeoutMs,
    socketTimeout: sendTimeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
}

export class MailSender {
  private readonly transport: Transporter;
  private readonly listener: NotificationListener;
  private running = false;
  private loop: Promise<void> | undefined;
  private woken = false;
  private wake: (() => void) | undefined;
  private own: ReturnType<typeof dedicatedConnection> | undefined;

  constructor(private readonly options: MailSenderOptions) {
    this.transport = smtpTransport(options.smtpUrl, options.sendTimeoutMs);
    this.listener = new NotificationListener(options.prisma, {
      channel: MAIL_CHANNEL,
      onNotification: () => this.poke(),
      // Rows written while not listening are found by the poll, and by this first look.
      onListening: () => this.poke(),
      onOutage: (err) =>
        options.log.warn({ err }, "mail: not listening for new e-mails; polling every MAIL_POLL_MS"),
      onRecovery: () => options.log.info({}, "mail: listening for new e-mails again"),
    });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.listener.start();
    this.loop = this.run();
  }

  /** Finishes the send in flight (if any), then stops: nothing is left half-marked. */
  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    await this.listener.stop();
    await this.own?.end().catch(() => {});
    this.own = undefined;
    this.transport.close();
  }

  private poke(): void {
    this.woken = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let sent = false;
      try {
        sent = await this.sendOne();
      } catch (err) {
        this.options.log.error({ err }, "mail: the outbox could not be read; trying again");
      }
      if (!sent && this.running) await this.idle();
    }
  }

  /** Until a notification (or one that came while sending) or the poll interval. */
  private idle(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // Either way the wake is consumed: a notification during the next send sets `woken` again.
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(finish, this.options.pollMs);
      this.wake = finish;
    });
  }

  private sendOne(): Promise<boolean> {
    return sendOneDue(() => this.connection(), this.transport, this.options, this.options.counters);
  }

  /**
   * The sender's own connection, outside the pool: a burst of bookings, each holding a pooled
   * connection while it waits for its hosts' locks, does not also wait for the sender's
   * (measured: docs/performance.md, mail row). Opened on first use, again after it broke.
   */
  private async connection(): Promise<ClaimConnection> {
    if (!this.own) {
      const connection = dedicatedConnection(this.options.prisma);
      connection.on("error", () => {
        if (this.own === connection) this.own = undefined;
      });
      await connection.connect();
      this.own = connection;
    }
    const connection = this.own;
    return {
      query: (text, values) => connection.query(text, values),
      release: (broken) => {
        if (!broken || this.own !== connection) return;
        this.own = undefined;
        void connection.end().catch(() => {});
      },
    } as ClaimConnection;
  }
}

/** What one attempt came to, for the metrics. */
export interface MailCounters {
  sent(): void;
  failed(outcome: "retry" | "dead"): void;
}

/** A connection a claim's transaction runs on; released when done (dropped when a statement broke it). */
export interface ClaimConnection {
  query<R extends object = object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  release(broken?: Error): void;
}

/** A pooled connection of `prisma` (a tenant's client: it holds none while its tenant has no mail). */
export const pooledConnection = (prisma: PrismaClient) => (): Promise<ClaimConnection> =>
  poolOf(prisma).connect() as Promise<ClaimConnection>;

/**
 * Claims, sends and marks one due e-mail of the outbox `connect` reaches (the default
 * database's, or a tenant's); false when none was due.
 */
export async function sendOneDue(
  connect: () => Promise<ClaimConnection>,
  transport: Transporter,
  options: Pick<MailSenderOptions, "from" | "maxAttempts" | "retryBaseMs" | "log">,
  counters?: MailCounters,
): Promise<boolean> {
  const client = await connect();
  let open = false;
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    open = true;
    const { rows } = await client.query<DueRow>(
      `SELECT id, recipient, subject, text_body, html_body, ics, attempts
         FROM "scheduling"."mail_outbox"
        WHERE status = 'PENDING' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED`,
    );
    const row = rows[0];
    if (!row) {
      await client.query("COMMIT");
      open = false;
      return false;
    }
    const messageId = messageIdOf(row.id, options.from);
    const attempts = row.attempts + 1;
    try {
      await transport.sendMail({
        from: options.from,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        messageId,
        ...(row.ics
          ? {
              icalEvent: {
                method: /^METHOD:(\w+)/m.exec(row.ics)?.[1] ?? "REQUEST",
                filename: "invite.ics",
                content: row.ics,
              },
            }
          : {}),
      });
      await client.query(
        `UPDATE "scheduling"."mail_outbox"
            SET status = 'SENT', attempts = $2, message_id = $3, sent_at = now(), last_error = NULL
          WHERE id = $1`,
        [row.id, attempts, messageId],
      );
      options.log.info({ mailId: row.id, messageId, attempts }, "mail: sent");
      counters?.sent();
    } catch (error) {
      const { permanent, reason } = classify(error);
      const dead = permanent || attempts >= options.maxAttempts;
      const backoffMs = Math.min(options.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
      await client.query(
        `UPDATE "scheduling"."mail_outbox"
            SET status = $2::"scheduling"."MailStatus", attempts = $3, last_error = $4,
                next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
          WHERE id = $1`,
        [row.id, dead ? "DEAD" : "PENDING", attempts, reason, backoffMs],
      );
      counters?.failed(dead ? "dead" : "retry");
      if (dead)
        options.log.error(
          { mailId: row.id, attempts, reason },
          "mail: given up (see pnpm -s scheduling mail:dead)",
        );
      else
        options.log.warn(
          { mailId: row.id, attempts, reason, retryInMs: backoffMs },
          "mail: not sent; will retry",
        );
    }
    await client.query("COMMIT");
    open = false;
    return true;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => {});
    // A connection a statement failed on is not given back to the pool.
    client.release(broken);
  }
}
