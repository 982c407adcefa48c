// The calendar sync's thread (docs/adr/0289): built as the service runs it, in a process with the
// services' Node flags, it expands objects with a young generation of its own (the process's
// 64 MB semi-space lifted while V8 sets up its heap); from the sources, a CalDavError keeps its
// kind across the threads. The sync through it is calendar-sync.test.ts's.
import { execFile } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { SERVICE_NODE_FLAGS } from "@app/server/service-process";
import { expect, it } from "vitest";
import { CalDavThread } from "../src/calendars/caldav-thread.ts";

const weekly = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//test//thread//EN",
  "BEGIN:VEVENT",
  "UID:weekly",
  "DTSTAMP:20260101T000000Z",
  "DTSTART:20260105T090000Z",
  "DTEND:20260105T100000Z",
  "RRULE:FREQ=WEEKLY;COUNT=3",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");
const window = { from: Date.parse("2026-01-01T00:00:00Z"), to: Date.parse("2026-03-01T00:00:00Z") };
const MB = 1024 * 1024;

it("the built thread, in a process with the services' flags: expands objects with a young generation of its own", async () => {
  // The global setup builds dist/.
  const built = path.resolve(import.meta.dirname, "../dist/calendars/caldav-thread.js");
  const script = `
    const { CalDavThread } = await import(${JSON.stringify(`file://${built}`)});
    const thread = new CalDavThread();
    const limits = [];
    const expanded = [];
    // Twice: a thread stopped and started again is set up the same way.
    for (let round = 0; round < 2; round++) {
      expanded.push(await thread.expand([{ href: "w.ics", etag: "e", data: ${JSON.stringify(weekly)} }], ${JSON.stringify(window)}, "Europe/Berlin"));
      limits.push((await thread.heap()).limit);
      await thread.stop();
    }
    console.log(JSON.stringify({ expanded, limits }));`;
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
    execFile(
      process.execPath,
      [...SERVICE_NODE_FLAGS, "--input-type=module", "-e", script],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout }),
    ),
  );
  const { expanded, limits } = JSON.parse(stdout) as {
    expanded: { href: string; pieces: [number, number][]; keep: string | null }[][];
    limits: number[];
  };
  const hour = (iso: string) => [Date.parse(iso), Date.parse(iso) + 3_600_000];
  for (const objects of expanded) {
    expect(objects).toEqual([
      {
        href: "w.ics",
        etag: "e",
        pieces: [hour("2026-01-05T09:00:00Z"), hour("2026-01-12T09:00:00Z"), hour("2026-01-19T09:00:00Z")],
        keep: weekly,
      },
    ]);
  }
  // V8's bound is the old generation's (1 GB) and the young one's: 16 MB, not the 3 × 64 MB the
  // process's flag would have given it.
  for (const limit of limits) {
    expect(limit).toBeGreaterThanOrEqual(1_024 * MB);
    expect(limit).toBeLessThan(1_024 * MB + 3 * 64 * MB);
    expect(limit).toBeLessThanOrEqual(1_024 * MB + 32 * MB);
  }
});

it("from the sources: a CalDavError keeps its kind across the threads; a stopped thread fails what waits", async () => {
  const thread = new CalDavThread();
  const client = thread.open({ username: "a", password: "b", timeoutMs: 5_000 });
  try {
    const refused = await client.getCtag("http://127.0.0.1:1/cal/").catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "CalDavError", kind: "network" });
  } finally {
    client.close();
  }
  const pending = thread.open({ username: "a", password: "b", timeoutMs: 5_000 });
  // A listing that waits on a server that never answers, then the thread is stopped under it.

  const silent = createServer(() => {}).listen(0, "127.0.0.1");
  await new Promise((resolve) => silent.once("listening", resolve));
  try {
    const port = (silent.address() as { port: number }).port;
    const listing = (async () => {
      for await (const _ of pending.listObjects(`http://127.0.0.1:${port}/cal/`)) void _;
    })();
    const failed = listing.catch((error: unknown) => error);
    await thread.stop();
    expect(await failed).toMatchObject({ message: expect.stringMatching(/thread was stopped/) });
  } finally {
    pending.close();
    silent.close();
  }
});
