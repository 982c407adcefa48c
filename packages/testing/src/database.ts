// Test-only helpers: every test file gets its own database, cloned from a template
// that the vitest global setup migrated once, so files run in parallel on one server.
import { randomBytes } from "node:crypto";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { Transform } from "node:stream";
import { fullFormats } from "ajv-formats/dist/formats.js";
import pg from "pg";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** A maintenance connection URL of the test PostgreSQL server (direct: databases are made here). */
    databaseServerUrl: string;
    /**
     * A PgBouncer (transaction mode) in front of that server that the apps' clients connect
     * through, with the server as their direct URL (TEST_DATABASE_DIRECT_URL); empty: none.
     */
    databasePoolerUrl: string;
    /** A migrated database to clone. */
    templateDatabase: string;
    /** Redis for the tests that need one; empty when none was configured. */
    redisUrl: string;
    /** The fuzz suites' cases per operation and seed (FUZZ_RUNS, FUZZ_SEED; testing-fuzz.ts). */
    fuzz: { numRuns: number; seed: number };
  }
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** Where the apps' queries go: the server, or the PgBouncer in front of it. */
  url: string;
  /** The server itself: sessions (LISTEN, migrations) and maintenance. Equals `url` without a pooler. */
  directUrl: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file: migrated, or `empty` (no schema at all). */
export async function createTestDatabase({ empty = false } = {}): Promise<TestDatabase> {
  const serverUrl = inject("databaseServerUrl");
  const template = empty ? "template0" : inject("templateDatabase");
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  // Two clones of one template at the same instant can collide ("source database is
  // being accessed by other users"); a short retry rides that out.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  // A test database is thrown away after its file: its commits need not wait for the disk (the
  // server stays up, so a commit is still seen by every session at once). On a disk that
  // discards online a flush costs milliseconds, and the suite commits hundreds of thousands of times.
  await adminQuery(serverUrl, `ALTER DATABASE "${name}" SET synchronous_commit = off`);
  const poolerUrl = inject("databasePoolerUrl");
  return {
    url: withDatabase(poolerUrl || serverUrl, name),
    directUrl: withDatabase(serverUrl, name),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Drops every connection and refuses new ones: the server looks down. */
  down(): Promise<void>;
  /** Accepts and forwards again, on the same port. */
  up(): Promise<void>;
  /** Keeps every connection open but forwards nothing either way: the server looks frozen (SIGSTOP). */
  freeze(): void;
  thaw(): void;
  /**
   * The next message a client sends that holds one of `markers` (a statement's name or text)
   * arms its connection; the next message on it that holds `at` (default: that same message)
   * reaches the server, whose whole answer to it (up to its ReadyForQuery) is withheld; then both
   * sides of the connection are cut. With `at: "COMMIT"`, the client sees its connection lost
   * after a commit the server made (a leader that died before answering). Resolves once it has cut.
   */
  cutAfterAnswer(markers: string[], at?: string): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL's ReadyForQuery message (idle, in a transaction or failed): the end of an answer. */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

/** A TCP proxy in front of a real server, for tests of a database (or Redis) that goes away and comes back. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  let frozen = false;
  let cut: { markers: Buffer[]; at: Buffer | undefined; done: () => void } | undefined;
  // Each side's bytes go through a Transform (where a cut is armed and carried out), which a
  // freeze unpipes from its socket.
  const pairs = new Set<{ client: Socket; upstream: Socket; toServer: Transform; toClient: Transform }>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    let armed: typeof cut;
    let withheld: Buffer | undefined;
    const toServer = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        if (cut?.markers.some((marker) => chunk.includes(marker))) {
          armed = cut;
          cut = undefined;
        }
        if (armed && withheld === undefined && (armed.at === undefined || chunk.includes(armed.at))) {
          withheld = Buffer.alloc(0);
        }
        next(null, chunk);
      },
    });
    const toClient = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        if (withheld === undefined) return next(null, chunk);
        withheld = Buffer.concat([withheld, chunk]);
        if (withheld.includes(READY_FOR_QUERY)) {
          client.destroy();
          upstream.destroy();
          armed?.done();
        }
        next();
      },
    });
    toServer.pipe(upstream);
    toClient.pipe(client);
    const pair = { client, upstream, toServer, toClient };
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
    if (!frozen) {
      client.pipe(toServer);
      upstream.pipe(toClient);
    }
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const down = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    via(url: string) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    down,
    up: () => listen(port),
    freeze() {
      frozen = true;
      // Unpiped, each side buffers what it receives and forwards nothing.
      for (const { client, upstream, toServer, toClient } of pairs) {
        client.unpipe(toServer);
        upstream.unpipe(toClient);
      }
    },
    thaw() {
      frozen = false;
      for (const { client, upstream, toServer, toClient } of pairs) {
        client.pipe(toServer);
        upstream.pipe(toClient);
      }
    },
    cutAfterAnswer(markers, at) {
      return new Promise<void>((resolve) => {
        cut = {
          markers: markers.map((marker) => Buffer.from(marker)),
          at: at === undefined ? undefined : Buffer.from(at),
          done: resolve,
        };
      });
    },
    close: () => (server.listening ? down() : Promise.resolve()),
  };
}

/** The value of one sample in Prometheus text format, whatever the order of its labels. */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/**
 * Watches a test file for leaked secrets: every token and API key the file creates is
 * remembered, and every line its apps log (at trace level) and every answer they send
 * (status line headers and body) is checked against them as it is written. One per file
 * (reset before each file by test/each-file.ts: one worker runs many files with one module
 * cache); the app helpers wire it in and assert at the end.
 */
export const secretScan = (() => {
  const secrets = new Set<string>();
  const leaks: string[] = [];
  const check = (where: string, text: string) => {
    for (const secret of secrets) {
      if (!text.includes(secret)) continue;
      // The report must not spread the secret further: it quotes the text with it cut out.
      leaks.push(
        `${where} contains ${secret.slice(0, 8)}…: ${text.replaceAll(secret, "[SECRET]").slice(0, 300)}`,
      );
    }
  };
  return {
    /** A token or key: the whole value and its random part (after the prefix) must never show. */
    remember(secret: string): void {
      secrets.add(secret);
      const random = secret.slice(secret.indexOf("_") + 1);
      if (random.length >= 16) secrets.add(random);
    },
    /** A pino destination: pass as `logger: { level: "trace", stream: secretScan.logStream }`. */
    logStream: { write: (line: string) => check("log line", line) },
    /** Checks every answer of `app`, headers and body. */
    watch(app: {
      addHook(
        name: "onSend",
        hook: (request: unknown, reply: { getHeaders(): object }, payload: unknown) => Promise<unknown>,
      ): unknown;
    }): void {
      app.addHook("onSend", async (_request, reply, payload) => {
        const body = typeof payload === "string" || Buffer.isBuffer(payload) ? String(payload) : "";
        check("answer", `${JSON.stringify(reply.getHeaders())}\n${body}`);
        return payload;
      });
    },
    leaks: (): readonly string[] => leaks,
    /** Forgets every secret and leak: a new test file starts. */
    reset(): void {
      secrets.clear();
      leaks.length = 0;
    },
    /** How many secrets were watched (a scan that watched nothing proves nothing). */
    get size(): number {
      return secrets.size;
    },
  };
})();

type JsonSchema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
};

/** ajv-formats' full check of a `format` (what validators apply); unknown formats admit anything. */
function formatAdmits(format: string, value: string): boolean {
  const check = (fullFormats as Record<string, unknown>)[format];
  if (typeof check === "function") return (check as (value: string) => boolean)(value);
  if (check instanceof RegExp) return check.test(value);
  const validate = (check as { validate?: unknown } | undefined)?.validate;
  if (typeof validate === "function") return (validate as (value: string) => boolean)(value);
  if (validate instanceof RegExp) return validate.test(value);
  return true;
}

/**
 * Whether an OpenAPI document's schema admits `value`, by the keywords that state the rules of
 * single values (type, enum, lengths, pattern, format as ajv-formats checks it, bounds, items,
 * uniqueItems; `$ref` into `components`): what a client, or a fuzzer, reads from the document.
 * Objects are not walked.
 */
/**
 * Whether a document admits a path or query parameter's text, as a client writes it: a string
 * schema reads the text itself; an integer or number schema the number it spells, which must
 * also match the schema's pattern when it has one (the text the server takes: no sign or
 * leading zeros, docs/adr/0250), or else be plain decimal digits.
 */
export function documentAdmitsText(
  document: { components?: { schemas?: Record<string, unknown> } },
  schema: JsonSchema,
  text: string,
): boolean {
  if (schema.type !== "integer" && schema.type !== "number") return documentAdmits(document, schema, text);
  const spelling = schema.pattern === undefined ? /^-?\d+(?:\.\d+)?$/ : new RegExp(schema.pattern, "u");
  return spelling.test(text) && documentAdmits(document, schema, Number(text));
}

export function documentAdmits(
  document: { components?: { schemas?: Record<string, unknown> } },
  schema: JsonSchema,
  value: unknown,
): boolean {
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    return documentAdmits(document, document.components?.schemas?.[name] as JsonSchema, value);
  }
  if (value === null) return schema.nullable === true || (schema.anyOf ?? []).some((s) => s.nullable);
  if (schema.allOf && !schema.allOf.every((part) => documentAdmits(document, part, value))) return false;
  if (schema.anyOf && !schema.anyOf.some((part) => documentAdmits(document, part, value))) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  switch (schema.type) {
    case "string": {
      if (typeof value !== "string") return false;
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) return false;
      if (schema.maxLength !== undefined && length > schema.maxLength) return false;
      if (schema.format && !formatAdmits(schema.format, value)) return false;
      return schema.pattern === undefined || new RegExp(schema.pattern, "u").test(value);
    }
    case "integer":
    case "number":
      if (typeof value !== "number" || (schema.type === "integer" && !Number.isInteger(value))) return false;
      return (
        (schema.minimum === undefined || value >= schema.minimum) &&
        (schema.maximum === undefined || value <= schema.maximum)
      );
    case "array": {
      if (!Array.isArray(value)) return false;
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
      if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) {
        return false;
      }
      return !schema.items || value.every((item) => documentAdmits(document, schema.items!, item));
    }
    case "boolean":
      return typeof value === "boolean";
    default:
      return true;
  }
}
