// `pnpm -s db:seed [--force] [--json]` (the scheduling CLI's db:seed command): a small demo data
// set for trying the API, next to existing users, with one API key per demo user printed once.
import { randomBytes, randomUUID } from "node:crypto";
import type { PrismaClient } from "@app/db";
import { issueApiKey } from "./credentials.ts";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface SeededUser {
  id: number;
  email: string;
  role: "USER" | "ADMIN";
  apiKey: string;
}

const time = (hhmm: string) => new Date(`1970-01-01T${hhmm}:00Z`);
const WEEKDAYS = [1, 2, 3, 4, 5];

async function seed(tx: Tx, prefix: string): Promise<SeededUser[]> {
  const admin = await tx.user.create({
    data: { email: "admin@example.com", username: "admin", name: "Ada Admin", role: "ADMIN" },
  });
  const alice = await tx.user.create({
    data: { email: "alice@example.com", username: "alice", name: "Alice Example", timeZone: "Europe/Berlin" },
  });
  const bob = await tx.user.create({
    data: { email: "bob@example.com", username: "bob", name: "Bob Example", timeZone: "America/New_York" },
  });

  const team = await tx.team.create({ data: { name: "Demo Team", slug: "demo-team" } });
  await tx.membership.createMany({
    data: [
      { teamId: team.id, userId: alice.id, role: "OWNER", accepted: true },
      { teamId: team.id, userId: bob.id, role: "MEMBER", accepted: true },
    ],
  });

  for (const [user, name, timeZone] of [
    [alice, "Working hours", "Europe/Berlin"],
    [bob, "Office hours", "America/New_York"],
  ] as const) {
    const schedule = await tx.schedule.create({
      data: {
        userId: user.id,
        name,
        timeZone,
        availability: { create: [{ days: WEEKDAYS, startTime: time("09:00"), endTime: time("17:00") }] },
      },
    });
    await tx.user.update({ where: { id: user.id }, data: { defaultScheduleId: schedule.id } });
  }

  const intro = await tx.eventType.create({
    data: {
      userId: alice.id,
      title: "30 minute meeting",
      slug: "30min",
      length: 30,
      price: 5000,
      currency: "usd",
    },
  });
  await tx.eventType.create({ data: { userId: bob.id, title: "Quick chat", slug: "15min", length: 15 } });
  await tx.eventType.create({
    data: {
      teamId: team.id,
      title: "Team sync",
      slug: "team-sync",
      length: 45,
      schedulingType: "COLLECTIVE",
      hosts: { create: [{ userId: alice.id }, { userId: bob.id }] },
    },
  });

  const start = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 15, 10, 0));
  await tx.booking.create({
    data: {
      uid: randomUUID(),
      userId: alice.id,
      eventTypeId: intro.id,
      title: "30 minute meeting between Alice and Carol",
      startTime: start,
      endTime: new Date(start.getTime() + 30 * 60_000),
      status: "ACCEPTED",
      paid: true,
      attendees: {
        create: [{ email: "carol@example.com", name: "Carol Client", timeZone: "Europe/London" }],
      },
      references: {
        create: [{ type: "daily_video", uid: "demo-room", meetingUrl: "https://demo.daily.co/demo-room" }],
      },
      eventReference: {
        create: { dailyurl: "https://demo.daily.co/demo-room", dailytoken: randomBytes(16).toString("hex") },
      },
      payment: {
        create: [
          {
            uid: randomUUID(),
            amount: 5000,
            fee: 0,
            currency: "usd",
            success: true,
            refunded: false,
            data: {},
            externalId: `demo_${randomBytes(8).toString("hex")}`,
          },
        ],
      },
    },
  });

  const seeded: SeededUser[] = [];
  for (const user of [admin, alice, bob]) {
    const { apiKey } = await issueApiKey(tx, { userId: user.id, prefix, note: "db:seed" });
    seeded.push({ id: user.id, email: user.email, role: user.role, apiKey });
  }
  return seeded;
}

export class SeedRefused extends Error {
  override name = "SeedRefused";
}

const DEMO_EMAILS = ["admin@example.com", "alice@example.com", "bob@example.com"];
const DEMO_USERNAMES = ["admin", "alice", "bob"];
const DEMO_TEAM_SLUG = "demo-team";

/**
 * Adds the demo data next to whatever the database holds. When the demo users (or the demo
 * team) are already there it refuses, unless `force`: then those demo rows, and everything
 * that hangs off them, are deleted first, in the same transaction. Nothing else is touched.
 */
export async function seedDemoData(
  prisma: PrismaClient,
  { prefix, force = false }: { prefix: string; force?: boolean },
): Promise<SeededUser[]> {
  return prisma.$transaction(
    async (tx) => {
      const demoUsers = { OR: [{ email: { in: DEMO_EMAILS } }, { username: { in: DEMO_USERNAMES } }] };
      const present = await tx.user.findMany({ where: demoUsers, select: { email: true } });
      const team = await tx.team.findFirst({ where: { slug: DEMO_TEAM_SLUG }, select: { id: true } });
      if ((present.length > 0 || team) && !force) {
        const what = present.length > 0 ? present.map((u) => u.email).join(", ") : `team ${DEMO_TEAM_SLUG}`;
        throw new SeedRefused(
          `The demo data is already there (${what}); run with --force to delete the demo users and team and seed them again`,
        );
      }
      if (force) {
        await tx.user.deleteMany({ where: demoUsers });
        await tx.team.deleteMany({ where: { slug: DEMO_TEAM_SLUG } });
      }
      return seed(tx, prefix);
    },
    { timeout: 30_000 },
  );
}
