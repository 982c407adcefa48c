// Generated from openapi/shortener.json by `pnpm sdk:generate` (openapi-typescript). Do not edit:
// change the API, run `pnpm openapi:generate`, then `pnpm sdk:generate`.

export interface paths {
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's shorts, newest first */
        get: operations["listShorts"];
        put?: never;
        /**
         * Create a short
         * @description Without `name`, a random 7-character name is generated. A taken name is 409; a reserved one 400.
         */
        post: operations["createShort"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the caller's shorts */
        get: operations["getShort"];
        put?: never;
        post?: never;
        /** Delete a short and its logs */
        delete: operations["deleteShort"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The visits of one of the caller's shorts, newest first */
        get: operations["listShortLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database is reachable */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a short URL
         * @description Answers 302 to the target and records one ShortLog row (stored before the answer is sent). HEAD answers the same without recording a visit.
         */
        get: operations["followShort"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @description What went wrong, for a person */
            error: string;
            /** @description HTTP reason phrase, e.g. "Bad Request" */
            status: string;
        };
        NewShort: {
            /**
             * @description Optional; a random 7-character name is generated when omitted
             * @example my-link
             */
            name?: string;
            /**
             * @description Absolute http(s) URL (or IRI: an internationalized host or path is stored as its URI, punycode and percent-encoded) the short redirects to, at most 2048 characters, without spaces or control characters. Refused too: a value whose normalized form is not a URI (RFC 3986), a rule no JSON Schema keyword states.
             * @example https://example.com/some/long/path?with=query
             */
            url: string;
        };
        Short: {
            /**
             * Format: date-time
             * @description Creation date
             */
            createdAt: string;
            /** @description Identifier of the short */
            id: string;
            /** @description Name of the short */
            name: string;
            /** @description The resulting short URL */
            shorturl: string;
            /** @description Target URL */
            url: string;
        };
        ShortList: components["schemas"]["Short"][];
        ShortLog: {
            /**
             * Format: date-time
             * @description When the visit happened
             */
            createdAt: string;
            /** @description Identifier of the log entry */
            id: string;
            /** @description Client IP address */
            ipAddress: string;
            /** @description Client Referer header ("" when absent) */
            referer: string;
            /** @description Identifier of the short */
            shortID: string;
            /** @description Client User-Agent header ("" when absent) */
            userAgent: string;
        };
        ShortLogList: components["schemas"]["ShortLog"][];
        User: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** @description The user's e-mail address */
            username: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Credentials missing or incorrect (with WWW-Authenticate: Bearer) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listShorts: {
        parameters: {
            query?: {
                /** @description At most this many items (1-1000) */
                limit?: string;
                /** @description Skip this many items first */
                offset?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShortList"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials missing or incorrect (with WWW-Authenticate: Bearer) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createShort: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewShort"];
            };
        };
        responses: {
            /** @description The created short (its URL is also in the Location header) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Short"];
                };
            };
            /** @description The body is not understood, or the name is reserved */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials missing or incorrect (with WWW-Authenticate: Bearer) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The name is already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getShort: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the short (a UUID; any other value is answered 404) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Short"];
                };
            };
            /** @description Credentials missing or incorrect (with WWW-Authenticate: Bearer) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description No short with this id belongs to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteShort: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the short (a UUID; any other value is answered 404) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credentials missing or incorrect (with WWW-Authenticate: Bearer) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description No short with this id belongs to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listShortLogs: {
        parameters: {
            query?: {
                /** @description At most this many items (1-1000) */
                limit?: string;
                /** @description Skip this many items first */
                offset?: string;
            };
            header?: never;
            path: {
                /** @description Identifier of the short (a UUID; any other value is answered 404) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShortLogList"];
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials missing or incorrect (with WWW-Authenticate: Bearer) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description No short with this id belongs to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Default Response */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
            /** @description Not ready; `error` says why */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    followShort: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Name of the short; any other value is answered 404 */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the target URL; no body */
            302: {
                headers: {
                    /** @description A cached redirect would skip the next visit's log row */
                    "cache-control"?: "private, no-cache";
                    /** @description The target URL */
                    location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No short has this name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The database is unavailable; try again shortly */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
