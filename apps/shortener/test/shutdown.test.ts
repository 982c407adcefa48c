// SIGTERM while a burst of visits is in flight: every visit that got its 302 has its row.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createPrisma, freePort, type PrismaClient } from "@app/db";
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
