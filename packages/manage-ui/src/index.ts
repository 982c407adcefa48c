// The built page of /manage (build.mjs, run by scripts/build.mjs) as the shortener serves it: the
// HTML, and every hashed asset with its precompressed gzip and brotli bodies, read once.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BUILT = fileURLToPath(new URL("../dist-browser", import.meta.url));

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

export type ManageAsset = { type: string; body: Buffer; gzip?: Buffer; br?: Buffer };
export type ManageUi = { page: string; assets: Map<string, ManageAsset> };

/** Every file of the built page; throws, naming the command, when it was never built. */
export function loadManageUi(): ManageUi {
  const index = path.join(BUILT, "index.html");
  if (!existsSync(index)) throw new Error(`${index} is missing: run pnpm build`);
  const folder = path.join(BUILT, "assets");
  const read = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);
  // A Map: a name such as __proto__ finds nothing.
  const assets = new Map<string, ManageAsset>();
  for (const name of readdirSync(folder)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue; // the .gz and .br beside each file
    const file = path.join(folder, name);
    assets.set(name, { type, body: readFileSync(file), gzip: read(`${file}.gz`), br: read(`${file}.br`) });
  }
  return { page: readFileSync(index, "utf8"), assets };
}
