// The HAProxy configuration of the compose profile `scale` is the generator's output
// (scripts/haproxy-config.ts, which `pnpm scale` also renders), names the compose services, and
// HAProxy itself accepts it; and the rules docs/adr/0162 sets hold in it.
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "@app/db";
import { DATABASE_RETRY_AFTER_SECONDS } from "@app/server/errors";
import { describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { HA_CHECK, HA_TIMINGS, patroniDcs, startHaCluster } from "../scripts/ha-cluster.ts";
import { COMPOSE_HA_TOPOLOGY, COMPOSE_TOPOLOGY, haproxyConfig } from "../scripts/haproxy-config.ts";
import { haproxyBinary, haproxyServerStates } from "../scripts/scale-topology.ts";

const root = new URL("../", import.meta.url);
const committed = readFileSync(new URL("deploy/haproxy/haproxy.cfg", root), "utf8");
const compose = parse(readFileSync(new URL("docker-compose.yml", root), "utf8"), { merge: true }) as {
  services: Record<
    string,
    {
      profiles?: string[];
      environment?: Record<string, string>;
      ports?: string[];
      volumes?: string[];
      depends_on?: Record<string, unknown>;
    }
  >;
};
const committedHa = readFileSync(new URL("deploy/patroni/haproxy.cfg", root), "utf8");
const haproxy = haproxyBinary();
const scale = (...args: string[]) =>
  promisify(execFile)(process.execPath, ["--enable-source-maps", "dist/scale.js", ...args], {
    cwd: new URL(".", root).pathname,
  });

describe("deploy/haproxy/haproxy.cfg", () => {
  it("is what scripts/haproxy-config.ts renders for compose (`pnpm -s scale --print-compose-config`)", () => {
    expect(committed).toBe(haproxyConfig(COMPOSE_TOPOLOGY));
  });

  it("is what `pnpm -s scale --print-compose-config` prints; a bad count is refused with exit 2", async () => {
    expect((await scale("--print-compose-config")).stdout).toBe(committed);
    const refused = await scale("--shortener", "two").catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--shortener: must be an integer"),
    });
  });

  it("sends each service's traffic to its instances of the profile `scale`, on their ports", () => {
    for (const service of COMPOSE_TOPOLOGY.services) {
      const port = service.name === "shortener" ? "SHORTENER_PORT" : "SCHEDULING_PORT";
      for (const server of service.servers) {
        const instance = compose.services[server.name];
        expect(instance?.profiles, server.name).toEqual(["scale"]);
        expect(server.address).toBe(`${server.name}:${instance!.environment![port]}`);
      }
      const proxyPort = service.bind.split(":").at(-1);
      expect(compose.services.haproxy!.ports).toContain(`${proxyPort}:${proxyPort}`);
    }
  });

  it("checks /ready, retries only a connection that could not be made, and never reuses a server connection", () => {
    for (const config of [committed, haproxyConfig({ ...COMPOSE_TOPOLOGY, log: false, dockerDns: false })]) {
      expect(config).toContain("option httpchk GET /ready");
      expect(config.match(/^\s*retry-on .*$/gm)).toEqual(["  retry-on conn-failure"]);
      expect(config).toContain("option http-server-close");
      expect(config).toMatch(/^\s*balance roundrobin$/m);
    }
  });

  it.skipIf(!haproxy)(
    "is valid for HAProxy (haproxy -c), as is the configuration `pnpm scale` renders, and `pnpm scale --ha`'s routing to a Patroni cluster",
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "haproxy-config-"));
      try {
        const local = path.join(dir, "local.cfg");
        writeFileSync(
          local,
          haproxyConfig({
            services: [
              {
                name: "shortener",
                bind: "127.0.0.1:18999",
                servers: [{ name: "s1", address: "127.0.0.1:1" }],
              },
            ],
            check: { interMs: 500, fall: 2, rise: 2 },
            statsSocket: path.join(dir, "admin.sock"),
            postgres: {
              primaryBind: "127.0.0.1:18998",
              replicaBind: "127.0.0.1:18997",
              nodes: [1, 2, 3].map((n) => ({
                name: `node${n}`,
                address: `127.0.0.1:${n}`,
                restPort: 100 + n,
              })),
              check: { interMs: 500, fall: 2, rise: 1 },
              scope: "app",
            },
          }),
        );
        const routing = readFileSync(local, "utf8");
        // Patroni's documented pattern: writes where /primary answers 200, reads where /replica does.
        expect(routing).toMatch(
          /listen postgres-primary\n(.*\n)*? {2}http-check send meth GET uri \/primary\n/,
        );
        expect(routing).toMatch(
          /listen postgres-replicas\n(.*\n)*? {2}http-check send meth GET uri \/replica\n/,
        );
        expect(routing).toContain("server node2 127.0.0.1:2 check port 102");
        expect(routing).toContain("on-marked-down shutdown-sessions");
        for (const file of [
          local,
          ...["haproxy", "patroni"].map((dir) => new URL(`deploy/${dir}/haproxy.cfg`, root).pathname),
        ]) {
          // Exit 0 (warnings: the compose names do not resolve here) or a thrown error with its report.
          execFileSync(haproxy!, ["-c", "-f", file], { stdio: "pipe" });
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!haproxy)(
    "answers 503 itself when no instance is available, in each service's error shape and with Retry-After, as an instance's 503 has",
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "haproxy-503-"));
      const ports = { shortener: await freePort(), scheduling: await freePort() };
      const file = path.join(dir, "haproxy.cfg");
      writeFileSync(
        file,
        haproxyConfig({
          // Each service's one instance on a port nothing listens on.
          services: (["shortener", "scheduling"] as const).map((name) => ({
            name,
            bind: `127.0.0.1:${ports[name]}`,
            servers: [{ name: `${name}-1`, address: "127.0.0.1:1" }],
          })),
          check: { interMs: 500, fall: 2, rise: 2 },
          statsSocket: path.join(dir, "admin.sock"),
        }),
      );
      const proxy = spawn(haproxy!, ["-db", "-f", file], { stdio: "ignore" });
      try {
        const answer = async (name: "shortener" | "scheduling") => {
          for (;;) {
            try {
              return await fetch(`http://127.0.0.1:${ports[name]}/ready`);
            } catch {
              await new Promise((resolve) => setTimeout(resolve, 50)); // not listening yet
            }
          }
        };
        const shortener = await answer("shortener");
        expect(shortener.status).toBe(503);
        expect(shortener.headers.get("retry-after")).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
        expect(await shortener.json()).toEqual({
          status: "Service Unavailable",
          error: "no instance of the service is available",
        });
        const scheduling = await answer("scheduling");
        expect(scheduling.status).toBe(503);
        expect(scheduling.headers.get("retry-after")).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
        expect(await scheduling.json()).toEqual({ message: "No instance of the service is available" });
      } finally {
        proxy.kill("SIGKILL");
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it("the compose profile `ha` routes as `pnpm scale --ha` does: deploy/patroni/haproxy.cfg is the generator's (`pnpm -s scale --print-compose-config --ha`), with the same checks, to the profile's three nodes", async () => {
    expect(committedHa).toBe(haproxyConfig(COMPOSE_HA_TOPOLOGY));
    expect((await scale("--print-compose-config", "--ha")).stdout).toBe(committedHa);
    expect(COMPOSE_HA_TOPOLOGY.postgres!.check).toEqual(HA_CHECK);
    for (const node of COMPOSE_HA_TOPOLOGY.postgres!.nodes) {
      const service = compose.services[node.name];
      expect(service?.profiles, node.name).toEqual(["ha"]);
      expect(service!.environment!.PATRONI_NAME).toBe(node.name);
      expect(service!.environment!.PATRONI_POSTGRESQL_CONNECT_ADDRESS).toBe(node.address);
      expect(service!.environment!.PATRONI_RESTAPI_CONNECT_ADDRESS).toBe(`${node.name}:${node.restPort}`);
    }
    // The proxy the services use runs the committed file; the services reach the cluster through it.
    expect(compose.services["pg-haproxy"]!.volumes).toContain(
      "./deploy/patroni/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro",
    );
    for (const name of ["shortener-ha", "scheduling-ha"]) {
      const environment = compose.services[name]!.environment!;
      expect(environment.DATABASE_URL, name).toMatch(/@pg-haproxy:5000\/app$/);
      expect(environment.DATABASE_REPLICA_URL, name).toMatch(/@pg-haproxy:5001\/app$/);
      expect(Object.keys(compose.services[name]!.depends_on!)).toContain("pg-haproxy");
    }
  });

  it("the compose profile `ha`'s Patroni bootstraps the cluster with the settings `pnpm scale --ha` uses (deploy/patroni/patroni.yml), under the scope its HAProxy routes to", () => {
    const patroni = parse(readFileSync(new URL("deploy/patroni/patroni.yml", root), "utf8")) as {
      scope: string;
      bootstrap: { dcs: unknown };
    };
    expect(patroni.bootstrap.dcs).toEqual(patroniDcs(HA_TIMINGS, { synchronous: true, fsync: true }));
    expect(COMPOSE_HA_TOPOLOGY.postgres!.scope).toBe(patroni.scope);
  });

  it.skipIf(!haproxy)(
    "routes writes only to a node that answers /primary with 200 for its own cluster: a node of another scope (a misconfigured cluster name) is never routed to, and HAProxy says why in one line",
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "haproxy-scope-"));
      // Patroni's REST API as 3.0.2 answers it (`json.dumps`: ", " and ": "), for three nodes:
      // the cluster's leader, a leader of another scope, and a replica of the cluster.
      const agents = [
        { status: 200, scope: "app" },
        { status: 200, scope: "app-typo" },
        { status: 503, scope: "app" },
      ].map(({ status, scope }) =>
        createServer((_request, response) => {
          response.writeHead(status, { "content-type": "application/json" });
          response.end(
            `{"state": "running", "role": "${status === 200 ? "master" : "replica"}", "patroni": {"version": "3.0.2", "scope": "${scope}"}}`,
          );
        }).listen(0, "127.0.0.1"),
      );
      await Promise.all(agents.map((agent) => once(agent, "listening")));
      const statsSocket = path.join(dir, "admin.sock");
      const file = path.join(dir, "haproxy.cfg");
      writeFileSync(
        file,
        haproxyConfig({
          services: [],
          check: HA_CHECK,
          statsSocket,
          postgres: {
            primaryBind: `127.0.0.1:${await freePort()}`,
            replicaBind: `127.0.0.1:${await freePort()}`,
            nodes: agents.map((agent, i) => ({
              name: `node${i + 1}`,
              address: "127.0.0.1:1",
              restPort: (agent.address() as AddressInfo).port,
            })),
            check: HA_CHECK,
            scope: "app",
          },
        }),
      );
      const proxy = spawn(haproxy!, ["-db", "-f", file], { stdio: "ignore" });
      try {
        const primary = async () =>
          (await haproxyServerStates(statsSocket).catch(() => [])).filter(
            (state) => state.proxy === "postgres-primary",
          );
        await vi.waitFor(
          async () => expect((await primary()).map((state) => state.status)).toEqual(["UP", "DOWN", "DOWN"]),
          { timeout: 10_000, interval: 100 },
        );
        const states = await primary();
        expect(states[1]!.check).toBe(
          "HTTP content check did not match comment: not a node of Patroni cluster app",
        );
        expect(states[2]!.check).toBe("Service Unavailable");
      } finally {
        proxy.kill("SIGKILL");
        for (const agent of agents) agent.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it("`pnpm scale --ha`'s cluster refuses, before starting anything, timings that could leave two leaders and a scope Patroni cannot name", async () => {
    await expect(startHaCluster({ timings: { ttl: 8, loopWait: 1, retryTimeout: 4 } })).rejects.toThrow(
      "Patroni timings: loop_wait (1) + 2 × retry_timeout (4) must not exceed ttl (8)",
    );
    await expect(startHaCluster({ scope: "app/ha" })).rejects.toThrow(
      'Patroni scope: letters, digits, "-" and "_" only (received "app/ha")',
    );
  });
});
