// A typed client of the URL shortener: openapi-fetch over the types generated from
// openapi/shortener.json (src/generated/schema.ts), with the bearer token set up once.
import type { ClientOptions } from "openapi-fetch";
import createClient from "openapi-fetch";
import type { components, operations, paths } from "./generated/schema.js";
import { type ApiClient, withResults } from "./result.js";

export type { ApiClient, ApiError, ApiResult, NotOkStatus, ResultMethod } from "./result.js";
export type { components, operations, paths };

type Schemas = components["schemas"];
/** A short link, as the API answers it. */
export type Short = Schemas["Short"];
/** What POST /api/shorts takes: `url`, and an optional `name` and `tags`. */
export type NewShort = Schemas["NewShort"];
/** What POST /api/shorts/bulk takes: `{ shorts: NewShort[] }`, at most 1,000. */
export type NewShortsBulk = Schemas["NewShortsBulk"];
/** One item's outcome in POST /api/shorts/bulk's `results`: `{ status: 201, short }` or `{ status: 400 | 409, error }`. */
export type BulkShortResult = Schemas["BulkShortResult"];
/** What PATCH /api/shorts/{id} takes: any of `url`, `name`, `tags`. */
export type ShortEdit = Schemas["ShortEdit"];
/** One visit of a short. */
export type ShortLog = Schemas["ShortLog"];
/** The current user. */
export type User = Schemas["User"];
/** The JSON error body: `{ status, error }` (401, 403 and 404 are plain text instead). */
export type ErrorBody = Schemas["Error"];

export interface ShortenerClientOptions {
  /** The service's origin, e.g. `http://localhost:3000` (its API is under `/api`). */
  baseUrl: string;
  /** A bearer token (`shr_…`), sent with every call under `/api/`. */
  token: string;
  /** A fetch to use instead of the global one. */
  fetch?: ClientOptions["fetch"];
}

export type ShortenerClient = ApiClient<paths>;

/**
 * A client whose `GET`/`POST`/`DELETE`… take the document's paths (`"/api/shorts/{id}"`) with
 * typed params and bodies, and resolve to `{ data }` or `{ error: { status, body } }`.
 */
export function createShortenerClient({ baseUrl, token, fetch }: ShortenerClientOptions): ShortenerClient {
  const client = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
  client.use({
    onRequest({ request, schemaPath }) {
      // Only the API needs the token: the redirect, /health and /ready are public.
      if (schemaPath.startsWith("/api/")) request.headers.set("authorization", `Bearer ${token}`);
      return request;
    },
  });
  return withResults(client);
}
