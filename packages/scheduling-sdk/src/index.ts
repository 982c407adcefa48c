// A typed client of the scheduling API (cal.com v1 compatible): openapi-fetch over the types
// generated from openapi/scheduling.json (src/generated/schema.ts), with the API key set up once.
import type { ClientOptions } from "openapi-fetch";
import createClient from "openapi-fetch";
import { type ApiClient, withResults } from "./generated/result.js";
import type { components, operations, paths } from "./generated/schema.js";

export type { ApiClient, ApiError, ApiResult, NotOkStatus, ResultMethod } from "./generated/result.js";
export type { components, operations, paths };

/** A schema of the document by name: `Schema<"Booking">`, `Schema<"EventTypeCreate">`… */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
/** The error body of every API operation: `{ message }`, and `issues` on a validation failure. */
export type ErrorBody = Schema<"ApiError">;

export interface SchedulingClientOptions {
  /** The service's origin, e.g. `http://localhost:3001` (its API is under `/api/v1`). */
  baseUrl: string;
  /**
   * An API key (`cal_…`), sent as the `apiKey` query parameter of every call under `/api/v1/`
   * but the calendar feed's, which takes its own `feedToken` and refuses an apiKey.
   */
  apiKey: string;
  /** A fetch to use instead of the global one. */
  fetch?: ClientOptions["fetch"];
}

export type SchedulingClient = ApiClient<paths>;

/**
 * A client whose `GET`/`POST`/`PATCH`/`DELETE` take the document's paths
 * (`"/api/v1/bookings/{id}"`) with typed params and bodies, and resolve to `{ data }` or
 * `{ error: { status, body } }`.
 */
export function createSchedulingClient({
  baseUrl,
  apiKey,
  fetch,
}: SchedulingClientOptions): SchedulingClient {
  const client = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
  client.use({
    onRequest({ request, schemaPath }) {
      // `/`, /docs, /health and /ready take no key; the calendar feed takes a feed token.
      if (!schemaPath.startsWith("/api/v1/") || schemaPath === "/api/v1/bookings.ics") return request;
      const url = new URL(request.url);
      url.searchParams.set("apiKey", apiKey);
      return new Request(url, request);
    },
  });
  return withResults(client);
}
