// The packages' roles, held against the code: walks the import graph from every entry point a
// process starts with (each app's server.ts and cli.ts, the scripts `pnpm start`, `pnpm
// db:migrate`, `pnpm db:backup`/`db:restore`, `pnpm scale` and the bench run) the way TypeScript resolves it (workspace `exports` included),
// and checks that no runtime module reaches the test harness, that packages never import an
// app, and that there are no import cycles between packages.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const config = ts.parseJsonConfigFileContent(
  ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile).config,
  ts.sys,
  root,
);

/** The repository files a module imports (static, `export … from` and dynamic), resolved. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const found: string[] = [];
  for (const { fileName } of importedFiles) {
    const resolved = ts.resolveModuleName(fileName, file, config.options, ts.sys).resolvedModule;
    if (!resolved) continue;
    // Workspace packages resolve through node_modules symlinks; their real path is in the repo.
    const target = realpathSync(resolved.resolvedFileName);
    if (target.startsWith(root) && !target.includes(`${path.sep}node_modules${path.sep}`)) found.push(target);
  }
  return found;
}

/** Every repository module reachable from `entry`, each with one path that reaches it. */
function reachable(entry: string): Map<string, string[]> {
  const paths = new Map<string, string[]>([[entry, [entry]]]);
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    for (const next of importsOf(file)) {
      if (paths.has(next)) continue;
      paths.set(next, [...paths.get(file)!, next]);
      pending.push(next);
    }
  }
  return paths;
}

const relative = (file: string) => path.relative(root, file);
/** `packages/db`, `apps/shortener`, `scripts`…: the workspace unit a file belongs to. */
const unitOf = (file: string) => {
  const [top, name] = relative(file).split(path.sep);
  return top === "apps" || top === "packages" ? `${top}/${name}` : top!;
};

const entryPoints = [
  "apps/shortener/src/server.ts",
  "apps/shortener/src/cli.ts",
  "apps/scheduling/src/server.ts",
  "apps/scheduling/src/cli.ts",
  "scripts/start.ts",
  "scripts/migrate.ts",
  "scripts/db-backup.ts",
  "scripts/db-restore.ts",
  "scripts/bench-server.ts",
  "scripts/scale.ts",
].map((file) => path.join(root, file));

describe("import graph", () => {
  it.each(entryPoints.map((file) => [relative(file), file]))(
    "%s reaches no module of the test harness (packages/testing) nor a test file",
    (_name, entry) => {
      const offending = [...reachable(entry)]
        .filter(([file]) => unitOf(file) === "packages/testing" || /[/\\]test[/\\]/.test(relative(file)))
        .map(([, via]) => via.map(relative).join(" -> "));
      expect(offending).toEqual([]);
    },
  );

  it("walks what it claims to (the runtime graph is not empty, and reaches every runtime package)", () => {
    const units = new Set([...reachable(path.join(root, "scripts/start.ts")).keys()].map(unitOf));
    for (const unit of [
      "apps/shortener",
      "apps/scheduling",
      "packages/db",
      "packages/server",
      "packages/schemas",
    ]) {
      expect(units).toContain(unit);
    }
  });

  it("packages import no app, and packages do not import each other in a cycle", () => {
    const packageFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter(
          (entry) => entry.isFile() && /\.ts$/.test(entry.name) && !entry.parentPath.includes("generated"),
        )
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => !file.includes(`${path.sep}node_modules${path.sep}`));
    const edges = new Map<string, Set<string>>();
    const intoApps: string[] = [];
    for (const pkg of readdirSync(path.join(root, "packages"))) {
      for (const file of packageFiles(path.join(root, "packages", pkg, "src"))) {
        for (const target of importsOf(file)) {
          const [from, to] = [unitOf(file), unitOf(target)];
          if (to.startsWith("apps/")) intoApps.push(`${relative(file)} -> ${relative(target)}`);
          if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
        }
      }
    }
    expect(intoApps).toEqual([]);
    // Depth-first search for a cycle in the package graph.
    const cycles: string[] = [];
    const visit = (unit: string, trail: string[]) => {
      if (trail.includes(unit)) return cycles.push([...trail.slice(trail.indexOf(unit)), unit].join(" -> "));
      for (const next of edges.get(unit) ?? []) visit(next, [...trail, unit]);
    };
    for (const unit of edges.keys()) visit(unit, []);
    expect(cycles).toEqual([]);
  });
});
