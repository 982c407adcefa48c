// What the start tests share: the child process they start, its output, its process tree.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));
// What `pnpm start` runs, compiled (the global setup builds it); these runs start elsewhere too.
export const startScript = path.join(repoRoot, "dist/start.js");
// The child gets only what a person's shell would have, not this run's TEST_* variables.
// STOP_WAIT_MS 0: these tests stop processes that no proxy checks; the readiness wait has its
// own tests (apps/shortener/test/shutdown.test.ts, test/scale-restart.test.ts).
export const baseEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  LOG_LEVEL: "warn",
  STOP_WAIT_MS: "0",
};

export function get(port: number, urlPath: string) {
  return new Promise<number>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

/** Until the service answers /health, or its process exits; the test's own limit bounds it. */
export async function waitFor(port: number, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited early with ${child.exitCode}`);
    if ((await get(port, "/health")) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every descendant of `pid`, from /proc (Linux). */
export function descendants(pid: number): number[] {
  const children: number[] = [];
  for (const task of safeReaddir(`/proc/${pid}/task`)) {
    const listed = safeRead(`/proc/${pid}/task/${task}/children`).trim();
    for (const child of listed ? listed.split(/\s+/).map(Number) : []) {
      children.push(child, ...descendants(child));
    }
  }
  return children;
}
const safeReaddir = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const safeRead = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};
/** A process's identity: its pid plus its start time (pids are reused on a busy machine). */
export const identity = (pid: number) =>
  `${pid}:${safeRead(`/proc/${pid}/stat`).split(") ")[1]?.split(" ")[19] ?? ""}`;
export const alive = (id: string) => identity(Number(id.split(":")[0])) === id;

/** Processes of the tree still running after `ms` (a child may exit a moment after its parent). */
export async function survivors(tree: string[], ms = 30_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = tree.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function run(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  workdir = repoRoot,
  { ownGroup = false } = {},
) {
  // ownGroup: the command leads its own process group, as a terminal's foreground job does.
  const child = spawn(command, args, {
    cwd: workdir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: ownGroup,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}
