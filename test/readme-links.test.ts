// The README's "Links" examples, exactly as written: each curl command runs in bash, in order,
// against the shortener listening on a fresh database, with TOKEN and API set as the README
// sets them and `<id>` the id the first command answered; what it prints must be what the
// comment under it shows (`…` stands for anything). A command without such a comment must
// print nothing, and an image it writes (`-o name.png`, `.svg`) must be one.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma, freePort, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type ShortenerApp } from "../apps/shortener/src/app.ts";
import { defaultConfig } from "../apps/shortener/src/config.ts";
import { createUser } from "../apps/shortener/src/credentials.ts";

const README_ORIGIN = "http://localhost:3000";

interface Example {
  command: string;
  /** The comment lines right under the command, without `# `; none when it prints nothing. */
  expected: string[];
}

/** The curl commands of the README's `### <section>` sh blocks, continuation lines joined. */
async function examples(section: string): Promise<Example[]> {
  const text = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const start = text.indexOf(`\n### ${section}\n`);
  expect(start, `README.md has a "### ${section}" section`).toBeGreaterThan(-1);
  const end = text.slice(start + 1).search(/\n##+ /);
  const body = text.slice(start, end === -1 ? undefined : start + 1 + end);
  const lines = [...body.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split("\n"));
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("curl ")) continue;
    let command = lines[i]!;
    while (command.endsWith("\\")) command = `${command.slice(0, -1)}${lines[++i]!}`;
    const expected: string[] = [];
    while (lines[i + 1]?.startsWith("# ")) expected.push(lines[++i]!.slice(2));
    found.push({ command, expected });
  }
  return found;
}

const matches = (expected: string, actual: string) =>
  new RegExp(
    `^${expected
      .split("…")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[\\s\\S]*")}$`,
  ).test(actual);

let db: TestDatabase;
let prisma: PrismaClient;
let app: ShortenerApp;
let origin: string;
let folder: string;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { poolMax: 2 });
  // The short URLs the README shows are the server's own origin, as on a fresh start.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  app = await buildApp({ config: defaultConfig({ SHORT_BASE_URL: origin }), prisma });
  await app.listen({ host: "127.0.0.1", port });
  folder = await mkdtemp(path.join(tmpdir(), "readme-links-"));
});

afterAll(async () => {
  await app?.close();
  await prisma?.$disconnect();
  await db?.drop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

function bash(command: string, env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      "bash",
      ["-c", command],
      { cwd: folder, env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('README: "Links"', () => {
  it("answers every example as shown, on a fresh start", async () => {
    const all = await examples("Links");
    expect(all.length).toBeGreaterThanOrEqual(8);
    const { token } = await createUser(prisma, "readme-links@example.com");
    const env = { TOKEN: token, API: `${origin}/api` };
    let id: string | undefined;
    for (const { command, expected } of all) {
      if (command.includes("<id>")) expect(id, "an earlier example answered an id").toBeDefined();
      const live = command.replaceAll(README_ORIGIN, origin).replaceAll("<id>", id ?? "");
      const result = await bash(live, env);
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      const printed = result.stdout.trimEnd();
      const shown = expected.join("\n").replaceAll(README_ORIGIN, origin);
      expect(matches(shown, printed), `${command}\nprinted: ${printed}\nshown:   ${shown}`).toBe(true);
      id ??= (() => {
        try {
          return (JSON.parse(printed) as { id?: string }).id;
        } catch {
          return undefined;
        }
      })();
      const image = / -o (\S+\.(png|svg))/.exec(command);
      if (image) {
        const written = await readFile(path.join(folder, image[1]!));
        if (image[2] === "png") expect(written.subarray(1, 4).toString()).toBe("PNG");
        else expect(written.toString()).toMatch(/^<svg /);
      }
    }
  });
});
