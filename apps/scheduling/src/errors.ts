// Domain errors of the scheduling API: the shared typed errors (@app/server/errors). Routes and
// resource hooks throw these; the one error handler (error-handler.ts) turns them into v1's
// `{"message": ...}` bodies.
export {
  BadRequest,
  Conflict,
  DATABASE_RETRY_AFTER_SECONDS,
  Forbidden,
  HttpError,
  type Issue,
  MethodNotAllowed,
  NotFound,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnprocessableEntity,
} from "@app/server/errors";
