// Domain errors of the shortener: the shared typed errors (@app/server/errors). Routes throw
// these; error-handler.ts renders them (401/403/404 as text/plain, everything else as the
// seed's JSON Error).
export {
  BadRequest,
  Conflict,
  DATABASE_RETRY_AFTER_SECONDS,
  HttpError,
  MethodNotAllowed,
  NotFound,
  Unauthorized,
} from "@app/server/errors";
