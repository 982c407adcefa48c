// Domain errors of the scheduling API. Routes and resource hooks throw these; the one
// error handler (error-handler.ts) turns them into v1's `{"message": ...}` bodies.

export interface Issue {
  path: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
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
  constructor(message = "Not found") {
    super(404, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(readonly allow: string[]) {
    super(405, `Method Not Allowed (Allow: ${allow.join(",")})`);
  }
}

/** 429: the caller's rate-limit budget for the current window is spent. */
export class TooManyRequests extends HttpError {
  constructor(message = "Rate limit exceeded") {
    super(429, message);
  }
}

/** 503: a dependency is unavailable for now (a tenant's database, or every tenant client busy); retry. */
export class ServiceUnavailable extends HttpError {
  constructor(message: string) {
    super(503, message);
  }
}
