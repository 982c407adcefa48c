// The SDK packages as committed and as published: their generated types are what
// `pnpm sdk:generate` writes from the committed documents, and `build` makes ESM with declarations
// where package.json's `exports` point. (test/sdk-e2e.test.ts drives both services through them.)
import { execFile } from "node:child_process";
import { access, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateSdks, SDKS } from "../scripts/sdk-generate.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = [
  { dir: "packages/shortener-sdk", name: "@app/shortener-sdk", factory: "createShortenerClient" },
  { dir: "packages/scheduling-sdk", name: "@app/scheduling-sdk", factory: "createSchedulingClient" },
];

const temporary: string[] = [];
afterAll(async () => {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true });
});
async function tempDir(label: string) {
  const dir = await mkdtemp(path.join(tmpdir(), `${label}-`));
  temporary.push(dir);
  return dir;
}

describe("SDK packages", () => {
  it("hold the generated types pnpm sdk:generate writes from openapi/*.json (else: pnpm sdk:generate)", async () => {
    const dir = await tempDir("sdk-generate");
    await generateSdks(dir);
    for (const sdk of SDKS) {
      const committed = await readFile(path.join(ROOT, sdk.output), "utf8");
      expect(await readFile(path.join(dir, sdk.output), "utf8"), `${sdk.output} is stale`).toBe(committed);
    }
  });

  it("share one result module", async () => {
    const [shortener, scheduling] = await Promise.all(
      PACKAGES.map(({ dir }) => readFile(path.join(ROOT, dir, "src/result.ts"), "utf8")),
    );
    expect(scheduling).toBe(shortener);
  });

  it.each(PACKAGES)(
    "$name builds to ESM with declarations where its exports point",
    async (pkg) => {
      const manifest = JSON.parse(await readFile(path.join(ROOT, pkg.dir, "package.json"), "utf8"));
      expect(manifest).toMatchObject({
        name: pkg.name,
        version: "0.1.0",
        type: "module",
        license: "MIT",
        files: expect.arrayContaining(["dist"]),
        // In this repository the source (a snippet runs after `pnpm install`, no build);
        // as published (pnpm applies publishConfig), the compiled dist/.
        exports: { ".": "./src/index.ts" },
        publishConfig: { exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } } },
        dependencies: { "openapi-fetch": "0.17.0" },
      });
      expect(manifest.private).toBeUndefined();

      // The package's own build, into a temporary copy of its layout (dist/ + its node_modules).
      const out = await tempDir("sdk-build");
      await symlink(path.join(ROOT, pkg.dir, "node_modules"), path.join(out, "node_modules"), "dir");
      const tsc = path.join(ROOT, "node_modules/.bin/tsc");
      const args = [
        "-p",
        path.join(ROOT, pkg.dir, "tsconfig.build.json"),
        "--outDir",
        path.join(out, "dist"),
      ];
      await new Promise<void>((resolve, reject) =>
        execFile(tsc, args, (error, stdout) =>
          error ? reject(new Error(`${error.message}\n${stdout}`)) : resolve(),
        ),
      );
      const entry = manifest.publishConfig.exports["."];
      await access(path.join(out, entry.types));
      await access(path.join(out, "dist/generated/schema.d.ts"));
      const declarations = await readFile(path.join(out, entry.types), "utf8");
      expect(declarations).toContain(`export declare function ${pkg.factory}(`);
      const sdk = await import(pathToFileURL(path.join(out, entry.default)).href);
      expect(Object.keys(sdk)).toEqual([pkg.factory]);
      expect(typeof sdk[pkg.factory]({ baseUrl: "http://127.0.0.1:9", token: "t", apiKey: "k" }).GET).toBe(
        "function",
      );
    },
    120_000,
  ); // tsc over the generated types: seconds each, more on a busy machine
});
