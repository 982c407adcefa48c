// Shared by the booking, slot and v1-client tests: a host with an event type and working
// hours, and slot times safely in the future.
import type { PrismaClient } from "@app/db";

let counter = 0;

/** 09:00 UTC on a Monday `weeks` weeks from now (at least a week ahead: past any notice). */
export function futureMonday(weeks = 2): Date {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9));
  const toMonday = (8 - day.getUTCDay()) % 7 || 7;
  return new Date(day.getTime() + (toMonday + 7 * (weeks - 1)) * 86_400_000);
}

export const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);

/** An event type of `userId` (30 minutes by default) on a UTC schedule, Monday-Friday 09:00-17:00. */
export async function makeHost(
  prisma: PrismaClient,
  userId: number,
  eventType: { length?: number; seatsPerTimeSlot?: number; requiresConfirmation?: boolean } = {},
) {
  const n = `${process.pid}-${++counter}`;
  const schedule = await prisma.schedule.create({
    data: {
      userId,
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
  await prisma.user.update({
    where: { id: userId },
    data: { defaultScheduleId: schedule.id, name: "Hope Host" },
  });
  return prisma.eventType.create({
    data: { userId, title: "Intro", slug: `intro-${n}`, length: 30, minimumBookingNotice: 0, ...eventType },
  });
}
