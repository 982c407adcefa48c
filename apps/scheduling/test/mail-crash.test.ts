// A sender killed with SIGKILL while the SMTP server stalls after DATA (docs/adr/0222): the
// server never accepted, the row was never marked, its lock went with the dead connection; after
// a restart the e-mail is delivered exactly once, with the Message-ID the stalled attempt carried.
// Killed after the server accepted one e-mail of a claim and while it stalls the next (docs/adr/
// 0239): the accepted one was recorded SENT before the next was sent, and is not sent again.
// The process's start-up line says whether e-mails are on, without the SMTP password.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, REDIS_PREFIX, withKey } from "./helpers.ts";
import { startSmtp, type TestSmtp } from "./mail-helpers.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const UNTIL = { timeout: 60_000, interval: 25 } as const;
const FROM = "bookings@mail.example.test";

let database: TestDatabase;
let prisma: PrismaClient;
const servers: TestSmtp[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = createPrisma(database.url, { poolMax: 2, directUrl: database.directUrl });
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const server of servers) await server.close();
  await prisma?.$disconnect();
  await database?.drop();
});

/** The built server (dist/server.js) as a process of its own, sending through `smtpUrl`. */
async function startServer(
  smtpUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<{ process: ChildProcess; url: string; startLine: string; lines: string[] }> {
  const started = spawn(process.execPath, ["--enable-source-maps", "apps/scheduling/dist/server.js"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      STOP_WAIT_MS: "0",
      DATABASE_URL: database.url,
      DATABASE_DIRECT_URL: database.directUrl,
      SCHEDULING_PORT: "0",
      ...(smtpUrl === undefined ? {} : { SMTP_URL: smtpUrl, MAIL_FROM: FROM }),
      MAIL_POLL_MS: "50",
      // Longer than the test: the stalled send is still in flight when the process is killed.
      MAIL_SEND_TIMEOUT_MS: "3600000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(started);
  const lines: string[] = [];
  const [url, startLine] = await new Promise<[string, string]>((resolve, reject) => {
    started.once("exit", (code) => reject(new Error(`server exited with ${code}: ${lines.join("\n")}`)));
    createInterface({ input: started.stderr! }).on("line", (line) => lines.push(line));
    createInterface({ input: started.stdout! }).on("line", (line) => {
      lines.push(line);
      const address = /scheduling listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (address) resolve([address, line]);
    });
  });
  return { process: started, url, startLine, lines };
}

/** Stops a started server at once (SIGKILL: nothing it does on the way out is recorded). */
async function kill(server: { process: ChildProcess }): Promise<void> {
  const exited = once(server.process, "exit");
  server.process.kill("SIGKILL");
  await exited;
}

/** Books a 30-minute slot with `eventTypeId`: one e-mail to its host, one to the booker. */
async function book(url: string, apiKey: string, eventTypeId: number, minutes = 60): Promise<void> {
  const response = await fetch(withKey(`${url}/v1/bookings`, apiKey), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      eventTypeId,
      start: at(futureMonday(), minutes).toISOString(),
      timeZone: "UTC",
      language: "en",
      metadata: {},
      responses: { name: "Bea Booker", email: "bea@example.com" },
    }),
  });
  expect(response.status, await response.text()).toBe(201);
}

it("kill -9 while the SMTP server stalls after DATA: after a restart, each e-mail is delivered exactly once", async () => {
  const stalling = await startSmtp("stall");
  servers.push(stalling);
  const host = await createUser(prisma);
  const eventType = await makeHost(prisma, host.user.id);
  const server = await startServer(stalling.url);
  await book(server.url, host.apiKey, eventType.id);
  // The first e-mail's DATA arrived and is never answered: the send is in doubt.
  await vi.waitFor(() => expect(stalling.stalledRaw).toHaveLength(1), UNTIL);
  await kill(server);

  // Nothing was marked: both rows still wait, none has a Message-ID recorded.
  const before = await prisma.mailOutbox.findMany({ orderBy: { id: "asc" } });
  expect(before.map((r) => [r.status, r.messageId, r.sentAt])).toEqual([
    ["PENDING", null, null],
    ["PENDING", null, null],
  ]);

  // Restarted (here, in-process) against a server that accepts.
  const accepting = await startSmtp();
  servers.push(accepting);
  const own = createPrisma(database.url, { poolMax: 4, directUrl: database.directUrl });
  const app = await buildApp({
    config: {
      ...loadConfig({}),
      RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX,
      SMTP_URL: accepting.url,
      MAIL_FROM: FROM,
      MAIL_POLL_MS: 50,
    },
    prisma: own,
  });
  try {
    await app.ready();
    await vi.waitFor(async () => {
      const rows = await prisma.mailOutbox.findMany({});
      expect(rows.every((r) => r.status === "SENT")).toBe(true);
    }, UNTIL);
  } finally {
    await app.close();
    await own.$disconnect();
  }
  const after = await prisma.mailOutbox.findMany({ orderBy: { id: "asc" } });
  expect(accepting.deliveries).toHaveLength(2);
  const ids = accepting.deliveries.map((d) => d.mail.messageId).sort();
  expect(ids).toEqual(after.map((r) => r.messageId).sort());
  expect(new Set(ids).size).toBe(2);
  // The in-doubt attempt carried the Message-ID the delivered copy has: a receiving system
  // that had taken it would see the same message twice, not two messages.
  const stalledId = (await simpleParser(stalling.stalledRaw[0]!)).messageId;
  expect(ids).toContain(stalledId);
  for (const row of after) expect(row.attempts).toBe(1);
});

it("kill -9 after the SMTP server accepted one e-mail of a claim and while it stalls the next: after a restart the accepted one is not sent again, the other once", async () => {
  await prisma.mailOutbox.deleteMany({});
  const smtp = await startSmtp();
  servers.push(smtp);
  // One claim takes both of the booking's e-mails: the first is accepted, the second never answered.
  smtp.script = ["accept", "stall"];
  const host = await createUser(prisma);
  const eventType = await makeHost(prisma, host.user.id);
  const server = await startServer(smtp.url);
  await book(server.url, host.apiKey, eventType.id, 90);
  await vi.waitFor(() => {
    expect(smtp.deliveries).toHaveLength(1);
    expect(smtp.stalledRaw).toHaveLength(1);
  }, UNTIL);
  await kill(server);

  // The accepted one was recorded before the second was sent: SENT with its Message-ID. The one
  // in flight was not (the server had not answered): it still waits, nothing recorded.
  const accepted = smtp.deliveries[0]!.mail.messageId;
  const inFlight = (await simpleParser(smtp.stalledRaw[0]!)).messageId;
  const rows = await prisma.mailOutbox.findMany({ orderBy: { id: "asc" } });
  expect(
    rows.map((r) => [r.status, r.messageId ?? `<${r.id}@mail.example.test>`, r.attempts]).sort(),
  ).toEqual(
    [
      ["SENT", accepted, 1],
      ["PENDING", inFlight, 0],
    ].sort(),
  );
  expect(rows.find((r) => r.status === "PENDING")!.messageId).toBeNull();

  // Restarted, a process again, against the same SMTP server, which now accepts.
  const again = await startServer(smtp.url);
  await vi.waitFor(async () => {
    const after = await prisma.mailOutbox.findMany({});
    expect(after.every((r) => r.status === "SENT")).toBe(true);
  }, UNTIL);
  await kill(again);
  // The accepted one once, the one in doubt once more (with the Message-ID it carried): three
  // DATA commands in all, two deliveries.
  expect(smtp.deliveries.map((d) => d.mail.messageId)).toEqual([accepted, inFlight]);
  expect(smtp.attempts).toBe(3);
  const after = await prisma.mailOutbox.findMany({});
  expect(after.map((r) => r.messageId).sort()).toEqual([accepted, inFlight].sort());
});

it("the start-up line says whether booking e-mails are on, and never shows the SMTP password", async () => {
  const off = await startServer(undefined);
  await kill(off);
  expect(off.startLine).toMatch(
    /scheduling listening on http:\/\/127\.0\.0\.1:\d+, API reference at [^"]*; mail: off \(no SMTP_URL\)"/,
  );
  const password = "hunter2-smtp-Passw0rd";
  const smtp = await startSmtp("accept", { user: "mailer", pass: password });
  servers.push(smtp);
  const on = await startServer(smtp.url);
  await kill(on);
  expect(on.startLine).toMatch(
    new RegExp(
      `scheduling listening on http://127\\.0\\.0\\.1:\\d+, API reference at [^"]*; mail: on \\(smtp://127\\.0\\.0\\.1:${smtp.port}\\)"`,
    ),
  );
  expect(on.lines.join("\n")).not.toContain(password);
});

it("a bad SMTP_URL is a `cannot start:` line that does not show its password", async () => {
  const started = spawn(process.execPath, ["apps/scheduling/dist/server.js"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      SCHEDULING_PORT: "0",
      SMTP_URL: "https://mailer:hunter2-very-secret@mail.example.com",
      MAIL_FROM: FROM,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  started.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = await once(started, "exit");
  expect(code).not.toBe(0);
  expect(stderr).toMatch(/^cannot start: .*SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/m);
  expect(stderr).not.toContain("hunter2");
});
