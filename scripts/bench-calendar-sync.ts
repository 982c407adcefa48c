// The calendar sync against a real Radicale (issue 47, `pnpm bench --only calendar-sync`): a
// full first sync of a 2,000-event calendar (a tenth weekly series), an incremental one after
// another client edited 10 of its events, and a first sync of a 100,000-event calendar with the
// syncing process's resident memory sampled from /proc while it runs (target: growth ≤ 150 MB).
// The sync runs in a process of its own (bench-calendar-sync-worker.ts), as an instance runs it.
// Calendars are written straight into Radicale's storage folder (@app/testing/radicale's
// writeObjects, with its item cache: what Radicale would have after 100,000 PUTs, in seconds);
// the 10 edits go over HTTP, as another client makes them.
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import type { PrismaClient } from "@app/db";
import { credentialKeys, sealLogin } from "@app/scheduling/calendars/logins";
import { type RadicaleObject, startRadicale } from "@app/testing/radicale";

const DAY = 86_400_000;
const PASSWORD = "bench-calendar-sync";

const stamp = (at: number) =>
  new Date(at)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** One event of a bench calendar: its start, 30 to 90 minutes, weekly when `rrule` says so. */
function eventIcs(uid: string, start: number, minutes: number, rrule?: string): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//bench//calendar-sync//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(start + minutes * 60_000)}`,
    "SUMMARY:Busy",
    ...(rrule ? [`RRULE:${rrule}`] : []),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/**
 * `count` events spread evenly from `fromDay` to `toDay` days from today (08:00 to 17:00 UTC), a
 * tenth of them weekly series (`rrule`); event n is `e<n>.ics`, UID `e<n>`.
 */
function* calendarEvents(count: number, fromDay: number, toDay: number, rrule: string) {
  const today = Math.floor(Date.now() / DAY) * DAY;
  for (let n = 0; n < count; n++) yield eventAt(n, count, today, fromDay, toDay, rrule);
}

function eventAt(n: number, count: number, today: number, fromDay: number, toDay: number, rrule: string) {
  const day = fromDay + Math.floor((n * (toDay - fromDay)) / count);
  const start = today + day * DAY + (8 + ((n * 7) % 10)) * 3_600_000;
  const object: RadicaleObject = {
    name: `e${n}.ics`,
    ics: eventIcs(`e${n}`, start, 30 + (n % 3) * 30, n % 10 === 0 ? rrule : undefined),
  };
  return object;
}

/** A process's resident memory (bytes), from /proc; 0 where there is none. */
function rssOf(pid: number | undefined): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

interface Synced {
  outcome: { ok: boolean; changed: number; removed: number; skipped: number; error?: string };
  ms: number;
  heapUsed: number;
  /** V8's young generation and old space (committed) and the heap in use, at the start and at their peaks. */
  start: { newSpace: number; oldSpace: number; heapUsed: number };
  peak: { newSpace: number; oldSpace: number; heapUsed: number };
}

/** The syncing process, ready: a sync of a calendar id, and its end. */
async function startWorker(root: string, databaseUrl: string, key: string, timeoutMs?: number) {
  const child: ChildProcess = fork(path.join(root, "dist/bench-calendar-sync-worker.js"), [], {
    execArgv: ["--enable-source-maps", "--max-semi-space-size=64"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      CREDENTIALS_KEY: key,
      LOG_LEVEL: "warn",
      ...(timeoutMs ? { CALENDAR_TIMEOUT_MS: String(timeoutMs) } : {}),
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the sync worker exited with ${code}`)));
  });
  return {
    pid: child.pid,
    sync: (calendarId: number) =>
      new Promise<Synced>((resolve) => {
        child.once("message", (message) => resolve(message as Synced));
        child.send({ calendarId });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send("exit");
      }),
  };
}

export async function calendarSyncRows({
  root,
  prisma,
  databaseUrl,
  quick,
  parts = ["small", "large"],
}: {
  root: string;
  prisma: PrismaClient;
  databaseUrl: string;
  quick: boolean;
  /** The 2,000-event rows, the 100,000-event one, or both. */
  parts?: ("small" | "large")[];
}): Promise<void> {
  const key = randomBytes(32).toString("hex");
  const keys = credentialKeys({ CREDENTIALS_KEY: key })!;
  const radicale = await startRadicale({
    users: { small: PASSWORD, large: PASSWORD },
    loglevel: "warning",
  });
  /** A host whose selected calendar is `user`'s Radicale calendar "work", never synchronised yet. */
  const connect = async (user: string) => {
    const host = await prisma.user.create({
      data: { email: `bench-sync-${user}-${Date.now()}@example.com`, timeZone: "Europe/Berlin" },
    });
    const url = radicale.calendarUrl(user, "work");
    const credential = await prisma.credential.create({
      data: {
        type: "caldav_calendar",
        appId: "caldav-calendar",
        userId: host.id,
        url,
        secret: "",
        keyId: "",
      },
    });
    await prisma.credential.update({
      where: { id: credential.id },
      data: sealLogin(keys, credential.id, { username: user, password: PASSWORD }),
    });
    const calendar = await prisma.connectedCalendar.create({
      data: { credentialId: credential.id, userId: host.id, url, supportsSync: true },
    });
    await prisma.selectedCalendar.create({
      data: { userId: host.id, integration: "caldav_calendar", externalId: url, credentialId: credential.id },
    });
    return calendar.id;
  };
  const busyRows = (calendarId: number) => prisma.calendarBusy.count({ where: { calendarId } });
  /** Forgets what the sync stored: the next one is a first sync again. */
  const forget = async (calendarId: number) => {
    await prisma.calendarObject.deleteMany({ where: { calendarId } });
    await prisma.connectedCalendar.update({
      where: { id: calendarId },
      data: { syncToken: null, ctag: null, expandedUntil: null },
    });
  };
  /**
   * Radicale's own first answer over a calendar written into its folder (it reads every object
   * and its cache entry once, seconds per thousand on this machine), outside the sync's time.
   */
  const warm = async (user: string) => {
    const began = performance.now();
    // node:http, not fetch: fetch gives up on an answer whose headers take over 300 s.
    await new Promise<void>((resolve, reject) => {
      const body =
        '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/">' +
        "<D:prop><CS:getctag/><D:sync-token/></D:prop></D:propfind>";
      const sent = request(
        radicale.calendarUrl(user, "work"),
        {
          method: "PROPFIND",
          headers: {
            authorization: radicale.authorization(user),
            depth: "0",
            "content-type": "application/xml",
          },
        },
        (response) => {
          response.resume();
          response.once("end", () => resolve());
          response.once("error", reject);
        },
      );
      sent.once("error", reject);
      sent.end(body);
    });
    return ((performance.now() - began) / 1000).toFixed(1);
  };
  const line = (label: string, text: string) => console.log(`${label.padEnd(46)} ${text}`);
  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")})`;
  };
  try {
    console.log(
      "\nCalendar sync against Radicale 3.1.8 (sync-collection), in a process of its own; horizon 400 days",
    );
    if (parts.includes("small")) await smallRows();
    if (parts.includes("large")) await largeRow();
    console.log("targets: timed (first and incremental); 100,000 events: RSS growth ≤ 150 MB");
  } finally {
    await radicale.stop();
  }

  async function smallRows() {
    // 2,000 events over the next year, a tenth weekly series without end.
    radicale.writeObjects("small", "work", calendarEvents(2_000, 0, 365, "FREQ=WEEKLY"));
    const small = await connect("small");
    console.log(`  (Radicale's first answer over the 2,000: ${await warm("small")} s, not counted)`);
    const worker = await startWorker(root, databaseUrl, key);
    try {
      const firsts: number[] = [];
      for (let round = 0; round < (quick ? 1 : 5); round++) {
        if (round > 0) await forget(small);
        const { outcome, ms } = await worker.sync(small);
        if (!outcome.ok || outcome.changed !== 2_000)
          throw new Error(`the first sync went wrong: ${JSON.stringify(outcome)}`);
        firsts.push(ms);
      }
      line(
        "first sync, 2,000 events (200 weekly series)",
        `${stats(firsts)}; ${await busyRows(small)} busy rows`,
      );
      const edits: number[] = [];
      const today = Math.floor(Date.now() / DAY) * DAY;
      for (let round = 0; round < (quick ? 2 : 10); round++) {
        // Another client moves 10 events an hour later (PUT over HTTP, as it would).
        for (let i = 0; i < 10; i++) {
          const n = ((round * 10 + i) * 37 + 1) % 2_000;
          const event = eventAt(n, 2_000, today + (round + 1) * 3_600_000, 0, 365, "FREQ=WEEKLY");
          await radicale.putEvent("small", "work", event.name, event.ics);
        }
        const { outcome, ms } = await worker.sync(small);
        if (!outcome.ok || outcome.changed !== 10)
          throw new Error(`the incremental sync went wrong: ${JSON.stringify(outcome)}`);
        edits.push(ms);
      }
      line("incremental sync after 10 edits by another client", stats(edits));
    } finally {
      await worker.stop();
    }
  }

  async function largeRow() {
    // 100,000 events over ten years (eight back, two ahead), a tenth weekly series of 20.
    const count = quick ? 10_000 : 100_000;
    const seeding = performance.now();
    radicale.writeObjects("large", "work", calendarEvents(count, -8 * 365, 2 * 365, "FREQ=WEEKLY;COUNT=20"));
    const large = await connect("large");
    const written = ((performance.now() - seeding) / 1000).toFixed(1);
    // Not warmed first: Radicale's first answer over them (minutes: it reads every object) is in
    // the sync's time.
    console.log(`  (${count.toLocaleString("en")} objects written into Radicale's folder in ${written} s)`);
    // Radicale 3.1.8 takes minutes to answer one request over 100,000 objects on a small machine
    // (it reads each): the default CALENDAR_TIMEOUT_MS (10 s) would fail this sync, closed
    // (docs/scheduling.md).
    const fresh = await startWorker(root, databaseUrl, key, 1_800_000);
    try {
      const before = rssOf(fresh.pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(fresh.pid));
      }, 20);
      const {
        outcome,
        ms,
        heapUsed,
        start,
        peak: heap,
      } = await fresh.sync(large).finally(() => clearInterval(sampler));
      peak = Math.max(peak, rssOf(fresh.pid));
      if (!outcome.ok || outcome.changed !== count)
        throw new Error(`the large sync went wrong: ${JSON.stringify(outcome)}`);
      const mb = (bytes: number) => (bytes / 1_000_000).toFixed(0);
      line(
        `first sync, ${count.toLocaleString("en")} events`,
        `${(ms / 1000).toFixed(1)} s; ${await busyRows(large)} busy rows; RSS ${mb(before)} → peak ${mb(peak)} MB: ` +
          `growth ${mb(peak - before)} MB${peak - before <= 150_000_000 ? "" : "  ← over 150 MB"} (heap after ${mb(heapUsed)} MB)`,
      );
      line(
        "  → V8's spaces in it, start → peak",
        `young generation ${mb(start.newSpace)} → ${mb(heap.newSpace)} MB, old space ${mb(start.oldSpace)} → ${mb(heap.oldSpace)} MB, ` +
          `heap in use ${mb(start.heapUsed)} → ${mb(heap.heapUsed)} MB`,
      );
    } finally {
      await fresh.stop();
    }
  }
}
