// Runs a management command in the test's own process, through the CLI's own runner (the
// same parsing, database opening and exit codes as `pnpm -s <service> …`), with the output
// captured: no child process and no second TypeScript start per command. Each CLI test file
// keeps a couple of end-to-end process runs for what only a process shows (exit status, streams).
import { type CliDefinition, runCli } from "@app/server/cli";
import type { DatabaseSettings } from "@app/server/config";

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliInProcess<Config extends DatabaseSettings>(
  cli: CliDefinition<Config>,
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<CliOutcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(cli, argv, {
    env,
    io: { stdout: (text) => stdout.push(`${text}\n`), stderr: (text) => stderr.push(`${text}\n`) },
  });
  // As a process's captured output would read after .trim() in the tests.
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}
