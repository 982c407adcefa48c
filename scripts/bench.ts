// `pnpm bench`: redirects per second of the shortener against a bare Fastify route that
// answers the same 302 without touching a database. Prints figures; asserts nothing.
// Uses DATABASE_URL when set, else an embedded PostgreSQL in a temporary folder.
// The load generator shares the process (and a core) with the server: compare the two
// rows with each other, not with other machines.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma, openDatabase } from "@app/db";
import { buildApp } from "@app/shortener";
import { createUser } from "@app/shortener/accounts";
import { defaultConfig, loadConfig, readEnvironment } from "@app/shortener/config";
import Fastify from "fastify";

const DURATION_MS = Number(process.argv[2] ?? 5000);
const CONNECTIONS = 32;

async function load(port: number, urlPath: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + DURATION_MS;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = process.hrtime.bigint();
      const req = request({ host: "127.0.0.1", port, path: urlPath, agent }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode === 302) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          else errors++;
          resolve();
        });
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const worker = async () => {
    while (Date.now() < end) await one();
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (Date.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors, total: latencies.length };
}

function print(label: string, r: Awaited<ReturnType<typeof load>>) {
  console.log(
    `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   errors ${r.errors}`,
  );
}

const { databaseUrl } = loadConfig(readEnvironment());
const tmp = databaseUrl ? undefined : await mkdtemp(path.join(tmpdir(), "bench-"));
if (tmp) await chmod(tmp, 0o755);
const database = await openDatabase({ databaseUrl, dataDir: tmp ?? ".data" });
const prisma = createPrisma(database.url);
try {
  console.log(`${CONNECTIONS} connections, ${DURATION_MS / 1000} s per row, Node ${process.version}\n`);

  const bare = Fastify();
  bare.get("/:name", async (_req, reply) =>
    reply.header("cache-control", "private, no-cache").redirect("https://example.com/", 302),
  );
  await bare.listen({ port: 0, host: "127.0.0.1" });
  print(
    "bare Fastify 302 (no database)",
    await load((bare.server.address() as { port: number }).port, "/bench"),
  );
  await bare.close();

  const app = await buildApp({ config: defaultConfig(), prisma });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const user = await createUser(prisma, `bench-${Date.now()}@example.com`);
  const name = `bench${Date.now()}`;
  await prisma.short.create({ data: { userId: user.id, name, url: "https://example.com/" } });
  const port = (app.server.address() as { port: number }).port;
  const before = await prisma.shortLog.count();
  const result = await load(port, `/${name}`);
  print("shortener redirect (+ visit row)", result);
  const written = (await prisma.shortLog.count()) - before;
  console.log(`\nvisit rows written: ${written} for ${result.total} redirects answered 302`);
  await app.close();
} finally {
  await prisma.$disconnect();
  await database.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
}
