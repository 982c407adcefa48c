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

/**
 * Gives `userId` a default schedule: Monday-Friday `from`-`to` (HH:MM, default 09:00-17:00) in
 * `timeZone` (default UTC), and a name.
 */
export async function giveSchedule(
  prisma: PrismaClient,
  userId: number,
  { timeZone = "UTC", from = "09:00", to = "17:00", name = "Hope Host" } = {},
) {
  const schedule = await prisma.schedule.create({
    data: {
      userId,
      name: "Office",
      timeZone,
      availability: {
        create: [
          {
            days: [1, 2, 3, 4, 5],
            startTime: new Date(`1970-01-01T${from}:00Z`),
            endTime: new Date(`1970-01-01T${to}:00Z`),
          },
        ],
      },
    },
  });
  await prisma.user.update({ where: { id: userId }, data: { defaultScheduleId: schedule.id, name } });
}

/** An event type of `userId` (30 minutes by default) on a UTC schedule, Monday-Friday 09:00-17:00. */
export async function makeHost(
  prisma: PrismaClient,
  userId: number,
  eventType: { length?: number; seatsPerTimeSlot?: number; requiresConfirmation?: boolean } = {},
) {
  const n = `${process.pid}-${++counter}`;
  await giveSchedule(prisma, userId);
  return prisma.eventType.create({
    data: { userId, title: "Intro", slug: `intro-${n}`, length: 30, minimumBookingNotice: 0, ...eventType },
  });
}

export interface TeamHost {
  userId: number;
  isFixed?: boolean;
  priority?: number;
  weight?: number;
}

/**
 * A team (slug `team-<n>`) whose members are the hosts, each already given a schedule, and its
 * 30-minute event type "Team call" with those hosts.
 */
export async function makeTeamEvent(
  prisma: PrismaClient,
  schedulingType: "COLLECTIVE" | "ROUND_ROBIN",
  hosts: TeamHost[],
  eventType: { length?: number; isRRWeightsEnabled?: boolean; slotInterval?: number } = {},
) {
  const n = `${process.pid}-${++counter}`;
  const team = await prisma.team.create({
    data: {
      name: `Team ${n}`,
      slug: `team-${n}`,
      members: { create: hosts.map((host) => ({ userId: host.userId, accepted: true })) },
    },
  });
  const created = await prisma.eventType.create({
    data: {
      teamId: team.id,
      title: "Team call",
      slug: `team-call-${n}`,
      length: 30,
      minimumBookingNotice: 0,
      schedulingType,
      hosts: { create: hosts },
      ...eventType,
    },
  });
  return { team, eventType: created };
}
