// The team booking rows of `pnpm bench` (issue 19): fixtures for GET /v1/slots of a 5-host team
// event type over 30 days with 200 bookings in the way, and for 100 bookings made at once over
// 10 hosts, plus the SQL check that no host ended up double-booked. Measured over HTTP against
// the real scheduling service by scripts/bench.ts.
import { randomUUID } from "node:crypto";
import type { PrismaClient, User } from "@app/db";
import { issueApiKey } from "@app/scheduling/credentials";

const DAY = 86_400_000;

/** Midnight UTC of the Monday at least a week ahead. */
function nextMonday(): Date {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const toMonday = (8 - new Date(today).getUTCDay()) % 7 || 7;
  return new Date(today + (toMonday + 7) * DAY);
}

/** `count` users with a Monday-Friday 09:00-17:00 UTC default schedule, members of one new team. */
export async function teamOf(prisma: PrismaClient, count: number, label: string) {
  const stamp = `${label}-${Date.now()}`;
  const users: User[] = [];
  for (let i = 0; i < count; i++) {
    const user = await prisma.user.create({
      data: { email: `${stamp}-${i}@example.com`, username: `${stamp}-${i}`, name: `Host ${i + 1}` },
    });
    const schedule = await prisma.schedule.create({
      data: {
        userId: user.id,
        name: "Office",
        timeZone: "UTC",
        availability: {
          create: [
            {
              days: [1, 2, 3, 4, 5],
              startTime: new Date("1970-01-01T09:00:00Z"),
              endTime: new Date("1970-01-01T17:00:00Z"),
            },
          ],
        },
      },
    });
    await prisma.user.update({ where: { id: user.id }, data: { defaultScheduleId: schedule.id } });
    users.push(user);
  }
  const team = await prisma.team.create({
    data: {
      name: `Bench ${stamp}`,
      slug: `bench-${stamp}`,
      members: { create: users.map((user) => ({ userId: user.id, accepted: true })) },
    },
  });
  const eventType = (schedulingType: "ROUND_ROBIN" | "COLLECTIVE") =>
    prisma.eventType.create({
      data: {
        teamId: team.id,
        title: `Bench ${schedulingType}`,
        slug: `bench-${schedulingType.toLowerCase()}-${stamp}`,
        length: 30,
        minimumBookingNotice: 0,
        schedulingType,
        hosts: { create: users.map((user) => ({ userId: user.id })) },
      },
    });
  const { apiKey } = await issueApiKey(prisma, { userId: users[0]!.id, prefix: "cal_" });
  return { users, eventType, apiKey };
}

export interface SlotsTeamFixture {
  apiKey: string;
  roundRobinId: number;
  collectiveId: number;
  from: Date;
  to: Date;
}

/**
 * Five hosts with the two team event types (ROUND_ROBIN and COLLECTIVE, 30 minutes) and 200
 * accepted bookings spread over the 30 days measured: 40 per host, at working-hour half-hours
 * of weekdays, so the engine subtracts real busy times for every host.
 */
export async function seedSlotsTeam(prisma: PrismaClient): Promise<SlotsTeamFixture> {
  const { users, eventType, apiKey } = await teamOf(prisma, 5, "slots");
  const roundRobin = await eventType("ROUND_ROBIN");
  const collective = await eventType("COLLECTIVE");
  const from = nextMonday();
  const weekdays = Array.from({ length: 30 }, (_, i) => new Date(from.getTime() + i * DAY)).filter(
    (day) => day.getUTCDay() !== 0 && day.getUTCDay() !== 6,
  );
  const rows = [];
  for (let n = 0; n < 200; n++) {
    const host = users[n % users.length]!;
    const day = weekdays[(n * 7) % weekdays.length]!;
    const start = new Date(day.getTime() + (9 * 60 + ((n * 5) % 16) * 30) * 60_000);
    rows.push({
      uid: randomUUID(),
      userId: host.id,
      eventTypeId: roundRobin.id,
      title: "Bench booking",
      startTime: start,
      endTime: new Date(start.getTime() + 30 * 60_000),
    });
  }
  await prisma.booking.createMany({ data: rows });
  return {
    apiKey,
    roundRobinId: roundRobin.id,
    collectiveId: collective.id,
    from,
    to: new Date(from.getTime() + 30 * DAY),
  };
}

export interface ConcurrentFixture {
  apiKey: string;
  eventTypeId: number;
  /** Ten starts, each to be booked ten times: once per host. */
  starts: Date[];
}

/** Ten hosts of one ROUND_ROBIN event type, and ten half-hour starts on one weekday. */
export async function seedBookingsConcurrent(prisma: PrismaClient): Promise<ConcurrentFixture> {
  const { eventType, apiKey } = await teamOf(prisma, 10, "concurrent");
  const roundRobin = await eventType("ROUND_ROBIN");
  const day = nextMonday();
  const starts = Array.from({ length: 10 }, (_, i) => new Date(day.getTime() + (9 * 60 + i * 30) * 60_000));
  return { apiKey, eventTypeId: roundRobin.id, starts };
}

/**
 * Hosts holding two accepted bookings that overlap (as organizer or as attendee), among the
 * event type's bookings: 0 when nobody was double-booked.
 */
export async function doubleBooked(prisma: PrismaClient, eventTypeId: number): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: number }[]>`
    WITH held AS (
      SELECT b.id, b."startTime", b."endTime", u.id AS host
        FROM "scheduling"."bookings" b
        JOIN "scheduling"."users" u
          ON u.id = b."userId"
          OR u.email IN (SELECT a.email FROM "scheduling"."attendees" a WHERE a."bookingId" = b.id)
       WHERE b."eventTypeId" = ${eventTypeId} AND b.status = 'ACCEPTED')
    SELECT count(*)::int AS n FROM held x JOIN held y
      ON x.host = y.host AND x.id < y.id AND x."startTime" < y."endTime" AND y."startTime" < x."endTime"`;
  return row?.n ?? 0;
}
