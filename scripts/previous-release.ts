// deploy/previous-release: the commit the last release was cut from. The upgrade drill runs it,
// the migration check compares new migrations with what it reads (docs/adr/0218), and
// `pnpm api:release` records a new one.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export const PREVIOUS_RELEASE_FILE = path.join(root, "deploy", "previous-release");

/** The commit deploy/previous-release names (its one line that is not a comment). */
export function previousRelease(file = PREVIOUS_RELEASE_FILE): string {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const [commit] = lines;
  if (lines.length !== 1 || !/^[0-9a-f]{40}$/.test(commit ?? "")) {
    throw new Error(
      `${path.relative(root, file)}: expected one full commit hash, found ${JSON.stringify(lines)}`,
    );
  }
  return commit!;
}

/** Records `commit` (default: HEAD) as the last release, keeping the file's comments. */
export function recordRelease(commit = git(["rev-parse", "HEAD"]), file = PREVIOUS_RELEASE_FILE): string {
  const comments = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("#"));
  writeFileSync(file, [...comments, commit, ""].join("\n"));
  return commit;
}

/** A git command's output in this checkout, trimmed. */
export function git(args: string[], cwd = root): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}
