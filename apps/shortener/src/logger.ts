// Logger and request-id options of the app. Every line names the service (both run in one
// process under `pnpm start`); request ids are unique across the process, or the caller's
// own `x-request-id` when it is a sane token; bearer tokens never reach the log.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyServerOptions } from "fastify";

export const SERVICE = "shortener";
const REDACTED = "[redacted]";
const INCOMING_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/** The caller's `x-request-id` when it is a short token, else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

type LoggerOption = FastifyServerOptions["logger"];

/** `false`/undefined: no logging; `true`: JSON lines at `level`; an options object is kept and extended. */
export function loggerOptions(logger: LoggerOption, level: string): LoggerOption {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return {
    level,
    ...base,
    base: { service: SERVICE, pid: process.pid },
    redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: REDACTED },
  };
}
