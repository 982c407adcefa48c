// Connected CalDAV calendars against a real Radicale (issue 47): an account connected with the
// CLI (login sealed, never shown), its calendars discovered and selected; their events block
// slots, /availability and bookings once synchronised (TRANSPARENT and CANCELLED ones do not);
// another client's edits are seen at the next sync, and at once by a booking; a calendar that
// cannot be read makes its owner busy after the grace (docs/adr/0247, 0254, 0255).
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCliInProcess } from "@app/testing/cli";
import { secretScan } from "@app/testing/database";
import { type HttpFaultProxy, startHttpFaultProxy } from "@app/testing/http-fault-proxy";
import { type Radicale, radicaleMissing, startRadicale } from "@app/testing/radicale";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { credentialKeyProblem, credentialKeys } from "../src/calendars/logins.ts";
import { schedulingCli } from "../src/cli.ts";
import { futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, setupApp } from "./helpers.ts";

const missing = radicaleMissing();
if (missing) console.warn(`apps/scheduling/test/calendars.test.ts skipped: ${missing}`);

const KEY = "a".repeat(64);
const OTHER_KEY = "b".repeat(64);
const PASSWORD = "radicale-secret-9f2c";

/** One VEVENT, as a CalDAV client writes it. */
function event(uid: string, start: Date, minutes: number, extra: string[] = []): string {
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//calendars//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(new Date(start.getTime() + minutes * 60_000))}`,
    "SUMMARY:Dentist",
    ...extra,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

describe.skipIf(missing)("connected CalDAV calendars", () => {
  const t = setupApp({
    CREDENTIALS_KEY: KEY,
    // Past the grace only when a test says so (it sets a calendar's last sync back): a loaded
    // machine may take seconds between two syncs.
    CALENDAR_STALE_MS: 60_000,
    CALENDAR_SYNC_INTERVAL_MS: 10_000,
    CALENDAR_WRITE_MAX_ATTEMPTS: 3,
    CALENDAR_WRITE_RETRY_BASE_MS: 20,
  });
  let radicale: Radicale;
  let proxy: HttpFaultProxy;
  let passwordFile: string;
  const env = () => ({ DATABASE_URL: t.databaseUrl, CREDENTIALS_KEY: KEY });
  const cli = (...argv: string[]) => runCliInProcess(schedulingCli, argv, env());

  beforeAll(async () => {
    // A Radicale user per test: each connects an account of its own.
    radicale = await startRadicale({
      users: Object.fromEntries(
        ["alice", "bob", "carol", "dave", "erin", "frank", "grace"].map((u) => [u, PASSWORD]),
      ),
    });
    proxy = await startHttpFaultProxy({ host: "127.0.0.1", port: radicale.port });
    secretScan.remember(`cal_${PASSWORD}`);
    passwordFile = path.join(tmpdir(), `calendar-password-${process.pid}`);
    writeFileSync(passwordFile, `${PASSWORD}\n`);
  });
  afterAll(async () => {
    await proxy?.close();
    await radicale?.stop();
  });

  /** A host with an event type, a Work calendar (and a task list) in Radicale, connected through the proxy. */
  async function connectedHost(user: string, { select = true } = {}) {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    await radicale.mkcalendar(user, "work", { displayName: "Work" });
    await radicale.mkcalendar(user, "tasks", { components: ["VTODO"], displayName: "Tasks" });
    const url = `http://127.0.0.1:${proxy.port}/`;
    const connected = await cli(
      "calendar:connect",
      "--user",
      host.user.email,
      "--url",
      url,
      "--username",
      user,
      "--password-file",
      passwordFile,
      ...(select ? [] : ["--no-select"]),
      "--json",
    );
    expect(connected.code, connected.stderr).toBe(0);
    return {
      ...host,
      eventType,
      account: JSON.parse(connected.stdout),
      calendar: `http://127.0.0.1:${proxy.port}/${user}/work/`,
    };
  }

  const slotsOn = async (apiKey: string, eventTypeId: number, day: Date) => {
    const end = new Date(day.getTime() + 8 * 3_600_000);
    const answer = await t.app.inject({
      method: "GET",
      url: `/v1/slots?apiKey=${apiKey}&eventTypeId=${eventTypeId}&startTime=${day.toISOString()}&endTime=${end.toISOString()}`,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const slots = Object.values(answer.json().slots as Record<string, { time: string }[]>).flat();
    return slots.map((slot) => new Date(slot.time).toISOString());
  };

  const book = (apiKey: string, eventTypeId: number, start: Date) =>
    t.app.inject({
      method: "POST",
      url: `/v1/bookings?apiKey=${apiKey}`,
      payload: {
        eventTypeId,
        start: start.toISOString(),
        timeZone: "UTC",
        language: "en",
        metadata: {},
        responses: { name: "Booker", email: "booker@example.com" },
      },
    });

  it("connects an account: its calendars of events are found, selected and synchronised; the login is sealed and never shown", async () => {
    const host = await connectedHost("alice");
    expect(host.account.calendars).toEqual([
      expect.objectContaining({ url: host.calendar, displayName: "Work", selected: true, synced: true }),
    ]);
    const stored = await t.prisma.credential.findUniqueOrThrow({ where: { id: host.account.id } });
    expect(stored.secret).not.toContain(PASSWORD);
    expect(stored.secret).toMatch(/^v1\./);
    const listed = await cli("calendar:list", "--json");
    expect(listed.stdout).not.toContain(PASSWORD);
    expect(JSON.parse(listed.stdout)).toContainEqual(
      expect.objectContaining({
        id: host.account.id,
        calendars: [expect.objectContaining({ url: host.calendar, selected: true, failingSince: null })],
      }),
    );
    // v1's selected-calendars row, as GET /selected-calendars lists it.
    const rows = await t.app.inject({ method: "GET", url: `/v1/selected-calendars?apiKey=${host.apiKey}` });
    expect(rows.json().selected_calendars).toEqual([
      expect.objectContaining({ integration: "caldav_calendar", externalId: host.calendar }),
    ]);
    // The service starts with the key; without it, or with another, it says why and does not.
    expect(await credentialKeyProblem(t.prisma, credentialKeys({ CREDENTIALS_KEY: KEY }))).toBeNull();
    expect(await credentialKeyProblem(t.prisma, undefined)).toMatch(/CREDENTIALS_KEY is required/);
    expect(await credentialKeyProblem(t.prisma, credentialKeys({ CREDENTIALS_KEY: OTHER_KEY }))).toMatch(
      /does not open/,
    );
  });

  it("refuses a wrong password and a port nothing answers, says why without the password, and stores nothing", async () => {
    const host = await createUser(t.prisma);
    const wrong = path.join(tmpdir(), `calendar-wrong-${process.pid}`);
    writeFileSync(wrong, "nope\n");
    const attempts = [
      [radicale.url, wrong, /refused the username or password/],
      ["http://127.0.0.1:1/", passwordFile, /cannot be reached/],
    ] as const;
    for (const [url, file, message] of attempts) {
      const outcome = await cli(
        "calendar:connect",
        "--user",
        host.user.email,
        "--url",
        url,
        "--username",
        "alice",
        "--password-file",
        file,
      );
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toMatch(message);
      expect(outcome.stderr).not.toContain(PASSWORD);
    }
    expect(await t.prisma.credential.count({ where: { userId: host.user.id } })).toBe(0);
  });

  it("blocks slots and bookings with the calendar's events; transparent and cancelled ones are free; edits are seen at the next sync", async () => {
    const host = await connectedHost("bob");
    const monday = futureMonday(3);
    const at = (hours: number) => new Date(monday.getTime() + hours * 3_600_000);
    // 10:00-11:00 busy; 12:00 transparent; 13:00 cancelled.
    await radicale.putEvent("bob", "work", "dentist.ics", event("dentist", at(1), 60));
    await radicale.putEvent("bob", "work", "focus.ics", event("focus", at(3), 60, ["TRANSP:TRANSPARENT"]));
    await radicale.putEvent("bob", "work", "gone.ics", event("gone", at(4), 60, ["STATUS:CANCELLED"]));
    expect((await cli("calendar:sync", "--id", String(host.account.id))).code).toBe(0);

    const slots = await slotsOn(host.apiKey, host.eventType.id, monday);
    expect(slots).toContain(at(0).toISOString());
    expect(slots).not.toContain(at(1).toISOString());
    expect(slots).not.toContain(at(1.5).toISOString());
    expect(slots).toContain(at(2).toISOString());
    expect(slots).toContain(at(3).toISOString());
    expect(slots).toContain(at(4).toISOString());
    const refused = await book(host.apiKey, host.eventType.id, at(1));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe("no_available_users_found_error");

    // /availability names the calendar as the busy time's source.
    const availability = await t.app.inject({
      method: "GET",
      url: `/v1/availability?apiKey=${host.apiKey}&userId=${host.user.id}&dateFrom=${monday.toISOString()}&dateTo=${at(8).toISOString()}`,
    });
    expect(availability.json().busy).toContainEqual({
      start: at(1).toISOString(),
      end: at(2).toISOString(),
      source: host.calendar,
    });

    // Another client moves the dentist to 15:00: the next sync frees 10:00 and blocks 15:00.
    await radicale.putEvent("bob", "work", "dentist.ics", event("dentist", at(6), 60));
    expect((await cli("calendar:sync", "--id", String(host.account.id))).code).toBe(0);
    const after = await slotsOn(host.apiKey, host.eventType.id, monday);
    expect(after).toContain(at(1).toISOString());
    expect(after).not.toContain(at(6).toISOString());
  });

  it("checks a booking against the calendar as it is now, not as the last sync saw it", async () => {
    const host = await connectedHost("carol");
    const tuesday = new Date(futureMonday(4).getTime() + 86_400_000);
    // Added by another client just before the booking; no sync has run since.
    await radicale.putEvent("carol", "work", "lunch.ics", event("lunch", tuesday, 60));
    const refused = await book(host.apiKey, host.eventType.id, tuesday);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe("no_available_users_found_error");
  });

  it("fails closed: a calendar that cannot be read makes its owner busy once its copy is older than allowed", async () => {
    const host = await connectedHost("dave");
    const monday = futureMonday(5);
    expect((await slotsOn(host.apiKey, host.eventType.id, monday)).length).toBeGreaterThan(0);
    proxy.set({ kind: "status", status: 503 });
    try {
      const outcome = await cli("calendar:sync", "--id", String(host.account.id), "--json");
      expect(JSON.parse(outcome.stdout)).toEqual([expect.objectContaining({ ok: false })]);
      // Past the grace (CALENDAR_STALE_MS, a minute here): no slot, a clear reason in /availability.
      await t.prisma.connectedCalendar.updateMany({
        where: { credentialId: host.account.id },
        data: { syncedAt: new Date(Date.now() - 600_000) },
      });
      expect(await slotsOn(host.apiKey, host.eventType.id, monday)).toEqual([]);
      const availability = await t.app.inject({
        method: "GET",
        url: `/v1/availability?apiKey=${host.apiKey}&userId=${host.user.id}&dateFrom=${monday.toISOString()}&dateTo=${new Date(monday.getTime() + 3_600_000).toISOString()}`,
      });
      expect(availability.json().calendarProblems).toEqual([
        expect.objectContaining({
          calendar: host.calendar,
          since: expect.any(String),
          reason: expect.stringMatching(/503/),
        }),
      ]);
      // A booking: its own sync fails too, so the host is not confirmed free.
      const refused = await book(host.apiKey, host.eventType.id, monday);
      expect(refused.json().message).toBe("no_available_users_found_error");
    } finally {
      proxy.set({ kind: "forward" });
    }
    expect((await cli("calendar:sync", "--id", String(host.account.id))).code).toBe(0);
    expect((await slotsOn(host.apiKey, host.eventType.id, monday)).length).toBeGreaterThan(0);
  });

  it("rotates the key: logins sealed under the previous one open, and are sealed again under the new one", async () => {
    await connectedHost("erin");
    const rotated = await runCliInProcess(schedulingCli, ["calendar:rotate-key", "--json"], {
      DATABASE_URL: t.databaseUrl,
      CREDENTIALS_KEY: OTHER_KEY,
      CREDENTIALS_KEY_PREVIOUS: KEY,
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout).resealed).toBeGreaterThan(0);
    expect(await credentialKeyProblem(t.prisma, credentialKeys({ CREDENTIALS_KEY: OTHER_KEY }))).toBeNull();
    // Back, for the other tests' app (which holds KEY).
    await runCliInProcess(schedulingCli, ["calendar:rotate-key"], {
      DATABASE_URL: t.databaseUrl,
      CREDENTIALS_KEY: KEY,
      CREDENTIALS_KEY_PREVIOUS: OTHER_KEY,
    });
  });

  /** The object a booking's event is, as Radicale serves it (null: none). */
  async function objectOf(user: string, uid: string): Promise<string | null> {
    const answer = await fetch(`${radicale.calendarUrl(user, "work")}${encodeURIComponent(uid)}.ics`, {
      headers: { authorization: radicale.authorization(user) },
    });
    // Unfolded: Radicale writes the object again in its own way (order of parameters, folding).
    return answer.status === 404 ? null : (await answer.text()).replace(/\r\n[ \t]/g, "");
  }

  it("writes bookings into the destination calendar: created, moved and cancelled, once each, with v1's booking reference", async () => {
    const host = await connectedHost("frank");
    const destinations = `/v1/destination-calendars?apiKey=${host.apiKey}`;
    // Not a calendar of the account, or no account of that integration: v1's 400, nothing stored.
    for (const body of [
      { integration: "caldav_calendar", externalId: `http://127.0.0.1:${proxy.port}/frank/other/` },
      { integration: "google_calendar", externalId: "frank@example.com" },
    ]) {
      const refused = await t.app.inject({ method: "POST", url: destinations, payload: body });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toBe("Bad request, credential id invalid");
    }
    // The URL as a person types it (no trailing slash, the default port spelled out) names it.
    const created = await t.app.inject({
      method: "POST",
      url: destinations,
      payload: { integration: "caldav_calendar", externalId: host.calendar.replace(/\/$/, "") },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().destinationCalendar.externalId).toBe(host.calendar);

    const monday = futureMonday(6);
    const booked = await book(host.apiKey, host.eventType.id, monday);
    expect(booked.statusCode, booked.body).toBe(201);
    const uid = booked.json().uid as string;
    const written = await vi.waitFor(async () => {
      const text = await objectOf("frank", uid);
      expect(text).not.toBeNull();
      return text!;
    }, SOON);
    expect(written).toContain(`UID:${uid}`);
    expect(written).toContain(`DTSTART:${monday.toISOString().replace(/[-:]/g, "").replace(".000", "")}`);
    expect(written).toMatch(/^ORGANIZER[^:\r\n]*;SCHEDULE-AGENT=CLIENT[;:]/m);
    expect(written).toMatch(/^ATTENDEE[^:\r\n]*;SCHEDULE-AGENT=CLIENT[;:][^\r]*booker@example\.com/im);
    expect(written).not.toMatch(/^METHOD:/m);
    // Recorded once the server took the object: just after it shows there.
    await vi.waitFor(async () => {
      const references = await t.app.inject({
        method: "GET",
        url: `/v1/booking-references?apiKey=${host.apiKey}`,
      });
      expect(references.json().booking_references).toContainEqual(
        expect.objectContaining({
          type: "caldav_calendar",
          bookingId: booked.json().id,
          uid,
          meetingId: uid,
        }),
      );
    }, SOON);

    // Moved: the same object (UID kept), a higher SEQUENCE.
    const later = new Date(monday.getTime() + 2 * 3_600_000);
    const moved = await t.app.inject({
      method: "POST",
      url: `/v1/bookings?apiKey=${host.apiKey}`,
      payload: {
        eventTypeId: host.eventType.id,
        start: later.toISOString(),
        timeZone: "UTC",
        language: "en",
        metadata: {},
        rescheduleUid: uid,
        responses: { name: "Booker", email: "booker@example.com" },
      },
    });
    expect(moved.statusCode, moved.body).toBe(201);
    await vi.waitFor(async () => {
      const text = await objectOf("frank", uid);
      expect(text).toContain(`DTSTART:${later.toISOString().replace(/[-:]/g, "").replace(".000", "")}`);
      expect(text).toMatch(/SEQUENCE:1/);
    }, SOON);
    expect(await objectOf("frank", moved.json().uid)).toBeNull();

    // Cancelled: the object goes.
    const cancelled = await t.app.inject({
      method: "DELETE",
      url: `/v1/bookings/${moved.json().id}/cancel?apiKey=${host.apiKey}`,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Every write applied once, in order: made, moved, removed.
    await vi.waitFor(async () => {
      const writes = await t.prisma.calendarWrite.findMany({
        where: { icalUid: uid },
        orderBy: { createdAt: "asc" },
      });
      expect(writes.map((w) => [w.op, w.status])).toEqual([
        ["put", "SENT"],
        ["put", "SENT"],
        ["delete", "SENT"],
      ]);
    }, SOON);
    expect(await objectOf("frank", uid)).toBeNull();
  });

  it("finds the object a crashed attempt made (no second event), and retries a failing server until it gives up, then resends", async () => {
    // Not selected: its events block nothing, so the booking does not read it (only writes).
    const host = await connectedHost("grace", { select: false });
    await t.app.inject({
      method: "POST",
      url: `/v1/destination-calendars?apiKey=${host.apiKey}`,
      payload: { integration: "caldav_calendar", externalId: host.calendar },
    });
    // The server fails every write: the booking is made all the same, its write retried, then dead.
    proxy.set({ kind: "status", status: 503 });
    const monday = futureMonday(7);
    let uid: string;
    try {
      const booked = await book(host.apiKey, host.eventType.id, monday);
      expect(booked.statusCode, booked.body).toBe(201);
      uid = booked.json().uid;
      await vi.waitFor(async () => {
        const dead = await cli("calendar:dead", "--json");
        expect(JSON.parse(dead.stdout)).toContainEqual(
          expect.objectContaining({ bookingId: booked.json().id, op: "put", attempts: 3 }),
        );
      }, SOON);
    } finally {
      proxy.set({ kind: "forward" });
    }
    // As if an earlier attempt's PUT had reached the server and the process died before its
    // record: the object is there already. The resent write finds it and updates it: one event.
    await radicale.putEvent("grace", "work", `${uid}.ics`, event(uid, monday, 30));
    expect((await cli("calendar:resend", "--all")).code).toBe(0);
    t.app.calendars.writer.poke();
    await vi.waitFor(async () => {
      const write = await t.prisma.calendarWrite.findFirstOrThrow({ where: { icalUid: uid } });
      expect(write.status).toBe("SENT");
    }, SOON);
    const listing = await fetch(radicale.calendarUrl("grace", "work"), {
      method: "PROPFIND",
      headers: { authorization: radicale.authorization("grace"), depth: "1" },
    });
    const hrefs = [...(await listing.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/gi)].map(
      (m) => m[1],
    );
    expect(hrefs).toHaveLength(1);
    expect(await objectOf("grace", uid)).toContain("Intro");
  });
});
