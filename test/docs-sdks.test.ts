// docs/sdks.md's snippets, exactly as written: each runs after `pnpm install` as the page says
// (saved in the repository's root, `node --import tsx <file>`), against both services on a test
// database with a real token and key in place of the placeholders; and every TypeScript snippet
// of docs/sdks.md and of each SDK package's README type-checks as written.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPrisma, type PrismaClient } from "@app/db";
import { issueApiKey } from "@app/scheduling/credentials";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp as buildScheduling } from "../apps/scheduling/src/app.ts";
import { loadConfig as loadSchedulingConfig } from "../apps/scheduling/src/config.ts";
import { buildApp as buildShortener } from "../apps/shortener/src/app.ts";
import { defaultConfig } from "../apps/shortener/src/config.ts";
import { createUser as createShortenerUser } from "../apps/shortener/src/credentials.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The ```ts blocks of a Markdown file, optionally only those under one `## ` section. */
function typescriptBlocks(file: string, section?: string): string[] {
  let text = readFileSync(path.join(root, file), "utf8");
  if (section) {
    const start = text.indexOf(`\n## ${section}\n`);
    expect(start, `${file} has a "## ${section}" section`).toBeGreaterThan(-1);
    const end = text.indexOf("\n## ", start + 1);
    text = text.slice(start, end === -1 ? undefined : end);
  }
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

const run = (command: string, args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(command, args, { cwd: root }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );

// Snippet files live in the repository (so `@app/*-sdk` resolve as they do for a reader), in a
// folder of this run's own, removed afterwards.
const folder = path.join(root, `.readme-snippets-${process.pid}-${randomBytes(3).toString("hex")}`);

let db: TestDatabase;
let prisma: PrismaClient;
const apps: FastifyInstance[] = [];
const origins = { shortener: "", scheduling: "" };
const secrets = { token: "", apiKey: "" };

beforeAll(async () => {
  await mkdir(folder, { recursive: true });
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { poolMax: 2 });
  const shortener = await buildShortener({ config: defaultConfig(), prisma });
  const scheduling = await buildScheduling({
    config: { ...loadSchedulingConfig({}), RATE_LIMIT_MAX: 1_000 },
    prisma,
  });
  for (const [name, app] of [
    ["shortener", shortener],
    ["scheduling", scheduling],
  ] as const) {
    await app.listen({ port: 0, host: "127.0.0.1" });
    apps.push(app);
    origins[name] = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  secrets.token = (await createShortenerUser(prisma, "readme-sdk@example.com")).token;
  const user = await prisma.user.create({ data: { email: "readme-sdk@example.com" } });
  secrets.apiKey = (await issueApiKey(prisma, { userId: user.id, prefix: "cal_" })).apiKey;
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await prisma?.$disconnect();
  await db?.drop();
  await rm(folder, { recursive: true, force: true });
});

describe("docs/sdks.md", () => {
  const snippets = typescriptBlocks("docs/sdks.md");

  it("has the two snippets, one per SDK", () => {
    expect(snippets.map((snippet) => /from "(@link-and-schedule\/[\w-]+)"/.exec(snippet)?.[1])).toEqual([
      "@link-and-schedule/shortener-sdk",
      "@link-and-schedule/scheduling-sdk",
    ]);
  });

  it.each(snippets.map((snippet, i) => [i, snippet] as const))(
    "snippet %i runs as written (node --import tsx, from the repository root)",
    async (i, snippet) => {
      const live = snippet
        .replaceAll("http://localhost:3000", origins.shortener)
        .replaceAll("http://localhost:3001", origins.scheduling)
        .replaceAll("shr_…", secrets.token)
        .replaceAll("cal_…", secrets.apiKey);
      const file = path.join(folder, `readme-sdk-${i}.ts`);
      await writeFile(file, live);
      const result = await run(process.execPath, ["--import", "tsx", file]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      // The shortener's prints the short URL, scheduling's the new event type's id.
      expect(result.stdout.trim()).toMatch(i === 0 ? /^http:\/\/localhost:3000\/[A-Za-z0-9]{7}$/ : /^\d+$/);
    },
  );

  it("every TypeScript snippet of docs/sdks.md and the SDKs' READMEs type-checks as written (tsc --strict)", async () => {
    const all = [
      ...snippets,
      ...typescriptBlocks("packages/shortener-sdk/README.md"),
      ...typescriptBlocks("packages/scheduling-sdk/README.md"),
    ];
    const files = await Promise.all(
      all.map(async (snippet, i) => {
        const file = path.join(folder, `typed-${i}.ts`);
        await writeFile(file, snippet);
        return file;
      }),
    );
    const tsc = path.join(root, "node_modules/.bin/tsc");
    const options = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2023", "--types", "node"];
    const resolution = [
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--allowImportingTsExtensions",
    ];
    const result = await run(tsc, [...options, ...resolution, ...files]);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);
});
