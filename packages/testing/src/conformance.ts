// Test-only: every answer an app sends is checked against the app's own OpenAPI document
// (`app.swagger()`). The operation is found by method and route pattern; its status must be
// declared (or `default`), the content type must be one the status declares (none when it
// declares no content), and a JSON body must validate against the declared schema (ajv 8,
// the document's OpenAPI 3.0 schemas converted to JSON Schema). Like the secret scan: one per
// test file (reset before each), the app helpers wire it in and assert at the end that nothing
// was found.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

type Json = Record<string, unknown>;

/** What a checked answer is, as far as the check needs it. */
export interface Answer {
  method: string;
  /** The route pattern Fastify matched (`/api/v1/users/:id`); undefined when none did. */
  route: string | undefined;
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  /** The body as sent: "" or undefined when there is none. */
  body: string | undefined;
  /** The URL asked for, for the report. */
  url: string;
}

export type ViolationKind = "operation" | "status" | "content-type" | "body";

export interface Violation {
  /** The document's title, e.g. "Scheduling API". */
  service: string;
  /** `METHOD /path/{param}` as in the document. */
  operation: string;
  status: number;
  kind: ViolationKind;
  detail: string;
  url: string;
}

/**
 * Deliberate, documented exceptions to conformance: none today (the documents state what the
 * servers send since issue 9 item 9). An entry needs a reason and matches on service,
 * operation, status and kind; anything else the check finds is a bug to fix.
 */
export const KNOWN_MISMATCHES: readonly {
  service: string;
  operation: string;
  status: number;
  kind: ViolationKind;
  reason: string;
}[] = [];

function isKnown(violation: Violation): string | undefined {
  return KNOWN_MISMATCHES.find(
    (known) =>
      known.service === violation.service &&
      known.operation === violation.operation &&
      known.status === violation.status &&
      known.kind === violation.kind,
  )?.reason;
}

/** `/users/:id` → `/users/{id}` (a regexp after a parameter, `:id(^\\d+)`, is dropped). */
export function openApiPath(route: string): string {
  return route.replace(/:(\w+)(\([^)]*\))?/g, "{$1}");
}

/**
 * An OpenAPI 3.0 schema as JSON Schema (draft 7, which ajv 8 validates): `nullable: true`
 * becomes a `null` type (or an `anyOf` with one, where there is no `type`), an `enum` of a
 * nullable schema gains `null`, and OpenAPI-only annotations are left for ajv to ignore.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const { nullable, ...rest } = schema as Json;
  const converted: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    // `properties` maps names to schemas: convert each value, not the map as one schema.
    if ((key === "properties" || key === "patternProperties") && value && typeof value === "object") {
      converted[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, child]) => [name, toJsonSchema(child)]),
      );
    } else if (key === "enum" || key === "example" || key === "default" || key === "examples") {
      converted[key] = value;
    } else {
      converted[key] = toJsonSchema(value);
    }
  }
  if (nullable !== true) return converted;
  if (Array.isArray(converted.enum) && !converted.enum.includes(null)) {
    converted.enum = [...converted.enum, null];
  }
  if (typeof converted.type === "string") return { ...converted, type: [converted.type, "null"] };
  if (Array.isArray(converted.type)) return { ...converted, type: [...converted.type, "null"] };
  return { anyOf: [converted, { type: "null" }] };
}

const mediaType = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

function mediaMatches(declared: string, actual: string): boolean {
  const want = mediaType(declared);
  if (want === "*/*" || want === actual) return true;
  return want.endsWith("/*") && actual.startsWith(want.slice(0, -1));
}

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((error) => `${error.instancePath || "(root)"} ${error.message ?? error.keyword}`)
    .join("; ");
}

const DOCUMENT_ID = "openapi.json";

/** The checker of one document: `check(answer)` lists what the answer breaks, nothing if it conforms. */
export function conformanceChecker(document: object) {
  const doc = document as Json;
  const service = String((doc.info as Json | undefined)?.title ?? "service");
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  // The whole document is one schema; each response schema is compiled by JSON pointer into
  // it, so `#/components/schemas/...` references resolve against the document's components.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, ...(toJsonSchema({ paths, components: doc.components }) as Json) });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };

  return {
    service,
    check(answer: Answer): Violation[] {
      // HEAD is served by the GET route (Fastify's exposeHeadRoutes) without a body.
      const method = answer.method === "HEAD" ? "get" : answer.method.toLowerCase();
      const path = openApiPath(answer.route ?? "");
      const operationName = `${method.toUpperCase()} ${path}`;
      const violation = (kind: ViolationKind, detail: string): Violation[] => [
        { service, operation: operationName, status: answer.status, kind, detail, url: answer.url },
      ];
      const operation = paths[path]?.[method];
      if (!operation) return violation("operation", "the document has no such operation");
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, "default"].find(
        (key) => key in responses,
      );
      if (!statusKey) {
        return violation("status", `undeclared; declared: ${Object.keys(responses).join(", ")}`);
      }
      const content = (responses[statusKey]!.content ?? {}) as Record<string, Json>;
      const declared = Object.keys(content);
      const hasBody = answer.body !== undefined && answer.body !== "";
      const actual = answer.contentType === undefined ? undefined : mediaType(answer.contentType);
      if (declared.length === 0) {
        if (actual !== undefined || hasBody) {
          return violation("content-type", `declares no content, sent ${actual ?? "a body"}`);
        }
        return [];
      }
      if (actual === undefined) {
        // HEAD answers carry GET's content type, and no body by definition.
        return violation("content-type", `declares ${declared.join(", ")}, sent no content type`);
      }
      const media = declared.find((candidate) => mediaMatches(candidate, actual));
      if (!media) return violation("content-type", `declares ${declared.join(", ")}, sent ${actual}`);
      if (answer.method === "HEAD") return [];
      if (!hasBody) return violation("body", `declares ${media} content, sent no body`);
      if (!("schema" in content[media]!)) return [];
      let value: unknown = answer.body;
      if (actual === "application/json" || actual.endsWith("+json")) {
        try {
          value = JSON.parse(answer.body!);
        } catch {
          return violation("body", "not JSON");
        }
      }
      const pointer = ["", "paths", path, method, "responses", statusKey, "content", media, "schema"]
        .map(escapePointer)
        .join("/");
      const validate = validator(pointer);
      if (validate(value)) return [];
      return violation("body", `${describeErrors(validate.errors)}: ${answer.body!.slice(0, 300)}`);
    },
  };
}

export const formatViolation = (v: Violation) =>
  `${v.service}: ${v.operation} → ${v.status} (${v.kind}) ${v.detail} [${v.url}]`;

interface WatchedRequest {
  method: string;
  url: string;
  routeOptions: { url?: string; schema?: { hide?: boolean } };
}
interface WatchedReply {
  statusCode: number;
  getHeader(name: string): unknown;
}
interface WatchableApp {
  addHook(
    name: "onSend",
    hook: (request: WatchedRequest, reply: WatchedReply, payload: unknown) => Promise<unknown>,
  ): unknown;
  addHook(name: "onRoute", hook: (route: { method: string | string[]; url: string }) => void): unknown;
  swagger(): unknown;
}

/**
 * Why an answer is not checked (docs/adr/0122), or undefined when it is. `testRoutes`
 * are the routes a test added to the app after it was built (`METHOD url`).
 */
export function skipReason(request: WatchedRequest, testRoutes: ReadonlySet<string>): string | undefined {
  const route = request.routeOptions.url;
  // Unknown paths: no route, so no operation (404 in each service's error shape).
  if (route === undefined) return "no route";
  // Routes hidden from the document: 405 answers, /docs and /docs/reference in the shortener.
  if (request.routeOptions.schema?.hide) return "hidden";
  if (testRoutes.has(`${request.method} ${route}`)) return "added by a test";
  return undefined;
}

/**
 * A document of its own for some of an app's routes (the shortener's /rest, at /rest/docs): the
 * answers of the routes it `covers` are checked against it, their route as `route` maps it.
 */
export interface OtherDocument {
  covers: (route: string) => boolean;
  document: () => unknown;
  /** The route as the document names it (several versions served as one); default: as is. */
  route?: (route: string) => string;
}

/**
 * The suite-wide check: `watch(app)` checks every answer the app sends from then on; the
 * app helpers assert `violations()` is empty after each file. Known mismatches (above) are
 * kept apart in `known()`.
 */
export const conformance = (() => {
  const found: Violation[] = [];
  const known: Violation[] = [];
  let checked = 0;
  const record = (violation: Violation) => {
    if (isKnown(violation)) known.push(violation);
    else found.push(violation);
  };
  return {
    watch(app: WatchableApp, others: readonly OtherDocument[] = []): void {
      let checker: ReturnType<typeof conformanceChecker> | undefined;
      const otherCheckers = new Map<OtherDocument, ReturnType<typeof conformanceChecker>>();
      // Every route the app registers is in place by now; any added later is a test's own.
      const testRoutes = new Set<string>();
      app.addHook("onRoute", (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) testRoutes.add(`${method} ${route.url}`);
      });
      app.addHook("onSend", async (request, reply, payload) => {
        if (skipReason(request, testRoutes)) return payload;
        const route = request.routeOptions.url ?? "";
        const other = others.find((candidate) => candidate.covers(route));
        // Built on the first answer: by then the app is ready and its document complete.
        let check: ReturnType<typeof conformanceChecker>;
        if (other) {
          check = otherCheckers.get(other) ?? conformanceChecker(other.document() as object);
          otherCheckers.set(other, check);
        } else {
          checker ??= conformanceChecker(app.swagger() as object);
          check = checker;
        }
        const status = reply.statusCode;
        const header = reply.getHeader("content-type");
        // Fastify strips the body and content type of a 204 (and 1xx) as it sends them.
        const bodiless = status === 204 || status < 200;
        const body =
          typeof payload === "string" || Buffer.isBuffer(payload)
            ? String(payload)
            : payload == null
              ? undefined
              : "[stream]";
        checked++;
        for (const violation of check.check({
          method: request.method,
          route: other?.route ? other.route(route) : request.routeOptions.url,
          status,
          contentType: bodiless || header === undefined ? undefined : String(header),
          body: bodiless ? undefined : body,
          url: request.url.replace(/apiKey=[^&]*/gi, "apiKey=…"),
        })) {
          record(violation);
        }
        return payload;
      });
    },
    /** Violations not in KNOWN_MISMATCHES: must stay empty. */
    violations: (): readonly Violation[] => found,
    /** Violations matching KNOWN_MISMATCHES (reported, not counted). */
    known: (): readonly Violation[] => known,
    /** How many answers were checked (a check that saw nothing proves nothing). */
    get checked(): number {
      return checked;
    },
    /** Forgets what was found and counted: a new test file starts. */
    reset(): void {
      found.length = 0;
      known.length = 0;
      checked = 0;
    },
  };
})();
