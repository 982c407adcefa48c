import type { FastifyServerOptions } from "fastify";

/** Request logs never carry a bearer token. */
export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" },
  };
}
