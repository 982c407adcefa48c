// `pnpm build`: compiles the TypeScript that runs (services, CLIs, scripts) to JavaScript once,
// so no start transforms it again (docs/adr/0206). Each file becomes one file with its source
// map, at the same depth: `<package>/src/a/b.ts` → `<package>/dist/a/b.js`, `scripts/x.ts` →
// `dist/x.js`. Imports stay imports (nothing is bundled): a package's dependencies resolve from
// its own node_modules as they do from its sources, and a relative `./b.ts` becomes `./b.js`.
// Workspace packages export `dist/` by default and `src/` under the "source" condition, which
// the tests and `pnpm dev` use. Other files under `src/` (the stats page's assets) are copied.
// The browser page of /manage is bundled too (packages/manage-ui/build.mjs: a few seconds, so
// `--if-stale` redoes it only when its own sources or the lockfile changed).
//   node scripts/build.mjs            build everything (about half a second)
//   node scripts/build.mjs --if-stale build only when a source is newer than the last build
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Each unit: its sources and where they go. The SDKs build with tsc (`pnpm sdk:pack`). */
export const UNITS = [
  // packages/testing too: the bench starts its Radicale (nothing a service runs imports it).
  ...[
    "packages/db",
    "packages/schemas",
    "packages/server",
    "packages/manage-ui",
    "packages/testing",
    "apps/shortener",
    "apps/scheduling",
  ].map((dir) => ({
    from: path.join(root, dir, "src"),
    to: path.join(root, dir, "dist"),
  })),
  { from: path.join(root, "scripts"), to: path.join(root, "dist"), flat: true },
];
const STAMP = path.join(root, "dist", ".built");

function filesUnder(dir, flat) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!flat && entry.name !== "node_modules") files.push(...filesUnder(full, flat));
    } else files.push(full);
  }
  return files;
}

/**
 * What the last build was made from: every source's path and the newest modification time
 * (this script's included), so an edit, a new file and a removed or renamed one all count.
 */
function fingerprint() {
  let newest = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const paths = [];
  for (const unit of UNITS)
    for (const file of filesUnder(unit.from, unit.flat)) {
      newest = Math.max(newest, statSync(file).mtimeMs);
      paths.push(path.relative(root, file));
    }
  return createHash("sha256")
    .update(`${newest}\n${paths.sort().join("\n")}`)
    .digest("hex");
}

export function isStale() {
  return !existsSync(STAMP) || readFileSync(STAMP, "utf8").trim() !== fingerprint();
}

export async function build({ manageUi = true } = {}) {
  const { build: esbuild } = await import("esbuild");
  const ui = manageUi
    ? import("../packages/manage-ui/build.mjs").then((page) => page.buildManageUi())
    : undefined;
  // Every import stays an import; a relative one to a .ts file names the .js file it becomes,
  // and must stay inside its unit (another package is reached by its name and exports: its
  // sources have no .js beside them).
  const keepImports = (from) => ({
    name: "keep-imports",
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const relative = args.path.startsWith("./") || args.path.startsWith("../");
        if (relative && path.relative(from, path.resolve(args.resolveDir, args.path)).startsWith("..")) {
          return {
            errors: [
              { text: `${args.path} is outside ${path.relative(root, from)}: import it by its package name` },
            ],
          };
        }
        return { path: relative ? args.path.replace(/\.ts$/, ".js") : args.path, external: true };
      });
    },
  });
  await Promise.all(
    UNITS.map(async ({ from, to, flat }) => {
      rmSync(to, { recursive: true, force: true });
      const files = filesUnder(from, flat);
      const sources = files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
      for (const asset of files.filter((file) => !file.endsWith(".ts") && !flat)) {
        const target = path.join(to, path.relative(from, asset));
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(asset, target);
      }
      await esbuild({
        entryPoints: sources,
        outbase: from,
        outdir: to,
        bundle: true,
        plugins: [keepImports(from)],
        platform: "node",
        format: "esm",
        target: "node20.19",
        sourcemap: "linked",
        // The map points at the .ts beside it; no copy of the source inside.
        sourcesContent: false,
        logLevel: "warning",
      });
    }),
  );
  await ui;
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${fingerprint()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes("--if-stale");
  const { isManageUiStale, buildManageUi } = await import("../packages/manage-ui/build.mjs");
  if (!ifStale || isStale()) {
    const started = performance.now();
    await build({ manageUi: !ifStale || isManageUiStale() });
    if (!ifStale) console.log(`built in ${Math.round(performance.now() - started)} ms`);
  } else if (isManageUiStale()) await buildManageUi();
}
