// Several instances of each service behind one HAProxy, as real processes on this machine:
// each instance is `node apps/<service>/dist/server.js` (built: `pnpm build`) on its own port, HAProxy
// (Debian's binary) runs in the foreground with a configuration rendered by haproxy-config.ts.
// `pnpm scale` (scripts/scale.ts) runs it for a person; test/scale.test.ts for its drills.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort } from "@app/db";
import { SERVICE_NODE_FLAGS } from "@app/server/service-process";
import { type HealthCheck, haproxyConfig, markedDownWithinMs, type ServiceName } from "./haproxy-config.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
/** A service's built server in the checkout at `root` (this one, or a worktree of another release). */
const serverFile = (root: string, service: ServiceName) =>
  path.join(root, "apps", service, "dist", "server.js");
const PORT_VARIABLE: Record<ServiceName, string> = {
  shortener: "SHORTENER_PORT",
  scheduling: "SCHEDULING_PORT",
};
/** Lines of output kept per process, for a failure's report. */
const KEPT_LINES = 200;
/**
 * How long an instance may take to answer `/ready` 200 after its spawn. About a second alone;
 * a dozen instances starting at once beside another CI run (load 16-33 on 2 cores) took over 60 s.
 */
const READY_WITHIN_MS = 120_000;

/** The path of Debian's haproxy binary, or undefined when it is not installed. */
export function haproxyBinary(): string | undefined {
  for (const candidate of ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"]) {
    try {
      execFileSync(candidate, ["-v"], { stdio: "ignore" });
      return candidate;
    } catch {}
  }
  return undefined;
}

export interface Instance {
  service: ServiceName;
  /** `shortener-1`…: its server name in HAProxy. */
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  exited: Promise<number | null>;
  /** The last lines it printed (stdout and stderr). */
  output(): string;
}

export interface ServerState {
  proxy: string;
  server: string;
  /** UP, DOWN, MAINT, `UP 1/2` (going down)… */
  status: string;
  /** What its last check found, as HAProxy says it (why it is DOWN: a status, a body that did not match). */
  check: string;
  /** Sessions open now, and since the start. */
  current: number;
  total: number;
  /** Requests answered 5xx, and responses that failed (the instance closed mid-answer). */
  responses5xx: number;
  responseErrors: number;
  /** Connections to it that failed, and requests sent to another server after that. */
  connectionErrors: number;
  redispatched: number;
}

export interface TopologyOptions {
  shortener: number;
  scheduling: number;
  /** The database every instance uses (migrated before; each instance also migrates, under a lock). */
  databaseUrl: string;
  /** The environment every instance starts from (the ports, HOST and DATABASE_URL are set here). */
  env: Record<string, string | undefined>;
  /** A service's own variables over `env` and `databaseUrl`, e.g. its DATABASE_URL on a pooler. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string | undefined>>>;
  check: HealthCheck;
  /** The proxy's ports on `host`; free ones when unset. */
  ports?: Partial<Record<ServiceName, number>>;
  host?: string;
  /** Each line any process prints, with its name (`shortener-2`, `haproxy`). */
  onLine?: (name: string, line: string) => void;
  /** The checkout whose built services the instances run (default: this one). */
  root?: string;
  /** How long each instance may take to answer /ready 200 after its spawn (default READY_WITHIN_MS). */
  readyTimeoutMs?: number;
}

export interface Topology {
  /** The proxy's origin per service, e.g. `http://127.0.0.1:3000`. */
  url: Record<ServiceName, string>;
  instances: Record<ServiceName, Instance[]>;
  haproxy: { process: ChildProcess; configFile: string };
  /** HAProxy's view of every server, from its runtime API (`show stat`). */
  serverStates(): Promise<ServerState[]>;
  /**
   * Replaces every instance, one at a time, with a new process of the current build on the same
   * port (docs/adr/0216): HAProxy drains it, it gets SIGTERM (not ready, serves on STOP_WAIT_MS,
   * drains, exits 0), the new one starts, and the next waits until HAProxy has the new one UP.
   * `root`: the checkout the new processes run from (an upgrade: default, the current one).
   * Refused (throws) while another is running.
   */
  rollingRestart(onStep?: (line: string) => void, options?: { root?: string }): Promise<RestartedInstance[]>;
  /** Stops HAProxy (soft: answers in flight finish), then every instance (SIGTERM: they drain). */
  stop(): Promise<void>;
}

export interface RestartedInstance {
  name: string;
  /** The replaced process's exit code: 0 after a clean drain. */
  exitCode: number | null;
  /** From the drain's start to the new process UP in HAProxy. */
  tookMs: number;
}

/** The instances' readiness wait: HAProxy marks a not-ready server DOWN within inter × fall; one more interval of margin. */
export function stopWaitFor(check: HealthCheck): number {
  return markedDownWithinMs(check) + check.interMs;
}

function track(name: string, child: ChildProcess, onLine?: (name: string, line: string) => void) {
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      onLine?.(name, line);
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
  return { exited, output: () => lines.join("\n") };
}

/** One GET over a fresh connection: its status (0 when refused, reset or past 2 s) and body. */
function answer(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: 2_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 2 s")));
    req.on("error", (error) => resolve({ status: 0, body: error.message }));
    req.end();
  });
}

/**
 * A test of an instance's `/ready` for `waitUntil`: 200, or what it last answered, which
 * `waitUntil` names when the wait runs out (a loaded machine's start, a probe that fails).
 */
function readyTest(url: string): { test: () => Promise<boolean>; last: () => string } {
  let last = "no answer yet";
  return {
    test: async () => {
      const got = await answer(`${url}/ready`);
      last = `${got.status} ${got.body.slice(0, 200)}`;
      return got.status === 200;
    },
    last: () => `last /ready answer: ${last}`,
  };
}

async function waitUntil(
  what: string,
  test: () => Promise<boolean>,
  timeoutMs: number,
  alive: () => string,
  last?: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = alive();
    if (dead) throw new Error(`${what}: ${dead}`);
    if (await test()) return;
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? `; ${last()}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One command on HAProxy's runtime API; its whole answer. */
export function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let answer = "";
    client.setEncoding("utf8");
    client.on("data", (chunk) => (answer += chunk));
    client.on("end", () => resolve(answer));
    client.on("error", reject);
    client.end(`${command}\n`);
  });
}

/** HAProxy's view of every server behind it, from its runtime API (`show stat`). */
export async function haproxyServerStates(socket: string): Promise<ServerState[]> {
  return parseStat(await haproxyCommand(socket, "show stat"));
}

function parseStat(csv: string): ServerState[] {
  const [header, ...rows] = csv.trim().split("\n");
  const columns = (header ?? "").replace(/^# /, "").split(",");
  const at = (row: string[], name: string) => row[columns.indexOf(name)] ?? "";
  return rows
    .map((line) => line.split(","))
    .filter((row) => !["FRONTEND", "BACKEND"].includes(at(row, "svname")))
    .map((row) => ({
      proxy: at(row, "pxname"),
      server: at(row, "svname"),
      status: at(row, "status"),
      check: at(row, "last_chk"),
      current: Number(at(row, "scur")),
      total: Number(at(row, "stot")),
      responses5xx: Number(at(row, "hrsp_5xx") || 0),
      responseErrors: Number(at(row, "eresp") || 0),
      connectionErrors: Number(at(row, "econ") || 0),
      redispatched: Number(at(row, "wredis") || 0),
    }));
}

/** A free port on `host`, held (listening) until `release()`: no other process takes it meanwhile. */
async function reservePort(host: string): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as { port: number };
  let released: Promise<void> | undefined;
  return {
    port,
    release: () => {
      released ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return released;
    },
  };
}

async function stopProcess(
  child: ChildProcess,
  exited: Promise<unknown>,
  signal: NodeJS.Signals,
  graceMs: number,
) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const haproxy = haproxyBinary();
  if (!haproxy) throw new Error("haproxy is not installed (apt-get install -y haproxy)");
  const host = options.host ?? "127.0.0.1";
  const workDir = mkdtempSync(path.join(tmpdir(), "scale-"));
  const statsSocket = path.join(workDir, "admin.sock");
  // The proxy binds its ports only once every instance is ready, which takes a while on a busy
  // machine: a port merely found free now was taken by another process meanwhile (seen in two
  // CI runs at once). So a free one is held until HAProxy is about to bind it.
  const held = await Promise.all(
    (["shortener", "scheduling"] as const).map(async (service) =>
      options.ports?.[service] === undefined ? reservePort(host) : undefined,
    ),
  );
  const releaseHeld = () => Promise.all(held.map((reservation) => reservation?.release()));
  const proxyPorts: Record<ServiceName, number> = {
    shortener: options.ports?.shortener ?? held[0]!.port,
    scheduling: options.ports?.scheduling ?? held[1]!.port,
  };
  const url = {
    shortener: `http://${host}:${proxyPorts.shortener}`,
    scheduling: `http://${host}:${proxyPorts.scheduling}`,
  };
  const instances: Record<ServiceName, Instance[]> = { shortener: [], scheduling: [] };
  let proxy: { process: ChildProcess; exited: Promise<number | null>; output(): string } | undefined;
  // An instance that outlived this process would hold its port and the database.
  const killAll = () => {
    proxy?.process.kill("SIGKILL");
    for (const instance of [...instances.shortener, ...instances.scheduling])
      instance.process.kill("SIGKILL");
  };
  process.once("exit", killAll);

  const stop = async () => {
    process.removeListener("exit", killAll);
    await releaseHeld();
    if (proxy) await stopProcess(proxy.process, proxy.exited, "SIGUSR1", 15_000);
    await Promise.all(
      [...instances.shortener, ...instances.scheduling].map((instance) =>
        stopProcess(instance.process, instance.exited, "SIGTERM", 20_000),
      ),
    );
    rmSync(workDir, { recursive: true, force: true });
  };

  const spawnInstance = (service: ServiceName, name: string, port: number, root: string): Instance => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, serverFile(root, service)], {
      cwd: root,
      env: {
        // Long enough for HAProxy to mark a stopping instance DOWN before it stops listening.
        STOP_WAIT_MS: String(stopWaitFor(options.check)),
        ...options.env,
        // Several instances cannot share one metrics port: this topology runs them without it.
        SHORTENER_METRICS_PORT: undefined,
        SCHEDULING_METRICS_PORT: undefined,
        // Every instance answers with the proxy's origin in its short URLs.
        ...(service === "shortener" && !options.env.SHORT_BASE_URL ? { SHORT_BASE_URL: url.shortener } : {}),
        DATABASE_URL: options.databaseUrl,
        HOST: "127.0.0.1",
        [PORT_VARIABLE[service]]: String(port),
        // The proxy appends the client's address to X-Forwarded-For: one hop to trust.
        TRUST_PROXY: "1",
        ...options.serviceEnv?.[service],
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return {
      service,
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      process: child,
      ...track(name, child, options.onLine),
    };
  };
  /** Waits for an instance's `/ready`; past the wait, says what it answered and last logged. */
  const untilReady = (instance: Instance, alive: () => string) => {
    const ready = readyTest(instance.url);
    return waitUntil(
      `${instance.name} ready`,
      ready.test,
      options.readyTimeoutMs ?? READY_WITHIN_MS,
      alive,
      () => {
        const logged = instance.output().split("\n").slice(-5).join("\n");
        return `${ready.last()}; its last lines:\n${logged}`;
      },
    );
  };
  const readyDirectly = (instance: Instance) =>
    untilReady(instance, () =>
      instance.process.exitCode !== null
        ? `exited with ${instance.process.exitCode}:\n${instance.output()}`
        : "",
    );

  try {
    for (const service of ["shortener", "scheduling"] as const) {
      for (let n = 1; n <= options[service]; n++) {
        instances[service].push(
          spawnInstance(service, `${service}-${n}`, await freePort(), options.root ?? repoRoot),
        );
      }
    }
    const all = [...instances.shortener, ...instances.scheduling];
    const firstDead = () => {
      const dead = all.find((instance) => instance.process.exitCode !== null);
      return dead ? `${dead.name} exited with ${dead.process.exitCode}:\n${dead.output()}` : "";
    };
    await Promise.all(all.map((instance) => untilReady(instance, firstDead)));

    const configFile = path.join(workDir, "haproxy.cfg");
    writeFileSync(
      configFile,
      haproxyConfig({
        services: (["shortener", "scheduling"] as const)
          .filter((service) => instances[service].length > 0)
          .map((service) => ({
            name: service,
            bind: `${host}:${proxyPorts[service]}`,
            servers: instances[service].map((instance) => ({
              name: instance.name,
              address: `127.0.0.1:${instance.port}`,
            })),
          })),
        check: options.check,
        statsSocket,
      }),
    );
    // -db: foreground, no daemon; its exit is this child's. Its own process group: Ctrl-C in a
    // terminal signals the whole foreground group, and SIGINT stops HAProxy at once, cutting the
    // answers in flight; `stop()` sends it SIGUSR1 (a soft stop) instead.
    await releaseHeld();
    const child = spawn(haproxy, ["-db", "-f", configFile], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    proxy = { process: child, ...track("haproxy", child, options.onLine) };
    const started = proxy;
    const serverStates = () => haproxyServerStates(statsSocket);
    await waitUntil(
      "haproxy sees every instance UP",
      async () => {
        const states = await serverStates().catch(() => []);
        return states.length === all.length && states.every((state) => state.status === "UP");
      },
      30_000,
      () =>
        started.process.exitCode !== null
          ? `exited with ${started.process.exitCode}:\n${started.output()}`
          : "",
    );
    let restarting = false;
    const serverCommand = (instance: Instance, command: string) =>
      haproxyCommand(statsSocket, `${command.replace("%s", `${instance.service}/${instance.name}`)}`);
    const restartOne = async (
      old: Instance,
      root: string,
      onStep: (line: string) => void,
    ): Promise<RestartedInstance> => {
      const began = Date.now();
      // The proxy sends it nothing new from now on; its own readiness wait covers a proxy that
      // only checks (compose, an orchestrator). What it sent before finishes first: a release
      // older than that wait (an upgrade) stops listening at once.
      await serverCommand(old, "set server %s state drain");
      await waitUntil(
        `${old.name} drained`,
        async () =>
          (await serverStates().catch(() => [])).some(
            (state) => state.server === old.name && state.current === 0,
          ),
        30_000,
        () => "",
      ).catch((error: Error) => onStep(`${error.message}; stopping it anyway`));
      await stopProcess(old.process, old.exited, "SIGTERM", stopWaitFor(options.check) + 30_000);
      const exitCode = old.process.exitCode;
      onStep(`${old.name} stopped (exit ${exitCode}); starting its replacement on port ${old.port}`);
      const replacement = spawnInstance(old.service, old.name, old.port, root);
      const list = instances[old.service];
      list[list.indexOf(old)] = replacement;
      await readyDirectly(replacement);
      await serverCommand(replacement, "set server %s state ready");
      await waitUntil(
        `${replacement.name} UP in haproxy`,
        async () =>
          (await serverStates().catch(() => [])).some(
            (state) => state.server === replacement.name && state.status === "UP",
          ),
        60_000,
        () => (replacement.process.exitCode !== null ? `exited with ${replacement.process.exitCode}` : ""),
      );
      const tookMs = Date.now() - began;
      onStep(`${replacement.name} replaced and UP in ${tookMs} ms`);
      return { name: old.name, exitCode, tookMs };
    };
    const rollingRestart = async (
      onStep: (line: string) => void = () => {},
      { root = options.root ?? repoRoot }: { root?: string } = {},
    ) => {
      if (restarting) throw new Error("a rolling restart is already running");
      restarting = true;
      try {
        const restarted: RestartedInstance[] = [];
        for (const service of ["shortener", "scheduling"] as const) {
          // A copy: each restart replaces its entry in the live list.
          for (const instance of [...instances[service]]) {
            restarted.push(await restartOne(instance, root, onStep));
          }
        }
        return restarted;
      } finally {
        restarting = false;
      }
    };
    return {
      url,
      instances,
      haproxy: { process: child, configFile },
      serverStates,
      rollingRestart,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
