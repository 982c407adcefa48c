// Logger options of the app. Every line names the service (both run in one process under
// `pnpm start`, with request ids from @app/db/http); bearer tokens never reach the log, nor do
// Shlink's API keys (X-Api-Key, and ?apiKey= in a logged URL).
import { redactedRequest } from "@app/server/http";
import type { FastifyServerOptions } from "fastify";

export const SERVICE = "shortener";
const REDACTED = "[redacted]";

type LoggerOption = FastifyServerOptions["logger"];

/** `false`/undefined: no logging; `true`: JSON lines at `level`; an options object is kept and extended. */
export function loggerOptions(logger: LoggerOption, level: string): LoggerOption {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return {
    level,
    ...base,
    base: { service: SERVICE, pid: process.pid },
    serializers: { ...base.serializers, req: redactedRequest },
    // rawPacket: the bytes of a request Node could not parse (logged at trace), token included.
    redact: {
      // A protected short's password form: request bodies are not logged, but should one ever be.
      paths: [
        "req.headers.authorization",
        'req.headers["x-api-key"]',
        "req.query.apiKey",
        "headers.authorization",
        'headers["x-api-key"]',
        "query.apiKey",
        "err.rawPacket",
        "req.body.password",
        "body.password",
      ],
      censor: REDACTED,
    },
  };
}
