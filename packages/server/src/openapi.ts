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
  const doc = fitForOpenApi30(document) as Json;
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
  return useInputNamesWhereUnambiguous(doc as T, schemas, registered);
}

/**
 * Rewrites what zod's OpenAPI 3.0 output states in ways 3.0.3 gives no meaning to (found by
 * `pnpm openapi:lint`), without changing what is accepted; returns a copy.
 * - `nullable: true` counts only next to `type` (3.0.3, Schema Object): beside an `anyOf` it
 *   becomes one more member that accepts null alone (the form the document already uses for
 *   `z.null()`), and so does a nullable reference (`allOf` of one `$ref`); on a schema with no `type` and no composition (any value, which already
 *   includes null) it is dropped.
 * - An `anyOf` of one member is that member (when no keyword would be overwritten).
 */
export function fitForOpenApi30<T>(document: T): T {
  return fitNode(document) as T;
}

const COMPOSITION = ["anyOf", "oneOf", "allOf", "not", "$ref"];
/** OpenAPI 3.0's schema of `null` and nothing else: `nullable` applies to a `type`, `enum` leaves only null. */
const NULL_ONLY = { enum: [null], nullable: true, type: "string" };

function fitNode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fitNode);
  if (value === null || typeof value !== "object") return value;
  const schema = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, fitNode(child)]),
  ) as Json;
  const allOf = Array.isArray(schema.allOf) ? (schema.allOf as Json[]) : undefined;
  if (schema.nullable === true && !("type" in schema) && !schema.anyOf && allOf?.length === 1) {
    // A nullable reference (`allOf: [$ref]`): the reference or null.
    delete schema.nullable;
    delete schema.allOf;
    schema.anyOf = [allOf[0], { ...NULL_ONLY }];
  }
  const anyOf = Array.isArray(schema.anyOf) ? (schema.anyOf as Json[]) : undefined;
  if (schema.nullable === true && !("type" in schema)) {
    if (anyOf) {
      delete schema.nullable;
      schema.anyOf = [...anyOf, { ...NULL_ONLY }];
    } else if (!COMPOSITION.some((key) => key in schema) && !("enum" in schema)) {
      delete schema.nullable;
    }
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.length === 1) {
    const [member] = schema.anyOf as Json[];
    const { anyOf: _single, ...rest } = schema;
    if (member && typeof member === "object" && Object.keys(member).every((key) => !(key in rest))) {
      return { ...rest, ...member };
    }
  }
  return schema;
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
