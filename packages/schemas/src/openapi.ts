// Helpers for the OpenAPI documents the apps generate from these schemas.

type Json = Record<string, unknown>;

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") into.add(child);
      else collectRefs(child, into);
    }
  }
}

/**
 * Drops the schema components no operation reaches, then names request-side variants
 * plainly where that is unambiguous. Component ids live in zod's global
 * registry, which every schema module loaded in the process fills: without this, a
 * process serving both APIs (`pnpm start`) would list each API's components in the
 * other's document, along with unused input/output twins.
 */
export function tidyComponents<T extends object>(document: T): T {
  const doc = document as Json;
  const schemas = (doc.components as Json | undefined)?.schemas as Record<string, unknown> | undefined;
  if (!schemas) return document;
  const reached = new Set<string>();
  const pending: unknown[] = [doc.paths];
  while (pending.length > 0) {
    const refs = new Set<string>();
    collectRefs(pending.pop(), refs);
    for (const ref of refs) {
      const name = ref.replace("#/components/schemas/", "");
      if (!reached.has(name) && name in schemas) {
        reached.add(name);
        pending.push(schemas[name]);
      }
    }
  }
  // Every registered id appears twice before pruning: `<id>` and its request-side twin.
  const registered = new Set(Object.keys(schemas));
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
  return useInputNamesWhereUnambiguous(document, schemas, registered);
}

const INPUT_SUFFIX = "Input";

/**
 * The type provider names a schema's request-side variant `<id>Input`. Where the plain
 * `<id>` is not also used (a body schema such as NewShort), the document uses the name
 * the schema was given.
 */
function useInputNamesWhereUnambiguous<T extends object>(
  document: T,
  schemas: Record<string, unknown>,
  registered: Set<string>,
): T {
  const renames = Object.keys(schemas)
    .filter((name) => name.endsWith(INPUT_SUFFIX))
    .map((name) => [name, name.slice(0, -INPUT_SUFFIX.length)] as const)
    // `<id>Input` is a twin only if `<id>` was generated too (EventTypeCustomInput is an id).
    .filter(([, plain]) => registered.has(plain) && !(plain in schemas));
  if (renames.length === 0) return document;
  let text = JSON.stringify(document);
  for (const [from, to] of renames) {
    text = text.replaceAll(`"#/components/schemas/${from}"`, `"#/components/schemas/${to}"`);
  }
  const renamed = JSON.parse(text) as Json;
  const renamedSchemas = (renamed.components as Json).schemas as Record<string, unknown>;
  for (const [from, to] of renames) {
    renamedSchemas[to] = renamedSchemas[from];
    delete renamedSchemas[from];
  }
  return renamed as T;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The committed form of a document (`openapi/*.json`): keys sorted at every level, 2-space
 * indent, final newline, so regenerating an unchanged API is byte-for-byte a no-op.
 */
export function renderOpenApi(document: unknown): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
