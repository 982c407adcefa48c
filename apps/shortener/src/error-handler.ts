import { STATUS_CODES } from "node:http";
import { isDatabaseUnavailable } from "@app/db";
import type { ErrorBody } from "@app/schemas/shortener";
import type { ClientErrorBody } from "@app/server/http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import type { z } from "zod";
import { BadRequest, DATABASE_RETRY_AFTER_SECONDS, HttpError, MethodNotAllowed } from "./errors.ts";
import { isRestUrl, problemBody, ShlinkProblem } from "./shlink/problems.ts";

// The seed answers these three in plain text; every other error is JSON {status, error}.
const PLAIN_TEXT_STATUSES = new Set([401, 403, 404]);

/** The seed's JSON Error body of a status and message. */
export function errorBody(statusCode: number, message: string): ErrorBody {
  return { status: STATUS_CODES[statusCode] ?? "Error", error: message };
}

export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  if (statusCode === 401) reply.header("www-authenticate", 'Bearer realm="shortener"');
  if (PLAIN_TEXT_STATUSES.has(statusCode)) {
    return reply.code(statusCode).type("text/plain; charset=utf-8").send(message);
  }
  return reply.code(statusCode).send(errorBody(statusCode, message));
}

/** A request Node's parser refused (@app/server/http clientErrorHandler), in the same JSON Error shape. */
export const clientErrorBody: ClientErrorBody = (status, message) => ({
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify(errorBody(status, message)),
});

/** The 400 message of a request part that failed validation: each bad field, and what is wrong. */
function invalidMessage(where: string, issues: { field: string; message: string }[]): string {
  const details = issues.map(({ field, message }) => (field ? `${field}: ${message}` : message));
  return `Invalid ${where}: ${details.join("; ")}`;
}

/** A body zod refused, as the 400 a route answers for it (a bulk item's error is this too). */
export function invalidBody(error: z.ZodError): BadRequest {
  return new BadRequest(
    invalidMessage(
      "body",
      error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message })),
    ),
  );
}

/** What an error answers: its status and message (sendError renders them), and a 405's Allow. */
export interface ErrorResponse {
  status: number;
  message: string;
  allow?: string[];
  /** Retry-After, in seconds. */
  retryAfter?: number;
  /** The fields a request failed validation on (Shlink's invalidElements under /rest). */
  fields?: string[];
}

/**
 * The shortener's one error mapper: every error a route, a hook, Fastify or the database raises
 * becomes the status and message the seed's contract gives it. Pure but for logging what the
 * operator must see (a failure, the database down).
 */
export function toResponse(error: FastifyError, request: FastifyRequest): ErrorResponse {
  if (error instanceof MethodNotAllowed) return { status: 405, message: error.message, allow: error.allow };
  if (error instanceof HttpError) return { status: error.statusCode, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? "request";
    // An unknown id in a path is "not found" to the seed, not "bad request".
    if (where === "params") return { status: 404, message: "Not Found" };
    const issues = error.validation.map((issue) => ({
      field: issue.instancePath.replace(/^\//, "").replaceAll("/", "."),
      message: issue.message ?? "",
    }));
    return {
      status: 400,
      message: invalidMessage(where, issues),
      fields: issues.map((issue) => issue.field),
    };
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, "response did not match its schema");
    return { status: 500, message: "Internal server error" };
  }
  // The router's own errors, before any route runs: its messages would echo the whole URL.
  if (error.code === "FST_ERR_BAD_URL") return { status: 400, message: "Malformed URL" };
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH")
    return { status: error.statusCode ?? 414, message: "URI too long" };
  // Fastify's own client errors: malformed JSON (400), unsupported media type (415), body too large (413)...
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: error.message };
  // The database is down or dropped the connection: the client may retry.
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, "database unavailable");
    return {
      status: 503,
      message: "The database is unavailable; try again shortly",
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  request.log.error({ err: error }, "request failed");
  return { status: 500, message: "Internal server error" };
}

/** Shlink's problem codes and titles of the statuses its API answers without a problem of its own. */
const REST_PROBLEMS: Record<number, [code: string, title: string]> = {
  400: ["invalid-data", "Invalid data"],
  401: ["invalid-api-key", "Invalid API key"],
  404: ["not-found", "Not found"],
  405: ["method-not-allowed", "Method not allowed"],
  500: ["internal-server-error", "Internal server error"],
};

/**
 * An error under /rest as Shlink's problem (shlink/problems.ts): a ShlinkProblem as thrown, any
 * other by its status, a refused body's fields as invalidElements, bad JSON as Shlink names it.
 */
export function toProblem(error: FastifyError, response: ErrorResponse): ShlinkProblem {
  if (error instanceof ShlinkProblem) return error;
  const { status, message } = response;
  if (status === 400 && (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError)) {
    return new ShlinkProblem(
      400,
      "malformed-request-body",
      "Malformed request body",
      "Provided request body is not valid JSON",
    );
  }
  const [code, title] = REST_PROBLEMS[status] ?? [
    status >= 500
      ? "internal-server-error"
      : (STATUS_CODES[status] ?? "error").toLowerCase().replaceAll(" ", "-"),
    STATUS_CODES[status] ?? "Error",
  ];
  if (code === "invalid-data")
    return new ShlinkProblem(400, code, title, message, { invalidElements: response.fields ?? [] });
  return new ShlinkProblem(status, code, title, message);
}

/** A problem as Shlink sends it: application/problem+json. */
export function sendProblem(reply: FastifyReply, problem: ShlinkProblem): FastifyReply {
  return reply
    .code(problem.statusCode)
    .type("application/problem+json")
    .send(JSON.stringify(problemBody(problem)));
}

/** Sends what toResponse says for `error` (under /rest, as Shlink's problem). */
export function sendErrorFor(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const response = toResponse(error, request);
  if (response.allow) reply.header("allow", response.allow.join(", "));
  if (response.retryAfter !== undefined) reply.header("retry-after", String(response.retryAfter));
  if (isRestUrl(request.url)) return sendProblem(reply, toProblem(error, response));
  return sendError(reply, response.status, response.message);
}

/** The shortener's one error handler, and its answer to an unknown path. */
async function errorHandlerPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler(sendErrorFor);
  app.setNotFoundHandler((request, reply) =>
    isRestUrl(request.url)
      ? sendProblem(
          reply,
          new ShlinkProblem(404, "not-found", "Not found", `Requested route does not exist.`),
        )
      : sendError(reply, 404, "Not Found"),
  );
}

export default fp(errorHandlerPlugin, { name: "error-handler", fastify: "5.x" });
