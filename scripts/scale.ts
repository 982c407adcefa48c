// `pnpm scale`: several instances of each service behind one HAProxy on this machine, without
// containers (the compose profile `scale` is the same topology in containers). The proxy
// listens on SHORTENER_PORT and SCHEDULING_PORT; the instances on free ports of 127.0.0.1.
//   pnpm scale [--shortener 2] [--scheduling 2] [--check-interval-ms 2000] [--ha]
// --ha: on a three-node PostgreSQL cluster under Patroni of its own (scripts/ha-cluster.ts,
// docs/operations.md#high-availability) rather than DATABASE_URL or the embedded database.
//   pnpm scale --print-compose-config > deploy/haproxy/haproxy.cfg
//   pnpm scale --print-compose-config --ha > deploy/patroni/haproxy.cfg
// SIGTERM or Ctrl-C: HAProxy stops softly, every instance drains, the embedded database stops.
// SIGHUP (`kill -HUP <pid>`, the pid it prints): a rolling restart, every instance replaced one at
// a time by a process of the current build (`pnpm build` first), with no error for a client
// (docs/adr/0216); one asked for while another runs is refused.
import { parseArgs } from "node:util";
import { openDatabase } from "@app/db";
import { loadConfig as loadSchedulingConfig } from "@app/scheduling/config";
import { databaseOptions } from "@app/server/config";
import { closeGracefully } from "@app/server/shutdown";
import { loadConfig as loadShortenerConfig, readEnvironment } from "@app/shortener/config";
import { type HaCluster, startHaCluster } from "./ha-cluster.ts";
import { COMPOSE_HA_TOPOLOGY, COMPOSE_TOPOLOGY, haproxyConfig } from "./haproxy-config.ts";
import { startTopology, type Topology } from "./scale-topology.ts";

const USAGE =
  "usage: pnpm scale [--shortener N] [--scheduling N] [--check-interval-ms MS] [--ha] | --print-compose-config [--ha]";

function count(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
    console.error(`--${name}: must be an integer from ${min} to ${max} (received "${value}")\n${USAGE}`);
    process.exit(2);
  }
  return parsed;
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      shortener: { type: "string" },
      scheduling: { type: "string" },
      "check-interval-ms": { type: "string" },
      "print-compose-config": { type: "boolean" },
      ha: { type: "boolean" },
      help: { type: "boolean" },
    },
    strict: true,
  }).values;
}
try {
  args = parse();
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (args["print-compose-config"]) {
  process.stdout.write(haproxyConfig(args.ha ? COMPOSE_HA_TOPOLOGY : COMPOSE_TOPOLOGY));
  process.exit(0);
}

const shortenerCount = count(args.shortener, "shortener", 2, 0, 16);
const schedulingCount = count(args.scheduling, "scheduling", 2, 0, 16);
const interMs = count(args["check-interval-ms"], "check-interval-ms", 2_000, 100, 60_000);

let topology: Topology | undefined;
let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
let cluster: HaCluster | undefined;
closeGracefully(
  60_000,
  async ({ err }) => {
    if (err) console.error(err);
    await topology?.stop();
    await database?.close();
    await cluster?.stop();
  },
  { keep: ["SIGHUP"] },
);

let restarting = false;
process.on("SIGHUP", () => {
  if (!topology) return console.warn("rolling restart refused: the instances are still starting");
  if (restarting) return console.warn("rolling restart refused: one is already running");
  restarting = true;
  const began = Date.now();
  console.log("rolling restart: replacing every instance, one at a time");
  topology
    .rollingRestart((line) => console.log(`rolling restart: ${line}`))
    .then(
      (restarted) =>
        console.log(
          `rolling restart done in ${Date.now() - began} ms: ${restarted.length} instances replaced` +
            (restarted.every((instance) => instance.exitCode === 0)
              ? ", each stopped cleanly"
              : `; not clean: ${restarted
                  .filter((instance) => instance.exitCode !== 0)
                  .map((instance) => `${instance.name} exited ${instance.exitCode}`)
                  .join(", ")}`),
        ),
      (error: Error) => console.error(`rolling restart failed: ${error.message}`),
    )
    .finally(() => {
      restarting = false;
    });
});

try {
  const environment = readEnvironment();
  const shortener = loadShortenerConfig(environment);
  const scheduling = loadSchedulingConfig(environment);
  if (schedulingCount > 1 && !scheduling.REDIS_URL) {
    console.warn(
      `warning: REDIS_URL is not set: each of the ${schedulingCount} scheduling instances counts its own rate limit`,
    );
  }
  if (args.ha) {
    if (shortener.DATABASE_URL)
      throw new Error("--ha runs a cluster of its own: unset DATABASE_URL (it names a database of yours)");
    cluster = await startHaCluster({
      // Each agent's loop says "no action" every second: the rest is what an operator reads.
      onLine: (name, line) => {
        if (!/no action\. I am/.test(line)) console.log(`[${name}] ${line}`);
      },
    });
    console.log(
      `patroni cluster ${cluster.scope}: writes on ${cluster.primaryUrl}, reads on ${cluster.replicaUrl} (haproxy)`,
    );
  }
  // Migrated once, here, on the leader (through HAProxy's primary port); each instance finds nothing left.
  database = await openDatabase({
    ...databaseOptions(shortener),
    ...(cluster ? { databaseUrl: cluster.primaryUrl, directUrl: cluster.primaryUrl } : {}),
    log: (line) => console.log(line),
  });
  topology = await startTopology({
    shortener: shortenerCount,
    scheduling: schedulingCount,
    databaseUrl: database.url,
    // The instances parse it themselves (their config.ts), as they would from a shell.
    env: cluster
      ? { ...environment, DATABASE_DIRECT_URL: cluster.primaryUrl, DATABASE_REPLICA_URL: cluster.replicaUrl }
      : environment,
    check: { interMs, fall: 2, rise: 2 },
    // Port 0 (any free one) is left to the topology, which reports the one it took.
    ports: {
      ...(shortener.SHORTENER_PORT ? { shortener: shortener.SHORTENER_PORT } : {}),
      ...(scheduling.SCHEDULING_PORT ? { scheduling: scheduling.SCHEDULING_PORT } : {}),
    },
    host: shortener.HOST,
    onLine: (name, line) => console.log(`[${name}] ${line}`),
  });
  const { url, instances } = topology;
  console.log(
    `shortener on ${url.shortener} (${instances.shortener.length} instances), ` +
      `scheduling on ${url.scheduling} (${instances.scheduling.length} instances), through haproxy; ` +
      `kill -HUP ${process.pid} restarts them one at a time`,
  );
} catch (error) {
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  await topology?.stop();
  await database?.close();
  await cluster?.stop();
  process.exit(1);
}
