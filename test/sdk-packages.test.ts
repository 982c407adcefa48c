// The SDK packages as committed: their generated files are what `pnpm sdk:generate` writes (the
// types from the committed documents, and each one's copy of the module both share), and their
// manifests are publishable: a name of the project's scope, the version CHANGELOG.md lists
// last, a licence, a repository, and exports of the built dist/ once packed. The build, the
// tarball and its use from outside the workspace: test/sdk-install.test.ts.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateSdks, SDKS, SHARED } from "../scripts/sdk-generate.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = [
  { dir: "packages/shortener-sdk", name: "@link-and-schedule/shortener-sdk" },
  { dir: "packages/scheduling-sdk", name: "@link-and-schedule/scheduling-sdk" },
];

const temporary: string[] = [];
afterAll(async () => {
  for (const dir of temporary) await rm(dir, { recursive: true, force: true });
});

/** The newest version CHANGELOG.md lists for `name` (its headings: `### <name> <version>`, newest first). */
async function changelogVersion(name: string): Promise<string | undefined> {
  const changelog = await readFile(path.join(ROOT, "CHANGELOG.md"), "utf8");
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^### ${escaped} (\\d+\\.\\d+\\.\\d+)$`, "m").exec(changelog)?.[1];
}

describe("SDK packages", () => {
  it("hold the files pnpm sdk:generate writes: the types from openapi/*.json, the shared module's copies", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sdk-generate-"));
    temporary.push(dir);
    await generateSdks(dir);
    for (const file of [...SDKS.map((sdk) => sdk.output), ...SHARED.outputs]) {
      const committed = await readFile(path.join(ROOT, file), "utf8");
      expect(await readFile(path.join(dir, file), "utf8"), `${file} is stale: pnpm sdk:generate`).toBe(
        committed,
      );
    }
  });

  it.each(PACKAGES)("$name is publishable, at the version CHANGELOG.md lists last for it", async (pkg) => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, pkg.dir, "package.json"), "utf8"));
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.version).toBe(await changelogVersion(pkg.name));
    expect(manifest).toMatchObject({
      name: pkg.name,
      type: "module",
      license: "MIT",
      repository: { type: "git", url: expect.stringMatching(/^git\+https:\/\//), directory: pkg.dir },
      files: ["dist", "README.md", "LICENSE"],
      engines: { node: ">=20.19" },
      // In this repository the source (a snippet runs after `pnpm install`, no build);
      // as published (pnpm applies publishConfig), the compiled dist/.
      exports: { ".": "./src/index.ts" },
      publishConfig: { exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } } },
      dependencies: { "openapi-fetch": "0.17.0" },
    });
    expect(manifest.private).toBeUndefined();
    expect(existsSync(path.join(ROOT, pkg.dir, "LICENSE"))).toBe(true);
    expect(await readFile(path.join(ROOT, pkg.dir, "README.md"), "utf8")).toContain(`# ${pkg.name}`);
  });
});
