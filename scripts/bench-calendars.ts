// What a connected calendar costs the slot queries (issue 47, `pnpm bench --only slots-calendar`):
// busy times are read from the database (docs/adr/0247), so a calendar is seeded there as a
// synchronisation leaves it: 2,000 events a host, a tenth of them weekly series expanded over
// the horizon, on a selected calendar of a connected CalDAV account.
import { Prisma, type PrismaClient } from "@app/db";

const DAY = 86_400_000;

/** A synchronised calendar of `events` events (a tenth weekly series) for each of these users. */
export async function seedCalendarBusy(
  prisma: PrismaClient,
  userIds: number[],
  events = 2_000,
): Promise<void> {
  for (const userId of userIds) {
    const url = `https://dav.example.com/bench-${userId}/work/`;
    const credential = await prisma.credential.create({
      // Never opened: the bench's servers have no CREDENTIALS_KEY and do not synchronise.
      data: {
        type: "caldav_calendar",
        appId: "caldav-calendar",
        userId,
        url,
        secret: "bench",
        keyId: "bench",
      },
    });
    const calendar = await prisma.connectedCalendar.create({
      data: {
        credentialId: credential.id,
        userId,
        url,
        displayName: "Work",
        syncedAt: new Date(),
        expandedUntil: new Date(Date.now() + 400 * DAY),
      },
    });
    await prisma.selectedCalendar.create({
      data: { userId, integration: "caldav_calendar", externalId: url },
    });
    const series = Math.floor(events / 10);
    // Single events: one every ~4.4 hours of the next year, 30 to 90 minutes, from 08:00 on.
    await prisma.$executeRaw`
      INSERT INTO scheduling.calendar_objects (calendar_id, href, etag, recurring_data)
      SELECT ${calendar.id}, '/e' || n || '.ics', '"' || n || '"', CASE WHEN n < ${series}::int THEN 'RRULE' END
        FROM generate_series(0, ${events - 1}::int) n`;
    await prisma.$executeRaw`
      INSERT INTO scheduling.calendar_busy (calendar_id, href, starts_at, ends_at)
      SELECT ${calendar.id}, '/e' || n || '.ics', at, at + ((30 + (n % 3) * 30) * interval '1 minute')
        FROM (SELECT n, date_trunc('day', now()) + (n * 365 / ${events - series}::int) * interval '1 day'
                     + ((8 + (n * 7) % 10) * interval '1 hour') AS at
                FROM generate_series(${series}::int, ${events - 1}::int) n) e`;
    // Weekly series over the horizon: each instance a busy row, as the sync expands them.
    await prisma.$executeRaw`
      INSERT INTO scheduling.calendar_busy (calendar_id, href, starts_at, ends_at)
      SELECT ${calendar.id}, '/e' || n || '.ics', at, at + interval '30 minutes'
        FROM generate_series(0, ${series - 1}::int) n,
             LATERAL generate_series(date_trunc('day', now()) + (n % 5) * interval '1 day'
                                       + ((9 + n % 8) * interval '1 hour'),
                                     now() + interval '400 days', interval '7 days') at`;
  }
}

/** Every seeded calendar confirmed now: a copy older than CALENDAR_STALE_MS would block all. */
export async function confirmCalendars(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRaw(Prisma.sql`UPDATE scheduling.connected_calendars SET synced_at = now()`);
}
