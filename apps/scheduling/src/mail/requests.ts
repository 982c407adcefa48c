// Booking e-mails as one compact row per booking change (docs/adr/0236). The booking's
// transaction decides everything (which messages, to whom, the invite's UID and SEQUENCE, the
// facts as they are at that moment) and writes it as one `mail_requests` row; rendering the
// subjects, bodies and invites is left to a sender, outside the hosts' locks: it turns a request
// into its `mail_outbox` rows (one per message, the shape every release sends) and deletes it in
// one transaction. A request is rendered at most once: its rows and its deletion commit together.
// One that cannot be rendered is marked failed, with why (docs/adr/0241): no sender takes it again,
// and `mail:dead` shows it.
import { UUIDV7_BATCH_MAX, uuidv7s } from "@app/db";
import { type InviteEvent, type InvitePerson, inviteIcs } from "./invite.ts";
import {
  languageOf,
  type MailKind,
  type MessageFacts,
  type Recipient,
  renderMessage,
  titleIn,
} from "./messages.ts";

/** A connection a claim's transaction runs on; released when done (dropped when a statement broke it). */
export interface ClaimConnection {
  query<R extends object = object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  release(broken?: Error): void;
}

/** One message of a request: its kind and side, its recipient, which invite and which facts it carries. */
export interface StoredMessage {
  kind: MailKind;
  side: "organizer" | "attendee";
  to: Recipient;
  /** The change's own invite, the dropped host's CANCEL of the original time, or none. */
  invite: "event" | "dropped" | null;
  /** The change's facts, or the original time's (a dropped host's cancellation). */
  about: "change" | "original";
  /** Whom its text and invite list besides the organizer, when not everyone (a seat holder, docs/adr/0238). */
  shows?: InvitePerson[] | undefined;
}

/** What a booking change's e-mails say, as the transaction saw it; dates as they are stored in JSON. */
export interface MailPlan {
  facts: Omit<MessageFacts, "kind">;
  /** The facts of the original time (a round-robin reschedule's dropped host). */
  original?: Omit<MessageFacts, "kind"> | undefined;
  event: InviteEvent;
  dropped?: InviteEvent | undefined;
  messages: StoredMessage[];
}

/**
 * The JSON a request stores: a plan with its dates as ISO strings. Version 2 is a plan with a
 * message that lists fewer attendees (`shows`): a previous release's sender, which reads version
 * 1 only, leaves it for this one instead of listing everyone.
 */
type Stored = { v: 1 | 2 } & Record<string, unknown>;

const DATE_KEYS = new Set(["start", "end", "stamp", "occurrence"]);

/** A plan as the request's JSON (`Date`s as ISO strings: JSON.stringify does that). */
export function storePlan(plan: MailPlan): Stored {
  const v = plan.messages.some((message) => message.shows) ? 2 : 1;
  return { v, ...(JSON.parse(JSON.stringify(plan)) as Record<string, unknown>) };
}

/** The plan back from the request's JSON: the dates the plan names revived. */
export function loadPlan(stored: unknown): MailPlan {
  const revive = (value: unknown, key?: string): unknown => {
    if (typeof value === "string" && key !== undefined && DATE_KEYS.has(key)) return new Date(value);
    if (Array.isArray(value)) return value.map((item) => revive(item));
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v, k)]));
    return value;
  };
  const { v, ...plan } = stored as Stored;
  if (v !== 1 && v !== 2) throw new Error(`a mail request of an unknown version (${String(v)})`);
  return revive(plan) as MailPlan;
}

export interface RenderedRow {
  kind: MailKind;
  recipient: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  ics: string | null;
}

/**
 * The messages a plan sends, rendered, in its order (each invite written once per language: its
 * SUMMARY is the title as the recipient's e-mail says it).
 */
export function renderPlan(plan: MailPlan): RenderedRow[] {
  const invites = new Map<string, string>();
  const eventOf = (which: "event" | "dropped", to: Recipient): InviteEvent => {
    const event = which === "event" ? plan.event : plan.dropped;
    if (!event) throw new Error("a mail request names an invite it does not hold");
    return { ...event, title: titleIn(plan.facts, languageOf(to.locale)) };
  };
  const ics = (which: "event" | "dropped", to: Recipient) => {
    const key = `${which} ${languageOf(to.locale)}`;
    let text = invites.get(key);
    if (text === undefined) {
      text = inviteIcs(eventOf(which, to));
      invites.set(key, text);
    }
    return text;
  };
  return plan.messages.map((message) => {
    const about = message.about === "original" ? (plan.original ?? plan.facts) : plan.facts;
    const { shows } = message;
    const facts = shows ? { ...about, attendees: shows } : about;
    const rendered = renderMessage({ ...facts, kind: message.kind }, message.side, message.to);
    let invite: string | null = null;
    if (message.invite && shows)
      invite = inviteIcs({ ...eventOf(message.invite, message.to), attendees: shows });
    else if (message.invite) invite = ics(message.invite, message.to);
    return {
      kind: message.kind,
      recipient: message.to.email,
      subject: rendered.subject,
      textBody: rendered.text,
      htmlBody: rendered.html,
      ics: invite,
    };
  });
}

/** Requests one expansion renders at most (oldest first). */
export const EXPAND_BATCH = 50;

interface RequestRow {
  id: string;
  booking_uid: string;
  facts: unknown;
}

/**
 * Renders up to `EXPAND_BATCH` requests of the outbox `connect` reaches into their `mail_outbox`
 * rows and deletes them, in one transaction (requests another sender holds are skipped); how
 * many requests it took. A request that cannot be rendered (its stored JSON is not a plan this
 * release reads) fails the same way every time: it is marked failed with why, in the same
 * transaction, and skipped from then on, so failed ones never fill a batch ahead of newer ones.
 */
export async function expandRequests(
  connect: () => Promise<ClaimConnection>,
  log: { error(obj: object, msg: string): void },
): Promise<number> {
  const client = await connect();
  let open = false;
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    open = true;
    const { rows } = await client.query<RequestRow>(
      `SELECT id, booking_uid, facts FROM "scheduling"."mail_requests"
        WHERE failed_at IS NULL
        ORDER BY id LIMIT ${EXPAND_BATCH} FOR UPDATE SKIP LOCKED`,
    );
    const done: string[] = [];
    const failed = { id: [] as string[], reason: [] as string[] };
    const out: (RenderedRow & { bookingUid: string })[] = [];
    for (const row of rows) {
      try {
        for (const rendered of renderPlan(loadPlan(row.facts)))
          out.push({ ...rendered, bookingUid: row.booking_uid });
        done.push(row.id);
      } catch (err) {
        failed.id.push(row.id);
        failed.reason.push(`not rendered: ${(err as Error).message ?? String(err)}`.slice(0, 500));
        log.error(
          { err, mailRequestId: row.id },
          "mail: a booking's e-mails could not be rendered; given up (see pnpm -s scheduling mail:dead)",
        );
      }
    }
    if (out.length > 0) {
      // Ids in the requests' order: the sender takes rows of one moment by id.
      const ids: string[] = [];
      while (ids.length < out.length)
        ids.push(...uuidv7s(Math.min(out.length - ids.length, UUIDV7_BATCH_MAX)));
      const column = <K extends keyof (typeof out)[number]>(key: K) => out.map((row) => row[key]);
      await client.query(
        `INSERT INTO "scheduling"."mail_outbox" (id, booking_uid, kind, recipient, subject, text_body, html_body, ics)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])`,
        [
          ids,
          column("bookingUid"),
          column("kind"),
          column("recipient"),
          column("subject"),
          column("textBody"),
          column("htmlBody"),
          column("ics"),
        ],
      );
    }
    if (done.length > 0)
      await client.query(`DELETE FROM "scheduling"."mail_requests" WHERE id = ANY($1::uuid[])`, [done]);
    if (failed.id.length > 0)
      await client.query(
        `UPDATE "scheduling"."mail_requests" AS r SET failed_at = clock_timestamp(), last_error = f.reason
           FROM unnest($1::uuid[], $2::text[]) AS f(id, reason) WHERE r.id = f.id`,
        [failed.id, failed.reason],
      );
    await client.query("COMMIT");
    open = false;
    return rows.length;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => {});
    client.release(broken);
  }
}
