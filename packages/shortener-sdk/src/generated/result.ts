// Generated from packages/sdk-common/src/result.ts by `pnpm sdk:generate`. Do not edit: change that file.
// Results as typed values: every call resolves to `{ data }` or `{ error: { status, body } }`, with
// `body` typed by what the API documents for that status. One source for both SDKs: `pnpm
// sdk:generate` copies it into each one's src/generated/result.ts.
import type { Client, MaybeOptionalInit, ParseAsResponse } from "openapi-fetch";
import type {
  HttpMethod,
  MediaType,
  OkStatus,
  PathsWithMethod,
  RequiredKeysOf,
  ResponseObjectMap,
  SuccessResponse,
} from "openapi-typescript-helpers";

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
/** Every status a response that is not ok can have: 300-599. */
export type NotOkStatus = `${3 | 4 | 5}${Digit}${Digit}` extends infer S
  ? S extends `${infer N extends number}`
    ? N
    : never
  : never;

type Responses<Operation> =
  ResponseObjectMap<Operation> extends infer Map extends Record<string | number, unknown> ? Map : never;
/** The body a response declares: the union of its media types' schemas, `undefined` without content. */
type BodyOf<Response> = Response extends { content: infer Content }
  ? Content extends Record<string, unknown>
    ? Content[keyof Content]
    : undefined
  : undefined;
type DeclaredErrorStatus<Operation> = Exclude<Extract<keyof Responses<Operation>, number>, OkStatus>;

/**
 * What a call answered when the response was not ok: its status and its body (parsed JSON, or
 * the text when it is not JSON). A status the operation declares has that response's body;
 * any other has the `default` response's body, or `unknown` when there is none.
 */
export type ApiError<Operation> =
  | {
      [Status in DeclaredErrorStatus<Operation>]: {
        status: Status;
        body: BodyOf<Responses<Operation>[Status]>;
      };
    }[DeclaredErrorStatus<Operation>]
  | {
      status: Exclude<NotOkStatus, DeclaredErrorStatus<Operation>>;
      body: "default" extends keyof Responses<Operation> ? BodyOf<Responses<Operation>["default"]> : unknown;
    };

/**
 * What an ok answer holds: its JSON when the operation answers JSON (an operation that can also
 * answer another type, such as the visit log's CSV, is typed by its JSON: the other one has a
 * call of its own), else whatever it declares (an image, text).
 */
type OkBody<Operation> = [SuccessResponse<Responses<Operation>, "application/json">] extends [never]
  ? SuccessResponse<Responses<Operation>, MediaType>
  : SuccessResponse<Responses<Operation>, "application/json">;

/** A call's outcome: `data` when the response was ok (2xx), else `error`; `response` either way. */
export type ApiResult<Operation, Init = unknown> =
  | {
      data: ParseAsResponse<OkBody<Operation>, Init>;
      error?: undefined;
      response: Response;
    }
  | { data?: undefined; error: ApiError<Operation>; response: Response };

type Method = Extract<HttpMethod, "get" | "put" | "post" | "delete" | "patch" | "head">;
// As openapi-fetch's own: the options argument is required exactly when the operation has
// required parameters or a required body.
type InitParam<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];
type OperationOf<PathItem, M extends Method> = PathItem extends { [K in M]: infer Operation }
  ? Operation
  : never;

/** openapi-fetch's method signature (path, params, body, options), resolving to an ApiResult. */
export type ResultMethod<Paths extends {}, M extends Method> = <
  Path extends PathsWithMethod<Paths, M>,
  Init extends MaybeOptionalInit<Paths[Path], M & keyof Paths[Path]>,
>(
  path: Path,
  ...init: InitParam<Init>
) => Promise<ApiResult<OperationOf<Paths[Path], M>, Init>>;

export interface ApiClient<Paths extends {}> {
  GET: ResultMethod<Paths, "get">;
  POST: ResultMethod<Paths, "post">;
  PUT: ResultMethod<Paths, "put">;
  PATCH: ResultMethod<Paths, "patch">;
  DELETE: ResultMethod<Paths, "delete">;
  HEAD: ResultMethod<Paths, "head">;
  /** The underlying openapi-fetch client, authentication already set up (e.g. to add middleware). */
  raw: Client<Paths>;
}

interface Outcome {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Wraps an openapi-fetch client so that every call resolves to an ApiResult. Network failures still throw. */
export function withResults<Paths extends {}>(client: Client<Paths>): ApiClient<Paths> {
  const wrap =
    (call: (...args: never[]) => Promise<Outcome>) =>
    async (...args: never[]) => {
      const { data, error, response } = await call(...args);
      // openapi-fetch leaves both empty for a body-less answer (204, HEAD): `ok` decides.
      return response.ok ? { data, response } : { error: { status: response.status, body: error }, response };
    };
  return {
    GET: wrap(client.GET.bind(client) as never) as never,
    POST: wrap(client.POST.bind(client) as never) as never,
    PUT: wrap(client.PUT.bind(client) as never) as never,
    PATCH: wrap(client.PATCH.bind(client) as never) as never,
    DELETE: wrap(client.DELETE.bind(client) as never) as never,
    HEAD: wrap(client.HEAD.bind(client) as never) as never,
    raw: client,
  };
}
