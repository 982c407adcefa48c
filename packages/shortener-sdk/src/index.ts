// A typed client of the URL shortener: openapi-fetch over the types generated from
// openapi/shortener.json (src/generated/schema.ts), with the bearer token set up once.
import type { ClientOptions } from "openapi-fetch";
import createClient from "openapi-fetch";
import { type ApiClient, type ApiError, withResults } from "./generated/result.js";
import type { components, operations, paths } from "./generated/schema.js";

export type { ApiClient, ApiError, ApiResult, NotOkStatus, ResultMethod } from "./generated/result.js";
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
/** One of a short's redirect rules: `{ url, conditions }`, the first whose conditions all hold wins. */
export type RedirectRule = Schemas["RedirectRule"];
/** A redirect rule's condition: `device`, `language`, `country` or `query` (its `type`). */
export type RedirectCondition = Schemas["RedirectConditionInput"];
/** One visit of a short. */
export type ShortLog = Schemas["ShortLog"];
/** The current user. */
export type User = Schemas["User"];
/** A domain's orphan visits (GET /api/orphan-visits): requests for unknown names and its root. */
export type OrphanVisits = Schemas["OrphanVisits"];
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

/** What the visit log takes besides its format: `limit`, `before`, `from`, `to`… */
export type LogsQuery = Omit<NonNullable<operations["listShortLogs"]["parameters"]["query"]>, "format">;

/** The CSV export's outcome: the whole text in `data` when the response was ok, else `error`. */
export type CsvResult =
  | { data: string; error?: undefined; response: Response }
  | { data?: undefined; error: ApiError<operations["listShortLogs"]>; response: Response };

export interface ShortenerClient extends ApiClient<paths> {
  /**
   * Every visit of a short that `query` selects, as CSV (`GET /api/shorts/{id}/logs?format=csv`,
   * streamed by the service; here read whole). `GET("/api/shorts/{id}/logs")` answers the JSON page.
   */
  exportLogsCsv(id: string, query?: LogsQuery): Promise<CsvResult>;
}

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
  return {
    ...withResults(client),
    async exportLogsCsv(id, query = {}) {
      const { data, error, response } = await client.GET("/api/shorts/{id}/logs", {
        params: { path: { id }, query: { ...query, format: "csv" } },
        parseAs: "text",
      });
      return response.ok
        ? { data: data as string, response }
        : {
            error: { status: response.status, body: error } as ApiError<operations["listShortLogs"]>,
            response,
          };
    },
  };
}
