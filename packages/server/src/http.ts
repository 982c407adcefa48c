// HTTP details both services share: request ids, how an empty JSON body is read, 405 + Allow
// for every method a path does not offer, connection limits.
import { randomUUID } from "node:crypto";
import { type IncomingMessage, METHODS, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";

const INCOMING_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/**
 * Zod validates and serializes every route (fastify-type-provider-zod): given here, at the
 * server's construction, Fastify never builds, nor loads, its own ajv and fast-json-stringify
 * compilers (about 40 ms of every start, of a service that has no JSON-schema route).
 */
export const zodSchemaController = {
  // Fastify types its factories for JSON schemas (ajv's compile); these take the zod schemas
  // every route declares, as setValidatorCompiler and setSerializerCompiler would.
  compilersFactory: {
    buildValidator: () => validatorCompiler,
    buildSerializer: () => serializerCompiler,
  },
} as unknown as FastifyServerOptions["schemaController"];

/** The caller's `x-request-id` when it is a short token (anything else could forge log content), else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Echoes the id each request was logged under, for the caller to quote. */
export function echoRequestIds(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per response on the hot paths.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
}

/**
 * One access-log line per request, written as its response is sent (request, status, time),
 * in place of Fastify's two (incoming + completed): half the log writes per request
 * (docs/performance.md). Fastify's other lines (errors, 404s) are unchanged. Routes with a
 * quieter logLevel (the redirect) skip it. Pass as the app's `logController`.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        "request errored",
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
    }
  }
}

/**
 * axios-based v1 clients send Content-Type: application/json on every call, bodiless DELETEs
 * and GETs too: an empty body is no body (a route that needs one still refuses it).
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") done(null, undefined);
    else parseJson(request, body as string, done);
  });
}

export interface ConnectionLimits {
  REQUEST_TIMEOUT_MS: number;
  KEEP_ALIVE_TIMEOUT_MS: number;
  MAX_CONNECTIONS: number;
}

/**
 * Fastify options that keep slow clients from holding the server: a whole request (headers
 * and body) must arrive within `REQUEST_TIMEOUT_MS` (else 408 and the connection closes),
 * checked every second rather than Node's default 30 s; idle keep-alive connections close.
 */
export function connectionOptions({ REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS }: ConnectionLimits) {
  return {
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    http: { headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
  };
}

/** What a service answers for a request Node's parser refused before Fastify saw it. */
export type ClientErrorBody = (status: number, message: string) => { contentType: string; body: string };

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (a raw non-ASCII byte
 * in the URL, headers too large, a request that took longer than REQUEST_TIMEOUT_MS) is
 * answered in the service's own error shape, as every other error is, and logged as one line
 * with its status (never the raw bytes, which may hold credentials).
 */
export function clientErrorHandler(render: ClientErrorBody) {
  return function onClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex) {
    // A connection reset: nobody is left to answer.
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const [status, message] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request did not arrive in time"]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "The request's headers are too large"]
          : [
              400,
              "Malformed request: the request line or a header is not valid HTTP (a raw non-ASCII character?)",
            ];
    this.log.info({ res: { statusCode: status }, reason: error.code ?? error.name }, "request refused");
    if (socket.writable) {
      const { contentType, body } = render(status, message);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Content-Type: ${contentType}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/**
 * One line when the service has stopped: `<service> stopped: N requests drained` (those in
 * flight when it began to stop; all answered by then), then what the service adds (the
 * shortener: the visits stored while stopping). Call it before registering the onClose hooks
 * whose work it reports: Fastify runs onClose hooks last-added first, so this one runs last.
 */
export function logShutdown(
  app: FastifyInstance,
  service: string,
  details: () => string[] = () => [],
): RequestTally {
  const tally = new RequestTally();
  let drained = 0;
  // Also read by what should give way to requests (the mail sender, docs/adr/0235).
  app.decorate("requestsInFlight", {
    getter: () => tally.inFlight,
  });
  // Synchronous hooks: the cheapest Fastify offers, on every request of the hot paths.
  app.addHook("onRequest", (_request, _reply, done) => {
    tally.began();
    done();
  });
  app.addHook("onResponse", (_request, _reply, done) => {
    tally.ended();
    done();
  });
  app.addHook("onRequestAbort", (_request, done) => {
    tally.ended();
    done();
  });
  app.addHook("preClose", (done) => {
    drained = tally.inFlight;
    done();
  });
  app.addHook("onClose", (instance, done) => {
    const what = [`${drained} ${drained === 1 ? "request" : "requests"} drained`, ...details()];
    instance.log.info(`${service} stopped: ${what.join(", ")}`);
    done();
  });
  return tally;
}

/** Requests begun and not yet answered: counted by Fastify's hooks and by the hot path (hot-path.ts). */
export class RequestTally {
  inFlight = 0;
  began(): void {
    this.inFlight++;
  }
  ended(): void {
    this.inFlight--;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** A planned stop of this service (drainOnStop): asked for once, by the process's first signal. */
    plannedStop: PlannedStop;
    /** Requests begun and not yet answered (logShutdown). */
    readonly requestsInFlight: number;
  }
}

export interface PlannedStop {
  readonly requested: boolean;
  request(): void;
  /** Milliseconds since the last request other than a probe (`/ready`, `/health`) began. */
  quietForMs(): number;
  /** A request for `url` began (a probe's does not count as traffic). */
  noteRequest(url: string | undefined): void;
}

/** The probes a proxy or orchestrator sends whether or not it routes traffic here. */
const PROBES = new Set(["/ready", "/health"]);

/**
 * A planned stop no client notices (issue 38, docs/adr/0215). Once `app.plannedStop.request()`
 * has run (the process's first SIGTERM or SIGINT), `/ready` answers 503 and every answer carries
 * `Connection: close`, while the service goes on serving: the proxy takes the instance out of
 * rotation on its next failed checks, and neither it nor a client keeps an idle connection to
 * reuse once the instance stops listening (a request written to a connection the server is
 * closing is the one a proxy cannot tell apart from one that was served). Idle connections
 * still open when the server closes are closed by Fastify then.
 */
export function drainOnStop(app: FastifyInstance): void {
  let requested = false;
  let lastRequestAt = Date.now();
  app.decorate("plannedStop", {
    get requested() {
      return requested;
    },
    request() {
      requested = true;
    },
    quietForMs: () => Date.now() - lastRequestAt,
    noteRequest(url) {
      if (url === undefined || !PROBES.has(url)) lastRequestAt = Date.now();
    },
  });
  // Synchronous hooks: the cheapest Fastify offers, on every request of the hot paths.
  app.addHook("onRequest", (request, _reply, done) => {
    app.plannedStop.noteRequest(request.url);
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (requested) reply.header("connection", "close");
    done(null, payload);
  });
}

type LogFn = FastifyBaseLogger["info"];
type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;
/** pino's levels, as numbers: a line is written when its level is at least the logger's. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * A request's logger, whose pino child is made only when a line at or above its level is written.
 * Fastify makes a child per request (its request-id binding serialized, a route's level set):
 * 1.4 µs of the redirect's 38 µs of CPU (docs/performance.md), for a route that logs only
 * warnings, on every request. Lines, their bindings and redaction are the child's, unchanged.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;
  /** The lowest level written; a parent without pino's levels (Fastify's no-op logger) writes all. */
  readonly threshold: number;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    const level = options.level ?? parent.level;
    const known = (parent as { levels?: { values?: Record<string, number> } }).levels?.values;
    this.threshold = known === undefined ? 0 : level === "silent" ? Infinity : (known[level] ?? 0);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  silent(): void {}

  logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
}
for (const [name, value] of Object.entries(LEVELS)) {
  Object.defineProperty(RequestLogger.prototype, name, {
    value: function (this: RequestLogger, ...args: unknown[]) {
      if (value >= this.threshold) {
        const logger = this.logger() as unknown as Record<string, (...a: unknown[]) => void>;
        logger[name]!(...args);
      }
    },
  });
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first written to (RequestLogger). */
export const lazyRequestLogger: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;

/** At most this many connections at once; the server refuses the rest. */
export function capConnections(app: FastifyInstance, { MAX_CONNECTIONS }: ConnectionLimits): void {
  app.server.maxConnections = MAX_CONNECTIONS;
}

/** The order methods are listed in an `Allow` header; any others follow alphabetically. */
const ALLOW_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY"];
const allowRank = (method: string) => {
  const rank = ALLOW_ORDER.indexOf(method);
  return rank === -1 ? ALLOW_ORDER.length : rank;
};
const byAllowOrder = (a: string, b: string) => allowRank(a) - allowRank(b) || a.localeCompare(b);

/**
 * Every method Node's HTTP parser reads, except CONNECT (its target is a host, not a path):
 * a path answers each of them, with its route or with 405.
 */
export const ANSWERED_METHODS: readonly string[] = METHODS.filter((method) => method !== "CONNECT");

interface OfferedPath {
  /** Where the path's first route was registered: 405s run that scope's hooks (its auth, first). */
  scope: FastifyInstance;
  /** The path as that route gave it, relative to the scope's prefix. */
  path: string;
  /** The first route's options, for its config and log level (read late: a scope's own hook may stamp them). */
  route: RouteOptions;
  methods: Set<string>;
}

export interface MethodGuard {
  /**
   * Registers, for every path registered so far, a route answering each method it does not
   * offer: it throws `refusal(allow)`, which the service's error handler renders as its own 405
   * with an `Allow` header. Call it once, after the last route.
   */
  refuseOtherMethods(refusal: (allow: string[]) => Error): void;
}

/**
 * Collects the methods each path offers; see MethodGuard. Call it before the first route. HEAD
 * follows GET (Fastify answers it from the GET route) and is not listed in `Allow` then, as the
 * OpenAPI documents list GET only. The 405 routes are hidden from the documents, take the config
 * (e.g. `public`) and log level of the path's first route, and run in the scope that route was
 * registered in, so a scope's authentication still answers first.
 */
export function methodGuard(app: FastifyInstance): MethodGuard {
  // Fastify routes a fixed list of methods; any other method Node reads would answer 404.
  for (const method of ANSWERED_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
  const paths = new Map<string, OfferedPath>();
  let registering = false;
  app.addHook("onRoute", function (this: FastifyInstance, route) {
    if (registering) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // `/` under a prefix is announced twice: as "" (the prefix itself, GET) and as `/` (its HEAD
    // twin). One path: given as `/` again, the 405 route gets both variants. Read now: Fastify
    // reuses the options object for a route's variants.
    const path = route.routePath === "" && route.prefix !== "" ? "/" : route.routePath;
    const url = route.prefix + path;
    const known = paths.get(url);
    if (known) {
      for (const method of methods) known.methods.add(method);
    } else {
      paths.set(url, { scope: this, path, route, methods: new Set(methods) });
    }
  });
  return {
    refuseOtherMethods(refusal) {
      registering = true;
      try {
        for (const { scope, path, route, methods } of paths.values()) {
          const refused = ANSWERED_METHODS.filter(
            (method) => !methods.has(method) && !(method === "HEAD" && methods.has("GET")),
          );
          if (refused.length === 0) continue;
          const allow = [...methods].filter((m) => !(m === "HEAD" && methods.has("GET"))).sort(byAllowOrder);
          scope.route({
            method: refused,
            url: path,
            exposeHeadRoute: false,
            config: route.config,
            ...(route.logLevel ? { logLevel: route.logLevel } : {}),
            schema: { hide: true },
            // After the scope's own onRequest hooks (its auth), before any body is read: a body
            // the path would not take is not parsed (no 415 or 400 in place of the 405).
            onRequest: async () => {
              throw refusal(allow);
            },
            handler: async () => {
              throw refusal(allow);
            },
          });
        }
      } finally {
        registering = false;
      }
    },
  };
}

// Secrets in query strings (the scheduling API's and Shlink's ?apiKey=), replaced in the logged URL.
const REDACTED_VALUE = "[redacted]";

// `apiKey`, `ApiKey`, `apiKey[]`, `apiKey[0]`, percent-encoded or not: every spelling a query
// parser may accept; the same for `key` (hosted mode's license key) and `feedToken` (the
// calendar feed's secret).
const SECRET_NAME = /^((api)?key|feedtoken)(\[[^\]]*\])*$/i;

function isSecretName(name: string): boolean {
  try {
    return SECRET_NAME.test(decodeURIComponent(name.replaceAll("+", " ")));
  } catch {
    return SECRET_NAME.test(name);
  }
}

// A secret name with its `=` inside a decoded value: `x=1%26apiKey%3Dcal_…` or `x=1;apiKey=cal_…`.
const SECRET_INSIDE = /(^|[?&;])((api)?key|feedtoken)(\[[^\]]*\])*=/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

/**
 * The URL with every `apiKey` and `key` query value replaced, however the name was spelled or
 * encoded, and whichever separator a client used: `&`, or `;` (which the server's parser does
 * not split on, so the key ends up inside another parameter's value, and is redacted there too).
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart === -1) return url;
  const pairs = url
    .slice(queryStart + 1)
    .split(/(?<=[&;])/)
    .map((part) => {
      const separator = /[&;]$/.test(part) ? part.slice(-1) : "";
      const pair = separator ? part.slice(0, -1) : part;
      const name = pair.split("=", 1)[0] ?? "";
      const value = pair.slice(name.length + 1);
      const secret = isSecretName(name) || SECRET_INSIDE.test(decoded(value));
      return `${secret ? `${name}=${REDACTED_VALUE}` : pair}${separator}`;
    });
  return `${url.slice(0, queryStart)}?${pairs.join("")}`;
}

/** Fastify's request as logged, its URL's secrets replaced (redactUrl). */
export function redactedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
