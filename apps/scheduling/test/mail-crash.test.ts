// A sender killed with SIGKILL while the SMTP server stalls after DATA (docs/adr/0222): the
// server never accepted, the row was never marked, its lock went with the dead connection; after
// a restart the e-mail is delivered exactly once, with the Message-ID the stalled attempt carried.
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
let child: ChildProcess | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = createPrisma(database.url, { poolMax: 2, directUrl: database.directUrl });
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const server of servers) await server.close();
  await prisma?.$disconnect();
  await database?.drop();
});

/** The built server (dist/server.js) as a process of its own, sending through `smtpUrl`. */
async function startServer(smtpUrl: string): Promise<{ process: ChildProcess; url: string }> {
  const started = spawn(process.execPath, ["--enable-source-maps", "apps/scheduling/dist/server.js"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      STOP_WAIT_MS: "0",
      DATABASE_URL: database.url,
      DATABASE_DIRECT_URL: database.directUrl,
      SCHEDULING_PORT: "0",
      SMTP_URL: smtpUrl,
      MAIL_FROM: FROM,
      MAIL_POLL_MS: "50",
      // Longer than the test: the stalled send is still in flight when the process is killed.
      MAIL_SEND_TIMEOUT_MS: "3600000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = started;
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    started.once("exit", (code) => reject(new Error(`server exited with ${code}: ${lines.join("\n")}`)));
    createInterface({ input: started.stderr! }).on("line", (line) => lines.push(line));
    createInterface({ input: started.stdout! }).on("line", (line) => {
      lines.push(line);
      const address = /scheduling listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (address) resolve(address);
    });
  });
  return { process: started, url };
}

it("kill -9 while the SMTP server stalls after DATA: after a restart, each e-mail is delivered exactly once", async () => {
  const stalling = await startSmtp("stall");
  servers.push(stalling);
  const host = await createUser(prisma);
  const eventType = await makeHost(prisma, host.user.id);
  const server = await startServer(stalling.url);
  const response = await fetch(withKey(`${server.url}/v1/bookings`, host.apiKey), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      eventTypeId: eventType.id,
      start: at(futureMonday(), 60).toISOString(),
      timeZone: "UTC",
      language: "en",
      metadata: {},
      responses: { name: "Bea Booker", email: "bea@example.com" },
    }),
  });
  expect(response.status).toBe(201);
  // The first e-mail's DATA arrived and is never answered: the send is in doubt.
  await vi.waitFor(() => expect(stalling.stalledRaw).toHaveLength(1), UNTIL);
  const exited = once(server.process, "exit");
  server.process.kill("SIGKILL");
  await exited;

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
