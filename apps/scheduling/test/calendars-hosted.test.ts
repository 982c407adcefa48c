// Connected calendars in hosted mode (docs/adr/0259), against a real Radicale: a tenant's account
// is connected with `calendar:connect --tenant`, its login sealed in the tenant's database only;
// `calendar:list --tenant` shows that tenant's accounts and no other's. A tenant's calendar event
// blocks that tenant's slots and bookings, never the default database's nor another tenant's (and
// the other way round); a tenant's booking is written into its destination calendar from the
// tenant's own outbox; the instances' sweep synchronises a registered tenant's calendars.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma, type PrismaClient } from "@app/db";
import { runCliInProcess } from "@app/testing/cli";
import { createTestDatabase, secretScan, type TestDatabase } from "@app/testing/database";
import { type Radicale, radicaleMissing, startRadicale } from "@app/testing/radicale";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { credentialKeys, sealLogin } from "../src/calendars/logins.ts";
import { registerTenantCalendars, tenantCredentialKeyProblem } from "../src/calendars/tenant-calendars.ts";
import { schedulingCli } from "../src/cli.ts";
import { databaseUrlKey } from "../src/hosting/secrets.ts";
import { startupKeyProblem } from "../src/server.ts";
import { futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, testConfig } from "./helpers.ts";
import { hostedUrl, newTenantSecret, registerTenant, type TestTenant } from "./hosted-helpers.ts";

const missing = radicaleMissing();
if (missing) console.warn(`apps/scheduling/test/calendars-hosted.test.ts skipped: ${missing}`);

const KEY = "c".repeat(64);
const PASSWORD = "radicale-hosted-5e1a";
const TENANT_SECRET = newTenantSecret();
type Where = "main" | "a" | "b";
const WHERE: Where[] = ["main", "a", "b"];

/** One VEVENT, as a CalDAV client writes it. */
function event(uid: string, start: Date, minutes: number): string {
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//calendars-hosted//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(new Date(start.getTime() + minutes * 60_000))}`,
    "SUMMARY:Busy",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

describe.skipIf(missing)("hosted mode: each tenant's connected calendars, in its own database", () => {
  let radicale: Radicale;
  let passwordFile: string;
  let main: TestDatabase;
  const databases = {} as Record<"a" | "b", TestDatabase>;
  const prisma = {} as Record<Where, PrismaClient>;
  const tenants = {} as Record<"a" | "b", TestTenant>;
  let app: SchedulingApp;
  /** Each database's host: the same user id in every database, different people and calendars. */
  const hosts = {} as Record<
    Where,
    { apiKey: string; userId: number; eventTypeId: number; accountId: number; calendar: string }
  >;
  /** The Radicale user whose calendar each database's host connects. */
  const radicaleUser = (where: Where) => `user-${where}`;

  const env = () => ({ DATABASE_URL: main.url, CREDENTIALS_KEY: KEY, TENANT_SECRET });
  const cli = (...argv: string[]) => runCliInProcess(schedulingCli, argv, env());
  const tenantArgs = (where: Where) =>
    where === "main" ? [] : ["--tenant", where === "a" ? tenants.a.name : tenants.b.id];
  const url = (where: Where, pathname: string) =>
    hostedUrl(pathname, hosts[where].apiKey, where === "main" ? undefined : tenants[where].licenseKey);

  beforeAll(async () => {
    [radicale, main, databases.a, databases.b] = await Promise.all([
      startRadicale({ users: Object.fromEntries(WHERE.map((w) => [radicaleUser(w), PASSWORD])) }),
      createTestDatabase(),
      createTestDatabase(),
      createTestDatabase(),
    ]);
    secretScan.remember(`cal_${PASSWORD}`);
    passwordFile = path.join(tmpdir(), `calendar-hosted-password-${process.pid}`);
    writeFileSync(passwordFile, `${PASSWORD}\n`);
    prisma.main = createPrisma(main.url, { poolMax: 4, directUrl: main.directUrl });
    for (const name of ["a", "b"] as const) {
      prisma[name] = createPrisma(databases[name].directUrl, { poolMax: 2 });
      tenants[name] = await registerTenant(
        prisma.main,
        TENANT_SECRET,
        databases[name].directUrl,
        `cal-tenant-${name}`,
      );
    }
    app = await buildApp({
      config: testConfig({
        HOSTED_MODE: "on",
        TENANT_SECRET,
        CREDENTIALS_KEY: KEY,
        CALENDAR_STALE_MS: 60_000,
        // The sweep looks at the registry every half second.
        CALENDAR_SYNC_INTERVAL_MS: 2_000,
        CALENDAR_WRITE_RETRY_BASE_MS: 20,
      }),
      prisma: prisma.main,
    });
    await app.ready();
    // The three connected at once: each on its own database and Radicale user.
    const connect = async (where: Where) => {
      const made = await createUser(prisma[where], { email: `host@${where}.example` });
      const eventType = await makeHost(prisma[where], made.user.id);
      const calendar = await radicale.mkcalendar(radicaleUser(where), "work", { displayName: "Work" });
      const connected = await cli(
        "calendar:connect",
        "--user",
        made.user.email,
        "--url",
        radicale.url,
        "--username",
        radicaleUser(where),
        "--password-file",
        passwordFile,
        ...tenantArgs(where),
        "--json",
      );
      expect(connected.code, connected.stderr).toBe(0);
      hosts[where] = {
        apiKey: made.apiKey,
        userId: made.user.id,
        eventTypeId: eventType.id,
        accountId: JSON.parse(connected.stdout).id,
        calendar,
      };
    };
    await Promise.all(WHERE.map(connect));
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await radicale?.stop();
    for (const client of Object.values(prisma)) await client?.$disconnect();
    await Promise.all([main, ...Object.values(databases)].map((database) => database?.drop()));
  });

  const book = (where: Where, start: Date) =>
    app.inject({
      method: "POST",
      url: url(where, "/v1/bookings"),
      payload: {
        eventTypeId: hosts[where].eventTypeId,
        start: start.toISOString(),
        timeZone: "UTC",
        language: "en",
        metadata: {},
        responses: { name: "Booker", email: `booker@${where}.example` },
      },
    });

  const slotsOn = async (where: Where, day: Date) => {
    const end = new Date(day.getTime() + 8 * 3_600_000);
    const answer = await app.inject({
      method: "GET",
      url: url(
        where,
        `/v1/slots?eventTypeId=${hosts[where].eventTypeId}&startTime=${day.toISOString()}&endTime=${end.toISOString()}`,
      ),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return Object.values(answer.json().slots as Record<string, { time: string }[]>)
      .flat()
      .map((slot) => new Date(slot.time).toISOString());
  };

  it("connects a tenant's account into the tenant's database only: its login sealed there, listed for that tenant alone, the tenant registered", async () => {
    // The same user id everywhere; each database holds exactly its own account.
    expect(new Set(WHERE.map((w) => hosts[w].userId)).size).toBe(1);
    for (const where of WHERE) {
      const stored = await prisma[where].credential.findMany();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.secret).toMatch(/^v1\./);
      expect(stored[0]!.secret).not.toContain(PASSWORD);
      const calendars = await prisma[where].connectedCalendar.findMany();
      expect(calendars.map((c) => c.url)).toEqual([hosts[where].calendar]);
      expect(calendars[0]!.syncedAt).not.toBeNull();
    }
    for (const where of WHERE) {
      const listed = await cli("calendar:list", ...tenantArgs(where), "--json");
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).not.toContain(PASSWORD);
      const urls = (JSON.parse(listed.stdout) as { calendars: { url: string }[] }[]).flatMap((a) =>
        a.calendars.map((c) => c.url),
      );
      expect(urls).toEqual([hosts[where].calendar]);
    }
    const unknown = await cli("calendar:list", "--tenant", "no-such-tenant");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No such tenant/);
    // The registry in the default database names both tenants (and nothing else).
    const registered = await prisma.main.tenantCalendars.findMany();
    expect(registered.map((r) => r.tenantId).sort()).toEqual([tenants.a.id, tenants.b.id].sort());
  });

  it("a tenant's event blocks that tenant's slots and bookings only; the default database's blocks only its own", async () => {
    const monday = futureMonday(5);
    const at = (hours: number) => new Date(monday.getTime() + hours * 3_600_000);
    // Added just before the bookings: no sync has seen them, the bookings' own check does.
    await radicale.putEvent(radicaleUser("a"), "work", "a.ics", event("a-busy", at(1), 60));
    await radicale.putEvent(radicaleUser("main"), "work", "main.ics", event("main-busy", at(3), 60));

    const refusedA = await book("a", at(1));
    expect(refusedA.statusCode, refusedA.body).toBe(400);
    expect(refusedA.json().message).toBe("no_available_users_found_error");
    const refusedMain = await book("main", at(3));
    expect(refusedMain.statusCode, refusedMain.body).toBe(400);
    // The others' hosts (the same user id) are free at those times.
    for (const [where, hour] of [
      ["main", 1],
      ["b", 1],
      ["a", 3],
      ["b", 3],
    ] as const) {
      const booked = await book(where, at(hour));
      expect(booked.statusCode, `${where} at ${hour}: ${booked.body}`).toBe(201);
    }
    // Slots read each database's own busy times.
    const slotsA = await slotsOn("a", monday);
    expect(slotsA).not.toContain(at(1).toISOString());
    expect(slotsA).toContain(at(2).toISOString());
    const slotsMain = await slotsOn("main", monday);
    expect(slotsMain).not.toContain(at(3).toISOString());
    expect(slotsMain).toContain(at(2).toISOString());
    // Each busy time stored in its own database only.
    expect(await prisma.a.calendarBusy.count()).toBe(1);
    expect(await prisma.main.calendarBusy.count()).toBe(1);
    expect(await prisma.b.calendarBusy.count()).toBe(0);
  });

  it("writes a tenant's booking into the tenant's destination calendar, from the tenant's own outbox", async () => {
    const destination = await app.inject({
      method: "POST",
      url: url("b", "/v1/destination-calendars"),
      payload: { integration: "caldav_calendar", externalId: hosts.b.calendar },
    });
    expect(destination.statusCode, destination.body).toBe(201);
    const start = new Date(futureMonday(6).getTime() + 3_600_000);
    const booked = await book("b", start);
    expect(booked.statusCode, booked.body).toBe(201);
    const uid = booked.json().uid as string;
    const objectUrl = `${hosts.b.calendar}${encodeURIComponent(uid)}.ics`;
    await vi.waitFor(async () => {
      const answer = await fetch(objectUrl, {
        headers: { authorization: radicale.authorization(radicaleUser("b")) },
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain(`UID:${uid}`);
    }, SOON);
    await vi.waitFor(async () => {
      expect(await prisma.b.calendarWrite.findMany({ select: { status: true } })).toEqual([
        { status: "SENT" },
      ]);
    }, SOON);
    expect(await prisma.b.bookingReference.count({ where: { uid } })).toBe(1);
    // Nothing in the default database's or the other tenant's outbox.
    expect(await prisma.main.calendarWrite.count()).toBe(0);
    expect(await prisma.a.calendarWrite.count()).toBe(0);
    // Nothing dead for the tenant.
    const dead = await cli("calendar:dead", "--tenant", tenants.b.name, "--json");
    expect(dead.code, dead.stderr).toBe(0);
    expect(JSON.parse(dead.stdout)).toEqual([]);
  });

  it("will not start with a CREDENTIALS_KEY that does not open a registered tenant's logins, naming the tenant; an unreachable tenant is reported, not fatal", async () => {
    const config = testConfig({ HOSTED_MODE: "on", TENANT_SECRET, CREDENTIALS_KEY: KEY });
    expect(await startupKeyProblem(config, prisma.main)).toBeNull();
    // No key at all: the default database's accounts say so first; each tenant's too.
    expect(
      await tenantCredentialKeyProblem(prisma.main, databaseUrlKey(TENANT_SECRET), undefined, () => {}),
    ).toMatch(
      /^tenant cal-tenant-a \(and 1 other tenant\(s\)\): CREDENTIALS_KEY is required: 1 calendar account/,
    );
    // Tenant b's database holds a login sealed under another key: the default database's open.
    const other = credentialKeys({ CREDENTIALS_KEY: "d".repeat(64) })!;
    const stray = await prisma.b.credential.create({
      data: {
        type: "caldav_calendar",
        appId: "caldav-calendar",
        userId: hosts.b.userId,
        url: "https://dav.example.test/",
        secret: "",
        keyId: "",
      },
    });
    // And a registered tenant whose database refuses connections.
    const gone = await registerTenant(
      prisma.main,
      TENANT_SECRET,
      "postgresql://postgres@127.0.0.1:1/gone",
      "cal-tenant-gone",
    );
    await registerTenantCalendars(prisma.main, gone.id);
    try {
      await prisma.b.credential.update({
        where: { id: stray.id },
        data: sealLogin(other, stray.id, { username: "someone", password: "else" }),
      });
      const warnings: object[] = [];
      expect(await startupKeyProblem(config, prisma.main, (obj) => warnings.push(obj))).toMatch(
        /^tenant cal-tenant-b: CREDENTIALS_KEY does not open 1 calendar login\(s\) \(sealed under key /,
      );
      expect(warnings).toEqual([expect.objectContaining({ tenant: "cal-tenant-gone" })]);
      // Off hosted mode, the tenants are not the service's business.
      expect(await startupKeyProblem(testConfig({ CREDENTIALS_KEY: KEY }), prisma.main)).toBeNull();
    } finally {
      await prisma.b.credential.delete({ where: { id: stray.id } });
      await prisma.main.tenantCalendars.deleteMany({ where: { tenantId: gone.id } });
      await prisma.main.tenant.delete({ where: { id: gone.id } });
    }
    expect(await startupKeyProblem(config, prisma.main)).toBeNull();
  });

  it("the instances' sweep synchronises a registered tenant's calendars when they are due", async () => {
    const start = new Date(futureMonday(7).getTime() + 3_600_000);
    await radicale.putEvent(radicaleUser("a"), "work", "later.ics", event("a-later", start, 30));
    // Due now: the next sweep (within half a second) visits the tenant and syncs it.
    await prisma.a.connectedCalendar.updateMany({ data: { nextSyncAt: new Date() } });
    await prisma.main.tenantCalendars.updateMany({
      where: { tenantId: tenants.a.id },
      data: { syncAt: new Date() },
    });
    await vi.waitFor(async () => {
      expect(await prisma.a.calendarBusy.count({ where: { startsAt: start } })).toBe(1);
    }, SOON);
    // Disconnected with --tenant: gone from the tenant's database, the default database's untouched.
    const disconnected = await cli(
      "calendar:disconnect",
      "--id",
      String(hosts.a.accountId),
      ...tenantArgs("a"),
    );
    expect(disconnected.code, disconnected.stderr).toBe(0);
    expect(await prisma.a.credential.count()).toBe(0);
    expect(await prisma.main.credential.count()).toBe(1);
  });
});
