// `pnpm sdk:pack`: each SDK built (dist/: ESM and declarations) and packed as it would be
// published, into dist/sdks/<scope>-<name>-<version>.tgz: a project anywhere installs one with
// `npm install <tarball>` (test/sdk-install.test.ts does, outside this workspace).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export const SDK_PACKAGES = ["packages/shortener-sdk", "packages/scheduling-sdk"];
export const PACKED = path.join(root, "dist/sdks");

/** Builds and packs every SDK; returns the tarballs' paths. */
export function packSdks(): string[] {
  rmSync(PACKED, { recursive: true, force: true });
  mkdirSync(PACKED, { recursive: true });
  for (const dir of SDK_PACKAGES) {
    const cwd = path.join(root, dir);
    rmSync(path.join(cwd, "dist"), { recursive: true, force: true });
    execFileSync(path.join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], {
      cwd,
      stdio: "inherit",
    });
    // pnpm applies publishConfig (exports to dist/) to the packed package.json.
    execFileSync("pnpm", ["pack", "--pack-destination", PACKED], { cwd, stdio: "ignore" });
  }
  return readdirSync(PACKED)
    .filter((name) => name.endsWith(".tgz"))
    .map((name) => path.join(PACKED, name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const tarball of packSdks()) console.log(path.relative(process.cwd(), tarball));
}
