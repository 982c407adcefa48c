// The browser build of /manage (docs/adr/0262): ui/main.tsx and what it imports (React, Shlink's
// web component and their dependencies, all from npm) bundled by esbuild into hashed files under
// dist-browser/assets/, code-split so the sign-in form does not wait for the component; the CSS
// compiled by Tailwind from the class names the component, its kit and ui/ use; each file
// precompressed (gzip and brotli) and the page written with the hashed names. scripts/build.mjs
// runs it at install, and again when a file of ui/, this script or the package's pins changed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const UI = path.join(here, "ui");
export const OUT = path.join(here, "dist-browser");
const STAMP = path.join(OUT, ".built");
/** Where the page's files are served from (the shortener's /manage routes). */
const PUBLIC_PATH = "/manage/assets/";

function fingerprint() {
  // The lockfile too: an install that changed a pinned package rebuilds the page.
  const files = [
    fileURLToPath(import.meta.url),
    path.join(here, "package.json"),
    path.join(here, "../../pnpm-lock.yaml"),
  ];
  for (const name of readdirSync(UI)) files.push(path.join(UI, name));
  const newest = Math.max(...files.map((file) => statSync(file).mtimeMs));
  return createHash("sha256")
    .update(`${newest}\n${files.sort().join("\n")}`)
    .digest("hex");
}

export function isManageUiStale() {
  return !existsSync(STAMP) || readFileSync(STAMP, "utf8").trim() !== fingerprint();
}

/** The directory of a package's file `name` (a package.json subpath export is not always there). */
const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`));

/**
 * What Tailwind is asked to generate: every token of the files whose class names end up in the
 * page. Tailwind's own scanner is a native module (@tailwindcss/oxide); splitting on quotes and
 * white space finds the same class names, and a token that is no class generates nothing.
 */
function candidates() {
  const files = [
    ...["@shlinkio/shlink-web-component", "@shlinkio/shlink-frontend-kit"].flatMap((name) => {
      const dist = path.join(packageDir(name), "dist");
      return readdirSync(dist)
        .filter((file) => file.endsWith(".js"))
        .map((file) => path.join(dist, file));
    }),
    ...readdirSync(UI)
      .filter((file) => file.endsWith(".tsx"))
      .map((file) => path.join(UI, file)),
  ];
  const found = new Set();
  for (const file of files)
    for (const token of readFileSync(file, "utf8").split(/[\s"'`\\]+/)) if (token) found.add(token);
  return [...found];
}

async function tailwindCss(entry) {
  const { compile } = await import("tailwindcss");
  const loadStylesheet = async (id, base) => {
    const file = id.startsWith(".")
      ? path.resolve(base, id)
      : id === "tailwindcss"
        ? path.join(packageDir("tailwindcss"), "index.css")
        : path.join(
            packageDir(id.split("/").slice(0, 2).join("/")),
            "dist",
            id.split("/").slice(2).join("/"),
          );
    return { path: file, base: path.dirname(file), content: readFileSync(file, "utf8") };
  };
  const compiler = await compile(readFileSync(entry, "utf8"), { base: UI, from: entry, loadStylesheet });
  return compiler.build(candidates());
}

export async function buildManageUi() {
  const { build } = await import("esbuild");
  rmSync(OUT, { recursive: true, force: true });
  const tailwind = {
    name: "tailwind",
    setup(builder) {
      builder.onLoad({ filter: /[\\/]ui[\\/]tailwind\.css$/ }, async (args) => ({
        contents: await tailwindCss(args.path),
        loader: "css",
        resolveDir: UI,
      }));
    },
  };
  const result = await build({
    entryPoints: [path.join(UI, "main.tsx")],
    outdir: path.join(OUT, "assets"),
    publicPath: PUBLIC_PATH,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["chrome120", "firefox120", "safari17"],
    minify: true,
    // No source maps shipped: the sources are the npm packages', and the budget counts bytes.
    sourcemap: false,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    loader: { ".png": "file", ".svg": "file", ".woff2": "file", ".ttf": "file" },
    legalComments: "none",
    metafile: true,
    plugins: [tailwind],
    logLevel: "warning",
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entryOf = (ext) =>
    path.basename(outputs.find(([file, output]) => output.entryPoint && file.endsWith(ext))?.[0] ?? "");
  const script = entryOf(".js");
  const style = outputs.map(([file]) => path.basename(file)).find((file) => file.endsWith(".css"));
  const page = readFileSync(path.join(UI, "page.html"), "utf8")
    .replace("{{script}}", `${PUBLIC_PATH}${script}`)
    .replace("{{style}}", `${PUBLIC_PATH}${style}`);
  writeFileSync(path.join(OUT, "index.html"), page);
  // Text precompressed once here, so no request compresses (images are compressed already).
  // Brotli at 9: 9 % more bytes than at 11 for the component's chunk, in a sixth of the time
  // (an install pays it; a browser fetches the immutable files once).
  const assets = path.join(OUT, "assets");
  for (const name of readdirSync(assets).filter((file) => /\.(js|css|svg)$/.test(file))) {
    const body = readFileSync(path.join(assets, name));
    writeFileSync(path.join(assets, `${name}.gz`), gzipSync(body, { level: 9 }));
    writeFileSync(
      path.join(assets, `${name}.br`),
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(STAMP, `${fingerprint()}\n`);
  return { script, style };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildManageUi();
  console.log(`manage-ui built in ${Math.round(performance.now() - started)} ms`);
}
