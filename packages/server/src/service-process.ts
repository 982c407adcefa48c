// A service as a process, the same for every entry point (`pnpm start`, each app's server.ts):
// the environment read and checked, the database opened (embedded when no DATABASE_URL), each
// service started on a Prisma client of its own, and an orderly stop on SIGTERM/SIGINT. A start
// that fails prints one line, closes what it had started (the embedded database too: it is a
// process of its own, and would outlive this one) and exits 1.
import { createPrisma, type Database, type DatabaseOptions, openDatabase, type PrismaClient } from "@app/db";
import type { FastifyInstance } from "fastify";
import { readEnvironment, unknownVariablesWarning } from "./config.ts";
import type { PlannedStop } from "./http.ts";
import { type Registry, serveMetrics } from "./metrics.ts";
import { closeGracefully, type ShutdownCause } from "./shutdown.ts";

/**
 * How long a stop may wait for in-flight requests (and their visit rows) before exiting 1,
 * counted from the end of the readiness wait (STOP_WAIT_MS).
 */
export const DRAIN_MS = 15_000;

/** No request (other than a probe) for this long after STOP_WAIT_MS: the proxy has taken the instance out. */
export const QUIET_MS = 1_000;

/**
 * How long, at least, an instance serves on past STOP_WAIT_MS while requests still arrive: a
 * proxy on a loaded machine checks late (two CI runs at once: HAProxy marked an instance down
 * 3.7 s after its signal, whose wait was 1.5 s and its serving on 1.5 s more: 52 connections reset).
 */
export const LATE_PROXY_MS = 5_000;

/**
 * The node flags every service process is started with: `pnpm start`, the image, compose and
 * `pnpm scale` (their commands are checked against this list: test/compose-env.test.ts).
 * A 64 MB semi-space: with V8's default (16 MB) a busy redirect's young generation filled every
 * 50 ms while the requests in flight were alive, so each scavenge copied and promoted them, and
 * garbage collection took a fifth of the process's time (docs/adr/0237, docs/performance.md).
 */
export const SERVICE_NODE_FLAGS = ["--enable-source-maps", "--max-semi-space-size=64"] as const;

export interface ListenOptions {
  /** The service's name, for the line that says where it listens. */
  service: string;
  host: string;
  port: number;
  /** Serves `GET /metrics` on this port too, when set. */
  metricsPort?: number | undefined;
  /** Said at the end of that line: a setting the operator should see at start, e.g. `mail: off (no SMTP_URL)`. */
  detail?: string | undefined;
}

/**
 * Starts `app` listening (and its metrics listener). If either cannot listen (the port is
 * taken), the app is closed before the error is thrown: its pool and timers do not keep the
 * process alive.
 */
export async function listenService<App extends FastifyInstance & { metrics: Registry }>(
  app: App,
  { service, host, port, metricsPort, detail }: ListenOptions,
): Promise<App> {
  try {
    if (metricsPort !== undefined) {
      const metrics = await serveMetrics(app.metrics, metricsPort, host);
      app.addHook("onClose", () => new Promise<void>((resolve) => metrics.close(() => resolve())));
    }
    await app.listen({
      port,
      host,
      listenTextResolver: (address) =>
        `${service} listening on ${address}, API reference at ${address}/docs/reference (OpenAPI document: ${address}/docs)${detail === undefined ? "" : `; ${detail}`}`,
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/** A started service: what the stop closes, and where it says so. */
export interface RunningService {
  /** Asked first: `/ready` turns 503 and answers close their connections (http.ts drainOnStop). */
  plannedStop: PlannedStop;
  close(): Promise<unknown>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** What a process runs, from its environment (a bad setting throws: one line, exit 1). */
export interface ProcessPlan {
  /** Every variable the services read; others set are warned about (a typo is not ignored). */
  variables: readonly string[];
  database: Omit<DatabaseOptions, "log">;
  /** STOP_WAIT_MS: how long a SIGTERM'd process serves on, not ready, before it drains. */
  stopWaitMs: number;
  /** Each service, started in this order on a Prisma client of its own. */
  services: ((prisma: PrismaClient) => Promise<RunningService>)[];
}

export async function runServices(plan: (environment: NodeJS.ProcessEnv) => ProcessPlan): Promise<void> {
  let database: Database | undefined;
  const clients: PrismaClient[] = [];
  const services: RunningService[] = [];
  let stopWaitMs = 0;
  /** Ends the readiness wait early (a second SIGTERM); set only while it runs. */
  let endWait: (() => void) | undefined;
  // From the first moment, so a signal during the start stops what has started so far. A
  // planned stop (docs/adr/0215): every service reports itself not ready and, on SIGTERM, serves
  // on for STOP_WAIT_MS while the proxy takes it out of rotation; then the services stop
  // accepting and finish in-flight work, then the pools close, then the database.
  const stop = async ({ err, signal }: ShutdownCause) => {
    const log = services[0]?.log;
    if (err && log) log.error({ err }, "shutting down after an error");
    else if (err) console.error(err);
    for (const service of services) service.plannedStop.request();
    if (!err && signal === "SIGTERM" && stopWaitMs > 0 && services.length > 0) {
      for (const service of services) {
        service.log.info(
          { signal },
          `stopping: not ready, serving for ${stopWaitMs} ms while the proxy takes this instance out of rotation`,
        );
      }
      let ended = false;
      const pause = (ms: number) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          endWait = () => {
            ended = true;
            clearTimeout(timer);
            resolve();
          };
        });
      await pause(stopWaitMs);
      // A busy proxy checks late: serve on while requests still arrive, until none has for
      // QUIET_MS (it has taken this instance out), for at most STOP_WAIT_MS more (LATE_PROXY_MS
      // at least). Closing the listener while the proxy still connects resets the connections
      // it had accepted.
      const until = Date.now() + Math.max(stopWaitMs, LATE_PROXY_MS);
      while (
        !ended &&
        Date.now() < until &&
        Math.min(...services.map((s) => s.plannedStop.quietForMs())) < QUIET_MS
      ) {
        await pause(50);
      }
      endWait = undefined;
    }
    if (!err) for (const service of services) service.log.info({ signal }, "shutting down");
    setTimeout(() => {
      console.error(`the stop took longer than ${DRAIN_MS} ms: exiting`);
      process.exit(1);
    }, DRAIN_MS).unref();
    await Promise.all(services.map((service) => service.close()));
    await Promise.all(clients.map((client) => client.$disconnect()));
    await database?.close();
  };
  closeGracefully(undefined, stop, {
    // A second SIGTERM during the wait: the operator wants it gone now; it still drains.
    onSecondRequest: () => {
      if (!endWait) return false;
      endWait();
      return true;
    },
  });
  try {
    const environment = readEnvironment();
    const { variables, database: where, services: starts, stopWaitMs: wait } = plan(environment);
    stopWaitMs = wait;
    const warning = unknownVariablesWarning(environment, variables);
    if (warning) console.warn(warning);
    // Contract steps wait for `pnpm db:migrate --contract`: in a rolling upgrade the previous
    // release is still serving beside this process (docs/adr/0218). A new database has none.
    database = await openDatabase({
      ...where,
      log: (line) => console.log(line),
      contractSteps: "unless-in-use",
    });
    for (const start of starts) {
      const prisma = createPrisma(database.url, {
        directUrl: database.directUrl,
        ...(where.waitMs === undefined ? {} : { waitMs: where.waitMs }),
      });
      clients.push(prisma);
      // A first query before it listens: it opens a connection and instantiates Prisma's query
      // compiler (a tenth of a second, seconds on a loaded machine), which the first request
      // would pay otherwise; a readiness probe then gave up and logged the database as down.
      await prisma.$queryRaw`SELECT 1`;
      services.push(await start(prisma));
    }
  } catch (error) {
    // One line, no stack trace: a setting, a connection or a port the operator must fix.
    console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    await Promise.allSettled(services.map((service) => service.close()));
    await Promise.allSettled(clients.map((client) => client.$disconnect()));
    await database?.close().catch(() => {});
    process.exit(1);
  }
}
