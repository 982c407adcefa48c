// `pnpm scale`: several instances of each service behind one HAProxy on this machine, without
// containers (the compose profile `scale` is the same topology in containers). The proxy
// listens on SHORTENER_PORT and SCHEDULING_PORT; the instances on free ports of 127.0.0.1.
//   pnpm scale [--shortener 2] [--scheduling 2] [--check-interval-ms 2000]
//   pnpm scale --print-compose-config > deploy/haproxy/haproxy.cfg
// SIGTERM or Ctrl-C: HAProxy stops softly, every instance drains, the embedded database stops.
import { parseArgs } from "node:util";
import { openDatabase } from "@app/db";
import { loadConfig as loadSchedulingConfig } from "@app/scheduling/config";
import { databaseOptions } from "@app/server/config";
import { closeGracefully } from "@app/server/shutdown";
import { loadConfig as loadShortenerConfig, readEnvironment } from "@app/shortener/config";
import { COMPOSE_TOPOLOGY, haproxyConfig } from "./haproxy-config.ts";
import { startTopology, type Topology } from "./scale-topology.ts";

const USAGE =
  "usage: pnpm scale [--shortener N] [--scheduling N] [--check-interval-ms MS] | --print-compose-config";

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
  process.stdout.write(haproxyConfig(COMPOSE_TOPOLOGY));
  process.exit(0);
}

const shortenerCount = count(args.shortener, "shortener", 2, 0, 16);
const schedulingCount = count(args.scheduling, "scheduling", 2, 0, 16);
const interMs = count(args["check-interval-ms"], "check-interval-ms", 2_000, 100, 60_000);

let topology: Topology | undefined;
let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
closeGracefully(30_000, async ({ err }) => {
  if (err) console.error(err);
  await topology?.stop();
  await database?.close();
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
  database = await openDatabase({ ...databaseOptions(shortener), log: (line) => console.log(line) });
  topology = await startTopology({
    shortener: shortenerCount,
    scheduling: schedulingCount,
    databaseUrl: database.url,
    // The instances parse it themselves (their config.ts), as they would from a shell.
    env: environment,
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
      `scheduling on ${url.scheduling} (${instances.scheduling.length} instances), through haproxy`,
  );
} catch (error) {
  console.error(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
  await topology?.stop();
  await database?.close();
  process.exit(1);
}
