// SIGTERM while a burst of visits is in flight: every visit that got its 302 has its row. And
// the planned stop before it (docs/adr/0215): not ready at once, serving on with
// `Connection: close` for STOP_WAIT_MS, a second SIGTERM ending that wait, exit 0.
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createPrisma, freePort, type PrismaClient } from "@app/db";
import { REPEATED_SIGNAL_MS } from "@app/server/shutdown";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newUser, visit } from "./helpers.ts";

const serverFile = fileURLToPath(new URL("../dist/server.js", import.meta.url));
let db: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 2 });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

/** Until the server answers /health, or its process exits; the test's own limit bounds it. */
async function waitForHealth(port: number, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early with ${child.exitCode}`);
    if ((await visit(port, "/health")) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("drains in-flight visits on SIGTERM and loses none that were acknowledged", async () => {
  const user = await newUser(prisma);
  const short = await prisma.short.create({
    data: { userId: user.id, name: "drain", url: "https://example.com/" },
  });
  const port = await freePort();
  const child = spawn(process.execPath, ["--enable-source-maps", serverFile], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATABASE_DIRECT_URL: db.directUrl,
      SHORTENER_PORT: String(port),
      LOG_LEVEL: "info",
      // The drain itself, without the readiness wait (the next test has it).
      STOP_WAIT_MS: "0",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The access log at info is one line per request: keep only the service's own lines.
  const ownLines: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.includes("shortener stopped:")) ownLines.push(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await waitForHealth(port, child);

  const burst = Array.from({ length: 300 }, () => visit(port, "/drain"));
  // Signal as soon as the first visits are answered: the rest are in flight or queued.
  await Promise.race(burst);
  child.kill("SIGTERM");
  // A second wave meets a closing server: refused, 503, or still served; never lost.
  const lateWave = Array.from({ length: 100 }, () => visit(port, "/drain"));
  const statuses = await Promise.all([...burst, ...lateWave]);
  expect(await exited).toBe(0);

  const acknowledged = statuses.filter((s) => s === 302).length;
  expect(acknowledged).toBeGreaterThan(0);
  // Nothing else but a 302, a 503 (closing) or a refused connection.
  expect(statuses.every((s) => s === 302 || s === 503 || s === 0)).toBe(true);
  expect(await prisma.shortLog.count({ where: { shortId: short.id } })).toBe(acknowledged);
  // One line once stopped: the requests it drained and the visits it stored meanwhile.
  expect(ownLines).toEqual([
    expect.stringMatching(
      /"msg":"shortener stopped: \d+ requests? drained, \d+ visits stored while stopping"/,
    ),
  ]);
});

/** A GET over a fresh keep-alive connection: its status and the Connection header it answers with. */
function get(port: number, path: string): Promise<{ status: number; connection: string | undefined }> {
  const agent = new Agent({ keepAlive: true });
  return new Promise<{ status: number; connection: string | undefined }>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on("error", () => resolve({ status: 0, connection: undefined }));
    req.end();
  }).finally(() => agent.destroy());
}

it("on SIGTERM answers /ready 503 at once and serves on with Connection: close; a later SIGTERM ends the wait and it exits 0", async () => {
  const user = await newUser(prisma);
  const short = await prisma.short.create({
    data: { userId: user.id, name: "planned", url: "https://example.com/" },
  });
  const port = await freePort();
  const child = spawn(process.execPath, ["--enable-source-maps", serverFile], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATABASE_DIRECT_URL: db.directUrl,
      SHORTENER_PORT: String(port),
      LOG_LEVEL: "info",
      // Longer than this test may run: only the second SIGTERM can end the wait in time.
      STOP_WAIT_MS: "120000",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ownLines: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (/stopping: not ready|shortener stopped:/.test(line)) ownLines.push(line);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await waitForHealth(port, child);
  const before = await get(port, "/planned");
  expect(before.status).toBe(302);
  expect(before.connection).toBe("keep-alive");

  child.kill("SIGTERM");
  const signalledAt = Date.now();
  // Not ready from the signal on (polled: the signal takes a moment to arrive)...
  while ((await get(port, "/ready")).status !== 503) await new Promise((r) => setTimeout(r, 50));
  // ...and still serving, each answer closing its connection.
  const during = await get(port, "/planned");
  expect(during).toEqual({ status: 302, connection: "close" });
  expect(child.exitCode).toBeNull();

  // A second SIGTERM past the repeat window is a second request: it ends the wait; the stop is still clean.
  await new Promise((r) => setTimeout(r, Math.max(0, signalledAt + REPEATED_SIGNAL_MS + 500 - Date.now())));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(ownLines).toEqual([
    expect.stringMatching(
      /"msg":"stopping: not ready, serving for 120000 ms while the proxy takes this instance out of rotation"/,
    ),
    expect.stringMatching(/"msg":"shortener stopped: /),
  ]);
  expect(await prisma.shortLog.count({ where: { shortId: short.id } })).toBe(2);
}, 90_000);
