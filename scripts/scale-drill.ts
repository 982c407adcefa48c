// The load of the scale drill (docs/scaling.md): `connections` keep-alive connections, each
// sending GET requests one after another until told to stop, counting 302s and errors (any
// other status, or a connection that failed) with the time each failed request began. `paceMs`
// (`--pace-ms`) spaces each connection's requests; the drills run flat out (docs/adr/0261).
// test/scale.test.ts drives it in-process; against the compose profile, run it alone:
//   node dist/scale-drill.js http://localhost:8000/<name> [--connections 64] [--seconds 6] [--pace-ms 0]
// and kill or stop an instance meanwhile (`docker kill -s KILL …`, `docker-compose stop …`).
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export interface BurstOutcome {
  redirects: number;
  /**
   * Each failed request: when it began (ms since the epoch), its status (0: no answer) and, for
   * no answer, why (the socket's error code), so a failed drill says what the client saw.
   */
  errors: { startedAt: number; status: number; reason?: string }[];
}

export interface Burst {
  outcome: BurstOutcome;
  /** Resolves once every connection has finished its last request. */
  stop(): Promise<BurstOutcome>;
}

/** What each connection waits between its requests (0: none, flat out). */
export interface Pace {
  paceMs?: number;
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined);

export function startBurst(url: string, connections: number, { paceMs = 0 }: Pace = {}): Burst {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const outcome: BurstOutcome = { redirects: 0, errors: [] };
  let stopping = false;
  const one = () =>
    new Promise<void>((resolve) => {
      const startedAt = Date.now();
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode === 302) outcome.redirects++;
          else outcome.errors.push({ startedAt, status: res.statusCode ?? 0 });
          resolve();
        });
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        outcome.errors.push({ startedAt, status: 0, reason: error.code ?? error.message });
        resolve();
      });
      req.end();
    });
  const running = Promise.all(
    Array.from({ length: connections }, async () => {
      while (!stopping) {
        await one();
        await pause(paceMs);
      }
    }),
  );
  return {
    outcome,
    async stop() {
      stopping = true;
      await running;
      agent.destroy();
      return outcome;
    },
  };
}

export interface BookingLoad {
  /** Every answer's status, in order (0: no answer). */
  statuses: number[];
  /** What each answer other than 201 said, for a failure's report. */
  refusals: string[];
  stop(): Promise<number[]>;
}

/** 5-minute slots a day on a schedule that ends at 23:55: the last one starts at 23:50. */
const SLOTS_A_DAY = (24 * 60) / 5 - 1;

/**
 * `connections` keep-alive connections, each booking `eventTypeId` (5-minute slots, bookable
 * around the clock) one slot after another from `firstSlot` on, until told to stop; every
 * booking a slot of its own, so each should be 201.
 */
export function startBookingLoad(
  url: string,
  {
    apiKey,
    eventTypeId,
    firstSlot,
    connections,
    paceMs = 0,
  }: { apiKey: string; eventTypeId: number; firstSlot: Date; connections: number } & Pace,
): BookingLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses: number[] = [];
  const refusals: string[] = [];
  let next = 0;
  let stopping = false;
  const book = () =>
    new Promise<void>((resolve) => {
      const n = next++;
      const minutes = Math.floor(n / SLOTS_A_DAY) * 1_440 + (n % SLOTS_A_DAY) * 5;
      const start = new Date(firstSlot.getTime() + minutes * 60_000).toISOString();
      const req = request(
        `${url}/v1/bookings?apiKey=${apiKey}`,
        { method: "POST", agent, headers: { "content-type": "application/json" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => {
            statuses.push(res.statusCode ?? 0);
            if (res.statusCode !== 201) refusals.push(`${start}: ${res.statusCode} ${text.slice(0, 200)}`);
            resolve();
          });
        },
      );
      req.on("error", (error) => {
        statuses.push(0);
        refusals.push(`${start}: ${error.message}`);
        resolve();
      });
      req.end(
        JSON.stringify({
          eventTypeId,
          start,
          timeZone: "UTC",
          language: "en",
          responses: { name: "Drill", email: "drill@example.com" },
          metadata: {},
        }),
      );
    });
  const running = Promise.all(
    Array.from({ length: connections }, async () => {
      while (!stopping) {
        await book();
        await pause(paceMs);
      }
    }),
  );
  return {
    statuses,
    refusals,
    async stop() {
      stopping = true;
      await running;
      agent.destroy();
      return statuses;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      connections: { type: "string", default: "64" },
      seconds: { type: "string", default: "6" },
      "pace-ms": { type: "string", default: "0" },
    },
  });
  const [url] = positionals;
  if (!url || !/^https?:\/\//.test(url)) {
    console.error(
      "usage: node dist/scale-drill.js <short URL> [--connections 64] [--seconds 6] [--pace-ms 0]",
    );
    process.exit(2);
  }
  const started = Date.now();
  const burst = startBurst(url, Number(values.connections), { paceMs: Number(values["pace-ms"]) });
  await new Promise((resolve) => setTimeout(resolve, Number(values.seconds) * 1_000));
  const { redirects, errors } = await burst.stop();
  const statuses: Record<string, number> = {};
  for (const error of errors) statuses[error.status] = (statuses[error.status] ?? 0) + 1;
  console.log(
    JSON.stringify({
      redirects,
      errors: errors.length,
      statuses,
      errorsBeganMsAfterStart: errors.map((error) => error.startedAt - started),
      seconds: (Date.now() - started) / 1_000,
    }),
  );
}
