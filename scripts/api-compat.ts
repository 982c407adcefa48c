// `pnpm api:check`: the served API documents (openapi/*.json, which the drift tests hold to
// what the services serve) against the last released ones (openapi/released/*.json). A change
// that can break a client is refused unless CHANGELOG.md's "Unreleased" section announces it: a
// line that names the operation (`GET /api/shorts/{id}/logs`), says **Breaking** and gives a
// Migration note. `pnpm api:release` makes the current documents the released ones and dates
// the Unreleased section (docs/adr/0212).
//   node dist/api-compat.js [--release]
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { recordRelease } from "./previous-release.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
export const DOCUMENTS = ["shortener", "shortener-rest", "scheduling"] as const;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  additionalProperties?: boolean | Schema;
};

export interface Break {
  /** `METHOD /path` as in the documents. */
  operation: string;
  /** What changed, for the report. */
  change: string;
}

/**
 * A schema with its `$ref` followed (once per name: recursive schemas end there) and its `allOf`
 * merged into one (the documents wrap a `$ref` in `allOf` to describe it in place).
 */
function resolve(document: Json, schema: Schema | undefined, seen: Set<string>): Schema | undefined {
  if (schema?.$ref) {
    if (seen.has(schema.$ref)) return undefined;
    seen.add(schema.$ref);
    const name = schema.$ref.replace("#/components/schemas/", "");
    const schemas = (document.components as { schemas?: Record<string, Schema> } | undefined)?.schemas;
    return resolve(document, schemas?.[name], seen);
  }
  if (!schema?.allOf) return schema;
  const { allOf, ...rest } = schema;
  const merged: Schema = { ...rest };
  for (const part of allOf.map((member) => resolve(document, member, seen))) {
    if (!part) continue;
    const { properties, required, ...own } = part;
    Object.assign(merged, own, merged);
    if (properties) merged.properties = { ...merged.properties, ...properties };
    if (required) merged.required = [...new Set([...(merged.required ?? []), ...required])];
  }
  return merged;
}

const bound = (schema: Schema, key: string) =>
  typeof schema[key] === "number" ? (schema[key] as number) : undefined;

/** What a client may send that `after` refuses and `before` took: the narrowing of an input. */
function narrowedInput(
  docs: { before: Json; after: Json },
  before: Schema | undefined,
  after: Schema | undefined,
  where: string,
  found: string[],
  seen = { before: new Set<string>(), after: new Set<string>() },
): void {
  const b = resolve(docs.before, before, seen.before);
  const a = resolve(docs.after, after, seen.after);
  if (!b || !a) return;
  if (b.type !== undefined && a.type !== undefined && b.type !== a.type)
    found.push(`${where}: type ${b.type} became ${a.type}`);
  if (b.nullable && !a.nullable) found.push(`${where}: null is no longer accepted`);
  if (a.enum) {
    const removed = (b.enum ?? []).filter((value) => !a.enum!.includes(value));
    if (!b.enum) found.push(`${where}: now one of ${JSON.stringify(a.enum)}`);
    else if (removed.length) found.push(`${where}: no longer accepts ${JSON.stringify(removed)}`);
  }
  for (const key of ["maxLength", "maximum", "maxItems"]) {
    const [was, is] = [bound(b, key), bound(a, key)];
    if (is !== undefined && (was === undefined || is < was))
      found.push(`${where}: ${key} ${was ?? "none"} → ${is}`);
  }
  for (const key of ["minLength", "minimum", "minItems"]) {
    const [was, is] = [bound(b, key), bound(a, key)];
    if (is !== undefined && (was === undefined || is > was))
      found.push(`${where}: ${key} ${was ?? "none"} → ${is}`);
  }
  for (const key of ["pattern", "format"]) {
    if (a[key] !== undefined && a[key] !== b[key])
      found.push(`${where}: ${key} ${JSON.stringify(b[key] ?? null)} → ${JSON.stringify(a[key])}`);
  }
  const required = new Set(b.required ?? []);
  for (const name of a.required ?? [])
    if (!required.has(name)) found.push(`${where}: ${name} is newly required`);
  for (const [name, property] of Object.entries(b.properties ?? {})) {
    const now = a.properties?.[name];
    if (!now && a.additionalProperties === false) found.push(`${where}.${name}: no longer accepted`);
    else if (now) narrowedInput(docs, property, now, `${where}.${name}`, found, seen);
  }
  if (b.items && a.items) narrowedInput(docs, b.items, a.items, `${where}[]`, found, seen);
}

/** What a client reads that `after` no longer gives as `before` did: the change of an output. */
function changedOutput(
  docs: { before: Json; after: Json },
  before: Schema | undefined,
  after: Schema | undefined,
  where: string,
  found: string[],
  seen = { before: new Set<string>(), after: new Set<string>() },
): void {
  const b = resolve(docs.before, before, seen.before);
  const a = resolve(docs.after, after, seen.after);
  if (!b) return;
  if (!a) return void found.push(`${where}: removed`);
  if (b.type !== undefined && a.type !== undefined && b.type !== a.type)
    found.push(`${where}: type ${b.type} became ${a.type}`);
  if (!b.nullable && a.nullable) found.push(`${where}: may now be null`);
  const branches = (schema: Schema) => (schema.anyOf ?? schema.oneOf ?? []).length;
  if (branches(a) > Math.max(branches(b), 1) || (!b.anyOf && !b.oneOf && (a.anyOf || a.oneOf)))
    found.push(`${where}: widened into a union`);
  if (b.enum && a.enum) {
    const added = a.enum.filter((value) => !b.enum!.includes(value));
    if (added.length) found.push(`${where}: may now be ${JSON.stringify(added)}`);
  }
  const required = new Set(a.required ?? []);
  for (const [name, property] of Object.entries(b.properties ?? {})) {
    const now = a.properties?.[name];
    if (!now) found.push(`${where}.${name}: removed`);
    else {
      if ((b.required ?? []).includes(name) && !required.has(name))
        found.push(`${where}.${name}: no longer always present`);
      changedOutput(docs, property, now, `${where}.${name}`, found, seen);
    }
  }
  if (b.items) changedOutput(docs, b.items, a.items, `${where}[]`, found, seen);
}

type Operation = {
  parameters?: (Json & { name: string; in: string; required?: boolean; schema?: Schema })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

/** Every change from `before` to `after` that can break a client of `before`. */
export function breakingChanges(before: Json, after: Json): Break[] {
  const docs = { before, after };
  const breaks: Break[] = [];
  const paths = (document: Json) => (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [route, item] of Object.entries(paths(before))) {
    for (const method of METHODS) {
      const was = item[method];
      if (!was) continue;
      const operation = `${method.toUpperCase()} ${route}`;
      const is = paths(after)[route]?.[method];
      const found: string[] = [];
      if (!is) {
        breaks.push({ operation, change: paths(after)[route] ? "operation removed" : "path removed" });
        continue;
      }
      // Inputs: parameters and the body.
      const key = (p: { name: string; in: string }) => `${p.in} ${p.name}`;
      const old = new Map((was.parameters ?? []).map((p) => [key(p), p]));
      for (const parameter of is.parameters ?? []) {
        const previous = old.get(key(parameter));
        if (!previous && parameter.required) found.push(`${key(parameter)}: a new required parameter`);
        if (previous && parameter.required && !previous.required)
          found.push(`${key(parameter)}: now required`);
        if (previous) narrowedInput(docs, previous.schema, parameter.schema, key(parameter), found);
      }
      for (const parameter of was.parameters ?? []) {
        if (!(is.parameters ?? []).some((p) => key(p) === key(parameter)) && parameter.in !== "path")
          found.push(`${key(parameter)}: no longer accepted`);
      }
      if (is.requestBody?.required && !was.requestBody?.required) found.push("the body is now required");
      for (const [media, content] of Object.entries(was.requestBody?.content ?? {})) {
        const now = is.requestBody?.content?.[media];
        if (is.requestBody && !now) found.push(`body ${media}: no longer accepted`);
        else if (now) narrowedInput(docs, content.schema, now.schema, `body`, found);
      }
      // Outputs: what a successful answer holds.
      for (const [status, response] of Object.entries(was.responses ?? {})) {
        if (!/^2\d\d$/.test(status)) continue;
        const now = is.responses?.[status];
        if (!now) {
          found.push(`${status}: no longer answered`);
          continue;
        }
        const wasMedia = Object.keys(response.content ?? {});
        const isMedia = Object.keys(now.content ?? {});
        const added = isMedia.filter((media) => !wasMedia.includes(media));
        if (wasMedia.length > 0 && added.length > 0)
          found.push(`${status}: widened into a union of ${[...wasMedia, ...added].join(" and ")}`);
        for (const media of wasMedia) {
          if (!isMedia.includes(media)) found.push(`${status} ${media}: no longer answered`);
          else
            changedOutput(
              docs,
              response.content![media]!.schema,
              now.content![media]!.schema,
              `${status}`,
              found,
            );
        }
      }
      for (const change of found) breaks.push({ operation, change });
    }
  }
  return breaks;
}

/** The "## Unreleased" section of a changelog ("" when there is none). */
export function unreleased(changelog: string): string {
  const start = changelog.search(/^## Unreleased$/m);
  if (start === -1) return "";
  const end = changelog.slice(start + 1).search(/^## /m);
  return changelog.slice(start, end === -1 ? undefined : start + 1 + end);
}

/** The breaks `changelog` does not announce: its Unreleased section names each operation, **Breaking**, and a Migration note. */
export function unannounced(breaks: Break[], changelog: string): Break[] {
  const pending = unreleased(changelog);
  const announced = (operation: string) =>
    pending
      .split(/\n(?=- )/)
      .some(
        (entry) =>
          entry.includes(`\`${operation}\``) && entry.includes("**Breaking**") && /Migration/.test(entry),
      );
  return breaks.filter((item) => !announced(item.operation));
}

const released = (name: string) => path.join(root, "openapi/released", `${name}.json`);
const current = (name: string) => path.join(root, "openapi", `${name}.json`);
const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Json;

/**
 * The released form of document `name`; one never released (openapi/shortener-rest.json until
 * the next release) has no operation a client could rely on: nothing of it can break.
 */
export const releasedDocument = (name: string, dir = root): Json =>
  existsSync(path.join(dir, "openapi/released", `${name}.json`))
    ? read(path.join(dir, "openapi/released", `${name}.json`))
    : { openapi: "3.0.3", paths: {} };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const changelogFile = path.join(root, "CHANGELOG.md");
  if (process.argv.includes("--release")) {
    for (const name of DOCUMENTS) copyFileSync(current(name), released(name));
    const changelog = readFileSync(changelogFile, "utf8");
    const date = new Date().toISOString().slice(0, 10);
    writeFileSync(changelogFile, changelog.replace(/^## Unreleased$/m, `## ${date}`));
    // The code this release is cut from: the next upgrade drill starts from it (docs/adr/0218).
    const commit = recordRelease();
    console.log(
      `released openapi/{${DOCUMENTS.join(",")}}.json as of ${date}; deploy/previous-release is ${commit.slice(0, 12)}`,
    );
  } else {
    const changelog = readFileSync(changelogFile, "utf8");
    let refused = 0;
    for (const name of DOCUMENTS) {
      const breaks = breakingChanges(releasedDocument(name), read(current(name)));
      for (const item of unannounced(breaks, changelog)) {
        console.error(`openapi/${name}.json: ${item.operation}: ${item.change}`);
        refused++;
      }
      console.log(
        `openapi/${name}.json: ${breaks.length} breaking change(s) since the release, ${breaks.length - unannounced(breaks, changelog).length} announced`,
      );
    }
    if (refused > 0) {
      console.error(
        `${refused} breaking change(s) not announced: list each operation in CHANGELOG.md's "## Unreleased" with **Breaking** and a Migration note, or undo it`,
      );
      process.exit(1);
    }
  }
}
