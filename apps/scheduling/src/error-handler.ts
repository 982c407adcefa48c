// The one place that turns errors into v1's `{"message": ...}` bodies. Routes throw the
// typed errors of errors.ts (or let Prisma/Fastify/zod errors through); nothing else builds
// an error body. Unknown errors are logged and answered without detail.
import { isDatabaseUnavailable, isRecordNotFound, isUniqueViolation, Prisma } from "@app/db";
import type { ClientErrorBody } from "@app/server/http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from "fastify-type-provider-zod";
import {
  BadRequest,
  DATABASE_RETRY_AFTER_SECONDS,
  HttpError,
  type Issue,
  MethodNotAllowed,
  NotFound,
} from "./errors.ts";

interface ErrorBody {
  message: string;
  issues?: Issue[];
}

// Prisma errors that can only come from what the client sent (a value too long for its
// column, a reference to a row that does not exist, a missing required value): a 400, not a 500.
const CLIENT_PRISMA_CODES = new Set(["P2000", "P2003", "P2011"]);

/** zod issues → v1-style message ("<code> in '<path>': <msg>", joined with "; ") plus `issues`. */
export function describeValidation(
  validation: ZodFastifySchemaValidationError[],
  context?: string,
): ErrorBody {
  const parts: string[] = [];
  const issues: Issue[] = [];
  for (const issue of validation) {
    const path = issue.instancePath.split("/").filter(Boolean).join(".");
    const keys = issue.params.keys;
    if (issue.keyword === "unrecognized_keys" && Array.isArray(keys)) {
      for (const key of keys) {
        const keyPath = path ? `${path}.${String(key)}` : String(key);
        parts.push(`unrecognized key '${keyPath}'`);
        issues.push({ path: keyPath, message: "Unrecognized key" });
      }
      continue;
    }
    const message = issue.message ?? issue.keyword;
    const where = path ? `'${path}'` : (context ?? "request");
    parts.push(`${issue.keyword} in ${where}: ${message}`);
    issues.push({ path, message });
  }
  return { message: parts.join("; "), issues };
}

interface PrismaErrorMeta {
  modelName?: string;
  target?: string | string[];
  driverAdapterError?: { cause?: { table?: string; constraint?: { fields?: string[]; index?: string } } };
}

/** "User with the same email already exists", from whatever the driver reported. */
function uniqueViolationMessage(error: Prisma.PrismaClientKnownRequestError): string {
  const meta = (error.meta ?? {}) as PrismaErrorMeta;
  const cause = meta.driverAdapterError?.cause;
  let fields = meta.target ?? cause?.constraint?.fields;
  const index = cause?.constraint?.index;
  if (!fields && index) {
    // Prisma names unique indexes `<table>_<column>[_<column>...]_key`.
    const columns =
      cause?.table && index.startsWith(`${cause.table}_`) ? index.slice(cause.table.length + 1) : index;
    fields = columns.replace(/_key$/, "").split("_");
  }
  const list = Array.isArray(fields) ? fields.join(", ") : fields;
  return `${meta.modelName ?? "A record"} with the same ${list ?? "values"} already exists`;
}

/** A request Node's parser refused (@app/server/http clientErrorHandler), in v1's `{message}` shape. */
export const clientErrorBody: ClientErrorBody = (_status, message) => ({
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify({ message }),
});

export function toResponse(
  error: FastifyError,
  request: FastifyRequest,
): { status: number; body: ErrorBody } {
  if (error instanceof BadRequest && error.issues) {
    return { status: 400, body: { message: error.message, issues: error.issues } };
  }
  // v1-style wording, whoever threw it.
  if (error instanceof MethodNotAllowed) {
    return { status: 405, body: { message: `Method Not Allowed (Allow: ${error.allow.join(",")})` } };
  }
  if (error instanceof HttpError) return { status: error.statusCode, body: { message: error.message } };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return { status: 400, body: describeValidation(error.validation, error.validationContext) };
  }
  if (isUniqueViolation(error)) {
    return {
      status: 409,
      body: { message: uniqueViolationMessage(error as Prisma.PrismaClientKnownRequestError) },
    };
  }
  if (isRecordNotFound(error)) return { status: 404, body: { message: "Not found" } };
  if (error instanceof Prisma.PrismaClientKnownRequestError && CLIENT_PRISMA_CODES.has(error.code)) {
    request.log.info({ err: error }, "database refused the request's values");
    return {
      status: 400,
      body: { message: "The request refers to a missing record or holds an invalid value" },
    };
  }
  // The router's message quotes the whole URL, API key included: never echo it.
  if (error.code === "FST_ERR_BAD_URL") return { status: 400, body: { message: "Malformed URL" } };
  // Fastify's own client errors (malformed JSON, 413, 415, empty body...) carry their status.
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { message: error.message } };
  }
  // The database is down or dropped the connection: the client may retry.
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, "database unavailable");
    return { status: 503, body: { message: "The database is unavailable; try again shortly" } };
  }
  request.log.error({ err: error }, "unhandled error");
  return { status: 500, body: { message: "Internal server error" } };
}

async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toResponse(error, request);
    if (error instanceof MethodNotAllowed) reply.header("allow", error.allow.join(", "));
    // The request waited DATABASE_WAIT_MS for the database already (docs/adr/0280).
    if (status === 503 && isDatabaseUnavailable(error)) {
      reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
    }
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler(() => {
    throw new NotFound("Not found");
  });
}

export default fp(errorHandlerPlugin, { name: "error-handler", fastify: "5.x" });
