import { STATUS_CODES } from "node:http";
import { isDatabaseUnavailable } from "@app/db";
import type { ClientErrorBody } from "@app/server/http";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { HttpError, MethodNotAllowed } from "./errors.ts";

// The seed answers these three in plain text; every other error is JSON {status, error}.
const PLAIN_TEXT_STATUSES = new Set([401, 403, 404]);

export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  if (statusCode === 401) reply.header("www-authenticate", 'Bearer realm="shortener"');
  if (PLAIN_TEXT_STATUSES.has(statusCode)) {
    return reply.code(statusCode).type("text/plain; charset=utf-8").send(message);
  }
  return reply.code(statusCode).send({ status: STATUS_CODES[statusCode] ?? "Error", error: message });
}

/** A request Node's parser refused (@app/server/http clientErrorHandler), in the same JSON Error shape. */
export const clientErrorBody: ClientErrorBody = (status, message) => ({
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify({ status: STATUS_CODES[status] ?? "Error", error: message }),
});

/** The shortener's one error handler: maps every thrown error to the wire format. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof MethodNotAllowed) reply.header("allow", error.allow.join(", "));
    if (error instanceof HttpError) return sendError(reply, error.statusCode, error.message);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? "request";
      const details = error.validation.map((issue) => {
        const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
        return field ? `${field}: ${issue.message}` : issue.message;
      });
      // An unknown id in a path is "not found" to the seed, not "bad request".
      if (where === "params") return sendError(reply, 404, "Not Found");
      return sendError(reply, 400, `Invalid ${where}: ${details.join("; ")}`);
    }

    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, "response did not match its schema");
      return sendError(reply, 500, "Internal server error");
    }

    // Fastify's own client errors: malformed JSON (400), unsupported media type (415),
    // body too large (413), ...
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, status, error.message);

    // The database is down or dropped the connection: the client may retry.
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, "database unavailable");
      return sendError(reply, 503, "The database is unavailable; try again shortly");
    }

    request.log.error({ err: error }, "request failed");
    return sendError(reply, 500, "Internal server error");
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, "Not Found"));
}
