// docs/development.md's "Layout" held against the tree: every file the conventions table names for both apps
// exists in both, and every route plugin is a `*.routes.ts`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const development = readFileSync(path.join(root, "docs/development.md"), "utf8");
const layout = development.slice(development.indexOf("## Layout"));
/** The plain file names of the table's first column (`app.ts`, `cli.ts`; not the `*.routes.ts` patterns). */
const named = [...layout.matchAll(/^\| `([a-z-]+\.ts)`(?: \/ `([a-z-]+\.ts)`)? \|/gm)].flatMap((m) =>
  m.slice(1).filter((name): name is string => name !== undefined),
);
const apps = ["shortener", "scheduling"];
const sources = (app: string) =>
  readdirSync(path.join(root, "apps", app, "src"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) =>
      path.relative(path.join(root, "apps", app, "src"), path.join(entry.parentPath, entry.name)),
    );

describe("docs/development.md Layout", () => {
  it("names the files both apps hold", () => {
    expect(named).toEqual(
      expect.arrayContaining(["app.ts", "server.ts", "config.ts", "cli.ts", "credentials.ts"]),
    );
  });

  it.each(apps)("%s holds every file of the conventions table, and health.routes.ts", (app) => {
    const files = new Set(sources(app));
    for (const name of [...named, "health.routes.ts"])
      expect(files.has(name), `apps/${app}/src/${name}`).toBe(true);
  });

  it.each(apps)(
    "%s: every module that registers routes is a *.routes.ts, or the app or the resource factory",
    (app) => {
      const routeFiles = sources(app).filter((file) =>
        /\.(get|post|patch|put|delete|route)\(\s*["`/]/.test(
          readFileSync(path.join(root, "apps", app, "src", file), "utf8"),
        ),
      );
      const misnamed = routeFiles.filter(
        (file) => !file.endsWith(".routes.ts") && !["app.ts", "resources/factory.ts"].includes(file),
      );
      expect(misnamed).toEqual([]);
    },
  );
});
