// The calendar sync against a real Radicale (issue 47, docs/adr/0247, 0254): incremental by
// sync-collection and by ctag and ETags alike; recurring events; objects that do not parse or are
// too large skipped, the calendar still confirmed; a stalled server, a 403, a server gone mid-sync:
// each a failure recorded and counted, the stored copy intact, the next sync recovering; two
// instances sharing the work; team events blocked by each host's own calendars.
import { metricValue } from "@app/testing/database";
import { type HttpFaultProxy, startHttpFaultProxy } from "@app/testing/http-fault-proxy";
import { type Radicale, radicaleMissing, startRadicale } from "@app/testing/radicale";
import { SOON } from "@app/testing/timing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { credentialKeys, sealLogin } from "../src/calendars/logins.ts";
import { CalendarSync } from "../src/calendars/sync.ts";
import { futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, setupApp } from "./helpers.ts";

const missing = radicaleMissing();
if (missing) console.warn(`apps/scheduling/test/calendar-sync.test.ts skipped: ${missing}`);

const KEY = "c".repeat(64);
const PASSWORD = "sync-secret-3b7";
const keys = credentialKeys({ CREDENTIALS_KEY: KEY })!;
const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function vevent(uid: string, start: Date, minutes: number, extra: string[] = []): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//sync//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(new Date(start.getTime() + minutes * 60_000))}`,
    "SUMMARY:Busy",
    ...extra,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

describe.skipIf(missing)("the calendar sync", () => {
  const t = setupApp({
    CREDENTIALS_KEY: KEY,
    CALENDAR_SYNC_INTERVAL_MS: 600_000,
    CALENDAR_STALE_MS: 1_200_000,
    CALENDAR_TIMEOUT_MS: 1_000,
  });
  let radicale: Radicale;
  let proxy: HttpFaultProxy;
  let users = 0;

  beforeAll(async () => {
    radicale = await startRadicale({
      users: Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`u${i}`, PASSWORD])),
    });
    proxy = await startHttpFaultProxy({ host: "127.0.0.1", port: radicale.port });
  });
  afterAll(async () => {
    await proxy?.close();
    await radicale?.stop();
  });

  /** A sync as an instance runs it, with its own settings (a short timeout for the stall). */
  const newSync = (timeoutMs = 5_000) =>
    new CalendarSync(
      t.prisma,
      { intervalMs: 600_000, timeoutMs, horizonDays: 400, keys },
      { info() {}, warn() {} },
    );

  /**
   * A user with a Radicale calendar (through the fault proxy), connected and selected as
   * calendar:connect leaves it, without a first sync: the tests sync when they want.
   */
  async function calendarOf(options: { supportsSync?: boolean; due?: boolean } = {}) {
    const name = `u${users++}`;
    const host = await createUser(t.prisma);
    await radicale.mkcalendar(name, "work");
    const url = `http://127.0.0.1:${proxy.port}/${name}/work/`;
    const credential = await t.prisma.credential.create({
      data: {
        type: "caldav_calendar",
        appId: "caldav-calendar",
        userId: host.user.id,
        url,
        secret: "",
        keyId: "",
      },
    });
    await t.prisma.credential.update({
      where: { id: credential.id },
      data: sealLogin(keys, credential.id, { username: name, password: PASSWORD }),
    });
    const calendar = await t.prisma.connectedCalendar.create({
      data: {
        credentialId: credential.id,
        userId: host.user.id,
        url,
        supportsSync: options.supportsSync ?? true,
        // Not due: the app's own sync (it polls every few seconds) would otherwise take it first
        // now and then, and the test's first sync would find nothing new.
        ...(options.due ? {} : { nextSyncAt: new Date(Date.now() + 86_400_000) }),
      },
    });
    await t.prisma.selectedCalendar.create({
      data: {
        userId: host.user.id,
        integration: "caldav_calendar",
        externalId: url,
        credentialId: credential.id,
      },
    });
    return { ...host, name, calendarId: calendar.id, url };
  }

  /** The stored busy intervals of a calendar, as [start ISO, end ISO], in order. */
  const busyOf = async (calendarId: number) =>
    (
      await t.prisma.calendarBusy.findMany({
        where: { calendarId },
        orderBy: [{ startsAt: "asc" }, { endsAt: "asc" }],
      })
    ).map((row) => [row.startsAt.toISOString(), row.endsAt.toISOString()]);

  /** Rows of sync runs' listings left for a calendar. */
  const listingRows = (calendarId: number) => t.prisma.calendarListing.count({ where: { calendarId } });

  it.each([
    ["sync-collection", true],
    ["ctag and ETags", false],
  ])("follows another client's adds, moves and deletes incrementally (%s)", async (_label, supportsSync) => {
    const cal = await calendarOf({ supportsSync });
    const monday = futureMonday(2);
    const at = (hours: number) => new Date(monday.getTime() + hours * 3_600_000);
    await radicale.putEvent(cal.name, "work", "a.ics", vevent("a", at(0), 60));
    await radicale.putEvent(cal.name, "work", "b.ics", vevent("b", at(2), 30));
    const sync = newSync();
    try {
      expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true, changed: 2 });
      expect(await busyOf(cal.calendarId)).toEqual([
        [at(0).toISOString(), at(1).toISOString()],
        [at(2).toISOString(), at(2.5).toISOString()],
      ]);
      // Nothing changed: nothing fetched.
      expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true, changed: 0, removed: 0 });
      // Another client moves b, deletes a, adds c.
      await radicale.putEvent(cal.name, "work", "b.ics", vevent("b", at(4), 30));
      radicale.removeObjects(cal.name, "work", ["a.ics"]);
      await radicale.putEvent(cal.name, "work", "c.ics", vevent("c", at(6), 15));
      expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true, changed: 2, removed: 1 });
      expect(await busyOf(cal.calendarId)).toEqual([
        [at(4).toISOString(), at(4.5).toISOString()],
        [at(6).toISOString(), at(6.25).toISOString()],
      ]);
      if (supportsSync) {
        // A token the server no longer knows: listed in full again, compared with the stored
        // ETags (nothing fetched anew), what the listing leaves out removed.
        await t.prisma.connectedCalendar.update({
          where: { id: cal.calendarId },
          data: { syncToken: "http://radicale.org/ns/sync/unknown", ctag: null },
        });
        radicale.removeObjects(cal.name, "work", ["b.ics"]);
        expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true, changed: 0, removed: 1 });
        expect(await busyOf(cal.calendarId)).toEqual([[at(6).toISOString(), at(6.25).toISOString()]]);
      }
      // Each run's listing (docs/adr/0282) is gone once it ended.
      expect(await listingRows(cal.calendarId)).toBe(0);
    } finally {
      await sync.stop();
    }
  });

  it("expands recurring events over the horizon, EXDATEs and overrides followed; a bad object is skipped, the calendar still confirmed", async () => {
    const cal = await calendarOf();
    const monday = futureMonday(2);
    const week = 7 * 86_400_000;
    // Weekly for ever, but not on the second Monday; the third moved an hour later.
    await radicale.putEvent(
      cal.name,
      "work",
      "weekly.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//test//sync//EN",
        "BEGIN:VEVENT",
        "UID:weekly",
        "DTSTAMP:20260101T000000Z",
        `DTSTART:${stamp(monday)}`,
        "DURATION:PT1H",
        "RRULE:FREQ=WEEKLY",
        `EXDATE:${stamp(new Date(monday.getTime() + week))}`,
        "SUMMARY:Standup",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:weekly",
        "DTSTAMP:20260101T000000Z",
        `RECURRENCE-ID:${stamp(new Date(monday.getTime() + 2 * week))}`,
        `DTSTART:${stamp(new Date(monday.getTime() + 2 * week + 3_600_000))}`,
        "DURATION:PT1H",
        "SUMMARY:Standup, moved",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    // Another client's broken object, written straight into the calendar's folder.
    radicale.writeObjects(cal.name, "work", [
      { name: "broken.ics", ics: "BEGIN:VCALENDAR\r\nnot ical at all\r\n" },
    ]);
    const sync = newSync();
    try {
      const outcome = await sync.syncNow(cal.calendarId);
      expect(outcome).toMatchObject({ ok: true, skipped: 1 });
      const starts = (await busyOf(cal.calendarId)).map(([start]) => start);
      expect(starts.slice(0, 3)).toEqual([
        monday.toISOString(),
        new Date(monday.getTime() + 2 * week + 3_600_000).toISOString(),
        new Date(monday.getTime() + 3 * week).toISOString(),
      ]);
      // Every week until the horizon, 400 days ahead.
      expect(starts.length).toBeGreaterThan(50);
      const stored = await t.prisma.connectedCalendar.findUniqueOrThrow({ where: { id: cal.calendarId } });
      expect(stored).toMatchObject({ failingSince: null, lastError: null });
      expect(stored.expandedUntil!.getTime()).toBeGreaterThan(Date.now() + 399 * 86_400_000);
    } finally {
      await sync.stop();
    }
  });

  it.each([
    ["a stalled server", { kind: "stall" } as const, /no answer from the server within/, "timeout"],
    ["a 403", { kind: "status", status: 403 } as const, /403/, "forbidden"],
    ["a server that closes mid-answer", { kind: "cut", afterBytes: 40 } as const, /./, undefined],
  ])(
    "records %s as a failure, counts it, and keeps the stored copy until a sync succeeds",
    async (_label, fault, message, kind) => {
      const cal = await calendarOf();
      const monday = futureMonday(3);
      await radicale.putEvent(cal.name, "work", "x.ics", vevent("x", monday, 60));
      const sync = newSync(1_000);
      try {
        expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true });
        const before = await busyOf(cal.calendarId);
        await radicale.putEvent(
          cal.name,
          "work",
          "y.ics",
          vevent("y", new Date(monday.getTime() + 7_200_000), 60),
        );
        proxy.set(fault as never);
        let outcome: Awaited<ReturnType<CalendarSync["syncNow"]>>;
        try {
          outcome = await sync.syncNow(cal.calendarId);
        } finally {
          proxy.set({ kind: "forward" });
        }
        expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(message) });
        const stored = await t.prisma.connectedCalendar.findUniqueOrThrow({ where: { id: cal.calendarId } });
        expect(stored.failingSince).not.toBeNull();
        expect(stored.consecutiveFailures).toBe(1);
        expect(await busyOf(cal.calendarId)).toEqual(before);
        expect(await listingRows(cal.calendarId)).toBe(0);
        if (kind) {
          // The app's own sync counts failures by kind (its metric): one more through it.
          const metrics = async () => t.app.metrics.metrics();
          const counted =
            metricValue(await metrics(), "scheduling_calendar_sync_failures_total", { kind }) ?? 0;
          proxy.set(fault as never);
          try {
            await t.app.calendars.sync.syncNow(cal.calendarId);
          } finally {
            proxy.set({ kind: "forward" });
          }
          expect(metricValue(await metrics(), "scheduling_calendar_sync_failures_total", { kind })).toBe(
            counted + 1,
          );
        }
        expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true });
        expect(await busyOf(cal.calendarId)).toHaveLength(2);
        expect(
          await t.prisma.connectedCalendar.findUniqueOrThrow({ where: { id: cal.calendarId } }),
        ).toMatchObject({
          failingSince: null,
          consecutiveFailures: 0,
        });
      } finally {
        await sync.stop();
      }
    },
  );

  it("a sync whose thread dies (out of memory) is a failure recorded, the stored copy kept; the next sync succeeds", async () => {
    const cal = await calendarOf();
    const monday = futureMonday(3);
    await radicale.putEvent(cal.name, "work", "x.ics", vevent("x", monday, 60));
    const sync = newSync();
    try {
      expect(await sync.syncNow(cal.calendarId)).toMatchObject({ ok: true, changed: 1 });
    } finally {
      await sync.stop();
    }
    const before = await busyOf(cal.calendarId);
    await radicale.putEvent(
      cal.name,
      "work",
      "y.ics",
      vevent("y", new Date(monday.getTime() + 7_200_000), 60),
    );
    // A heap no thread can run in: the thread is ended by V8's limit, the instance is not.
    const starved = new CalendarSync(
      t.prisma,
      {
        intervalMs: 600_000,
        timeoutMs: 5_000,
        horizonDays: 400,
        keys,
        threadLimits: { maxOldGenerationSizeMb: 1 },
      },
      { info() {}, warn() {} },
    );
    try {
      const outcome = await starved.syncNow(cal.calendarId);
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/thread stopped/) });
    } finally {
      await starved.stop();
    }
    const stored = await t.prisma.connectedCalendar.findUniqueOrThrow({ where: { id: cal.calendarId } });
    expect(stored.consecutiveFailures).toBe(1);
    expect(await busyOf(cal.calendarId)).toEqual(before);
    expect(await listingRows(cal.calendarId)).toBe(0);
    const again = newSync();
    try {
      expect(await again.syncNow(cal.calendarId)).toMatchObject({ ok: true, changed: 1 });
    } finally {
      await again.stop();
    }
    expect(await busyOf(cal.calendarId)).toHaveLength(2);
  });

  it("a calendar of a thousand events is read in pages, every event a busy row; other hosts' slots answer meanwhile", async () => {
    const cal = await calendarOf();
    const monday = futureMonday(2);
    const at = (n: number) => new Date(monday.getTime() + n * 3 * 3_600_000);
    // 1,000 events (five pages of the sync), every hundredth a weekly series of three, written
    // straight into the calendar's folder as another client's years of use leave it.
    const expected: [string, string][] = [];
    radicale.writeObjects(
      cal.name,
      "work",
      Array.from({ length: 1_000 }, (_, n) => {
        const series = n % 100 === 0;
        for (let k = 0; k < (series ? 3 : 1); k++) {
          const start = new Date(at(n).getTime() + k * 7 * 86_400_000);
          expected.push([start.toISOString(), new Date(start.getTime() + 30 * 60_000).toISOString()]);
        }
        return {
          name: `e${n}.ics`,
          ics: vevent(`e${n}`, at(n), 30, series ? ["RRULE:FREQ=WEEKLY;COUNT=3"] : []),
        };
      }),
    );
    expected.sort(([a, b], [c, d]) => a.localeCompare(c) || b.localeCompare(d));
    const other = await createUser(t.prisma);
    const { id: eventTypeId } = await makeHost(t.prisma, other.user.id);
    const sync = newSync(30_000);
    try {
      const [outcome, slots] = await Promise.all([
        sync.syncNow(cal.calendarId),
        t.app.inject({
          method: "GET",
          url: `/v1/slots?apiKey=${other.apiKey}&eventTypeId=${eventTypeId}&startTime=${monday.toISOString()}&endTime=${new Date(monday.getTime() + 86_400_000).toISOString()}`,
        }),
      ]);
      expect(outcome).toMatchObject({ ok: true, changed: 1_000, removed: 0, skipped: 0 });
      expect(slots.statusCode, slots.body).toBe(200);
      expect(Object.values(slots.json().slots).flat()).not.toHaveLength(0);
      expect(await busyOf(cal.calendarId)).toEqual(expected);
      expect(await t.prisma.calendarObject.count({ where: { calendarId: cal.calendarId } })).toBe(1_000);
    } finally {
      await sync.stop();
    }
  });

  it("shares the work between instances: each due calendar is synchronised by one of them", async () => {
    const calendars = await Promise.all([
      calendarOf({ due: true }),
      calendarOf({ due: true }),
      calendarOf({ due: true }),
    ]);
    const [a, b] = [newSync(), newSync()];
    try {
      const outcomes = (await Promise.all([a.syncDue(8), b.syncDue(8)])).flat();
      const mine = outcomes.filter((o) => calendars.some((c) => c.calendarId === o.calendarId));
      // None synchronised twice.
      expect(new Set(mine.map((o) => o.calendarId)).size).toBe(mine.length);
      // Every one synchronised: by these two, or now and then (a loaded machine) by the app's own
      // sync, a third instance polling every few seconds, which leased it first.
      await vi.waitFor(async () => {
        const synced = await t.prisma.connectedCalendar.findMany({
          where: { id: { in: calendars.map((c) => c.calendarId) } },
          select: { syncedAt: true },
        });
        expect(synced.every((calendar) => calendar.syncedAt !== null)).toBe(true);
      }, SOON);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("blocks a team's slots with each host's own calendar: COLLECTIVE needs all free, ROUND_ROBIN books a free one", async () => {
    const [first, second] = [await calendarOf(), await calendarOf()];
    for (const host of [first, second]) await giveSchedule(t.prisma, host.user.id);
    const monday = futureMonday(4);
    await radicale.putEvent(first.name, "work", "busy.ics", vevent("busy", monday, 60));
    const sync = newSync();
    try {
      await sync.syncNow(first.calendarId);
      await sync.syncNow(second.calendarId);
    } finally {
      await sync.stop();
    }
    const hosts = [{ userId: first.user.id }, { userId: second.user.id }];
    const collective = await makeTeamEvent(t.prisma, "COLLECTIVE", hosts);
    const roundRobin = await makeTeamEvent(t.prisma, "ROUND_ROBIN", hosts);
    const slots = async (eventTypeId: number) => {
      const answer = await t.app.inject({
        method: "GET",
        url: `/v1/slots?apiKey=${first.apiKey}&eventTypeId=${eventTypeId}&startTime=${monday.toISOString()}&endTime=${new Date(monday.getTime() + 2 * 3_600_000).toISOString()}`,
      });
      return Object.values(answer.json().slots as Record<string, { time: string }[]>)
        .flat()
        .map((slot) => new Date(slot.time).toISOString());
    };
    expect(await slots(collective.eventType.id)).not.toContain(monday.toISOString());
    expect(await slots(roundRobin.eventType.id)).toContain(monday.toISOString());
    const booked = await t.app.inject({
      method: "POST",
      url: `/v1/bookings?apiKey=${first.apiKey}`,
      payload: {
        eventTypeId: roundRobin.eventType.id,
        start: monday.toISOString(),
        timeZone: "UTC",
        language: "en",
        metadata: {},
        responses: { name: "Booker", email: "booker@example.com" },
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    // The free host, not the one whose calendar is busy.
    expect(booked.json().userId).toBe(second.user.id);
  });
});
