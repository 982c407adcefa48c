// Logger options of the app. Every line names the service (both run in one process under
// `pnpm start`, with request ids from @app/db/http). API keys, hosted mode's license keys and feed tokens
// travel in the query string, so the logged URL is rewritten; API keys sent in headers
// (`Authorization`, `x-api-key`) are redacted wherever headers are logged.
import { redactedRequest, redactUrl } from "@app/server/http";
import type { FastifyServerOptions } from "fastify";

export const SERVICE = "scheduling";
const REDACTED = "[redacted]";

// The logged URL's secrets are replaced by @app/server/http's redactUrl (shared with the
// shortener, whose Shlink API takes ?apiKey= too).
export { redactUrl };

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
    redact: {
      // rawPacket: the bytes of a request Node could not parse (logged at trace): keys and tokens included.
      paths: [
        "req.headers.authorization",
        'req.headers["x-api-key"]',
        "req.query.apiKey",
        "req.query.key",
        "req.query.feedToken",
        "headers.authorization",
        'headers["x-api-key"]',
        "query.apiKey",
        "query.key",
        "query.feedToken",
        "err.rawPacket",
      ],
      censor: REDACTED,
    },
  };
}
