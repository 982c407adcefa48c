// A PostgreSQL cluster under Patroni on this machine, from Debian's packages (docs/adr/0272,
// 0273, 0290): `nodes` PostgreSQL servers, each run by its own Patroni agent as user `postgres`,
// an etcd member per node as their store (DCS), and HAProxy (the shared generator, scripts/haproxy-config.ts)
// routing writes to the leader and reads to the replicas by Patroni's REST checks.
// `pnpm scale --ha` runs it under the services; test/ha-failover.test.ts drills it.
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { freePort } from "@app/db";
import { type HealthCheck, haproxyConfig } from "./haproxy-config.ts";
import { haproxyBinary, haproxyServerStates, type ServerState } from "./scale-topology.ts";

const run = promisify(execFile);
// Enough for a resumed agent's tracebacks (one per REST request queued while it was frozen) not
// to push out the lines that say what it did.
const KEPT_LINES = 2_000;

/**
 * Patroni's timings, in seconds (docs/operations.md#high-availability). Patroni's defaults are
 * ttl 30, loop_wait 10, retry_timeout 10: a dead leader is replaced 30-40 s after it died.
 * Tightened: its key expires 8 s after its last renewal, and each agent looks every second.
 * Patroni's rule: loop_wait + 2 × retry_timeout ≤ ttl, so that a leader that cannot reach the
 * store demotes itself before its key expires and another takes over (no two primaries).
 */
export interface HaTimings {
  ttl: number;
  loopWait: number;
  retryTimeout: number;
}
export const HA_TIMINGS: HaTimings = { ttl: 8, loopWait: 1, retryTimeout: 3 };
/** HAProxy's checks of the REST API: a leader that died is out within inter × fall. */
export const HA_CHECK: HealthCheck = { interMs: 500, fall: 2, rise: 1 };

/** Debian's paths of what the cluster runs. */
const BINARIES = { patroni: "/usr/bin/patroni", patronictl: "/usr/bin/patronictl", etcd: "/usr/bin/etcd" };

/** The newest Debian PostgreSQL server binaries, e.g. /usr/lib/postgresql/15/bin. */
function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, "bin"))
    .find((bin) => existsSync(path.join(bin, "pg_rewind")) && existsSync(path.join(bin, "postgres")));
}

/** The user the servers run as: PostgreSQL refuses root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** Why the cluster cannot start on this machine (what to install), or undefined when it can. */
export function missingHa(): string | undefined {
  const missing = [
    existsSync(BINARIES.patroni) ? "" : "patroni",
    existsSync(BINARIES.etcd) ? "" : "etcd-server",
    postgresBin() ? "" : "postgresql",
    haproxyBinary() ? "" : "haproxy",
    pythonHas("etcd") ? "" : "python3-etcd",
  ].filter(Boolean);
  if (process.getuid?.() === 0) {
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
    } catch {
      missing.push("a `postgres` user");
    }
  }
  return missing.length ? `needs ${missing.join(", ")} (apt-get install -y ${missing.join(" ")})` : undefined;
}

/** Debian's iptables, which cuts a node off (`isolate`): root only. */
const IPTABLES = "/usr/sbin/iptables";

/** Why a node cannot be cut off from the others here, or undefined when it can. */
export function missingPartition(): string | undefined {
  if (process.getuid?.() !== 0) return "needs root (iptables)";
  return existsSync(IPTABLES) ? undefined : "needs iptables (apt-get install -y iptables)";
}

/**
 * Every node has loopback addresses of its own, as if each were a machine (Linux routes all of
 * 127.0.0.0/8 to the machine itself): the one the others and HAProxy reach it at (its REST API
 * and PostgreSQL), one per store member that its agent reaches that member at, and its store
 * member's peer address. Rules dropping what goes to the addresses on either side of a node cut
 * it off (`isolate`) while its PostgreSQL still answers on 127.0.0.1 (a client on its side of the
 * partition) and its agent still reaches its own store member, as on a machine of its own.
 */
const memberHost = (n: number) => `127.0.0.${20 + n}`;
/** Where node n's agent reaches store member m: an address of that pair's own. */
const storeHost = (n: number, m: number) => `127.0.${10 + n}.${m}`;
/** Where the other store members reach member m. */
const peerHost = (m: number) => `127.0.0.${10 + m}`;
/**
 * Store member m's user when run by root: a user of its own, so that a cut can drop what that
 * member sends to its peers (its connections leave from 127.0.0.1, like every other member's).
 */
const storeUid = (m: number) => 64_100 + m;

function pythonHas(module: string): boolean {
  try {
    execFileSync("/usr/bin/python3", ["-c", `import ${module}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A member of the store (etcd): its name, number and ports. */
interface StoreMember {
  m: number;
  name: string;
  client: number;
  peer: number;
}

export interface HaNode {
  /** `node1`…: its Patroni member name and its server name in HAProxy. */
  name: string;
  pgPort: number;
  restPort: number;
  /** The `postgres` database on this node, directly (not through HAProxy). */
  url: string;
  dataDir: string;
  /** Its Patroni agent (undefined while killed). */
  patroni: ChildProcess | undefined;
  /** The last lines its agent and its PostgreSQL printed. */
  output(): string;
}

export interface Member {
  name: string;
  /** `leader`, `sync_standby`, `replica`. */
  role: string;
  /** `running`, `streaming`, `stopped`, `starting`… */
  state: string;
  timeline?: number;
  lag?: number | string;
}

export interface HaClusterOptions {
  nodes?: number;
  timings?: HaTimings;
  /** Every commit waits for a synchronous standby, or none is left (default true: ADR 0273). */
  synchronous?: boolean;
  /** PostgreSQL's `fsync` (default on; the drills turn it off: a killed process loses no page cache). */
  fsync?: boolean;
  /** Patroni's scope: the cluster's name in the store. */
  scope?: string;
  /** HAProxy's ports for writes and reads on 127.0.0.1 (free ones when unset). */
  ports?: { primary?: number; replicas?: number };
  onLine?: (name: string, line: string) => void;
}

export interface HaCluster {
  scope: string;
  /** The `postgres` database through HAProxy: the leader, whichever it is. */
  primaryUrl: string;
  /** The `postgres` database through HAProxy: a replica, round robin. */
  replicaUrl: string;
  nodes: HaNode[];
  timings: HaTimings;
  /** Patroni's view of the members (`GET /cluster` of any agent that answers). */
  members(): Promise<Member[]>;
  /** The node holding the leader key with a running PostgreSQL; waits up to `timeoutMs` for one. */
  leader(timeoutMs?: number): Promise<HaNode>;
  /**
   * Until one leader runs, every other node streams from it on its timeline and has replayed up
   * to where it was, and one is the sync standby; past `timeoutMs`, an error naming what was
   * missing, with each node's last lines.
   */
  healthy(timeoutMs?: number): Promise<Member[]>;
  /** Until HAProxy routes writes to the leader alone and reads to the running replicas alone. */
  routed(timeoutMs?: number): Promise<true>;
  /** HAProxy's view of the nodes (`postgres-primary` and `postgres-replicas`). */
  serverStates(): Promise<ServerState[]>;
  /** `kill -9` of the node's Patroni agent and of its PostgreSQL (postmaster and every backend): a machine gone. */
  kill(node: HaNode): Promise<void>;
  /** Its Patroni agent started again: it rejoins as a replica (pg_rewind when its history diverged). */
  restart(node: HaNode): Promise<void>;
  /**
   * Cuts `node` and its store member off from the other nodes and theirs (iptables drops what
   * either side sends to the other's addresses): its agent reaches only its own member, which
   * has lost its quorum, so it cannot renew its leader key nor reach a standby, and HAProxy's
   * checks of it fail. Its PostgreSQL still answers on `node.url` (127.0.0.1). Needs root and
   * iptables (`missingPartition()`).
   */
  isolate(node: HaNode): Promise<void>;
  /** Lifts every cut made by `isolate`. */
  heal(): Promise<void>;
  /** Stops the store member that `node`'s machine runs (etcd, SIGTERM): one of three, the quorum kept. */
  stopStoreMember(node: HaNode): Promise<void>;
  /**
   * Stops store members (etcd, SIGTERM), the last ones first, until its quorum is lost (2 of 3
   * stopped): no leader key can be renewed.
   */
  stopStore(): Promise<void>;
  /** Whether each store member (etcd1…) says it is healthy: it runs and is part of a quorum with a leader. */
  storeHealth(): Promise<Record<string, boolean>>;
  /** Starts every stopped store member again on its data and ports; resolves once each answers. */
  startStore(): Promise<void>;
  /** `patronictl switchover`: the leader hands over to `candidate` (a sync standby by default). */
  switchover(candidate?: HaNode): Promise<string>;
  /** patronictl against this cluster, e.g. `["list"]`. */
  patronictl(args: string[]): Promise<string>;
  /** HAProxy's process (its config in the work folder). */
  haproxy: ChildProcess;
  stop(): Promise<void>;
}

/** Follows a child's output into `lines` (the last KEPT_LINES), and its exit. */
function track(
  name: string,
  child: ChildProcess,
  onLine?: (name: string, line: string) => void,
  lines: string[] = [],
) {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      onLine?.(name, line);
    });
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return { exited, lines };
}

/** One GET on a REST API: status and parsed JSON body; status 0 when nothing answered. */
function getJson(url: string, timeoutMs = 1_000): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ status: 0, body: undefined }));
    req.end();
  });
}

/** Until `attempt` gives a value; past `timeoutMs`, an error saying what its last try found missing (`explain`). */
async function waitFor<T>(
  what: string,
  timeoutMs: number,
  attempt: () => Promise<T | undefined>,
  explain?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms${explain ? `: ${explain()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The last `count` lines of a node's output that say something: no Python traceback frames, no blank lines. */
function saidLines(lines: string[], count: number): string {
  return lines
    .filter(
      (line) =>
        line.trim() && !/^\s|^Traceback|Exception happened during processing|^\w+Error: \[Errno/.test(line),
    )
    .slice(-count)
    .join("\n");
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The cluster-wide settings Patroni writes to the store at bootstrap: the same for `pnpm scale
 * --ha`, the drills and the compose profile `ha` (deploy/patroni/patroni.yml, compared by
 * test/scale-config.test.ts).
 */
export function patroniDcs(timings: HaTimings, options: { synchronous: boolean; fsync: boolean }) {
  return {
    ttl: timings.ttl,
    loop_wait: timings.loopWait,
    retry_timeout: timings.retryTimeout,
    // A replica further behind than this is never promoted (with synchronous_mode, only the
    // sync standby is, and it has every acknowledged commit).
    maximum_lag_on_failover: 1_048_576,
    synchronous_mode: options.synchronous,
    // ADR 0273: availability over a refused write when no standby is left.
    synchronous_mode_strict: false,
    postgresql: {
      use_pg_rewind: true,
      use_slots: true,
      parameters: {
        // pg_rewind needs it (or data checksums) to rewind a returning old leader.
        wal_log_hints: "on",
        max_connections: 200,
        max_wal_senders: 10,
        max_replication_slots: 10,
        wal_keep_size: "256MB",
        hot_standby: "on",
        fsync: options.fsync ? "on" : "off",
        shared_buffers: "64MB",
      },
    },
  };
}

/** Patroni's configuration of one node, as JSON (which YAML reads). */
function patroniConfig(
  options: Required<Pick<HaClusterOptions, "synchronous" | "fsync" | "scope">> & { timings: HaTimings },
  node: { n: number; name: string; pgPort: number; restPort: number; dir: string },
  store: StoreMember[],
  bin: string,
) {
  const { timings } = options;
  return {
    scope: options.scope,
    name: node.name,
    // INFO: a returning leader's pg_rewind and every promotion are said (and each loop's "no action").
    log: { level: "INFO", format: "%(asctime)s %(levelname)s: %(message)s" },
    restapi: {
      listen: `${memberHost(node.n)}:${node.restPort}`,
      connect_address: `${memberHost(node.n)}:${node.restPort}`,
    },
    // etcd's v2 API, not etcd3 (docs/adr/0284): Patroni 3.0.2's etcd3 renews the leader key
    // unconditionally once its lease expired, so a leader whose agent was frozen past `ttl` takes
    // the key back from the one elected meanwhile; v2 renews it only while it still holds its name.
    // use_proxies: the store at these addresses only (its own for each member), not the addresses
    // etcd advertises (which the cut of `isolate` does not cover).
    // Its own member first, as a node asks the member on its machine first.
    etcd: {
      hosts: [node.n, ...store.map((member) => member.m).filter((m) => m !== node.n)].map(
        (m) => `${storeHost(node.n, m)}:${store[m - 1]!.client}`,
      ),
      use_proxies: true,
    },
    bootstrap: {
      dcs: patroniDcs(timings, options),
      initdb: [{ encoding: "UTF8" }, { locale: "C.UTF-8" }],
    },
    postgresql: {
      // 127.0.0.1 for the clients on its side of a cut (HaNode.url), its member address for the others.
      listen: `127.0.0.1,${memberHost(node.n)}:${node.pgPort}`,
      connect_address: `${memberHost(node.n)}:${node.pgPort}`,
      data_dir: path.join(node.dir, "data"),
      bin_dir: bin,
      pgpass: path.join(node.dir, "pgpass"),
      authentication: {
        superuser: { username: "postgres" },
        replication: { username: "postgres" },
        rewind: { username: "postgres" },
      },
      pg_hba: [
        "local all all trust",
        "host all all 127.0.0.0/8 trust",
        "host replication all 127.0.0.0/8 trust",
      ],
      parameters: { unix_socket_directories: node.dir, logging_collector: "off" },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

export async function startHaCluster(options: HaClusterOptions = {}): Promise<HaCluster> {
  const timings = options.timings ?? HA_TIMINGS;
  if (timings.loopWait + 2 * timings.retryTimeout > timings.ttl)
    throw new Error(
      `Patroni timings: loop_wait (${timings.loopWait}) + 2 × retry_timeout (${timings.retryTimeout}) must not exceed ttl (${timings.ttl})`,
    );
  if (options.scope !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(options.scope))
    throw new Error(`Patroni scope: letters, digits, "-" and "_" only (received "${options.scope}")`);
  const missing = missingHa();
  if (missing) throw new Error(`cannot start a Patroni cluster: ${missing}`);
  const bin = postgresBin()!;
  const haproxy = haproxyBinary()!;
  const scope = options.scope ?? `app-ha-${process.pid}`;
  const user = serverUser();
  const workDir = mkdtempSync(path.join(tmpdir(), "ha-cluster-"));
  if (user) {
    execFileSync("chown", [`${user.uid}:${user.gid}`, workDir]);
    // The store members' users enter it to their own folders (each 0700).
    chmodSync(workDir, 0o711);
  }
  const children = new Set<ChildProcess>();
  const killAll = () => {
    unchain();
    for (const child of children) child.kill("SIGKILL");
    for (const node of nodes) killPostgres(node);
  };
  process.once("exit", killAll);
  const spawnTracked = (
    name: string,
    command: string,
    args: string[],
    runAs: { uid: number; gid: number } | undefined,
    lines?: string[],
  ) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: a Ctrl-C in the terminal is for `pnpm scale`, which stops it in order.
      detached: true,
      env: { PATH: process.env.PATH, HOME: workDir, LC_ALL: "C.UTF-8" },
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    });
    children.add(child);
    const tracked = track(name, child, options.onLine, lines);
    tracked.exited.then(() => children.delete(child));
    return { child, ...tracked };
  };

  // The store: a member per node, as each node's machine would run one (docs/adr/0290).
  const count = options.nodes ?? 3;
  const store: (StoreMember & {
    dir: string;
    lines: string[];
    run: ReturnType<typeof spawnTracked> | undefined;
  })[] = [];
  for (let m = 1; m <= count; m++) {
    const dir = path.join(workDir, `etcd${m}`);
    mkdirSync(dir, { mode: 0o700 });
    if (user) execFileSync("chown", [`${storeUid(m)}:${storeUid(m)}`, dir]);
    store.push({
      m,
      name: `etcd${m}`,
      client: await freePort(),
      peer: await freePort(),
      dir,
      lines: [],
      run: undefined,
    });
  }
  const peerUrl = (member: StoreMember) => `http://${peerHost(member.m)}:${member.peer}`;
  const startMember = (member: (typeof store)[number]) => {
    member.run = spawnTracked(
      member.name,
      BINARIES.etcd,
      [
        ...["--name", member.name, "--data-dir", path.join(member.dir, "data")],
        ...[
          "--listen-client-urls",
          ["127.0.0.1", ...Array.from({ length: count }, (_, i) => storeHost(i + 1, member.m))]
            .map((host) => `http://${host}:${member.client}`)
            .join(","),
        ],
        ...["--advertise-client-urls", `http://127.0.0.1:${member.client}`],
        ...["--listen-peer-urls", peerUrl(member)],
        ...["--initial-advertise-peer-urls", peerUrl(member)],
        ...["--initial-cluster", store.map((other) => `${other.name}=${peerUrl(other)}`).join(",")],
        ...["--initial-cluster-token", scope],
        // Patroni's store is etcd's v2 API (above), off by default in etcd 3.4.
        "--enable-v2=true",
        ...["--log-level", "warn", "--logger", "zap"],
      ],
      user ? { uid: storeUid(member.m), gid: storeUid(member.m) } : undefined,
      member.lines,
    );
  };
  for (const member of store) startMember(member);
  const stopMember = async (member: (typeof store)[number]) => {
    const running = member.run;
    member.run = undefined;
    if (!running) return;
    running.child.kill("SIGTERM");
    await Promise.race([running.exited, pause(10_000)]);
  };
  const storeTails = (lines: number) =>
    store.map((member) => `--- ${member.name}\n${saidLines(member.lines, lines)}`).join("\n");

  const nodes: (HaNode & { dir: string; configFile: string; lines: string[] })[] = [];
  for (let n = 1; n <= count; n++) {
    const name = `node${n}`;
    const dir = path.join(workDir, name);
    mkdirSync(dir, { mode: 0o700 });
    if (user) execFileSync("chown", [`${user.uid}:${user.gid}`, dir]);
    const pgPort = await freePort();
    const restPort = await freePort();
    const configFile = path.join(dir, "patroni.yml");
    writeFileSync(
      configFile,
      JSON.stringify(
        patroniConfig(
          { synchronous: options.synchronous ?? true, fsync: options.fsync ?? true, scope, timings },
          { n, name, pgPort, restPort, dir },
          store,
          bin,
        ),
        null,
        2,
      ),
    );
    const lines: string[] = [];
    nodes.push({
      name,
      pgPort,
      restPort,
      url: `postgresql://postgres@127.0.0.1:${pgPort}/postgres`,
      dataDir: path.join(dir, "data"),
      dir,
      configFile,
      lines,
      patroni: undefined,
      output: () => lines.join("\n"),
    });
  }
  // patronictl reaches the store on 127.0.0.1, which no cut covers.
  const patronictlConfig = path.join(workDir, "patronictl.yml");
  writeFileSync(
    patronictlConfig,
    JSON.stringify({
      scope,
      etcd: { hosts: store.map((member) => `127.0.0.1:${member.client}`), use_proxies: true },
    }),
  );
  // The cuts of `isolate`: a chain of this cluster's own, jumped to from OUTPUT (loopback
  // traffic leaves through OUTPUT), removed with the cluster.
  const chain = `HA-${process.pid}`.slice(0, 28);
  removeStaleCuts();
  let chained = false;
  const iptables = (args: string[]) => execFileSync(IPTABLES, ["-w", ...args], { stdio: "pipe" });
  const unchain = () => {
    if (!chained) return;
    chained = false;
    for (const args of [
      ["-D", "OUTPUT", "-j", chain],
      ["-F", chain],
      ["-X", chain],
    ]) {
      try {
        iptables(args);
      } catch {}
    }
  };
  const startAgent = (node: (typeof nodes)[number]) => {
    // The node's output outlives one agent: a restarted one appends to the same lines.
    node.patroni = spawnTracked(node.name, BINARIES.patroni, [node.configFile], user, node.lines).child;
  };

  const ports = {
    primary: options.ports?.primary ?? (await freePort()),
    replicas: options.ports?.replicas ?? (await freePort()),
  };
  const haproxyConfigFile = path.join(workDir, "haproxy.cfg");
  writeFileSync(
    haproxyConfigFile,
    haproxyConfig({
      services: [],
      check: HA_CHECK,
      statsSocket: path.join(workDir, "haproxy.sock"),
      postgres: {
        primaryBind: `127.0.0.1:${ports.primary}`,
        replicaBind: `127.0.0.1:${ports.replicas}`,
        nodes: nodes.map((node) => ({
          name: node.name,
          // Its member address: a node cut off by `isolate` is out of HAProxy's routing too.
          address: `${memberHost(nodes.indexOf(node) + 1)}:${node.pgPort}`,
          restPort: node.restPort,
        })),
        check: HA_CHECK,
        scope,
      },
    }),
  );
  let proxy: ReturnType<typeof spawnTracked> | undefined;

  /** Until every running store member answers that it is healthy (it has a leader). */
  const storeAnswers = () =>
    waitFor("every running etcd member to answer", 30_000, async () => {
      for (const member of store.filter((member) => member.run))
        if ((await getJson(`http://127.0.0.1:${member.client}/health`)).status !== 200) return undefined;
      return true;
    });
  const restUrl = (node: HaNode) =>
    `http://${memberHost(nodes.indexOf(node as (typeof nodes)[number]) + 1)}:${node.restPort}`;
  const members = async (): Promise<Member[]> => {
    for (const node of nodes) {
      const { status, body } = await getJson(`${restUrl(node)}/cluster`);
      if (status === 200) return ((body as { members?: Member[] }).members ?? []) as Member[];
    }
    return [];
  };
  const leader = (timeoutMs = 60_000) =>
    waitFor("a leader", timeoutMs, async () => {
      for (const node of nodes) {
        if (!node.patroni) continue;
        if ((await getJson(`${restUrl(node)}/primary`)).status === 200) return node;
      }
      return undefined;
    });
  /** What keeps the cluster from being healthy now (nothing: healthy), and the members then. */
  const unhealthy = async (): Promise<{ missing: string[]; list: Member[] }> => {
    const list = await members();
    if (!list.length) return { missing: ["no agent answered GET /cluster"], list };
    const missing: string[] = [];
    const leaders = list.filter((member) => member.role === "leader");
    if (leaders.length !== 1) missing.push(`${leaders.length} leaders in the store`);
    const lead = leaders[0];
    if (lead && lead.state !== "running") missing.push(`the leader ${lead.name} is ${lead.state}`);
    for (const node of nodes)
      if (!list.some((member) => member.name === node.name)) missing.push(`${node.name} is not a member`);
    if (options.synchronous !== false && !list.some((member) => member.role === "sync_standby"))
      missing.push("no sync standby");
    const leadNode = nodes.find((node) => node.name === lead?.name);
    if (!lead || !leadNode) return { missing, list };
    // Every other member on the leader's timeline, streaming from it (its WAL senders), and
    // replayed up to where the leader was: caught up, so a failover loses nothing of it.
    const { body } = await getJson(`${restUrl(leadNode)}/patroni`);
    const status = body as {
      xlog?: { location?: number };
      replication?: { application_name: string; state: string; sync_state: string }[];
    };
    const location = status?.xlog?.location;
    if (typeof location !== "number") missing.push(`the leader ${lead.name}'s agent gave no WAL position`);
    for (const member of list.filter((member) => member !== lead)) {
      if (!["streaming", "running"].includes(member.state)) missing.push(`${member.name} is ${member.state}`);
      if (member.timeline !== lead.timeline)
        missing.push(`${member.name} on timeline ${member.timeline}, the leader's is ${lead.timeline}`);
      const sender = status?.replication?.find((row) => row.application_name === member.name);
      if (sender?.state !== "streaming")
        missing.push(`${member.name} not streaming from ${lead.name} (${sender?.state ?? "no WAL sender"})`);
      else if (member.role === "sync_standby" && sender.sync_state !== "sync")
        missing.push(
          `${member.name} is the sync standby in the store but ${sender.sync_state} in PostgreSQL`,
        );
      const node = nodes.find((n) => n.name === member.name);
      const replayed = node
        ? ((await getJson(`${restUrl(node)}/patroni`)).body as { xlog?: { replayed_location?: number } })
            ?.xlog?.replayed_location
        : undefined;
      if (typeof location === "number" && !(typeof replayed === "number" && replayed >= location))
        missing.push(`${member.name} replayed up to ${replayed ?? "?"}, the leader was at ${location}`);
    }
    return { missing, list };
  };
  /**
   * Until the cluster is healthy: one leader running, every node a member on its timeline and
   * streaming from it, caught up, one of them the sync standby (unless not synchronous). Past
   * `timeoutMs`, an error naming what was missing, with the last lines of each node and each etcd member.
   */
  const healthy = async (timeoutMs = 90_000) => {
    let last: { missing: string[]; list: Member[] } = { missing: [], list: [] };
    try {
      return await waitFor(
        `a healthy cluster (one leader, ${count - 1} replicas streaming from it and caught up, a sync standby)`,
        timeoutMs,
        async () => {
          last = await unhealthy();
          return last.missing.length ? undefined : last.list;
        },
        () =>
          `${last.missing.join("; ")}; members ${JSON.stringify(last.list.map((m) => [m.name, m.role, m.state, m.timeline, m.lag]))}`,
      );
    } catch (error) {
      const tails = nodes.map((node) => `--- ${node.name}, its last lines\n${saidLines(node.lines, 25)}`);
      throw new Error(`${(error as Error).message}\n${tails.join("\n")}\n${storeTails(10)}`);
    }
  };

  const statsSocket = path.join(workDir, "haproxy.sock");
  const serverStates = () => haproxyServerStates(statsSocket);
  /** Until HAProxy routes writes to the leader alone and reads to the running replicas alone. */
  let lastStates: ServerState[] = [];
  const routed = (timeoutMs = 60_000) =>
    waitFor(
      "haproxy to route writes to the leader alone",
      timeoutMs,
      async () => {
        const list = await members();
        const states = await serverStates().catch(() => [] as ServerState[]);
        lastStates = states;
        const up = (proxy: string) =>
          states
            .filter((state) => state.proxy === proxy && state.status === "UP")
            .map((state) => state.server)
            .sort();
        const leaderName = list.find(
          (member) => member.role === "leader" && member.state === "running",
        )?.name;
        const replicas = list
          .filter((member) => member.role !== "leader" && ["streaming", "running"].includes(member.state))
          .map((member) => member.name)
          .sort();
        return leaderName &&
          JSON.stringify(up("postgres-primary")) === JSON.stringify([leaderName]) &&
          JSON.stringify(up("postgres-replicas")) === JSON.stringify(replicas)
          ? true
          : undefined;
      },
      () =>
        `HAProxy's view: ${JSON.stringify(lastStates.map((state) => [state.proxy, state.server, state.status]))}`,
    );

  const patronictl = async (args: string[]) => {
    const { stdout } = await run(BINARIES.patronictl, ["-c", patronictlConfig, ...args], {
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: workDir, LC_ALL: "C.UTF-8" },
    });
    return stdout;
  };

  const stop = async () => {
    process.removeListener("exit", killAll);
    if (proxy) {
      proxy.child.kill("SIGUSR1");
      await Promise.race([proxy.exited, pause(5_000)]);
    }
    // Every agent stops its PostgreSQL (fast shutdown) before it exits.
    await Promise.all(
      nodes.map(async (node) => {
        const agent = node.patroni;
        if (!agent || agent.exitCode !== null || agent.signalCode !== null) return;
        const exited = new Promise((resolve) => agent.once("exit", resolve));
        // A frozen agent (a drill's SIGSTOP) would hold its SIGTERM until resumed.
        agent.kill("SIGCONT");
        agent.kill("SIGTERM");
        await Promise.race([exited, pause(30_000)]);
      }),
    );
    unchain();
    await Promise.all(store.map(stopMember));
    killAll();
    rmSync(workDir, { recursive: true, force: true });
  };

  try {
    await storeAnswers();
    // The first agent to take the initialize key bootstraps (initdb); the others clone its
    // PostgreSQL (pg_basebackup) once it leads.
    for (const node of nodes) startAgent(node);
    await healthy();
    proxy = spawnTracked("haproxy", haproxy, ["-db", "-f", haproxyConfigFile], undefined);
    const primaryUrl = `postgresql://postgres@127.0.0.1:${ports.primary}/postgres`;
    const replicaUrl = `postgresql://postgres@127.0.0.1:${ports.replicas}/postgres`;
    // HAProxy starts with every server UP until its checks say otherwise: until they have, a
    // connection to the primary port could reach a replica.
    await routed(60_000);
    return {
      scope,
      primaryUrl,
      replicaUrl,
      nodes,
      timings,
      members,
      leader,
      healthy,
      routed,
      serverStates,
      async kill(node) {
        node.patroni?.kill("SIGKILL");
        node.patroni = undefined;
        killPostgres(node);
      },
      async restart(node) {
        if (node.patroni) throw new Error(`${node.name}'s agent is running`);
        startAgent(node as (typeof nodes)[number]);
      },
      async isolate(node) {
        const missingCut = missingPartition();
        if (missingCut) throw new Error(`cannot cut ${node.name} off: ${missingCut}`);
        const n = nodes.indexOf(node as (typeof nodes)[number]) + 1;
        if (n === 0) throw new Error(`${node.name} is not a node of this cluster`);
        if (!chained) {
          iptables(["-N", chain]);
          chained = true;
          iptables(["-I", "OUTPUT", "1", "-j", chain]);
        }
        // By address and port: another cluster on this machine (a second CI run) has nodes on the
        // same loopback addresses, on ports of its own.
        const own = store[n - 1]!;
        const others = store.filter((member) => member !== own);
        const cuts: [string, string][] = [
          // The others and HAProxy to its PostgreSQL and REST API.
          [memberHost(n), `${node.pgPort},${node.restPort}`],
          // Its agent to the other members, the other agents to its member.
          ...others.map((member): [string, string] => [storeHost(n, member.m), String(member.client)]),
          ...others.map((member): [string, string] => [storeHost(member.m, n), String(own.client)]),
          // The other members to its member.
          [peerHost(n), String(own.peer)],
        ];
        for (const [host, ports] of cuts)
          iptables([
            "-A",
            chain,
            "-p",
            "tcp",
            "-d",
            host,
            "-m",
            "multiport",
            "--dports",
            ports,
            "-j",
            "DROP",
          ]);
        // Its member to the others: its connections leave from 127.0.0.1 as theirs do, so they are
        // told apart by its user (run as root only; else the cut is not possible, missingPartition).
        iptables([
          ...["-A", chain, "-p", "tcp", "-m", "owner", "--uid-owner", String(storeUid(n))],
          ...["-m", "multiport", "--dports", others.map((member) => member.peer).join(","), "-j", "DROP"],
        ]);
      },
      async heal() {
        if (chained) iptables(["-F", chain]);
      },
      async stopStoreMember(node) {
        const member = store[nodes.indexOf(node as (typeof nodes)[number])];
        if (!member) throw new Error(`${node.name} is not a node of this cluster`);
        await stopMember(member);
      },
      async stopStore() {
        const quorum = Math.floor(store.length / 2) + 1;
        const running = store.filter((member) => member.run);
        // As many more as leave fewer than a quorum running.
        const more = Math.max(0, running.length - quorum + 1);
        const stopping = running.slice(running.length - more);
        await Promise.all(stopping.map(stopMember));
      },
      async storeHealth() {
        const health: Record<string, boolean> = {};
        for (const member of store)
          health[member.name] =
            member.run !== undefined &&
            (await getJson(`http://127.0.0.1:${member.client}/health`)).status === 200;
        return health;
      },
      async startStore() {
        for (const member of store) if (!member.run) startMember(member);
        await storeAnswers();
      },
      async switchover(candidate) {
        const current = await leader();
        // By default the sync standby: in synchronous mode the only one Patroni lets take over.
        const sync = (await members()).find((member) => member.role === "sync_standby")?.name;
        const to = candidate?.name ?? sync;
        if (!to) throw new Error("no sync standby to switch over to");
        return patronictl(["switchover", "--force", "--leader", current.name, "--candidate", to, scope]);
      },
      patronictl,
      haproxy: proxy.child,
      stop,
    };
  } catch (error) {
    const report = nodes.map((node) => `--- ${node.name}\n${node.output()}`).join("\n");
    await stop();
    throw new Error(`${(error as Error).message}\n${report}\n${storeTails(KEPT_LINES)}`);
  }
}

/** The cuts of clusters whose process is gone (killed before it could remove them). */
function removeStaleCuts() {
  if (missingPartition()) return;
  let rules: string;
  try {
    rules = execFileSync(IPTABLES, ["-w", "-S"], { stdio: "pipe" }).toString();
  } catch {
    return;
  }
  for (const [, pid] of rules.matchAll(/^-N HA-(\d+)$/gm)) {
    if (existsSync(`/proc/${pid}`)) continue;
    for (const args of [
      ["-D", "OUTPUT", "-j", `HA-${pid}`],
      ["-F", `HA-${pid}`],
      ["-X", `HA-${pid}`],
    ]) {
      try {
        execFileSync(IPTABLES, ["-w", ...args], { stdio: "pipe" });
      } catch {}
    }
  }
}

/** SIGKILL to a node's postmaster and every process under it (what a machine's death leaves of them). */
function killPostgres(node: { dataDir: string }) {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(node.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  // A stale file's pid may be another process's by now.
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres")) return;
  } catch {
    return;
  }
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)])
      .toString()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {}
  for (const target of [pid, ...children]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {}
  }
}
