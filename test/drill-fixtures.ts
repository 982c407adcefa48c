// Shared by the drills through HAProxy (scale-restart, upgrade): a short to redirect and a host
// bookable around the clock in 5-minute slots, written straight into the database.
import { type PrismaClient, uuidv7s } from "@app/db";
import { createUserWithKey } from "../apps/scheduling/src/credentials.ts";
import { futureMonday } from "../apps/scheduling/test/booking-helpers.ts";

let counter = 0;
const unique = (label: string) => `${label}-${process.pid}-${Date.now()}-${++counter}`;

/**
 * A shortener user's short, `https://example.com/<label>`. In SQL naming only the seed's columns:
 * the upgrade drill writes it into the previous release's schema, where this commit's client
 * would name columns that do not exist yet (the short's domain).
 */
export async function drillShort(prisma: PrismaClient, label: string) {
  const owner = await prisma.shortenerUser.create({ data: { email: `${unique(label)}@example.com` } });
  const [short] = await prisma.$queryRaw<{ id: string; name: string; url: string }[]>`
    INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url")
    VALUES (${uuidv7s(1)[0]}::uuid, ${owner.id}::uuid, ${unique(label)}, ${`https://example.com/${label}`})
    RETURNING "id", "name", "url"`;
  return short!;
}

/** A host with an API key and a 5-minute event type, bookable every day 00:00-23:55 UTC. */
export async function alwaysBookableHost(prisma: PrismaClient) {
  const name = unique("host");
  const host = await createUserWithKey(prisma, {
    email: `${name}@example.com`,
    username: name,
    role: "USER",
    prefix: "cal_",
  });
  const schedule = await prisma.schedule.create({
    data: {
      userId: host.user.id,
      name: "Always",
      timeZone: "UTC",
      availability: {
        create: [
          {
            days: [0, 1, 2, 3, 4, 5, 6],
            startTime: new Date("1970-01-01T00:00:00Z"),
            endTime: new Date("1970-01-01T23:55:00Z"),
          },
        ],
      },
    },
  });
  await prisma.user.update({ where: { id: host.user.id }, data: { defaultScheduleId: schedule.id } });
  const eventType = await prisma.eventType.create({
    data: { userId: host.user.id, title: "Drill", slug: name, length: 5, minimumBookingNotice: 0 },
  });
  // Midnight UTC of a Monday two weeks ahead: past any notice.
  const firstSlot = new Date(futureMonday(2).getTime() - 9 * 3_600_000);
  return { apiKey: host.apiKey, eventTypeId: eventType.id, firstSlot };
}

/** How many times each value occurs. */
export function count(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
