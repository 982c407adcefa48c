import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCliInProcess } from "@app/testing/cli";
import { describe, expect, it } from "vitest";
import { schedulingCli } from "../src/cli.ts";
import { SeedRefused, seedDemoData } from "../src/seed.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const t = setupApp(
  {},
  {
    routes: (app) => {
      app.get("/test/whoami", async (request) => request.auth);
    },
  },
);

async function counts() {
  const p = t.prisma;
  return {
    users: await p.user.count(),
    teams: await p.team.count(),
    memberships: await p.membership.count(),
    eventTypes: await p.eventType.count(),
    schedules: await p.schedule.count(),
    availabilities: await p.availability.count(),
    bookings: await p.booking.count(),
    attendees: await p.attendee.count(),
    bookingReferences: await p.bookingReference.count(),
    eventReferences: await p.eventReference.count(),
    payments: await p.payment.count(),
  };
}

const DEMO = {
  users: 3,
  teams: 1,
  memberships: 2,
  eventTypes: 3,
  schedules: 2,
  availabilities: 2,
  bookings: 1,
  attendees: 1,
  bookingReferences: 1,
  eventReferences: 1,
  payments: 1,
};

/** `pnpm -s db:seed …` in this process, through the CLI's own runner. */
const seed = (...args: string[]) =>
  runCliInProcess(schedulingCli, ["db:seed", ...args], {
    DATABASE_URL: t.databaseUrl,
    DATABASE_DIRECT_URL: t.directUrl,
  });

/** `pnpm -s db:seed …` as a person runs it: the root script, a process. */
function seedScript(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "pnpm",
      ["-s", "db:seed", ...args],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: t.databaseUrl,
          DATABASE_DIRECT_URL: t.directUrl,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("db:seed", () => {
  it("loads the demo data set and hands out working keys", async () => {
    const users = await seedDemoData(t.prisma, { prefix: "cal_" });
    expect(await counts()).toEqual(DEMO);
    expect(users.map((user) => [user.email, user.role])).toEqual([
      ["admin@example.com", "ADMIN"],
      ["alice@example.com", "USER"],
      ["bob@example.com", "USER"],
    ]);
    for (const user of users) {
      const response = await t.app.inject({ url: withKey("/test/whoami", user.apiKey) });
      expect(response.json()).toMatchObject({ userId: user.id, isAdmin: user.role === "ADMIN" });
    }
    const alice = await t.prisma.user.findUniqueOrThrow({ where: { email: "alice@example.com" } });
    expect(alice.defaultScheduleId).not.toBeNull();
  });

  it("refuses when the demo data is already there, and changes nothing", async () => {
    await expect(seedDemoData(t.prisma, { prefix: "cal_" })).rejects.toBeInstanceOf(SeedRefused);
    expect(await counts()).toEqual(DEMO);

    const result = await seed();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--force");
    expect(await counts()).toEqual(DEMO);
  });

  it("with --force replaces only the demo users and team, keeping everyone else", async () => {
    const { user: mine } = await createUser(t.prisma, { email: "you@example.com" });
    const before = await t.prisma.apiKey.findMany({ select: { id: true } });
    const result = await seed("--force", "--json");
    expect(result.code).toBe(0);
    const { users } = JSON.parse(result.stdout) as { users: { apiKey: string }[] };
    expect(users).toHaveLength(3);
    expect(await counts()).toEqual({ ...DEMO, users: DEMO.users + 1 });
    expect(await t.prisma.user.findUnique({ where: { id: mine.id } })).not.toBeNull();
    const after = await t.prisma.apiKey.findMany({
      where: { user: { email: { not: "you@example.com" } } },
      select: { id: true },
    });
    expect(after.some((key) => before.some((old) => old.id === key.id))).toBe(false);
    const response = await t.app.inject({ url: withKey("/test/whoami", users[0]!.apiKey) });
    expect(response.statusCode).toBe(200);
  });

  it("adds the demo data next to existing users (after the README's own user:create)", async () => {
    await t.prisma.user.deleteMany({
      where: { email: { in: ["admin@example.com", "alice@example.com", "bob@example.com"] } },
    });
    await t.prisma.team.deleteMany({ where: { slug: "demo-team" } });
    const result = await seedScript("--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).users).toHaveLength(3);
    expect(await t.prisma.user.findUnique({ where: { email: "you@example.com" } })).not.toBeNull();
    expect((await counts()).users).toBe(DEMO.users + 1);
  });
});
