// One server of `pnpm bench`, in its own process: `bench-server.ts <kind> <port>`, on
// DATABASE_URL. The baselines use the same Fastify and `pg` as the services.
import { createPrisma } from "@app/db";
import { buildApp as buildScheduling } from "@app/scheduling";
import { loadConfig as loadSchedulingConfig } from "@app/scheduling/config";
import { buildApp as buildShortener } from "@app/shortener";
import { loadConfig as loadShortenerConfig, readEnvironment } from "@app/shortener/config";
import Fastify from "fastify";
import pg from "pg";

const [kind, portText] = process.argv.slice(2);
const port = Number(portText);
const environment = readEnvironment();
const databaseUrl = environment.DATABASE_URL!;
async function baseline() {
  // Bare: no logger, as the issue's baselines.
  const app = Fastify();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const redirect = (url: string) => ({ "cache-control": "private, no-cache", location: url });
  if (kind === "bare302") {
    app.get("/:name", async (_request, reply) =>
      reply.code(302).headers(redirect("https://example.com/")).send(),
    );
  }
  if (kind === "select302" || kind === "naive302") {
    app.get<{ Params: { name: string } }>("/:name", async (request, reply) => {
      const { rows } = await pool.query('SELECT "id", "url" FROM "shortener"."shorts" WHERE "name" = $1', [
        request.params.name,
      ]);
      if (!rows[0]) return reply.code(404).send();
      if (kind === "naive302") {
        await pool.query(
          'INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer") VALUES ($1, $2, $3, $4)',
          [rows[0].id, request.ip, request.headers["user-agent"] ?? "", request.headers.referer ?? ""],
        );
      }
      return reply.code(302).headers(redirect(rows[0].url)).send();
    });
  }
  if (kind === "prototype302") {
    // The issue's 40-line prototype: targets cached in a Map, visits group-committed with
    // INSERT … SELECT FROM unnest, two INSERTs in flight, each 302 sent after its COMMIT.
    const targets = new Map<string, { id: string; url: string }>();
    const queue: { row: string[]; done: () => void }[] = [];
    let inFlight = 0;
    const flush = () => {
      while (inFlight < 2 && queue.length > 0) {
        const batch = queue.splice(0, 1000);
        inFlight++;
        const column = (i: number) => batch.map((visit) => visit.row[i]);
        void pool
          .query(
            'INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer") SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[])',
            [column(0), column(1), column(2), column(3)],
          )
          .then(() => {
            for (const visit of batch) visit.done();
          })
          .finally(() => {
            inFlight--;
            flush();
          });
      }
    };
    app.get<{ Params: { name: string } }>("/:name", async (request, reply) => {
      let target = targets.get(request.params.name);
      if (!target) {
        const { rows } = await pool.query('SELECT "id", "url" FROM "shortener"."shorts" WHERE "name" = $1', [
          request.params.name,
        ]);
        if (!rows[0]) return reply.code(404).send();
        target = rows[0] as { id: string; url: string };
        targets.set(request.params.name, target);
      }
      const row = [target.id, request.ip, request.headers["user-agent"] ?? "", request.headers.referer ?? ""];
      await new Promise<void>((done) => {
        queue.push({ row, done });
        flush();
      });
      return reply.code(302).headers(redirect(target.url)).send();
    });
  }
  if (kind === "selectJson") {
    app.get("/event-types", async () => {
      const { rows } = await pool.query('SELECT * FROM "scheduling"."event_types" ORDER BY "id" LIMIT 100');
      return { event_types: rows };
    });
  }
  app.addHook("onClose", () => pool.end());
  return app;
}

async function service() {
  const prisma = createPrisma(databaseUrl);
  const app =
    kind === "shortener"
      ? await buildShortener({ config: loadShortenerConfig(environment), prisma, logger: true })
      : await buildScheduling({
          config: { ...loadSchedulingConfig(environment), RATE_LIMIT_MAX: 100_000_000 },
          prisma,
          logger: true,
        });
  // Disconnected after the app closed (as the services' processes do): the visit log drains and
  // folds through it while the app closes.
  stopDatabase = () => prisma.$disconnect();
  return app;
}

let stopDatabase = async () => {};
const app = kind === "shortener" || kind === "scheduling" ? await service() : await baseline();
await app.listen({ port, host: "127.0.0.1" });
process.send?.("ready");
// The driver samples memory and the visit queue during a soak.
process.on("message", (message) => {
  if (message !== "stats") return;
  const visitLog = (app as unknown as { visitLog?: { depth: number } }).visitLog;
  process.send?.({ ...process.memoryUsage(), depth: visitLog?.depth ?? 0 });
});
/** With BENCH_METRICS set, the visit log's batches so far (count, visits, mean commit time), at the stop and on SIGUSR2. */
async function visitBatches(): Promise<void> {
  const registry = (app as unknown as { metrics?: { getSingleMetric(name: string): unknown } }).metrics;
  if (!environment.BENCH_METRICS || !registry) return;
  const read = async (name: string) =>
    (
      await (
        registry.getSingleMetric(name) as {
          get(): Promise<{ values: { metricName?: string; value: number }[] }>;
        }
      ).get()
    ).values;
  // Only the shortener has a visit log (the scheduling servers have metrics too).
  if (!registry.getSingleMetric("visit_log_batch_size")) return;
  const sizes = await read("visit_log_batch_size");
  const commits = await read("visit_log_commit_seconds");
  const value = (values: { metricName?: string; value: number }[], suffix: string) =>
    values.filter((v) => v.metricName?.endsWith(suffix)).reduce((sum, v) => sum + v.value, 0);
  const batches = value(commits, "_count");
  const hot = (app as unknown as { hotPath?: { answered: number } }).hotPath;
  console.error(
    `${hot ? `hot path: ${hot.answered} answered; ` : ""}visit batches: ${batches}, visits ${value(sizes, "_sum")}, mean ${(value(sizes, "_sum") / batches).toFixed(1)} a batch, ${((value(commits, "_sum") / batches) * 1000).toFixed(2)} ms a commit`,
  );
}
process.on("SIGUSR2", () => void visitBatches());
process.once(
  "SIGTERM",
  () =>
    void visitBatches()
      .then(() => app.close())
      .then(stopDatabase)
      .then(() => process.exit(0)),
);
