// The one way both services' management commands parse arguments, report and exit:
// `node:util` parseArgs, `--help` everywhere (exit 0), usage on stderr and exit 2 for a bad
// invocation, one line on stderr and exit 1 for a command that fails, and `--json` printing
// exactly one JSON document on stdout (a failure: `{"error"}` on stderr, docs/adr/0252). The
// database is opened only once the flags are valid. Quiet: stderr stays empty unless something
// happened (a migration applied) or --verbose; under --json, unless --verbose.
// `runCli` takes the environment and the output streams, so tests run commands in-process.
import { parseArgs } from "node:util";
import v8 from "node:v8";
import type { PrismaClient } from "@app/db";
import { withPrisma } from "@app/db";
import type { z } from "zod";
import { type DatabaseSettings, databaseOptions, readEnvironment } from "./config.ts";

/** A bad invocation (unknown command or option, missing or malformed value): exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The command could not be done (no such user, already exists...): exit 1. */
export class CommandError extends Error {
  override name = "CommandError";
}

export interface CommandResult {
  json: unknown;
  text: string;
}

export interface OptionSpec {
  type: "string" | "boolean";
  description: string;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface Command<Config> {
  summary: string;
  /** Its options as a usage line shows them, e.g. `--email <e-mail> [--note <text>]`. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** How many arguments it takes besides its options (a file...); none when absent. */
  arguments?: number;
  /** Checks the flags (throwing UsageError) and returns the work to do against the database. */
  prepare(
    values: OptionValues,
    args: string[],
  ): (prisma: PrismaClient, config: Config, io: CommandIo) => Promise<CommandResult>;
}

export interface CliDefinition<Config extends DatabaseSettings> {
  /** How a person invokes it, e.g. `pnpm -s shortener`. */
  tool: string;
  commands: Record<string, Command<Config>>;
  loadConfig(env: Record<string, string | undefined>): Config;
}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** A transient status line (progress), only where stderr is a terminal; absent elsewhere. */
  status?(text: string): void;
}

/** What a command writes besides its result. */
export interface CommandIo extends CliIo {
  /** A step of the work (each migration of a tenant's database...): on stderr with --verbose only. */
  detail(text: string): void;
}

export interface CliRun {
  io?: CliIo;
  /** The environment the command's configuration is read from (default: `.env` under the process's). */
  env?: Record<string, string | undefined>;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  // Rewritten in place; "" clears it. Never in a pipe or a log file, where it would be noise.
  ...(process.stderr.isTTY ? { status: (text: string) => process.stderr.write(`\r\x1b[K${text}`) } : {}),
};

const JSON_OPTION: OptionSpec = { type: "boolean", description: "Print the result as one JSON document" };
const HELP_OPTION: OptionSpec = { type: "boolean", description: "Show this help" };
const VERBOSE_OPTION: OptionSpec = {
  type: "boolean",
  description: "Also report the database's start and migration check on stderr",
};

function toolUsage<Config extends DatabaseSettings>({ tool, commands }: CliDefinition<Config>): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${tool} <command> [options]`,
    "",
    "Commands:",
    ...lines,
    "",
    `Every command takes --json, --verbose and --help; "${tool} <command> --help" lists its options.`,
  ].join("\n");
}

function commandUsage<Config>(tool: string, name: string, command: Command<Config>): string {
  const options = { ...command.options, json: JSON_OPTION, verbose: VERBOSE_OPTION, help: HELP_OPTION };
  const width = Math.max(...Object.keys(options).map((option) => option.length + 2));
  return [
    `Usage: ${tool} ${name} ${command.usage}`.trimEnd(),
    "",
    command.summary,
    "",
    "Options:",
    ...Object.entries(options).map(
      ([option, spec]) => `  ${`--${option}`.padEnd(width)}  ${spec.description}`,
    ),
  ].join("\n");
}

/** Whether `flag` (`--help`, `--json`...) is among the arguments (not after `--`, where all are values). */
function flagAsked(args: string[], ...flags: string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (flags.includes(arg)) return true;
  }
  return false;
}

/** Runs one invocation and returns the exit code; the caller sets process.exitCode. */
export async function runCli<Config extends DatabaseSettings>(
  cli: CliDefinition<Config>,
  argv: string[],
  { io = processIo, env }: CliRun = {},
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || (name === "help" && rest.length === 0)) {
    io.stdout(toolUsage(cli));
    return 0;
  }
  // `help <command>` is that command's --help.
  if (name === "help") return runCli(cli, [rest[0]!, "--help"], { io, env });
  // Known before the flags are parsed, so that a bad invocation is reported as asked too.
  const json = flagAsked(argv, "--json");
  /**
   * A failure: exit 2 with the usage (a bad invocation) or 1 (the command failed). Under --json,
   * one JSON document on stderr (docs/adr/0252); stdout stays empty either way.
   */
  const fail = (code: 1 | 2, message: string, usage?: { line: string; text: string }) => {
    if (json) io.stderr(JSON.stringify({ error: message, ...(usage ? { usage: usage.line } : {}) }));
    else io.stderr(usage ? `${message}\n\n${usage.text}` : message);
    return code;
  };
  const command = name === undefined ? undefined : cli.commands[name];
  if (!name || !command) {
    return fail(2, name ? `Unknown command "${name}"` : "Missing command", {
      line: `${cli.tool} <command> [options]`,
      text: toolUsage(cli),
    });
  }
  const usage = {
    line: `${cli.tool} ${name} ${command.usage}`.trimEnd(),
    text: commandUsage(cli.tool, name, command),
  };
  // Asked for, the usage wins over whatever else is missing or wrong on the line.
  if (flagAsked(rest, "--help", "-h")) {
    io.stdout(usage.text);
    return 0;
  }

  let run: ReturnType<Command<Config>["prepare"]>;
  let verbose = false;
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(
          Object.entries(command.options).map(([key, spec]) => [key, { type: spec.type }]),
        ),
        json: { type: "boolean" },
        verbose: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: command.arguments !== undefined,
    });
    if (positionals.length !== (command.arguments ?? 0)) {
      throw new UsageError(`expected ${command.arguments ?? 0} argument(s), got ${positionals.length}`);
    }
    verbose = values.verbose === true;
    run = command.prepare(values as OptionValues, positionals);
  } catch (error) {
    // parseArgs names the bad flag ("Unknown option '--x'", "Option '--email <value>' argument missing").
    return fail(2, (error as Error).message, usage);
  }

  // Under --json, stderr carries nothing but a failure's document unless --verbose: the lines a
  // person reads (a migration applied, an import's refused rows) are in the result or not wanted.
  const quiet = json && !verbose;
  const commandIo: CommandIo = {
    ...io,
    ...(quiet ? { stderr: () => {} } : {}),
    detail: verbose ? io.stderr : () => {},
  };
  try {
    const config = cli.loadConfig(env ?? readEnvironment());
    // A migration applied is worth a line; the rest of the start only with --verbose.
    const log = (line: string) => {
      if (verbose || (!quiet && line.startsWith("applied migration"))) io.stderr(line);
    };
    // Where the embedded database's data went, when it had to go elsewhere (as root): shown unless quiet.
    const notice = (line: string) => {
      if (!quiet) io.stderr(line);
    };
    const result = await withPrisma({ ...databaseOptions(config), log, notice }, (prisma) =>
      run(prisma, config, commandIo),
    );
    io.stdout(json ? JSON.stringify(result.json) : result.text);
    return 0;
  } catch (error) {
    return fail(1, error instanceof Error ? error.message : String(error));
  }
}

/**
 * A CLI as its own process (the entry point's main block): runs argv and sets the exit code.
 * A command lives half a second, so Prisma's WebAssembly query compiler stays on V8's baseline
 * compiler: its optimizing tier compiles for longer than such a process runs, and the process
 * waited ~0.2 s for it before exiting (docs/adr/0209). Services keep the default.
 */
export async function runCliProcess<Config extends DatabaseSettings>(
  cli: CliDefinition<Config>,
): Promise<void> {
  v8.setFlagsFromString("--liftoff-only");
  process.exitCode = await runCli(cli, process.argv.slice(2));
}

/**
 * Flag `name`'s value checked by `schema` (its first message is the usage error); `undefined`
 * when absent, unless `required`.
 */
export function flag<T>(schema: z.ZodType<T>, values: OptionValues, name: string, required: true): T;
export function flag<T>(
  schema: z.ZodType<T>,
  values: OptionValues,
  name: string,
  required?: false,
): T | undefined;
export function flag<T>(schema: z.ZodType<T>, values: OptionValues, name: string, required = false) {
  const value = values[name];
  if (value === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(result.error.issues[0]?.message ?? `--${name} is invalid`);
  return result.data;
}

/** A date as list output shows it (ISO 8601, UTC). */
export const when = (date: Date | null) => date?.toISOString() ?? null;

/** Fixed-width columns for list output; `-` for an empty value. */
export function table(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [
    header,
    ...rows.map((row) =>
      row.map((cell) => (cell === null || cell === undefined || cell === "" ? "-" : String(cell))),
    ),
  ];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
