// The one way both services' management commands parse arguments, report and exit:
// `node:util` parseArgs, `--help` everywhere (exit 0), usage on stderr and exit 2 for a bad
// invocation, one line on stderr and exit 1 for a command that fails, and `--json` printing
// exactly one JSON document on stdout. The database is opened only once the flags are valid.
import { parseArgs } from "node:util";
import type { PrismaClient } from "@app/db";
import { type DatabaseOptions, withPrisma } from "@app/db";

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
  /** Checks the flags (throwing UsageError) and returns the work to do against the database. */
  prepare(values: OptionValues): (prisma: PrismaClient, config: Config) => Promise<CommandResult>;
}

export interface CliDefinition<Config> {
  /** How a person invokes it, e.g. `pnpm -s shortener`. */
  tool: string;
  commands: Record<string, Command<Config>>;
  loadConfig(): Config;
  database(config: Config): DatabaseOptions;
}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};

const JSON_OPTION: OptionSpec = { type: "boolean", description: "Print the result as one JSON document" };
const HELP_OPTION: OptionSpec = { type: "boolean", description: "Show this help" };

function toolUsage<Config>({ tool, commands }: CliDefinition<Config>): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${tool} <command> [options]`,
    "",
    "Commands:",
    ...lines,
    "",
    `Every command takes --json and --help; "${tool} <command> --help" lists its options.`,
  ].join("\n");
}

function commandUsage<Config>(tool: string, name: string, command: Command<Config>): string {
  const options = { ...command.options, json: JSON_OPTION, help: HELP_OPTION };
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

/** Runs one invocation and returns the exit code; the caller sets process.exitCode. */
export async function runCli<Config>(
  cli: CliDefinition<Config>,
  argv: string[],
  io: CliIo = processIo,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(toolUsage(cli));
    return 0;
  }
  const command = name === undefined ? undefined : cli.commands[name];
  if (!name || !command) {
    io.stderr(`${name ? `Unknown command "${name}"` : "Missing command"}\n\n${toolUsage(cli)}`);
    return 2;
  }
  const usage = commandUsage(cli.tool, name, command);

  let run: ReturnType<Command<Config>["prepare"]>;
  let json = false;
  try {
    const { values } = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(
          Object.entries(command.options).map(([key, spec]) => [key, { type: spec.type }]),
        ),
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      io.stdout(usage);
      return 0;
    }
    json = values.json === true;
    run = command.prepare(values as OptionValues);
  } catch (error) {
    // parseArgs names the bad flag ("Unknown option '--x'", "Option '--email <value>' argument missing").
    io.stderr(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }

  try {
    const config = cli.loadConfig();
    const result = await withPrisma(cli.database(config), (prisma) => run(prisma, config));
    io.stdout(json ? JSON.stringify(result.json) : result.text);
    return 0;
  } catch (error) {
    io.stderr(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

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
