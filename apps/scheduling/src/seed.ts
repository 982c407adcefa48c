// `pnpm db:seed [--force] [--json]`: a small demo data set for trying the API, with one API
// key per user printed once. Refuses a database that already has users unless --force, which
// first empties every scheduling table (in the same transaction as the seeding).
import { randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type PrismaClient, withPrisma } from "@app/db";
import { issueApiKey } from "./api-keys.ts";
import { loadConfig, readEnvironment } from "./config.ts";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface SeededUser {
  id: number;
  email: string;
  role: "USER" | "ADMIN";
  apiKey: string;
}

const time = (hhmm: string) => new Date(`1970-01-01T${hhmm}:00Z`);
const WEEKDAYS = [1, 2, 3, 4, 5];

async function emptySchedulingTables(tx: Tx): Promise<void> {
  const tables = await tx.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'scheduling'`;
  if (tables.length === 0) return;
  const list = tables.map(({ tablename }) => `"scheduling"."${tablename}"`).join(", ");
  await tx.$executeRawUnsafe(`TRUNCATE TABLE ${list} RESTART IDENTITY CASCADE`);
}

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
      payments: {
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

/** Loads the demo data; refuses when users exist unless `force`, which empties the scheduling tables first. */
export async function seedDemoData(
  prisma: PrismaClient,
  { prefix, force = false }: { prefix: string; force?: boolean },
): Promise<SeededUser[]> {
  return prisma.$transaction(
    async (tx) => {
      const users = await tx.user.count();
      if (users > 0 && !force) {
        throw new SeedRefused(
          `The database already has ${users} scheduling user(s); run with --force to empty the scheduling tables and seed again`,
        );
      }
      if (force) await emptySchedulingTables(tx);
      return seed(tx, prefix);
    },
    { timeout: 30_000 },
  );
}

async function main() {
  const { values } = parseArgs({
    options: { force: { type: "boolean" }, json: { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  });
  const config = loadConfig(readEnvironment());
  const database = {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    log: (line: string) => process.stderr.write(`${line}\n`),
  };
  const users = await withPrisma(database, (prisma) =>
    seedDemoData(prisma, { prefix: config.APIKEY_PREFIX, force: values.force === true }),
  );
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ users })}\n`);
    return;
  }
  process.stdout.write("Seeded: 3 users, a team, 3 event types, 2 schedules, a booking with an attendee,\n");
  process.stdout.write("a booking reference, an event reference and a payment. API keys (shown once):\n");
  for (const user of users) {
    process.stdout.write(`  ${user.email.padEnd(20)} ${user.role.padEnd(6)} ${user.apiKey}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
