// Domain errors of the shortener. Routes throw these; error-handler.ts renders them
// (401/403/404 as text/plain, everything else as the seed's JSON Error).

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = "Unauthorized") {
    super(401, message);
  }
}

export class NotFound extends HttpError {
  constructor(message = "Not Found") {
    super(404, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 405: the path exists but does not offer this method; `allow` is what it offers. */
export class MethodNotAllowed extends HttpError {
  constructor(readonly allow: string[]) {
    super(405, `This path offers ${allow.join(", ")} only`);
  }
}
