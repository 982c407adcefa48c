// The outbox's sender (docs/adr/0222), one per instance, off the request path: it claims due
// rows with FOR UPDATE SKIP LOCKED (so instances never take the same row), sends each over SMTP
// while holding its row's lock, and commits an accepted one's mark before the next is sent
// (docs/adr/0239). A process that dies mid-send releases the lock with its connection: that one
// row is sent again, with the same Message-ID (at-least-once, docs/adr/0222). It wakes on the
// outbox's NOTIFY and every MAIL_POLL_MS (retries come due that way).
import { dedicatedConnection, NotificationListener, type PrismaClient, poolOf } from "@app/db";
import nodemailer, { type Transporter } from "nodemailer";
import { MAIL_CHANNEL } from "./outbox.ts";
import { type ClaimConnection, EXPAND_BATCH, expandRequests } from "./requests.ts";

export interface MailSenderOptions {
  prisma: PrismaClient;
  smtpUrl: string;
  from: string;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  sendTimeoutMs: number;
  /** Whether this instance is answering requests now (its sender then gives way, below). */
  busy?: (() => boolean) | undefined;
  /** How long at most the sender gives way to requests after new e-mails came (MAIL_GIVE_WAY_MS). */
  giveWayMs?: number | undefined;
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

/** How often a sender giving way looks again whether the requests are answered. */
const GIVE_WAY_TICK_MS = 10;

/**
 * Waits while `busy()` (this instance is answering requests), at most until `giveWayMs` after
 * `since` (when the e-mails it is about to handle came), or until `running()` is false. Rendering
 * and sending run on the requests' core: during a burst of bookings they lengthened each booking's
 * time under its hosts' locks, and so every booking queued behind it (docs/adr/0235).
 */
export async function giveWay(
  { busy, giveWayMs = 0 }: Pick<MailSenderOptions, "busy" | "giveWayMs">,
  since: number,
  running: () => boolean,
): Promise<void> {
  if (busy === undefined) return;
  while (running() && busy() && Date.now() - since < giveWayMs) {
    await new Promise((resolve) => setTimeout(resolve, GIVE_WAY_TICK_MS));
  }
}

export class MailSender {
  private readonly transport: Transporter;
  private readonly listener: NotificationListener;
  private running = false;
  private loop: Promise<void> | undefined;
  private woken = false;
  /** Whether requests may be waiting to be rendered: after a notification, a poll, or a full batch. */
  private expand = true;
  private wake: (() => void) | undefined;
  private own: ReturnType<typeof dedicatedConnection> | undefined;
  /** When the work in hand came (the wake that found the sender idle); undefined while idle. */
  private workSince: number | undefined;

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

  /** Finishes the send in flight (if any) and records it, then stops: the rest of its claim waits. */
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
    this.expand = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.workSince ??= Date.now();
      await giveWay(this.options, this.workSince, () => this.running);
      let sent = false;
      try {
        sent = await this.sendOne();
      } catch (err) {
        this.options.log.error({ err }, "mail: the outbox could not be read; trying again");
      }
      if (!sent && this.running) {
        this.workSince = undefined;
        await this.idle();
      }
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
      const timer = setTimeout(() => {
        // The poll: requests written while not listening are found this way too.
        this.expand = true;
        finish();
      }, this.options.pollMs);
      this.wake = finish;
    });
  }

  /** Renders the requests waiting (requests.ts), then sends a batch of due e-mails; whether there was work. */
  private async sendOne(): Promise<boolean> {
    const connect = () => this.connection();
    let rendered = 0;
    if (this.expand) {
      this.expand = false;
      rendered = await expandRequests(connect, this.options.log).catch((err: unknown) => {
        this.expand = true;
        throw err;
      });
      if (rendered === EXPAND_BATCH) this.expand = true;
    }
    const sent = await sendDue(
      connect,
      this.transport,
      this.options,
      this.options.counters,
      SEND_BATCH,
      () => this.running,
    );
    return rendered + sent > 0;
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

/** A pooled connection of `prisma` (a tenant's client: it holds none while its tenant has no mail). */
export const pooledConnection = (prisma: PrismaClient) => (): Promise<ClaimConnection> =>
  poolOf(prisma).connect() as Promise<ClaimConnection>;

/** Due e-mails one claim takes at most: read and locked together, sent one after another. */
export const SEND_BATCH = 10;

/** A failed attempt or a sent message, written with the claim's next commit. */
interface Mark {
  id: string;
  status: "SENT" | "PENDING" | "DEAD";
  attempts: number;
  messageId: string | null;
  lastError: string | null;
  backoffMs: number;
  /** When the attempt ended (performance.now()). */
  at: number;
}

/**
 * Writes `marks` in one statement: a sent row SENT, its Message-ID and the time; a failed one its
 * attempt, why, and when next. Times from the clock, not the transaction's start (the claim's,
 * sends ago): the backoff counts from the failed attempt's end, however late its mark is written.
 */
async function writeMarks(client: ClaimConnection, marks: Mark[]): Promise<void> {
  if (marks.length === 0) return;
  const now = performance.now();
  const column = <K extends keyof Mark>(key: K) => marks.map((mark) => mark[key]);
  await client.query(
    `UPDATE "scheduling"."mail_outbox" AS o
        SET status = m.status::"scheduling"."MailStatus", attempts = m.attempts, last_error = m.last_error,
            message_id = CASE WHEN m.status = 'SENT' THEN m.message_id ELSE o.message_id END,
            sent_at = CASE WHEN m.status = 'SENT' THEN clock_timestamp() ELSE o.sent_at END,
            next_attempt_at = CASE WHEN m.status = 'SENT' THEN o.next_attempt_at
                                   ELSE clock_timestamp() + make_interval(secs => m.wait_ms / 1000) END
       FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::float8[])
         AS m(id, status, attempts, message_id, last_error, wait_ms)
      WHERE o.id = m.id`,
    [
      column("id"),
      column("status"),
      column("attempts"),
      column("messageId"),
      column("lastError"),
      marks.map((mark) => mark.backoffMs - (now - mark.at)),
    ],
  );
}

/**
 * Claims up to `limit` due e-mails of the outbox `connect` reaches (the default database's, or a
 * tenant's) in one statement, and sends them one after another, each while its row is locked.
 * An accepted message's SENT mark (its Message-ID) is committed before the next one is sent
 * (docs/adr/0239): a process that dies, or a connection that breaks, mid-claim sends again only
 * the message in flight, never one the server accepted and the outbox recorded. A commit ends the
 * transaction and with it the locks of the rest of the claim: they are locked again, and one
 * another sender took meanwhile (or sent, or failed to a later retry) is left out. Failed
 * attempts are written with the next commit (a crash before it repeats an attempt the server
 * refused). Stops between two messages once `running()` is false. How many it attempted, 0 when
 * none was due.
 */
export async function sendDue(
  connect: () => Promise<ClaimConnection>,
  transport: Transporter,
  options: Pick<MailSenderOptions, "from" | "maxAttempts" | "retryBaseMs" | "log">,
  counters?: MailCounters,
  limit = SEND_BATCH,
  running: () => boolean = () => true,
): Promise<number> {
  const client = await connect();
  let open = false;
  let broken: Error | undefined;
  const begin = async () => {
    await client.query("BEGIN");
    open = true;
  };
  const commit = async () => {
    await client.query("COMMIT");
    open = false;
  };
  try {
    await begin();
    const { rows } = await client.query<DueRow>(
      `SELECT id, recipient, subject, text_body, html_body, ics, attempts
         FROM "scheduling"."mail_outbox"
        WHERE status = 'PENDING' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    /** The claim's rows the open transaction holds locked, with their attempts as it read them. */
    let held = new Map(rows.map((row) => [row.id, row.attempts]));
    let marks: Mark[] = [];
    let attempted = 0;
    for (const [index, row] of rows.entries()) {
      const before = held.get(row.id);
      if (before === undefined) continue;
      if (!running()) break;
      attempted++;
      const messageId = messageIdOf(row.id, options.from);
      const attempts = before + 1;
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
      } catch (error) {
        const { permanent, reason } = classify(error);
        const dead = permanent || attempts >= options.maxAttempts;
        const backoffMs = Math.min(options.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
        marks.push({
          id: row.id,
          status: dead ? "DEAD" : "PENDING",
          attempts,
          messageId: null,
          lastError: reason,
          backoffMs,
          at: performance.now(),
        });
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
        continue;
      }
      // Accepted: recorded for good before anything else is sent.
      marks.push({
        id: row.id,
        status: "SENT",
        attempts,
        messageId,
        lastError: null,
        backoffMs: 0,
        at: performance.now(),
      });
      await writeMarks(client, marks);
      await commit();
      marks = [];
      options.log.info({ mailId: row.id, messageId, attempts }, "mail: sent");
      counters?.sent();
      const rest = rows.slice(index + 1).map((r) => r.id);
      if (rest.length === 0 || !running()) break;
      await begin();
      const relocked = await client.query<{ id: string; attempts: number }>(
        `SELECT id, attempts FROM "scheduling"."mail_outbox"
          WHERE id = ANY($1::uuid[]) AND status = 'PENDING' AND next_attempt_at <= now()
          FOR UPDATE SKIP LOCKED`,
        [rest],
      );
      held = new Map(relocked.rows.map((r) => [r.id, r.attempts]));
    }
    if (open) {
      await writeMarks(client, marks);
      await commit();
    }
    return attempted;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => {});
    // A connection a statement failed on is not given back to the pool.
    client.release(broken);
  }
}
