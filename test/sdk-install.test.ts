// The SDKs install anywhere (issue 37): `pnpm sdk:pack` makes a tarball of each, as published
// (dist/: ESM and declarations, README, LICENSE); a plain Node project outside this workspace
// installs both with `npm install <tarball>`, type-checks a strict program against them
// (test/fixtures/sdk-consumers: what a user of the last release wrote) and runs it with plain
// `node`, no tsx, against both services.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createPrisma, type PrismaClient } from "@app/db";
import { issueApiKey } from "@app/scheduling/credentials";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp as buildScheduling, type SchedulingApp } from "../apps/scheduling/src/app.ts";
import { loadConfig as loadSchedulingConfig } from "../apps/scheduling/src/config.ts";
import { buildApp as buildShortener, type ShortenerApp } from "../apps/shortener/src/app.ts";
import { defaultConfig } from "../apps/shortener/src/config.ts";
import { createUser } from "../apps/shortener/src/credentials.ts";
import { packSdks } from "../scripts/sdk-pack.ts";
import { repoRoot } from "./docs-runner.ts";

const run = promisify(execFile);

let db: TestDatabase;
let prisma: PrismaClient;
let shortener: ShortenerApp;
let scheduling: SchedulingApp;
let project: string;
let tarballs: string[];

async function listen(app: ShortenerApp | SchedulingApp): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, { directUrl: db.directUrl, poolMax: 3 });
  shortener = await buildShortener({ config: defaultConfig(), prisma });
  scheduling = await buildScheduling({ config: loadSchedulingConfig({}), prisma });
  tarballs = packSdks();
  // Outside the workspace: no pnpm, no tsx, no workspace link can help it.
  project = await mkdtemp(path.join(tmpdir(), "sdk-consumer-"));
  await writeFile(
    path.join(project, "package.json"),
    JSON.stringify({ name: "a-project", private: true, type: "module" }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
});

afterAll(async () => {
  await shortener?.close();
  await scheduling?.close();
  await prisma?.$disconnect();
  await db?.drop();
  if (project) await rm(project, { recursive: true, force: true });
});

describe("the packed SDKs", () => {
  it("are one tarball each, with built ESM, declarations, a README, a licence, and no sources", async () => {
    expect(tarballs.map((file) => path.basename(file)).sort()).toEqual([
      "link-and-schedule-scheduling-sdk-1.0.0.tgz",
      "link-and-schedule-shortener-sdk-1.0.0.tgz",
    ]);
    for (const tarball of tarballs) {
      const { stdout } = await run("tar", ["tzf", tarball]);
      const files = stdout.trim().split("\n").sort();
      expect(files).toEqual(
        expect.arrayContaining([
          "package/LICENSE",
          "package/README.md",
          "package/dist/index.js",
          "package/dist/index.d.ts",
          "package/dist/generated/result.js",
        ]),
      );
      expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
    }
    const manifest = JSON.parse(
      await readFile(
        path.join(project, "node_modules/@link-and-schedule/shortener-sdk/package.json"),
        "utf8",
      ),
    );
    expect(manifest.exports).toEqual({ ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } });
  });

  it.each(["shortener", "scheduling"] as const)(
    "%s: a strict program type-checks against the installed package and runs on plain node",
    async (sdk) => {
      await copyFile(
        path.join(repoRoot, `test/fixtures/sdk-consumers/${sdk}.ts`),
        path.join(project, `${sdk}.ts`),
      );
      // The repository's TypeScript, and Node's types for `process`; the SDK's own types come
      // from the installed package alone.
      const tsc = path.join(repoRoot, "node_modules/.bin/tsc");
      await run(
        tsc,
        [
          ...["--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022"],
          ...["--lib", "es2022,dom", "--skipLibCheck", "false", "--outDir", "out"],
          ...["--typeRoots", path.join(repoRoot, "node_modules/@types"), "--types", "node"],
          `${sdk}.ts`,
        ],
        { cwd: project },
      ).catch((error: { stdout?: string }) => {
        throw new Error(`tsc --strict failed:\n${error.stdout}`);
      });
      const credential =
        sdk === "shortener"
          ? (await createUser(prisma, "sdk-consumer@example.com")).token
          : (
              await issueApiKey(prisma, {
                userId: (await prisma.user.create({ data: { email: "sdk-consumer@example.com" } })).id,
                prefix: "cal_",
              })
            ).apiKey;
      const origin = await listen(sdk === "shortener" ? shortener : scheduling);
      const { stdout } = await run(process.execPath, [`out/${sdk}.js`, origin, credential], { cwd: project });
      expect(stdout.trim().split("\n")).toEqual(
        sdk === "shortener"
          ? [
              expect.stringMatching(/^created [A-Za-z0-9]{7}$/),
              "visits 0",
              "csv id,createdAt,ipAddress,userAgent,referer,isBot,browser,os,device,country,referrerHost,rule,visitedUrl,redirectUrl\r",
              "missing 404",
            ]
          : ["me sdk-consumer@example.com", "event type from-a-project", "again 409", "read 30 minutes"],
      );
    },
  );
});
