// The typed errors both services' routes throw. Each app's error-handler.ts renders them in its
// own wire format (the shortener's plain text / JSON Error, scheduling's v1 `{message}`);
// each app's errors.ts re-exports these and adds only what is its own.

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** One bad field of a request, for a validation failure's `issues`. */
export interface Issue {
  path: string;
  message: string;
}

/** 400. `issues` names each bad field when the failure is a validation one. */
export class BadRequest extends HttpError {
  constructor(
    message: string,
    readonly issues?: Issue[],
  ) {
    super(400, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = "Unauthorized") {
    super(401, message);
  }
}

/** 403: the caller may see the row but not do this to it. */
export class Forbidden extends HttpError {
  constructor(message = "Forbidden") {
    super(403, message);
  }
}

/** 404: missing, or a row the caller may not see (the two are indistinguishable on purpose). */
export class NotFound extends HttpError {
  constructor(message = "Not Found") {
    super(404, message);
  }
}

/** 405: the path exists but does not offer this method; `allow` is what it offers. */
export class MethodNotAllowed extends HttpError {
  constructor(
    readonly allow: string[],
    message = `This path offers ${allow.join(", ")} only`,
  ) {
    super(405, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 422: well-formed, but it contradicts what the server already holds (a reused idempotency key). */
export class UnprocessableEntity extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}

/** 429: the caller's rate-limit budget for the current window is spent. */
export class TooManyRequests extends HttpError {
  constructor(message = "Rate limit exceeded") {
    super(429, message);
  }
}

/** 503: a dependency is unavailable for now; retry. */
export class ServiceUnavailable extends HttpError {
  constructor(message: string) {
    super(503, message);
  }
}

/**
 * Retry-After (seconds) of a 503 for a database that is unavailable: the request already waited
 * DATABASE_WAIT_MS for one that accepts writes (docs/adr/0280); a client may try again this soon.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
