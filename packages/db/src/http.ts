// HTTP details both services share: request ids and how an empty JSON body is read.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from "fastify";

const INCOMING_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/** The caller's `x-request-id` when it is a short token (anything else could forge log content), else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Echoes the id each request was logged under, for the caller to quote. */
export function echoRequestIds(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
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
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

/**
 * Fastify options that keep slow clients from holding the server: a whole request (headers
 * and body) must arrive within `requestTimeoutMs` (else 408 and the connection closes),
 * checked every second rather than Node's default 30 s; idle keep-alive connections close.
 */
export function connectionOptions({ requestTimeoutMs, keepAliveTimeoutMs }: ConnectionLimits) {
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    http: { headersTimeout: requestTimeoutMs, connectionsCheckingInterval: 1_000 },
  };
}

/** At most this many connections at once; the server refuses the rest. */
export function capConnections(app: FastifyInstance, { maxConnections }: ConnectionLimits): void {
  app.server.maxConnections = maxConnections;
}
