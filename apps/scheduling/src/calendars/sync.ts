// The calendar sync (docs/adr/0247): every instance runs one, and a calendar due is leased by one
// of them at a time. A sync asks the server what changed since the last one (RFC 6578
// sync-collection, else the ctag and then the ETags), fetches only the new and changed objects,
// expands each into busy intervals over [now - 1 day, now + horizon] and stores them in place of
// the object's old ones. A failure is recorded on the calendar (since when, why): the busy-time
// reads turn it into busy time once the copy is too old (docs/adr/0254).
import { randomUUID } from "node:crypto";
import type { ResourceLimits } from "node:worker_threads";
import { inTransaction, type PrismaClient, separatePool } from "@app/db";
import type pg from "pg";
import { CalDavError, type ObjectRef, type SyncChange } from "./caldav-client.ts";
import { CalDavThread, sharedThread, type ThreadClient, type Window } from "./caldav-thread.ts";
import { type CredentialKeys, openLogin } from "./logins.ts";
import type { ExpandedObject } from "./object-busy.ts";

const DAY_MS = 86_400_000;
/** Objects fetched and stored per round (one multiget, one transaction). */
const BATCH = 200;
/** A calendar object larger than this is skipped, with a warning (a sync stays bounded). */
export const MAX_OBJECT_BYTES = 1_048_576;
/** Listed objects written per statement while a listing streams in (docs/adr/0282). */
const LISTING_CHUNK = 500;
/** A listed object's deletion (sync-collection's 404), in a chunk of the listing. */
const DELETED = Symbol("deleted");
/** How long a lease holds; renewed after every batch, so only a dead instance's runs out. */
const LEASE_MS = 120_000;

export interface SyncSettings {
  intervalMs: number;
  timeoutMs: number;
  horizonDays: number;
  keys: CredentialKeys | undefined;
  /** A thread of its own with these heap limits (the tests' smaller ones); default: the process's shared one. */
  threadLimits?: ResourceLimits;
}

export interface SyncLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SyncCounters {
  /** A sync that failed, by kind (CalDavError's, or "other"). */
  failed(kind: string): void;
  synced(): void;
}

/** The outcome of one calendar's sync, for the CLI and the tests. */
export interface SyncOutcome {
  calendarId: number;
  ok: boolean;
  /** Objects fetched and stored anew, and removed. */
  changed: number;
  removed: number;
  /** Objects skipped: unparsable or too large. */
  skipped: number;
  error?: string;
}

interface CalendarRow {
  id: number;
  url: string;
  supports_sync: boolean;
  sync_token: string | null;
  ctag: string | null;
  expanded_until: Date | null;
  credential_id: number;
  secret: string;
  key_id: string;
  time_zone: string;
}

const errorKind = (error: unknown) => (error instanceof CalDavError ? error.kind : "other");
const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").slice(0, 500);

export class CalendarSync {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Syncs in flight on this instance, by calendar. */
  private readonly inFlight = new Map<number, Promise<SyncOutcome>>();
  private readonly pool: pg.Pool;
  /** Where the CalDAV requests and their parsing run (docs/adr/0289): the process's, or its own. */
  private readonly thread: CalDavThread;
  private readonly ownThread: boolean;

  constructor(
    prisma: PrismaClient,
    private readonly settings: SyncSettings,
    private readonly log: SyncLog,
    private readonly counters?: SyncCounters,
    poolMax = 4,
  ) {
    // Its own connections: a booking's check syncs while its request holds one of the pool's.
    // Connected lazily, each closed after 10 s unused (node-postgres's default).
    this.pool = separatePool(prisma, poolMax);
    this.ownThread = settings.threadLimits !== undefined;
    this.thread = this.ownThread ? new CalDavThread(settings.threadLimits) : sharedThread();
  }

  /** Polls for due calendars until stopped (a few times per interval; a due one waits at most that). */
  start(): void {
    if (this.running || !this.settings.keys) return;
    this.running = true;
    const pollMs = Math.max(200, Math.min(5_000, Math.floor(this.settings.intervalMs / 4)));
    this.loop = (async () => {
      while (this.running) {
        try {
          await this.syncDue();
        } catch (error) {
          this.log.warn({ err: error }, "calendars: could not look for calendars to synchronise");
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled(this.inFlight.values());
    // The shared thread stops by itself once idle; a thread of its own stops with it.
    if (this.ownThread) await this.thread.stop();
    await this.pool.end();
  }

  /** When the earliest selected calendar is due (null: none is selected), for a tenant's visit. */
  async nextDue(): Promise<Date | null> {
    const { rows } = await this.pool.query<{ at: Date | null }>(
      `SELECT min(c.next_sync_at) AS at FROM scheduling.connected_calendars c
         JOIN scheduling.credentials cr ON cr.id = c.credential_id
        WHERE EXISTS (SELECT 1 FROM scheduling.selected_calendars s
                       WHERE s."userId" = c.user_id AND s.integration = cr.type AND s."externalId" = c.url)`,
    );
    return rows[0]?.at ?? null;
  }

  /** Syncs every selected calendar that is due and not leased by another instance. */
  async syncDue(limit = 4): Promise<SyncOutcome[]> {
    const { rows } = await this.pool.query<{ id: number }>(
      `UPDATE scheduling.connected_calendars SET leased_until = now() + $1 * interval '1 millisecond'
        WHERE id IN (SELECT c.id FROM scheduling.connected_calendars c
                       JOIN scheduling.credentials cr ON cr.id = c.credential_id
                      WHERE c.next_sync_at <= now() AND (c.leased_until IS NULL OR c.leased_until < now())
                        AND EXISTS (SELECT 1 FROM scheduling.selected_calendars s
                                     WHERE s."userId" = c.user_id AND s.integration = cr.type
                                       AND s."externalId" = c.url)
                      ORDER BY c.next_sync_at LIMIT $2 FOR UPDATE OF c SKIP LOCKED)
        RETURNING id`,
      [LEASE_MS, limit],
    );
    return Promise.all(rows.map((row) => this.run(row.id)));
  }

  /**
   * A booking's check (docs/adr/0247): syncs the selected calendars of these users now, and
   * answers the instant from which a calendar counts as confirmed for the booking (a calendar
   * whose sync fails now is not). Errors are recorded on the calendars, never thrown.
   */
  async refreshForBooking(userIds: number[], onFound?: (calendars: number) => void): Promise<Date> {
    const since = new Date();
    const { rows: calendars } = await this.pool.query<{ id: number }>(
      `SELECT c.id FROM scheduling.connected_calendars c
         JOIN scheduling.credentials cr ON cr.id = c.credential_id
        WHERE c.user_id = ANY($1::int[])
          AND EXISTS (SELECT 1 FROM scheduling.selected_calendars s
                       WHERE s."userId" = c.user_id AND s.integration = cr.type AND s."externalId" = c.url)`,
      [userIds],
    );
    if (calendars.length > 0) onFound?.(calendars.length);
    await Promise.all(calendars.map((calendar) => this.syncNow(calendar.id, since)));
    return since;
  }

  /** Syncs one calendar now (the CLI, a booking): waits for another instance's lease to end first. */
  async syncNow(calendarId: number, since = new Date()): Promise<SyncOutcome | undefined> {
    const deadline = Date.now() + 3 * this.settings.timeoutMs;
    for (;;) {
      // One on this instance already: its result is fresh only if it started after `since`.
      const mine = this.inFlight.get(calendarId);
      if (mine) {
        await mine;
        continue;
      }
      const { rowCount, rows } = await this.pool.query<{ synced_at: Date | null }>(
        `UPDATE scheduling.connected_calendars SET leased_until = now() + $2 * interval '1 millisecond'
          WHERE id = $1 AND (leased_until IS NULL OR leased_until < now()) RETURNING synced_at`,
        [calendarId, LEASE_MS],
      );
      if (rowCount === 1) {
        void rows;
        return this.run(calendarId);
      }
      // Leased elsewhere: when that sync ends, its result counts if it began after `since`.
      const { rows: now } = await this.pool.query<{ synced_at: Date | null; leased: boolean }>(
        `SELECT synced_at, leased_until > now() AS leased FROM scheduling.connected_calendars WHERE id = $1`,
        [calendarId],
      );
      const row = now[0];
      if (!row) return undefined;
      if (!row.leased && row.synced_at && row.synced_at >= since) return undefined;
      if (Date.now() > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private run(calendarId: number): Promise<SyncOutcome> {
    const run = this.synchronise(calendarId).finally(() => this.inFlight.delete(calendarId));
    this.inFlight.set(calendarId, run);
    return run;
  }

  /** One calendar's sync, its lease held. Records the outcome on the calendar and releases the lease. */
  private async synchronise(calendarId: number): Promise<SyncOutcome> {
    const startedAt = new Date();
    const outcome: SyncOutcome = { calendarId, ok: false, changed: 0, removed: 0, skipped: 0 };
    const { rows } = await this.pool.query<CalendarRow>(
      `SELECT c.id, c.url, c.supports_sync, c.sync_token, c.ctag, c.expanded_until, c.credential_id,
              cr.secret, cr.key_id, coalesce(u."timeZone", 'UTC') AS time_zone
         FROM scheduling.connected_calendars c
         JOIN scheduling.credentials cr ON cr.id = c.credential_id
         JOIN scheduling.users u ON u.id = c.user_id
        WHERE c.id = $1`,
      [calendarId],
    );
    const calendar = rows[0];
    if (!calendar) return outcome;
    let client: ThreadClient | undefined;
    try {
      if (!this.settings.keys) throw new Error("CREDENTIALS_KEY is not set");
      const login = openLogin(this.settings.keys, {
        id: calendar.credential_id,
        secret: calendar.secret,
        keyId: calendar.key_id,
      });
      client = this.thread.open({
        username: login.username,
        password: login.password,
        timeoutMs: this.settings.timeoutMs,
        maxObjectBytes: MAX_OBJECT_BYTES,
      });
      const state = await this.fetchChanges(client, calendar, startedAt, outcome);
      outcome.ok = true;
      await this.pool.query(
        `UPDATE scheduling.connected_calendars
            SET sync_token = $2, ctag = $3, synced_at = $4, failing_since = NULL, last_error = NULL,
                consecutive_failures = 0, expanded_until = $5,
                next_sync_at = $4::timestamptz + $6 * interval '1 millisecond', leased_until = NULL
          WHERE id = $1`,
        [calendarId, state.token, state.ctag, startedAt, state.expandedUntil, this.settings.intervalMs],
      );
      this.counters?.synced();
    } catch (error) {
      outcome.error = errorText(error);
      this.counters?.failed(errorKind(error));
      this.log.warn(
        { calendar: calendar.url, calendarId, kind: errorKind(error), error: outcome.error },
        "calendars: a sync failed",
      );
      await this.pool
        .query(
          `UPDATE scheduling.connected_calendars
              SET failing_since = coalesce(failing_since, $2), last_error = $3,
                  consecutive_failures = consecutive_failures + 1,
                  next_sync_at = now() + $4 * interval '1 millisecond', leased_until = NULL
            WHERE id = $1`,
          [calendarId, startedAt, outcome.error, this.settings.intervalMs],
        )
        .catch((err: unknown) => this.log.warn({ err }, "calendars: could not record a failed sync"));
    } finally {
      client?.close();
    }
    return outcome;
  }

  /** Asks what changed, stores it; answers the calendar's new state. */
  private async fetchChanges(
    client: ThreadClient,
    calendar: CalendarRow,
    now: Date,
    outcome: SyncOutcome,
  ): Promise<{ token: string | null; ctag: string | null; expandedUntil: Date }> {
    const window: Window = {
      from: now.getTime() - DAY_MS,
      to: now.getTime() + this.settings.horizonDays * DAY_MS,
    };
    // Expanded again once a day: the horizon moves, and recurring events have new occurrences.
    const reexpand = !calendar.expanded_until || calendar.expanded_until.getTime() < window.to - DAY_MS;
    const probe = await client.getCtag(calendar.url);
    const unchanged =
      probe.ctag !== null &&
      probe.ctag === calendar.ctag &&
      (!calendar.supports_sync || probe.syncToken === calendar.sync_token);
    const expandedUntil = reexpand ? new Date(window.to) : calendar.expanded_until!;
    if (unchanged && !reexpand) return { token: calendar.sync_token, ctag: calendar.ctag, expandedUntil };

    // The listing goes into the database as it is read (docs/adr/0282): this run's rows of
    // calendar_listings, compared there with the stored objects; the process holds a chunk of it.
    const run = randomUUID();
    let token: string | null = calendar.sync_token;
    try {
      // What a crashed instance's run left.
      await this.pool.query(
        `DELETE FROM scheduling.calendar_listings WHERE calendar_id = $1 AND listed_at < now() - interval '1 day'`,
        [calendar.id],
      );
      if (!unchanged) {
        /** The listing holds every object (a first sync, a token refused, no sync-collection). */
        let full = true;
        if (calendar.supports_sync) {
          const collect = async (from: string | null) => {
            const sync = client.syncCollection(calendar.url, from);
            await this.list(run, calendar.id, sync);
            token = sync.syncToken ?? null;
          };
          try {
            await collect(calendar.sync_token);
            full = calendar.sync_token === null;
          } catch (error) {
            if (!(error instanceof CalDavError && error.kind === "invalid-sync-token")) throw error;
            await this.pool.query(`DELETE FROM scheduling.calendar_listings WHERE run_id = $1`, [run]);
            await collect(null);
          }
        } else await this.list(run, calendar.id, client.listObjects(calendar.url));
        await this.compareListing(run, calendar.id, full, outcome);
        await this.fetchListed(client, calendar, run, window, outcome);
      }
      if (reexpand) await this.expandAgain(calendar, run, window, outcome);
    } finally {
      await this.pool
        .query(`DELETE FROM scheduling.calendar_listings WHERE run_id = $1`, [run])
        .catch((err: unknown) => this.log.warn({ err }, "calendars: could not drop a sync's listing"));
    }
    return { token, ctag: probe.ctag, expandedUntil };
  }

  /**
   * Writes a listing into calendar_listings as it streams in, LISTING_CHUNK rows a statement,
   * one statement in flight while the next chunk is read: the answer is read to its end without
   * long pauses (a server may drop an answer held paused), and the process holds two chunks.
   */
  private async list(
    run: string,
    calendarId: number,
    listing: AsyncIterable<SyncChange | ObjectRef>,
  ): Promise<void> {
    let chunk = new Map<string, string | null | typeof DELETED>();
    let writing: Promise<void> = Promise.resolve();
    let failure: unknown;
    let renewed = Date.now();
    const flush = async () => {
      const rows = chunk;
      chunk = new Map();
      await writing;
      if (failure) throw failure;
      // A listing of 100,000 objects takes minutes on some servers: the lease stays held.
      if (Date.now() - renewed > LEASE_MS / 4) {
        renewed = Date.now();
        await this.renewLease(calendarId);
      }
      writing = this.insertListing(run, calendarId, rows).catch((error: unknown) => {
        failure ??= error;
      });
    };
    try {
      for await (const entry of listing) {
        // The last word on an href counts (a later page may list it again).
        chunk.delete(entry.href);
        chunk.set(entry.href, "deleted" in entry ? DELETED : entry.etag);
        if (chunk.size >= LISTING_CHUNK) await flush();
      }
      if (chunk.size > 0) await flush();
    } finally {
      // A listing that failed mid-answer: its last insert ends before the run's rows are dropped.
      await writing;
    }
    if (failure) throw failure;
  }

  private async insertListing(
    run: string,
    calendarId: number,
    rows: Map<string, string | null | typeof DELETED>,
  ): Promise<void> {
    const hrefs: string[] = [];
    const etags: (string | null)[] = [];
    const deleted: boolean[] = [];
    for (const [href, etag] of rows) {
      hrefs.push(href);
      etags.push(etag === DELETED ? null : etag);
      deleted.push(etag === DELETED);
    }
    await this.pool.query(
      `INSERT INTO scheduling.calendar_listings (run_id, calendar_id, href, etag, deleted)
       SELECT $1, $2, h, e, d FROM unnest($3::text[], $4::text[], $5::bool[]) AS t(h, e, d)
       ON CONFLICT (run_id, href) DO UPDATE SET etag = EXCLUDED.etag, deleted = EXCLUDED.deleted`,
      [run, calendarId, hrefs, etags, deleted],
    );
  }

  /**
   * Marks the listed objects to fetch (new, with another ETag than the stored one, or with none)
   * and removes the stored objects the listing deleted or, when it lists every object, left out.
   */
  private async compareListing(
    run: string,
    calendarId: number,
    full: boolean,
    outcome: SyncOutcome,
  ): Promise<void> {
    await this.pool.query(
      `UPDATE scheduling.calendar_listings l SET to_fetch = true
        WHERE l.run_id = $1 AND NOT l.deleted
          AND (l.etag IS NULL OR NOT EXISTS (SELECT 1 FROM scheduling.calendar_objects o
                                              WHERE o.calendar_id = $2 AND o.href = l.href AND o.etag = l.etag))`,
      [run, calendarId],
    );
    const { rowCount } = await this.pool.query(
      full
        ? `DELETE FROM scheduling.calendar_objects o
            WHERE o.calendar_id = $2
              AND NOT EXISTS (SELECT 1 FROM scheduling.calendar_listings l
                               WHERE l.run_id = $1 AND l.href = o.href AND NOT l.deleted)`
        : `DELETE FROM scheduling.calendar_objects o USING scheduling.calendar_listings l
            WHERE l.run_id = $1 AND l.deleted AND o.calendar_id = $2 AND o.href = l.href`,
      [run, calendarId],
    );
    outcome.removed = rowCount ?? 0;
  }

  /**
   * Fetches the objects the listing marked, BATCH at a time (one multiget, expanded in the
   * sync's thread; one transaction each).
   */
  private async fetchListed(
    client: ThreadClient,
    calendar: CalendarRow,
    run: string,
    window: Window,
    outcome: SyncOutcome,
  ): Promise<void> {
    let after = "";
    for (;;) {
      const { rows } = await this.pool.query<{ href: string }>(
        `SELECT href FROM scheduling.calendar_listings
          WHERE run_id = $1 AND to_fetch AND href > $2 ORDER BY href LIMIT $3`,
        [run, after, BATCH],
      );
      if (rows.length === 0) return;
      after = rows.at(-1)!.href;
      const objects = await client.fetchExpanded(
        calendar.url,
        rows.map((row) => row.href),
        window,
        calendar.time_zone,
      );
      await this.store(calendar, objects, outcome);
      outcome.changed += objects.length;
      await this.renewLease(calendar.id);
    }
  }

  private async renewLease(calendarId: number): Promise<void> {
    await this.pool.query(
      `UPDATE scheduling.connected_calendars SET leased_until = now() + $2 * interval '1 millisecond' WHERE id = $1`,
      [calendarId, LEASE_MS],
    );
  }

  /** Stores objects (and their busy pieces in place of their old ones), in one transaction. */
  private async store(calendar: CalendarRow, objects: ExpandedObject[], outcome: SyncOutcome): Promise<void> {
    if (objects.length === 0) return;
    const hrefs: string[] = [];
    const etags: string[] = [];
    const kept: (string | null)[] = [];
    const busyHrefs: string[] = [];
    const starts: string[] = [];
    const ends: string[] = [];
    for (const object of objects) {
      hrefs.push(object.href);
      etags.push(object.etag);
      kept.push(object.keep);
      if (object.tooLarge) {
        outcome.skipped++;
        this.log.warn(
          { calendar: calendar.url, href: object.href },
          "calendars: an object over 1 MB is skipped",
        );
      } else if (object.warning) {
        if (object.pieces.length === 0) outcome.skipped++;
        this.log.warn(
          { calendar: calendar.url, href: object.href, warning: object.warning },
          "calendars: an object was read in part, or not at all",
        );
      }
      for (const [start, end] of object.pieces) {
        busyHrefs.push(object.href);
        starts.push(new Date(start).toISOString());
        ends.push(new Date(end).toISOString());
      }
    }
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO scheduling.calendar_objects (calendar_id, href, etag, recurring_data)
         SELECT $1, h, e, d FROM unnest($2::text[], $3::text[], $4::text[]) AS t(h, e, d)
         ON CONFLICT (calendar_id, href) DO UPDATE SET etag = EXCLUDED.etag, recurring_data = EXCLUDED.recurring_data`,
        [calendar.id, hrefs, etags, kept],
      );
      await client.query(
        `DELETE FROM scheduling.calendar_busy WHERE calendar_id = $1 AND href = ANY($2::text[])`,
        [calendar.id, hrefs],
      );
      await client.query(
        `INSERT INTO scheduling.calendar_busy (calendar_id, href, starts_at, ends_at)
         SELECT $1, h, s, e FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[]) AS t(h, s, e)`,
        [calendar.id, busyHrefs, starts, ends],
      );
    });
  }

  /** The objects kept for it (recurring, or in the host's zone) expanded over the moved window. */
  private async expandAgain(
    calendar: CalendarRow,
    run: string,
    window: Window,
    outcome: SyncOutcome,
  ): Promise<void> {
    let after = "";
    for (;;) {
      // Those this sync fetched are expanded over this window already.
      const { rows } = await this.pool.query<{
        href: string;
        etag: string;
        recurring_data: string;
        fetched: boolean;
      }>(
        `SELECT o.href, o.etag, o.recurring_data,
                EXISTS (SELECT 1 FROM scheduling.calendar_listings l
                         WHERE l.run_id = $4 AND l.href = o.href AND l.to_fetch) AS fetched
           FROM scheduling.calendar_objects o
          WHERE o.calendar_id = $1 AND o.recurring_data IS NOT NULL AND o.href > $2
          ORDER BY o.href LIMIT $3`,
        [calendar.id, after, BATCH, run],
      );
      if (rows.length === 0) return;
      after = rows.at(-1)!.href;
      const again = rows.filter((row) => !row.fetched);
      const objects = again.map((row) => ({ href: row.href, etag: row.etag, data: row.recurring_data }));
      await this.store(calendar, await this.thread.expand(objects, window, calendar.time_zone), outcome);
      await this.renewLease(calendar.id);
    }
  }
}
