// The packages' roles, held against the code: walks the import graph from every entry point a
// process starts with (each app's server.ts and cli.ts, the scripts `pnpm start`, `pnpm
// db:migrate`, `pnpm db:backup`/`db:restore`, `pnpm scale` and the bench run) the way TypeScript resolves it (workspace `exports` included),
// and checks that no runtime module reaches the test harness, that packages never import an
// app, and that there are no import cycles between packages. Inside each app, it holds the
// grouping of `src/`: no import cycle between its modules, and a module in a group (`src/<group>/`)
// imports only its own group and the app's shared top-level modules; the top level (`app.ts`
// and the other wiring) is what imports across groups, bar the few edges declared below.
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

// Each module is read and resolved once for every walk (they share most of their graph: 32 s
// of the quick tier when each walked it afresh), with TypeScript's own resolution cache.
const resolutions = ts.createModuleResolutionCache(root, (name) => name, config.options);
const importsByFile = new Map<string, string[]>();

/** The repository files a module imports (static, `export … from` and dynamic), resolved. */
function importsOf(file: string): string[] {
  const known = importsByFile.get(file);
  if (known) return known;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const found: string[] = [];
  importsByFile.set(file, found);
  for (const { fileName } of importedFiles) {
    const resolved = ts.resolveModuleName(fileName, file, config.options, ts.sys, resolutions).resolvedModule;
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

const apps = readdirSync(path.join(root, "apps"));
/** Every module of `apps/<app>/src`, its groups' included. */
const appModules = (app: string): string[] =>
  readdirSync(path.join(root, "apps", app, "src"), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
/** `shorts`, `slots`…: the folder of `src/` a module is in; undefined for a top-level module. */
const groupOf = (app: string, file: string): string | undefined => {
  const parts = path.relative(path.join(root, "apps", app, "src"), file).split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
};
/** The top-level modules that wire an app and run it: no group imports them. */
const WIRING = ["app.ts", "server.ts", "cli.ts", "openapi-sync.ts"];
/**
 * The imports from one group of an app into another that its design needs, each with why (paths
 * from the app's `src/`). Every other import across groups is the top level's: a group imports
 * its own modules and the app's shared top-level ones (errors.ts, types.ts, config.ts…).
 */
const CROSS_GROUP_IMPORTS: Record<string, Record<string, string>> = {
  scheduling: {
    "resources/booking-operations.ts -> slots/slots.service.ts":
      "creating a booking takes its slot and hosts by the slot engine's own rules (reserveHosts)",
    "resources/booking-operations.ts -> slots/time-zones.ts": "the slot engine's MINUTE",
    "resources/booking-operations.ts -> mail/outbox.ts":
      "a booking change writes its e-mails into the outbox in its own transaction (enqueueBookingMail)",
    "resources/booking-operations.ts -> mail/messages.ts":
      "a booking's default title is v1's event name in its organizer's language, in the e-mails' words (defaultTitle)",
    "resources/feed-tokens.ts -> feed/feed-tokens.ts":
      "the API's create issues a calendar feed token as the CLI does (issueFeedToken, feedPath)",
    "resources/booking-operations.ts -> calendars/writes.ts":
      "a booking change writes its calendar event into the outbox in its own transaction (enqueueCalendarWrite, ADR 0247)",
    "resources/destination-calendars.ts -> calendars/accounts.ts":
      "a destination calendar must be a calendar of an account the user connected, as v1 checked (connectedCalendarFor)",
    "slots/slots.service.ts -> calendars/busy.ts":
      "a host's selected calendars block slots and the booking check, read as the slot engine reads bookings (ADR 0247)",
    "slots/availability.service.ts -> calendars/busy.ts":
      "/availability shows the selected calendars' busy times and what is not confirmed, as slots count them (ADR 0247)",
    "mail/mail.ts -> hosting/secrets.ts":
      "the tenants' sender opens their databases with the key that seals their URLs (ADR 0230)",
    "mail/tenant-sender.ts -> hosting/secrets.ts":
      "a tenant's outbox is reached through its sealed database URL (ADR 0230)",
    "mail/tenant-sender.ts -> hosting/tenant-clients.ts":
      "a tenant's mail is sent on the tenant's own pooled client, as its requests are (ADR 0230)",
    "calendars/calendars.ts -> hosting/secrets.ts":
      "the tenants' calendar visits open their databases with the key that seals their URLs (ADR 0259)",
    "calendars/tenant-calendars.ts -> hosting/secrets.ts":
      "a tenant's calendars are reached through its sealed database URL (ADR 0259)",
    "calendars/tenant-calendars.ts -> hosting/tenant-clients.ts":
      "a tenant's calendars are visited on the tenant's own pooled client, as its requests are (ADR 0259)",
  },
  shortener: {
    "shlink/shlink-queries.ts -> visits/visit-rollup.ts":
      "Shlink's list ordered by visits reads the visit totals up to the roll-up's watermark (TOTALS_END), as the existing list does",
    "shorts/shorts.service.ts -> visits/visit-rollup.ts":
      "listing shorts by visits reads the visit totals up to the roll-up's watermark (TOTALS_END)",
    "stats/stats.service.ts -> visits/visit-rollup.ts":
      "statistics read the daily rows through the roll-up's watermarks and the hourly rows after them",
    "stats/orphan-stats.ts -> visits/orphan-visits.ts":
      "orphan visits are read as the counter writes them: its kinds and the unknown hosts' bucket",
    "imports/importer.ts -> shorts/shorts.service.ts":
      "an import creates shorts by the API's own rules (ShortsService.createMany)",
    "imports/importer.ts -> visits/visit-log.ts":
      "imported visits are stored by the visit log, with their aggregates, as any visit is",
    "imports/importer.ts -> visits/visit-maintenance.ts":
      "imported visits of a past month get its partition (VisitMaintenance.coverMonths)",
  },
};

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

  it("the apps are the ones the grouping rules name", () => {
    expect(apps.sort()).toEqual(Object.keys(CROSS_GROUP_IMPORTS).sort());
  });

  it.each(apps)("%s: no import cycle between the app's modules", (app) => {
    const edges = new Map(appModules(app).map((file) => [file, importsOf(file)]));
    const cycles: string[] = [];
    const done = new Set<string>();
    // Depth-first, each module once: an import of a module still on the trail closes a cycle.
    const visit = (file: string, trail: string[]) => {
      if (trail.includes(file))
        return cycles.push([...trail.slice(trail.indexOf(file)), file].map(relative).join(" -> "));
      if (done.has(file)) return;
      for (const next of edges.get(file) ?? []) if (edges.has(next)) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of edges.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it.each(apps)(
    "%s: a group imports only its own modules and the shared top-level ones; only the top level imports across groups",
    (app) => {
      const src = path.join(root, "apps", app, "src");
      const allowed = CROSS_GROUP_IMPORTS[app] ?? {};
      const refused: string[] = [];
      const used = new Set<string>();
      for (const file of appModules(app)) {
        const group = groupOf(app, file);
        if (group === undefined) continue;
        for (const target of importsOf(file)) {
          if (unitOf(target) !== `apps/${app}`) continue;
          const edge = `${path.relative(src, file)} -> ${path.relative(src, target)}`.replaceAll(
            path.sep,
            "/",
          );
          const targetGroup = groupOf(app, target);
          if (targetGroup === group) continue;
          if (targetGroup === undefined && !WIRING.includes(path.relative(src, target))) continue;
          if (edge in allowed) used.add(edge);
          else refused.push(edge);
        }
      }
      expect(refused).toEqual([]);
      // A declared edge the code no longer has is taken out of the list.
      expect([...used].sort()).toEqual(Object.keys(allowed).sort());
    },
  );
});
