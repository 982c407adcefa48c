// Logger options of the app. Every line names the service (both run in one process under
// `pnpm start`, with request ids from @app/db/http). API keys, hosted mode's license keys and feed tokens
// travel in the query string, so the logged URL is rewritten; API keys sent in headers
// (`Authorization`, `x-api-key`) are redacted wherever headers are logged.
import type { FastifyRequest, FastifyServerOptions } from "fastify";

export const SERVICE = "scheduling";
const REDACTED = "[redacted]";

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
      return `${secret ? `${name}=${REDACTED}` : pair}${separator}`;
    });
  return `${url.slice(0, queryStart)}?${pairs.join("")}`;
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
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
    serializers: { ...base.serializers, req: serializeRequest },
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
