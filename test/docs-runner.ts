// The docs run as written (issue 37): every ```sh block of a markdown file runs in one bash
// session, in order, against both services listening on a fresh database, as a reader would
// run them after `pnpm start`. A line `# …` right under a command (no blank line between) is
// what that command prints, `…` standing for anything; every command must exit 0. A block
// right after `<!-- not run: <reason> -->` is not run. `http://localhost:3000` and `:3001` in a
// command reach the two services; short URLs are made on `http://localhost:3000` as written.
import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { buildApp as buildScheduling, type SchedulingApp } from "../apps/scheduling/src/app.ts";
import { loadConfig as loadSchedulingConfig } from "../apps/scheduling/src/config.ts";
import { buildApp as buildShortener, type ShortenerApp } from "../apps/shortener/src/app.ts";
import { defaultConfig } from "../apps/shortener/src/config.ts";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

export interface Step {
  /** Where the command starts in its file (1-based line). */
  line: number;
  command: string;
  /** The `# ` lines right under it, without `# `: what it prints; none: nothing. */
  expected: string[];
}

export interface Block {
  line: number;
  steps: Step[];
  /** The reason a `<!-- not run: … -->` marker gives; undefined when the block runs. */
  notRun?: string;
}

/** A command is whole once it has no trailing backslash and bash reads it to its end. */
function complete(text: string): boolean {
  if (text.endsWith("\\")) return false;
  return spawnSync("bash", ["-n", "-c", text], { stdio: "ignore" }).status === 0;
}

/** The ```sh blocks of a markdown text, each split into commands and what they print. */
export function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```sh") continue;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const marker = /^<!-- not run: (.+?) -->$/.exec(lines[before]?.trim() ?? "");
    const block: Block = { line: i + 1, steps: [], ...(marker ? { notRun: marker[1]! } : {}) };
    let afterCommand = false;
    for (i++; i < lines.length && lines[i]!.trim() !== "```"; i++) {
      const line = lines[i]!;
      if (line.trim() === "") {
        afterCommand = false;
      } else if (line.startsWith("#")) {
        if (afterCommand) block.steps.at(-1)!.expected.push(line.replace(/^# ?/, ""));
      } else {
        const start = i;
        let command = line;
        while (!complete(command) && i + 1 < lines.length && lines[i + 1]!.trim() !== "```") {
          command += `\n${lines[++i]!}`;
        }
        block.steps.push({ line: start + 1, command, expected: [] });
        afterCommand = true;
      }
    }
    blocks.push(block);
  }
  return blocks;
}

/** Whether `actual` is what `expected` shows, `…` standing for any text (newlines too). */
export function looksAsShown(expected: string, actual: string): boolean {
  const pattern = expected
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${pattern}$`).test(actual);
}

/** Both services on a fresh database, as `pnpm start` runs them (default configuration). */
export interface Services {
  db: Pick<TestDatabase, "url" | "directUrl" | "drop">;
  /** More variables for the document's shell (the servers' TENANT_SECRET, say). */
  env: Record<string, string>;
  /** Files the shell's folder holds before the document runs, by relative path. */
  files: Record<string, string>;
  /** More origins a command names as written and reaches elsewhere (a CalDAV server's), by origin. */
  extraOrigins?: Record<string, string>;
  prisma: PrismaClient;
  shortener: ShortenerApp;
  scheduling: SchedulingApp;
  origins: { shortener: string; scheduling: string };
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** A migrated database of the test's own (default: a fresh one on the shared test server). */
  db?: Services["db"];
  /** Scheduling's environment (default: none set, as shipped). */
  schedulingEnv?: Record<string, string>;
  /** More variables for the document's shell. */
  env?: Record<string, string>;
  /** Files the shell's folder holds before the document runs. */
  files?: Record<string, string>;
}

export async function startServices({
  db: own,
  schedulingEnv = {},
  env = {},
  files = {},
}: ServicesOptions = {}): Promise<Services> {
  const db = own ?? (await createTestDatabase());
  const prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 5 });
  // As written in the docs: short URLs on localhost:3000, whatever port the test listens on.
  const shortener = await buildShortener({
    config: defaultConfig({ SHORT_BASE_URL: "http://localhost:3000" }),
    prisma,
  });
  // The rate limit as shipped (30 a minute): the docs must fit in it.
  const scheduling = await buildScheduling({ config: loadSchedulingConfig(schedulingEnv), prisma });
  const listen = async (app: ShortenerApp | SchedulingApp) => {
    await app.listen({ host: "127.0.0.1", port: 0 });
    return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  };
  const origins = { shortener: await listen(shortener), scheduling: await listen(scheduling) };
  return {
    db,
    env,
    files,
    prisma,
    shortener,
    scheduling,
    origins,
    close: async () => {
      await shortener.close();
      await scheduling.close();
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

const STEP_MARK = /\n?<<<step (\d+) exit (\d+)>>>\n/;

/**
 * `pnpm` for the document's shell: pnpm in the checkout. `pnpm -s <script> <args…>` of a script
 * of the root package.json runs that script's own line as pnpm runs it (`sh -c`, from the root,
 * node_modules/.bin first on the PATH, the arguments after it) without pnpm's own start, which
 * costs more CPU than most of the commands it runs (some 40 such commands in the docs). `-s`
 * prints nothing of pnpm's own, so what the reader sees is the same; anything else goes to pnpm.
 */
function pnpmFunction(): string {
  const scripts: Record<string, string> = JSON.parse(
    readFileSync(path.join(repoRoot, "package.json"), "utf8"),
  ).scripts;
  const q = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const cases = Object.entries(scripts)
    .filter(([name]) => /^[\w:.-]+$/.test(name))
    .map(
      ([name, line]) =>
        `    ${q(name)}) (cd ${q(repoRoot)} && PATH=${q(path.join(repoRoot, "node_modules/.bin"))}:"$PATH" sh -c ${q(`${line} "$@"`)} ${q(name)} "\${@:3}"); return ;;`,
    );
  return [
    "pnpm() {",
    '  if [ "$1" = "-s" ] && [ $# -ge 2 ]; then',
    '    case "$2" in',
    ...cases,
    "    esac",
    "  fi",
    `  command pnpm -C ${q(repoRoot)} "$@"`,
    "}",
  ].join("\n");
}

/**
 * Runs every block of `file` that runs, in one bash session against `services`, and throws at
 * the first command that fails or prints something else than shown (file and line named).
 * Returns how many commands ran.
 */
export async function runDocument(file: string, services: Services): Promise<number> {
  const markdown = await readFile(path.join(repoRoot, file), "utf8");
  const steps = shellBlocks(markdown)
    .filter((block) => block.notRun === undefined)
    .flatMap((block) => block.steps);
  if (steps.length === 0) return 0;
  const live = (command: string) =>
    Object.entries(services.extraOrigins ?? {}).reduce(
      (text, [written, actual]) => text.replaceAll(written, actual),
      command
        .replaceAll("http://localhost:3000", services.origins.shortener)
        .replaceAll("http://localhost:3001", services.origins.scheduling),
    );
  const script = [
    // The reader runs pnpm in the checkout; the commands run in a folder of their own.
    pnpmFunction(),
    ...steps.map((step, i) => `${live(step.command)}\nprintf '\\n<<<step ${i} exit %s>>>\\n' "$?"`),
  ].join("\n");
  const folder = await mkdtemp(path.join(tmpdir(), "docs-run-"));
  try {
    await writeFile(path.join(folder, "docs.sh"), script);
    for (const [name, text] of Object.entries(services.files)) {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
      await writeFile(path.join(folder, name), text);
    }
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        "bash",
        ["docs.sh"],
        {
          cwd: folder,
          maxBuffer: 64 * 1024 * 1024,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            DATABASE_URL: services.db.url,
            ...(services.db.directUrl === services.db.url
              ? {}
              : { DATABASE_DIRECT_URL: services.db.directUrl }),
            ...services.env,
          },
        },
        (_error, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    const parts = stdout.split(STEP_MARK);
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const where = `${file}:${step.line}: ${step.command.split("\n")[0]}`;
      // split() with a capturing pattern: text, index, exit, text, index, exit, …
      if (parts[3 * i + 1] === undefined)
        throw new Error(`${where}\nthe script stopped before it:\n${stderr}`);
      // As a terminal shows it: a CSV line's CRLF is a line end.
      const printed = parts[3 * i]!.replaceAll("\r\n", "\n").replace(/\n$/, "");
      const exit = Number(parts[3 * i + 2]);
      if (exit !== 0) throw new Error(`${where}\nexited ${exit}\nprinted: ${printed}\nstderr: ${stderr}`);
      const shown = step.expected.join("\n");
      if (!looksAsShown(shown, printed)) {
        throw new Error(`${where}\nprinted: ${printed}\nshown:   ${shown}\nstderr: ${stderr.slice(-2000)}`);
      }
    }
    return steps.length;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
