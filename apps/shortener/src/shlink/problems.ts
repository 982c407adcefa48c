// Shlink's errors (RFC 7807 problem details) as the /rest API throws them: error-handler.ts, the
// app's one mapper, renders these and every other error under /rest in Shlink's shape.
import { HttpError } from "../errors.ts";

/** Where every /rest route lives: error-handler.ts answers errors under it as problems. */
export const REST_PREFIX = "/rest";

/** Whether a request URL is one of /rest's (Shlink's API): its errors are problems. */
export const isRestUrl = (url: string) =>
  url === REST_PREFIX || url.startsWith(`${REST_PREFIX}/`) || url.startsWith(`${REST_PREFIX}?`);

/** One Shlink problem: its code (the tail of its type URI), title and extra members. */
export class ShlinkProblem extends HttpError {
  constructor(
    statusCode: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(statusCode, detail);
  }
}

/** The body Shlink sends for a problem: type, title, detail, status and the extra members. */
export interface ProblemBody {
  type: string;
  title: string;
  detail: string;
  status: number;
  [extra: string]: unknown;
}

export const problemType = (code: string) => `https://shlink.io/api/error/${code}`;

export function problemBody(problem: ShlinkProblem): ProblemBody {
  return {
    ...problem.extra,
    type: problemType(problem.code),
    title: problem.title,
    detail: problem.message,
    status: problem.statusCode,
  };
}

export const invalidData = (invalidElements: string[], detail = "Provided data is not valid") =>
  new ShlinkProblem(400, "invalid-data", "Invalid data", detail, { invalidElements });

export const missingAuthentication = (param?: string) =>
  new ShlinkProblem(
    401,
    "missing-authentication",
    "Invalid authorization",
    param
      ? `Expected authentication to be provided in "${param}" query param`
      : 'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
    param ? { param } : { expectedHeaders: ["X-Api-Key"] },
  );

export const invalidApiKey = () =>
  new ShlinkProblem(
    401,
    "invalid-api-key",
    "Invalid API key",
    "Provided API key does not exist or is invalid.",
  );

const forDomain = (domain: string | null) => (domain === null ? "" : ` for domain "${domain}"`);
const domainMember = (domain: string | null) => (domain === null ? {} : { domain });

export const shortUrlNotFound = (shortCode: string, domain: string | null) =>
  new ShlinkProblem(
    404,
    "short-url-not-found",
    "Short URL not found",
    `No URL found with short code "${shortCode}"${forDomain(domain)}`,
    { shortCode, ...domainMember(domain) },
  );

export const nonUniqueSlug = (customSlug: string, domain: string | null) =>
  new ShlinkProblem(
    400,
    "non-unique-slug",
    "Invalid custom slug",
    domain === null
      ? `Provided slug "${customSlug}" is already in use.`
      : `Provided slug "${customSlug}" is already in use for domain "${domain}".`,
    { customSlug, ...domainMember(domain) },
  );

export const tagNotFound = (tag: string) =>
  new ShlinkProblem(404, "tag-not-found", "Tag not found", `Tag with name "${tag}" could not be found`, {
    tag,
  });

export const tagConflict = (oldName: string, newName: string) =>
  new ShlinkProblem(
    409,
    "tag-conflict",
    "Tag conflict",
    `You cannot rename tag ${oldName} to ${newName}, because it already exists`,
    { oldName, newName },
  );

export const domainNotFound = (authority: string) =>
  new ShlinkProblem(
    404,
    "domain-not-found",
    "Domain not found",
    `Domain with authority "${authority}" could not be found`,
    { authority },
  );

export const forbiddenOperation = (detail: string) =>
  new ShlinkProblem(403, "forbidden-operation", "Forbidden operation", detail);

export const mercureNotConfigured = () =>
  new ShlinkProblem(
    501,
    "mercure-not-configured",
    "Mercure integration not configured",
    "This Shlink instance is not integrated with a mercure hub.",
  );
