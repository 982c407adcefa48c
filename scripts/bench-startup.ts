// `pnpm bench --only startup`: how long a person waits for each start (issue 36), each row beside
// its baseline in the same run. A start is a whole process, timed from spawn: a CLI command to its
// exit, a service to its first /ready 200 on a database that already answers, `pnpm scale` (2 + 2
// instances behind HAProxy) to the line that says it is ready. Medians of several runs, min-max.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { request } from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "@app/db";
import { haproxyBinary } from "./scale-topology.ts";

interface StartupOptions {
  root: string;
  databaseUrl: string;
  /** Runs of each row (the median is shown). */
  runs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const span = (values: number[]) =>
  `${median(values).toFixed(2)} s (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;

/** Seconds from spawn to exit; fails on a non-zero exit. */
function timeCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  execFileSync(command, args, { cwd, env, stdio: "ignore" });
  return (performance.now() - started) / 1000;
}

function status(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Seconds from spawn to the first answer `ok` accepts on `urlPath`; then the process is stopped. */
async function timeToAnswer(
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  urlPath: string,
  ok: (status: number) => boolean,
  cwd: string,
): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: "ignore" });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited with ${child.exitCode}`);
      if (ok(await status(port, urlPath))) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await stopped(child);
  }
}

/** `pnpm scale`: seconds to its ready line, and the warnings it printed on the way. */
async function timeScale(
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<{ seconds: number; warnings: string[] }> {
  const [shortener, scheduling] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn("pnpm", ["-s", "scale", "--shortener", "2", "--scheduling", "2"], {
    cwd: root,
    env: {
      ...env,
      SHORTENER_PORT: String(shortener),
      SCHEDULING_PORT: String(scheduling),
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const warnings: string[] = [];
  let ready = false;
  try {
    return await new Promise((resolve, reject) => {
      child.once("exit", (code) =>
        reject(new Error(`pnpm scale exited with ${code}: ${warnings.join("\n")}`)),
      );
      for (const stream of [child.stdout!, child.stderr!]) {
        createInterface({ input: stream }).on("line", (line) => {
          // Until it is ready: its stop warns by design. pino's warn is level 40; a plain line
          // that says so is one too.
          if (ready) return;
          if (/"level":(40|50|60)|warning|not reachable|cannot/i.test(line))
            warnings.push(line.slice(0, 300));
          if (line.includes("through haproxy")) {
            ready = true;
            resolve({ seconds: (performance.now() - started) / 1000, warnings });
          }
        });
      }
    });
  } finally {
    await stopped(child);
  }
}

export async function startupRows({ root, databaseUrl, runs }: StartupOptions): Promise<void> {
  // Only what a person's shell would have, and the database that already answers.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
  const dist = (file: string) => path.join(root, file);
  const times = (measure: () => number | Promise<number>) =>
    (async () => {
      await measure(); // a warm-up: the files in the page cache, as on any second start
      const values: number[] = [];
      for (let i = 0; i < runs; i++) values.push(await measure());
      return values;
    })();

  console.log(
    `\nstartup: each row a whole process from spawn, median of ${runs} (min-max), after one warm-up`,
  );
  const rows: [string, number[], string][] = [];
  const node = await times(() => timeCommand(process.execPath, ["-e", "0"], root, env));
  rows.push(["node -e 0 (the floor)", node, ""]);
  const cli = await times(() =>
    timeCommand(
      process.execPath,
      ["--enable-source-maps", dist("apps/shortener/dist/cli.js"), "user:list"],
      root,
      env,
    ),
  );
  rows.push(["node apps/shortener/dist/cli.js user:list", cli, "target <= 0.5 s"]);
  const tsx = await times(() =>
    timeCommand(process.execPath, ["--import", "tsx", dist("apps/shortener/src/cli.ts"), "user:list"], root, {
      ...env,
      NODE_OPTIONS: "--conditions=source",
    }),
  );
  rows.push(["the same through tsx (before ADR 0206)", tsx, ""]);
  const pnpm = await times(() => timeCommand("pnpm", ["--version"], root, env));
  rows.push(["pnpm --version (pnpm's own start)", pnpm, ""]);
  const pnpmCli = await times(() => timeCommand("pnpm", ["-s", "shortener", "user:list"], root, env));
  rows.push(["pnpm -s shortener user:list", pnpmCli, "target <= 1.2 s"]);

  const ready = (status: number) => status === 200;
  // The floor of a service: Fastify alone, listening and answering, nothing else loaded.
  const bareServer = `import Fastify from "fastify";
    const app = Fastify();
    app.get("/ready", async () => ({ ok: true }));
    await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });`;
  const bare = await times(async () => {
    const port = await freePort();
    return timeToAnswer(
      ["--input-type=module", "-e", bareServer],
      { ...env, PORT: String(port) },
      port,
      "/ready",
      ready,
      root,
    );
  });
  rows.push(["bare Fastify process to /ready 200", bare, ""]);
  for (const service of ["shortener", "scheduling"] as const) {
    const variable = service === "shortener" ? "SHORTENER_PORT" : "SCHEDULING_PORT";
    const values = await times(async () => {
      const port = await freePort();
      return timeToAnswer(
        ["--enable-source-maps", dist(`apps/${service}/dist/server.js`)],
        { ...env, [variable]: String(port) },
        port,
        "/ready",
        ready,
        root,
      );
    });
    rows.push([`${service} process to /ready 200`, values, "target <= 1 s"]);
  }
  let scaleWarnings: string[] | undefined;
  if (haproxyBinary()) {
    const scale: number[] = [];
    scaleWarnings = [];
    for (let i = 0; i < Math.max(1, Math.ceil(runs / 2)); i++) {
      const { seconds, warnings } = await timeScale(root, env);
      scale.push(seconds);
      scaleWarnings.push(...warnings);
    }
    rows.push(["pnpm scale (2 + 2) to ready", scale, "target <= 10 s, no warning"]);
  }
  for (const [label, values, note] of rows)
    console.log(`${label.padEnd(44)} ${span(values).padEnd(24)} ${note}`);
  if (scaleWarnings)
    console.log(`pnpm scale printed ${scaleWarnings.length} warning(s)${scaleWarnings.length ? ":" : ""}`);
  for (const warning of scaleWarnings ?? []) console.log(`  ${warning}`);
}
