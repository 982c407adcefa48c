// Busy times from connected calendars, as slots, /availability and the booking check read them:
// from the database, which the sync keeps (docs/adr/0247), never from the calendar servers. A
// calendar counts when its owner selected it (a selected-calendars row of its account's
// integration naming its URL). What cannot be confirmed is busy (docs/adr/0254): a calendar whose
// copy is older than the staleness allowed (failing, or never synchronised), and any time past the
// horizon its recurring events were expanded to.
import { Prisma, type PrismaClient } from "@app/db";
import { BUSY_PIECE_MS } from "./object-busy.ts";

type Db = PrismaClient | Prisma.TransactionClient;

/** CALENDAR_STALE_MS's default: how old a calendar's copy may be before its owner is busy. */
export const DEFAULT_CALENDAR_STALE_MS = 300_000;

// A query's bounds stay within years 1 to 9999, which PostgreSQL and the schemas take.
const EARLIEST = Date.parse("0001-01-01T00:00:00Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");
const bounded = (instant: number) => new Date(Math.min(Math.max(instant, EARLIEST), LATEST));

/** A calendar whose busy times are not confirmed for the window asked about, and why. */
export interface CalendarProblem {
  /** The calendar's URL (v1's externalId). */
  calendar: string;
  /** Since when it fails to synchronise; null when it never did or only its horizon is short. */
  since: Date | null;
  reason: string;
}

export interface CalendarBusy {
  start: Date;
  end: Date;
  /** The calendar's URL, for /availability's `source`. */
  calendar: string;
}

export interface HostCalendars {
  busy: CalendarBusy[];
  problems: CalendarProblem[];
}

export interface BusyReadOptions {
  now: Date;
  /** How old a copy may be (CALENDAR_STALE_MS); past it the calendar's owner is busy. */
  staleMs: number;
  /** The booking check: a calendar not synchronised since then is not confirmed. */
  syncedSince?: Date | undefined;
}

interface SelectedRow {
  id: number;
  user_id: number;
  url: string;
  synced_at: Date | null;
  failing_since: Date | null;
  last_error: string | null;
  expanded_until: Date | null;
}

/** The selected, connected calendars of these users. */
export function selectedCalendarsOf(db: Db, userIds: number[]): Promise<SelectedRow[]> {
  return db.$queryRaw<SelectedRow[]>`
    SELECT c.id, c.user_id, c.url, c.synced_at, c.failing_since, c.last_error, c.expanded_until
      FROM scheduling.connected_calendars c
      JOIN scheduling.credentials cr ON cr.id = c.credential_id
     WHERE c.user_id = ANY(${userIds})
       AND EXISTS (SELECT 1 FROM scheduling.selected_calendars s
                    WHERE s."userId" = c.user_id AND s.integration = cr.type AND s."externalId" = c.url)
     ORDER BY c.id`;
}

/**
 * What each user's selected calendars say about [from, to): busy intervals, and what is
 * unconfirmed. One query, whether they have calendars or not (docs/performance.md): the selected
 * calendars with their busy intervals, each calendar's as one text of epoch milliseconds
 * (`start,end,start,end…`). With `merged`, a calendar's overlapping and touching intervals come
 * back as one (range_agg): what the slot engine and the booking check take; /availability lists
 * them as stored.
 */
export async function calendarBusy(
  db: Db,
  userIds: number[],
  from: Date,
  to: Date,
  options: BusyReadOptions & { merged?: boolean },
): Promise<Map<number, HostCalendars>> {
  const result = new Map<number, HostCalendars>();
  if (userIds.length === 0 || from >= to) return result;
  // A month of a busy calendar is a thousand intervals: as rows, each paid the driver's per-row
  // and per-date work (a third of a slot query's time with a 2,000-event calendar).
  const window = Prisma.sql`calendar_id = c.id
           AND starts_at > ${bounded(from.getTime() - BUSY_PIECE_MS)} AND starts_at < ${bounded(to.getTime())}
           AND ends_at > ${bounded(from.getTime())} AND ends_at > starts_at`;
  const spans = options.merged
    ? Prisma.sql`(SELECT string_agg((extract(epoch FROM lower(r)) * 1000)::bigint || ',' ||
                                    (extract(epoch FROM upper(r)) * 1000)::bigint, ',' ORDER BY lower(r))
                    FROM unnest((SELECT range_agg(tstzrange(starts_at, ends_at))
                                   FROM scheduling.calendar_busy WHERE ${window})) AS r)`
    : Prisma.sql`(SELECT string_agg((extract(epoch FROM starts_at) * 1000)::bigint || ',' ||
                                    (extract(epoch FROM ends_at) * 1000)::bigint, ',' ORDER BY starts_at, ends_at)
                    FROM scheduling.calendar_busy WHERE ${window})`;
  const calendars = await db.$queryRaw<(SelectedRow & { spans: string | null })[]>`
    SELECT c.id, c.user_id, c.url, c.synced_at, c.failing_since, c.last_error, c.expanded_until,
           ${spans} AS spans
      FROM scheduling.connected_calendars c
      JOIN scheduling.credentials cr ON cr.id = c.credential_id
     WHERE c.user_id = ANY(${userIds})
       AND EXISTS (SELECT 1 FROM scheduling.selected_calendars s
                    WHERE s."userId" = c.user_id AND s.integration = cr.type AND s."externalId" = c.url)
     ORDER BY c.id`;
  const entry = (userId: number) => {
    const host = result.get(userId) ?? { busy: [], problems: [] };
    result.set(userId, host);
    return host;
  };
  for (const calendar of calendars) {
    const host = entry(calendar.user_id);
    const problem = problemOf(calendar, options);
    if (problem) {
      // Not confirmed: busy for the whole window.
      host.problems.push(problem);
      host.busy.push({ start: from, end: to, calendar: calendar.url });
      continue;
    }
    if (calendar.expanded_until && calendar.expanded_until < to) {
      host.busy.push({
        start: calendar.expanded_until > from ? calendar.expanded_until : from,
        end: to,
        calendar: calendar.url,
      });
      host.problems.push({
        calendar: calendar.url,
        since: null,
        reason: `its recurring events are expanded to ${calendar.expanded_until.toISOString()} (CALENDAR_HORIZON_DAYS)`,
      });
    }
    if (!calendar.spans) continue;
    const instants = JSON.parse(`[${calendar.spans}]`) as number[];
    for (let i = 0; i + 1 < instants.length; i += 2)
      host.busy.push({
        start: new Date(instants[i]!),
        end: new Date(instants[i + 1]!),
        calendar: calendar.url,
      });
  }
  return result;
}

function problemOf(
  calendar: SelectedRow,
  { now, staleMs, syncedSince }: BusyReadOptions,
): CalendarProblem | null {
  const since = calendar.failing_since;
  const reason = calendar.last_error ?? "not synchronised yet";
  if (!calendar.synced_at) return { calendar: calendar.url, since, reason };
  if (syncedSince && calendar.synced_at < syncedSince) {
    return { calendar: calendar.url, since, reason: `not confirmed for this booking: ${reason}` };
  }
  // A healthy sync renews its copy every CALENDAR_SYNC_INTERVAL_MS; one older than allowed is
  // failing, or no instance syncs it.
  const age = now.getTime() - calendar.synced_at.getTime();
  if (age > staleMs) {
    return {
      calendar: calendar.url,
      since,
      reason: calendar.last_error ?? `not synchronised for ${Math.round(age / 1000)} s`,
    };
  }
  return null;
}
