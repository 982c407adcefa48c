// Generated from openapi/shortener.json by `pnpm sdk:generate` (openapi-typescript). Do not edit:
// change the API, run `pnpm openapi:generate`, then `pnpm sdk:generate`.

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The root of a domain
         * @description Redirects to the URL the operator set for the root of the domain the request's Host names (as for a short), or answers 404 when there is none. HEAD answers the same. A GET is counted as an orphan visit of the domain (GET /api/orphan-visits).
         */
        get: operations["followDomainRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The domains the caller may create shorts on
         * @description The default domain (SHORT_BASE_URL's host) first, then each domain the operator registered that is open to every user or assigned to the caller, by host.
         */
        get: operations["listDomains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
    "/api/orphan-visits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Requests on a domain that reached no short: unknown names and the root
         * @description The GET requests on one of the caller's domains (those GET /domains lists) for a name no short of the domain has, and for its root (/), whether or not the domain redirects them: totals per kind, a timeseries and the top values, with the statistics' range rules. Counted per UTC hour, never a row per request; each hour keeps at most 100 distinct names (and values of each other dimension), the rest summed under "(other)". Stored about a second after the request. Another user's domain, or one that does not exist, is 404.
         *
         *     Refused beyond the schema:
         *     - 400 "from must be before to": the range starts before it ends (to defaults to now)
         *     - 400 "the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z": the range, rounded to whole hours, lies in the years the buckets can name
         *     - 400 "the range holds more than 1000 … buckets": the range holds at most 1000 buckets of the interval (hour, day, week or month)
         */
        get: operations["getOrphanVisits"];
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
        /**
         * The caller's shorts, newest first unless ordered otherwise
         * @description Optionally filtered by domain, by tag and by text in the name or target URL (several at once: shorts matching all), ordered by creation or by visits, and paged with limit and offset. A domain no short of the caller's can be on (an unknown one) lists none.
         */
        get: operations["listShorts"];
        put?: never;
        /**
         * Create a short
         * @description Without `name`, a random name of `shortCodeLength` characters (7 by default) is generated. A taken name is 409 (a name is taken per domain: `domain`, or the default domain); a reserved one 400. With `findIfExists: true`, the caller's existing short that matches (see the field) is answered with 200 and nothing is created.
         *
         *     Refused beyond the schema:
         *     - 400 "url must be an absolute http(s) URL": a URL (url, expiredUrl, a redirect rule's url) parses as a WHATWG URL with an http(s) scheme and a host; the pattern states the scheme, but a target may be an IRI (non-ASCII), which no format names
         *     - 400 "url must be at most 2048 characters": a URL is at most 2048 characters also once normalized (an IDN host as punycode, the rest percent-encoded)
         *     - 400 "validUntil must be later than validFrom": validFrom is earlier than validUntil (in an edit, also against the one stored)
         *     - 400 "must fall in the years 1-9999 (UTC)": validFrom and validUntil fall in the years 1-9999 once in UTC (an offset can move an instant across a year)
         *     - 400 "ip-address must be an IP address, a CIDR block (192.168.10.0/24) or an IPv4 wildcard pattern (11.22.*.*)": an ip-address condition's value is an IPv4 or IPv6 address, one with a prefix length in range, or four dotted parts each an octet or `*`: a parse the pattern cannot state
         *     - 400 "must be an ISO 8601 date-time with offset (2026-12-31T23:00:00Z) or a date (2026-12-31)": a before-date or after-date value is a real date (or date-time with offset) in the years 1-9999
         *     - 400 "namePrefix and the name after it make at most 64 characters": namePrefix and the name after it, given (name) or generated (shortCodeLength, 7 when omitted), make at most 64 characters: a sum of two fields' lengths, which no schema states
         *     - 400 "domain "…" is not one you may use": domain is the default domain or one the operator registered and opened to the caller (GET /domains lists them)
         */
        post: operations["createShort"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create up to 1000 shorts at once
         * @description A body this document refuses (not an object with an array `shorts` of at most 1000 NewShorts: an item without a valid `url`, with a malformed name or an unknown property) is 400, naming the item (`shorts.3.url`), and creates nothing. Otherwise each item is created as POST /shorts would create it, or refused as POST /shorts would refuse what the stored data decides: the answer is 200 with one result per item, in order, holding the created short (status 201) or the error (400: its name is reserved, it is a password past the first 10, or it sets findIfExists (POST /shorts only); 409: its name is taken, also by an earlier item), with the same body. The other items are created even when some fail.
         *
         *     Refused beyond the schema:
         *     - 400 "url must be an absolute http(s) URL": a URL (url, expiredUrl, a redirect rule's url) parses as a WHATWG URL with an http(s) scheme and a host; the pattern states the scheme, but a target may be an IRI (non-ASCII), which no format names
         *     - 400 "url must be at most 2048 characters": a URL is at most 2048 characters also once normalized (an IDN host as punycode, the rest percent-encoded)
         *     - 400 "validUntil must be later than validFrom": validFrom is earlier than validUntil (in an edit, also against the one stored)
         *     - 400 "must fall in the years 1-9999 (UTC)": validFrom and validUntil fall in the years 1-9999 once in UTC (an offset can move an instant across a year)
         *     - 400 "ip-address must be an IP address, a CIDR block (192.168.10.0/24) or an IPv4 wildcard pattern (11.22.*.*)": an ip-address condition's value is an IPv4 or IPv6 address, one with a prefix length in range, or four dotted parts each an octet or `*`: a parse the pattern cannot state
         *     - 400 "must be an ISO 8601 date-time with offset (2026-12-31T23:00:00Z) or a date (2026-12-31)": a before-date or after-date value is a real date (or date-time with offset) in the years 1-9999
         *     - 400 "namePrefix and the name after it make at most 64 characters": namePrefix and the name after it, given (name) or generated (shortCodeLength, 7 when omitted), make at most 64 characters: a sum of two fields' lengths, which no schema states
         *     - 400 "domain "…" is not one you may use": domain is the default domain or one the operator registered and opened to the caller (GET /domains lists them)
         */
        post: operations["createShorts"];
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
        /**
         * Edit a short: its target, name, domain or tags
         * @description Changes the fields sent, under the rules of create. The redirect follows a new target, name or domain at once, on every instance; the old short URL stops redirecting and its name is free again on its domain. A name taken on the short's (new) domain is 409; a reserved one 400.
         *
         *     Refused beyond the schema:
         *     - 400 "url must be an absolute http(s) URL": a URL (url, expiredUrl, a redirect rule's url) parses as a WHATWG URL with an http(s) scheme and a host; the pattern states the scheme, but a target may be an IRI (non-ASCII), which no format names
         *     - 400 "url must be at most 2048 characters": a URL is at most 2048 characters also once normalized (an IDN host as punycode, the rest percent-encoded)
         *     - 400 "validUntil must be later than validFrom": validFrom is earlier than validUntil (in an edit, also against the one stored)
         *     - 400 "must fall in the years 1-9999 (UTC)": validFrom and validUntil fall in the years 1-9999 once in UTC (an offset can move an instant across a year)
         *     - 400 "ip-address must be an IP address, a CIDR block (192.168.10.0/24) or an IPv4 wildcard pattern (11.22.*.*)": an ip-address condition's value is an IPv4 or IPv6 address, one with a prefix length in range, or four dotted parts each an octet or `*`: a parse the pattern cannot state
         *     - 400 "must be an ISO 8601 date-time with offset (2026-12-31T23:00:00Z) or a date (2026-12-31)": a before-date or after-date value is a real date (or date-time with offset) in the years 1-9999
         *     - 400 "namePrefix and the name after it make at most 64 characters": namePrefix and the name after it, given (name) or generated (shortCodeLength, 7 when omitted), make at most 64 characters: a sum of two fields' lengths, which no schema states
         *     - 400 "domain "…" is not one you may use": domain is the default domain or one the operator registered and opened to the caller (GET /domains lists them)
         */
        patch: operations["updateShort"];
        trace?: never;
    };
    "/api/shorts/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The visits of one of the caller's shorts, newest first
         * @description JSON by default. With `format=csv` or `Accept: text/csv`, every visit the query selects is streamed as CSV (a header line, then one line per visit; a field starting with =, +, -, @ or a tab is prefixed with ' so spreadsheets do not run it).
         */
        get: operations["listShortLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts/{id}/qr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A QR code of the short URL
         * @description The short URL (`shorturl`) as a QR code (error correction M, a quiet zone of 4 modules), PNG or SVG, 128-1024 pixels square. It follows the short's name: after a rename, fetch it again.
         */
        get: operations["getShortQrCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Visit statistics of one of the caller's shorts
         * @description Totals, a timeseries in the given time zone and the top 10 referrers, countries, browsers, operating systems and device types, from hourly aggregates kept with the visits (exact).
         *
         *     Refused beyond the schema:
         *     - 400 "from must be before to": the range starts before it ends (to defaults to now)
         *     - 400 "the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z": the range, rounded to whole hours, lies in the years the buckets can name
         *     - 400 "the range holds more than 1000 … buckets": the range holds at most 1000 buckets of the interval (hour, day, week or month)
         */
        get: operations["getShortStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shorts/{id}/stats-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a public link to a short's statistics page
         * @description Anyone with the link sees the page (charts and figures of the short's visits, never a visitor's IP or user agent). A new link replaces the previous one, which stops working.
         */
        post: operations["createStatsLink"];
        /** Revoke the short's public statistics link */
        delete: operations["deleteStatsLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Visit statistics across all of the caller's shorts
         * @description As a short's statistics, over every short of the caller (or those on `domain`), with the top 10 shorts.
         *
         *     Refused beyond the schema:
         *     - 400 "from must be before to": the range starts before it ends (to defaults to now)
         *     - 400 "the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z": the range, rounded to whole hours, lies in the years the buckets can name
         *     - 400 "the range holds more than 1000 … buckets": the range holds at most 1000 buckets of the interval (hour, day, week or month)
         */
        get: operations["getStats"];
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
        /** The database is reachable, and no stop has been asked for */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/robots.txt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * robots.txt of a domain
         * @description As Shlink's: `User-agent: *`, an `Allow: /<name>` line for each crawlable short of the domain the request's Host names (by name), then `Disallow: /`, so that crawlers reach only the shorts made crawlable (`crawlable: true`). A Host that names no domain is answered `Disallow: /` alone. Never an orphan visit.
         */
        get: operations["getRobots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats/{token}/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A short's statistics, through its public link
         * @description What the statistics page shows: the short's name and its statistics, as GET /api/shorts/{id}/stats.
         *
         *     Refused beyond the schema:
         *     - 400 "from must be before to": the range starts before it ends (to defaults to now)
         *     - 400 "the range must lie between 0001-01-02T00:00:00Z and 9999-12-31T00:00:00Z": the range, rounded to whole hours, lies in the years the buckets can name
         *     - 400 "the range holds more than 1000 … buckets": the range holds at most 1000 buckets of the interval (hour, day, week or month)
         */
        get: operations["getPublicStats"];
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
         * @description The name is looked up on the domain the request's Host names (letter case and port ignored; X-Forwarded-Host when TRUST_PROXY trusts the sender): a registered domain's host, or the default domain's (SHORT_BASE_URL's), which also answers any other host while no domain is registered. A name the domain has no short of redirects to the domain's URL for unknown names when the operator set one (302, no visit). A GET of a name the domain has no short of, of the domain's root, or of a Host that names no domain is counted as an orphan visit (GET /api/orphan-visits). Answers 302 to the target and records one ShortLog row (stored before the answer is sent). HEAD answers the same without recording a visit. A short with redirect rules sends the visitor to the first rule's url whose conditions all hold (device, language, country, query parameters, address, date, browser), else to its url, and the visit records the rule. A short with forwardQuery sends the request's query on to that url. The visit stores the URL visited and the Location answered. Outside the short's validity window or past its visit limit: 302 to its expiredUrl, or 404, and no visit. A password-protected short answers a form instead (200, HTML, no visit), which posts the password back (POST).
         */
        get: operations["followShort"];
        put?: never;
        /**
         * Post the password of a protected short
         * @description The name is looked up on the domain the request's Host names (letter case and port ignored; X-Forwarded-Host when TRUST_PROXY trusts the sender): a registered domain's host, or the default domain's (SHORT_BASE_URL's), which also answers any other host while no domain is registered. A name the domain has no short of redirects to the domain's URL for unknown names when the operator set one (302, no visit). A GET of a name the domain has no short of, of the domain's root, or of a Host that names no domain is counted as an orphan visit (GET /api/orphan-visits). What the password form sends. The right password answers the redirect (302) and records the visit; a wrong or missing one answers the form again with a message (401). Attempts are limited per short and client address (10 in 10 minutes): past that, 429 with the form and Retry-After. A short without a password answers as GET does.
         */
        post: operations["unlockShort"];
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
        BulkShortResult: {
            short: components["schemas"]["Short"];
            /** @enum {number} */
            status: 201;
        } | {
            error: components["schemas"]["Error"];
            /** @enum {number} */
            status: 400 | 409;
        };
        BulkShortResults: {
            /** @description One result per item sent, in the same order */
            results: components["schemas"]["BulkShortResult"][];
        };
        Domain: {
            /** @description The domain's host name. A short on it has the shorturl <host>/<name>, with SHORT_BASE_URL's scheme */
            host: string;
            /** @description The default domain (SHORT_BASE_URL's host): where a short lives when created without one */
            isDefault: boolean;
        };
        /** @description The default domain first, then the others by host */
        DomainList: components["schemas"]["Domain"][];
        Error: {
            /** @description What went wrong, for a person */
            error: string;
            /** @description HTTP reason phrase, e.g. "Bad Request" */
            status: string;
        };
        NewShort: {
            /** @description GET /robots.txt of the short's domain allows crawlers to reach it (Disallow otherwise). Optional; omitted: false. */
            crawlable?: boolean;
            /**
             * @description Optional; one of the domains GET /domains lists for the caller. Omitted: the default domain
             * @example links.example.com
             */
            domain?: string;
            /**
             * @description Where the short redirects (302, no visit stored) outside its window or past its visit limit; without it, the short answers 404 then. Same rules as url. Optional; omitted: 404 once expired.
             * @example https://example.com/offer-ended
             */
            expiredUrl?: string;
            /** @description Optional; true: answer the caller's existing short with the same url and, of name (a namePrefix alone: a name that starts with it), domain, tags (the same set), validFrom, validUntil and maxVisits, the same values wherever this request gives them (Shlink's findIfExists), 200 instead of 201; none: a new short is created. Omitted: false */
            findIfExists?: boolean;
            /** @description The visit's query string is appended to the target (or to the url of the redirect rule that sent it): its parameters after the target's own, a parameter the target also has taking the visit's value; the target's fragment stays last. Optional; omitted: false (docs/adr/0268). */
            forwardQuery?: boolean;
            /**
             * @description At most this many visits are redirected to the target and stored (every visit counts, bots included, since the short was created); past it, the short is expired. Exact across instances. Optional; omitted: no limit.
             * @example 100
             */
            maxVisits?: number;
            /**
             * @description Optional; a random 7-character name is generated when omitted
             * @example my-link
             */
            name?: string;
            /**
             * @description Optional; put before the name, given or generated (Shlink's pathPrefix): namePrefix promo- and name summer make the name promo-summer. With the name, at most 64 characters
             * @example promo-
             */
            namePrefix?: string;
            /**
             * @description A password visitors must enter (1-128 characters): the short then answers a form, and redirects once it is posted with the right one. Stored only as a salted scrypt hash, never returned. Optional; omitted: the short redirects at once.
             * @example correct horse
             */
            password?: string;
            /** @description Up to 10 rules, in order: the first whose conditions all hold sends the visitor to its url; when none does, the short's url. The validity window, the visit limit and the password are checked first. Each visit records the rule that sent it (1 is the first). Optional; omitted or []: every visitor goes to url. */
            redirectRules?: components["schemas"]["RedirectRule"][];
            /** @description Optional; the length of the generated name, 4-64 (Shlink's minimum is 4); omitted: 7. Ignored when name is given */
            shortCodeLength?: number;
            /**
             * @description Optional; none when omitted
             * @example [
             *       "launch",
             *       "blog"
             *     ]
             */
            tags?: string[];
            /**
             * @description Absolute http(s) URL (or IRI: an internationalized host or path is stored as its URI, punycode and percent-encoded) the short redirects to, at most 2048 characters, without spaces or control characters. Characters a URI does not allow after the host (such as `[ ] | ^ { }`, or a `%` that starts no escape) are stored percent-encoded. Refused too: a value whose normalized form is not a URI (RFC 3986), such as a malformed host, a rule no JSON Schema keyword states.
             * @example https://example.com/some/long/path?with=query
             */
            url: string;
            /**
             * Format: date-time
             * @description The short redirects to its target from this instant on; before it, as once expired (ISO 8601 date-time in the years 1-9999 UTC, kept to the millisecond). Optional; omitted: the short redirects from its creation.
             * @example 2027-01-01T09:00:00Z
             */
            validFrom?: string;
            /**
             * Format: date-time
             * @description The short redirects to its target until this instant (exclusive); from it on, it is expired (ISO 8601 date-time in the years 1-9999 UTC, kept to the millisecond). Optional; omitted: the short never expires by date.
             * @example 2027-01-31T12:00:00Z
             */
            validUntil?: string;
        };
        NewShortsBulk: {
            /** @description Up to 1000 shorts, each exactly as POST /shorts takes it; one that is not refuses the whole request (400). What the stored data decides is each item's own: a reserved name is its result's 400, a taken one its 409, and the others are still created. At most 10 of them may set a password (each is hashed slowly on purpose); the password of each one after those is refused (that item's 400): set it with PATCH. */
            shorts: components["schemas"]["NewShort"][];
        };
        OrphanVisits: {
            /** @description Top 10 browsers by visits ("" is unknown or none). Each hour keeps at most 100 distinct values per dimension; the rest are summed under "(other)" */
            browsers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 countries by visits ("" is unknown or none). Each hour keeps at most 100 distinct values per dimension; the rest are summed under "(other)" */
            countries: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 device types by visits ("" is unknown or none). Each hour keeps at most 100 distinct values per dimension; the rest are summed under "(other)" */
            devices: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description The domain's host name */
            domain: string;
            /**
             * Format: date-time
             * @description Start of the range, inclusive (whole hour, UTC)
             */
            from: string;
            /** @enum {string} */
            interval: "hour" | "day" | "week" | "month";
            kinds: {
                /** @description Requests for the domain's root (/) */
                root: number;
                /** @description Requests for a name no short of the domain has */
                unknownName: number;
            };
            /** @description Top 100 names asked for by visits ("" is unknown or none). Each hour keeps at most 100 distinct values per dimension; the rest are summed under "(other)" */
            names: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 operating systems by visits ("" is unknown or none). Each hour keeps at most 100 distinct values per dimension; the rest are summed under "(other)" */
            os: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 referrer hosts by visits ("" is unknown or none). Each hour keeps at most 100 distinct values per dimension; the rest are summed under "(other)" */
            referrers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Every bucket of the range, empty ones included */
            timeseries: {
                humans: number;
                /** @description Bucket start in the time zone, with its offset */
                start: string;
                visits: number;
            }[];
            timezone: string;
            /**
             * Format: date-time
             * @description End of the range, exclusive (whole hour, UTC)
             */
            to: string;
            totals: {
                bots: number;
                humans: number;
                visits: number;
            };
        };
        /** @description The form's fields, as the browser posts them (application/x-www-form-urlencoded) or as JSON; other fields are ignored */
        PasswordForm: {
            /** @description The password the visitor entered */
            password?: string;
            /** @description The Referer the form was opened with (a hidden field): the visit keeps it */
            referer?: string;
        };
        PublicStats: {
            /** @description Top 10 browsers by visits ("" is unknown or none) */
            browsers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 countries by visits ("" is unknown or none) */
            countries: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 device types by visits ("" is unknown or none) */
            devices: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /**
             * Format: date-time
             * @description Start of the range, inclusive (whole hour, UTC)
             */
            from: string;
            /** @description Imported history: visits another shortener counted but did not export one by one (a total), whatever the range; never part of the visits above. Absent when there are none */
            importedVisits?: number;
            /** @enum {string} */
            interval: "hour" | "day" | "week" | "month";
            /** @description Name of the short */
            name: string;
            /** @description Top 10 operating systems by visits ("" is unknown or none) */
            os: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 referrer hosts by visits ("" is unknown or none) */
            referrers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Visits by the redirect rule that sent them, every one with a visit in the range: "default" (the short's url, chosen by none of its rules) or "1" to "10" (the rule's position when visited), by visits. Only the visits made while the short had rules are counted ([] for a short that never had any). Absent from an account's statistics (a rule's number means nothing across shorts). */
            rules?: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Every bucket of the range, empty ones included */
            timeseries: {
                humans: number;
                /** @description Bucket start in the time zone, with its offset */
                start: string;
                visits: number;
            }[];
            timezone: string;
            /**
             * Format: date-time
             * @description End of the range, exclusive (whole hour, UTC)
             */
            to: string;
            totals: {
                bots: number;
                humans: number;
                /** @description Visitors, each counted once per short and UTC day, in the hour of its first visit that day (a visitor is a hash of IP and user agent under a salt that changes every UTC day) */
                uniqueVisitors: number;
                visits: number;
            };
        };
        RedirectCondition: {
            /** @enum {string} */
            type: "device";
            /** @enum {string} */
            value: "ios" | "android" | "desktop" | "mobile" | "windows" | "macos" | "linux" | "chromeos";
        } | {
            /** @enum {string} */
            type: "language";
            value: string;
        } | {
            /** @enum {string} */
            type: "country";
            value: string;
        } | {
            param: string;
            /** @enum {string} */
            type: "query";
            value: string;
        } | {
            param: string;
            /** @enum {string} */
            type: "any-value-query-param";
        } | {
            param: string;
            /** @enum {string} */
            type: "valueless-query-param";
        } | {
            /** @enum {string} */
            type: "ip-address";
            value: string;
        } | {
            /** @enum {string} */
            type: "before-date";
            /** @description The visit is before this instant */
            value: string;
        } | {
            /** @enum {string} */
            type: "after-date";
            /** @description The visit is after this instant */
            value: string;
        } | {
            /** @enum {string} */
            type: "browser";
            /** @enum {string} */
            value: "chrome" | "firefox" | "edge" | "safari" | "opera" | "android_browser";
        };
        RedirectConditionInput: {
            /** @enum {string} */
            type: "device";
            /** @enum {string} */
            value: "ios" | "android" | "desktop" | "mobile" | "windows" | "macos" | "linux" | "chromeos";
        } | {
            /** @enum {string} */
            type: "language";
            value: string;
        } | {
            /** @enum {string} */
            type: "country";
            value: string;
        } | {
            param: string;
            /** @enum {string} */
            type: "query";
            value: string;
        } | {
            param: string;
            /** @enum {string} */
            type: "any-value-query-param";
        } | {
            param: string;
            /** @enum {string} */
            type: "valueless-query-param";
        } | {
            /** @enum {string} */
            type: "ip-address";
            value: string;
        } | {
            /** @enum {string} */
            type: "before-date";
            /** @description The visit is before this instant */
            value: string;
        } | {
            /** @enum {string} */
            type: "after-date";
            /** @description The visit is after this instant */
            value: string;
        } | {
            /** @enum {string} */
            type: "browser";
            /** @enum {string} */
            value: "chrome" | "firefox" | "edge" | "safari" | "opera" | "android_browser";
        };
        RedirectRule: {
            /** @description 1-10 conditions, all of which must hold */
            conditions: components["schemas"]["RedirectConditionInput"][];
            /**
             * @description Where the rule sends a visitor; same rules as the short's url
             * @example https://example.com/some/long/path?with=query
             */
            url: string;
        };
        Short: {
            /**
             * @description Present (true) when robots.txt lets crawlers reach the short; absent: not
             * @enum {boolean}
             */
            crawlable?: true;
            /**
             * Format: date-time
             * @description Creation date
             */
            createdAt: string;
            /** @description The short's domain; absent on the default domain (as before domains existed) */
            domain?: string;
            /** @description Where the short redirects once expired; absent when none (404) */
            expiredUrl?: string;
            /**
             * @description Present (true) when the visit's query string is appended to the target; absent: off
             * @enum {boolean}
             */
            forwardQuery?: true;
            /**
             * @description Present (true) when visitors must enter a password; the password is never returned
             * @enum {boolean}
             */
            hasPassword?: true;
            /** @description Identifier of the short */
            id: string;
            /** @description The visit limit; absent when none */
            maxVisits?: number;
            /** @description Name of the short */
            name: string;
            /** @description The short's redirect rules, in order (1 is the first); absent when it has none */
            redirectRules?: {
                /** @description All of them must hold */
                conditions: components["schemas"]["RedirectCondition"][];
                /** @description Where the rule sends a visitor */
                url: string;
            }[];
            /** @description The resulting short URL */
            shorturl: string;
            /** @description The short's tags, lower case; absent when it has none (as before tags existed) */
            tags?: string[];
            /** @description The link's title where it was imported from (`pnpm -s shortener import`); absent when none */
            title?: string;
            /** @description Target URL */
            url: string;
            /**
             * Format: date-time
             * @description Start of the validity window; absent when none
             */
            validFrom?: string;
            /**
             * Format: date-time
             * @description End of the validity window (exclusive); absent when none
             */
            validUntil?: string;
            /** @description Visits stored for this short, bots included */
            visits: number;
        };
        /** @description The fields to change; each one left out stays as it is ({} changes nothing). The redirect follows every change at once, on every instance. */
        ShortEdit: {
            /** @description GET /robots.txt of the short's domain allows crawlers to reach it (Disallow otherwise) */
            crawlable?: boolean;
            /**
             * @description Moves the short to this domain (one GET /domains lists for the caller): the short URL changes, and the old one stops redirecting at once
             * @example links.example.com
             */
            domain?: string;
            /**
             * @description Where the short redirects (302, no visit stored) outside its window or past its visit limit; without it, the short answers 404 then. Same rules as url. null removes it (404 once expired).
             * @example https://example.com/offer-ended
             */
            expiredUrl?: string | null;
            /** @description The visit's query string is appended to the target (or to the url of the redirect rule that sent it): its parameters after the target's own, a parameter the target also has taking the visit's value; the target's fragment stays last */
            forwardQuery?: boolean;
            /**
             * @description At most this many visits are redirected to the target and stored (every visit counts, bots included, since the short was created); past it, the short is expired. Exact across instances. null removes the limit; a limit set later counts every visit stored so far, as a new one does.
             * @example 100
             */
            maxVisits?: number | null;
            /**
             * @description A new name: the short URL changes, and the old name stops redirecting at once (it is free again)
             * @example my-link
             */
            name?: string;
            /**
             * @description A password visitors must enter (1-128 characters): the short then answers a form, and redirects once it is posted with the right one. Stored only as a salted scrypt hash, never returned. null removes the password.
             * @example correct horse
             */
            password?: string | null;
            /** @description Up to 10 rules, in order: the first whose conditions all hold sends the visitor to its url; when none does, the short's url. The validity window, the visit limit and the password are checked first. Each visit records the rule that sent it (1 is the first). Replaces the whole list; [] or null removes every rule. */
            redirectRules?: components["schemas"]["RedirectRule"][] | null;
            /**
             * @description Replaces every tag of the short; [] removes them all
             * @example [
             *       "launch",
             *       "blog"
             *     ]
             */
            tags?: string[];
            /**
             * @description A new target; the redirect follows it at once
             * @example https://example.com/some/long/path?with=query
             */
            url?: string;
            /**
             * Format: date-time
             * @description The short redirects to its target from this instant on; before it, as once expired (ISO 8601 date-time in the years 1-9999 UTC, kept to the millisecond). null removes the start.
             * @example 2027-01-01T09:00:00Z
             */
            validFrom?: string | null;
            /**
             * Format: date-time
             * @description The short redirects to its target until this instant (exclusive); from it on, it is expired (ISO 8601 date-time in the years 1-9999 UTC, kept to the millisecond). null removes the end.
             * @example 2027-01-31T12:00:00Z
             */
            validUntil?: string | null;
        };
        ShortList: components["schemas"]["Short"][];
        ShortLog: {
            /** @description Browser name from the user agent ("" when unknown) */
            browser: string;
            /** @description ISO 3166-1 alpha-2 country of the IP address ("" when unknown) */
            country: string;
            /**
             * Format: date-time
             * @description When the visit happened
             */
            createdAt: string;
            /** @description desktop, mobile, tablet, bot, or another ua-parser device type ("" when unknown) */
            device: string;
            /** @description Identifier of the log entry */
            id: string;
            /** @description Client IP address */
            ipAddress: string;
            /** @description The user agent is a known bot or crawler (isbot) */
            isBot: boolean;
            /** @description Operating system from the user agent ("" when unknown) */
            os: string;
            /** @description Where the visit was sent (the redirect's Location); absent as visitedUrl */
            redirectUrl?: string;
            /** @description Client Referer header ("" when absent) */
            referer: string;
            /** @description Host of the Referer header, lower case ("" when none) */
            referrerHost: string;
            /** @description The redirect rule that sent the visit (1 is the first, as the rules were then); absent: the short's url */
            rule?: number;
            /** @description Identifier of the short */
            shortID: string;
            /** @description Client User-Agent header ("" when absent) */
            userAgent: string;
            /** @description The URL that was visited, query included; absent for visits stored before it was kept, and imported ones */
            visitedUrl?: string;
        };
        ShortLogList: components["schemas"]["ShortLog"][];
        ShortStats: {
            /** @description Top 10 browsers by visits ("" is unknown or none) */
            browsers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 countries by visits ("" is unknown or none) */
            countries: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 device types by visits ("" is unknown or none) */
            devices: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /**
             * Format: date-time
             * @description Start of the range, inclusive (whole hour, UTC)
             */
            from: string;
            /** @description Imported history: visits another shortener counted but did not export one by one (a total), whatever the range; never part of the visits above. Absent when there are none */
            importedVisits?: number;
            /** @enum {string} */
            interval: "hour" | "day" | "week" | "month";
            /** @description Top 10 operating systems by visits ("" is unknown or none) */
            os: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 referrer hosts by visits ("" is unknown or none) */
            referrers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Visits by the redirect rule that sent them, every one with a visit in the range: "default" (the short's url, chosen by none of its rules) or "1" to "10" (the rule's position when visited), by visits. Only the visits made while the short had rules are counted ([] for a short that never had any). Absent from an account's statistics (a rule's number means nothing across shorts). */
            rules?: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Every bucket of the range, empty ones included */
            timeseries: {
                humans: number;
                /** @description Bucket start in the time zone, with its offset */
                start: string;
                visits: number;
            }[];
            timezone: string;
            /**
             * Format: date-time
             * @description End of the range, exclusive (whole hour, UTC)
             */
            to: string;
            totals: {
                bots: number;
                humans: number;
                /** @description Visitors, each counted once per short and UTC day, in the hour of its first visit that day (a visitor is a hash of IP and user agent under a salt that changes every UTC day) */
                uniqueVisitors: number;
                visits: number;
            };
        };
        StatsLink: {
            /** Format: date-time */
            createdAt: string;
            /** @description The public statistics page; its token is shown only now */
            url: string;
        };
        User: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** @description The user's e-mail address */
            username: string;
        };
        UserStats: {
            /** @description Top 10 browsers by visits ("" is unknown or none) */
            browsers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 countries by visits ("" is unknown or none) */
            countries: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 device types by visits ("" is unknown or none) */
            devices: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /**
             * Format: date-time
             * @description Start of the range, inclusive (whole hour, UTC)
             */
            from: string;
            /** @description Imported history: visits another shortener counted but did not export one by one (a total), whatever the range; never part of the visits above. Absent when there are none */
            importedVisits?: number;
            /** @enum {string} */
            interval: "hour" | "day" | "week" | "month";
            /** @description Top 10 operating systems by visits ("" is unknown or none) */
            os: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 referrer hosts by visits ("" is unknown or none) */
            referrers: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Visits by the redirect rule that sent them, every one with a visit in the range: "default" (the short's url, chosen by none of its rules) or "1" to "10" (the rule's position when visited), by visits. Only the visits made while the short had rules are counted ([] for a short that never had any). Absent from an account's statistics (a rule's number means nothing across shorts). */
            rules?: {
                humans: number;
                value: string;
                visits: number;
            }[];
            /** @description Top 10 shorts by visits in the range */
            shorts: {
                /** @description The short's domain; absent on the default domain (as in Short) */
                domain?: string;
                humans: number;
                id: string;
                name: string;
                visits: number;
            }[];
            /** @description Every bucket of the range, empty ones included */
            timeseries: {
                humans: number;
                /** @description Bucket start in the time zone, with its offset */
                start: string;
                visits: number;
            }[];
            timezone: string;
            /**
             * Format: date-time
             * @description End of the range, exclusive (whole hour, UTC)
             */
            to: string;
            totals: {
                bots: number;
                humans: number;
                /** @description Visitors, each counted once per short and UTC day, in the hour of its first visit that day (a visitor is a hash of IP and user agent under a salt that changes every UTC day) */
                uniqueVisitors: number;
                visits: number;
            };
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
    followDomainRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the domain's root URL; no body */
            302: {
                headers: {
                    /** @description Not cached: it may change */
                    "cache-control"?: "private, no-cache";
                    /** @description The domain's root URL */
                    location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request's Host names no domain, or its domain has no root URL */
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
    listDomains: {
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
                    "application/json": components["schemas"]["DomainList"];
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
    getOrphanVisits: {
        parameters: {
            query?: {
                /** @description Start, inclusive, rounded down to the hour, from 0001-01-02T00:00:00Z on; default: 30 days before `to` (ISO 8601 date-time) */
                from?: string;
                /** @description End, exclusive, rounded up to the hour, up to 9999-12-31T00:00:00Z; default: now (ISO 8601 date-time) */
                to?: string;
                /** @description Timeseries bucket; at most 1000 buckets in the range, counted in `timezone` */
                interval?: "hour" | "day" | "week" | "month";
                /** @description Zone of the buckets: a day is local midnight to midnight (23 or 25 hours across a DST change). Visits are aggregated by UTC hour: in a zone whose offset is not whole hours, a bucket starts at the UTC hour holding its local start. */
                timezone?: "Africa/Abidjan" | "Africa/Accra" | "Africa/Addis_Ababa" | "Africa/Algiers" | "Africa/Asmara" | "Africa/Asmera" | "Africa/Bamako" | "Africa/Bangui" | "Africa/Banjul" | "Africa/Bissau" | "Africa/Blantyre" | "Africa/Brazzaville" | "Africa/Bujumbura" | "Africa/Cairo" | "Africa/Casablanca" | "Africa/Ceuta" | "Africa/Conakry" | "Africa/Dakar" | "Africa/Dar_es_Salaam" | "Africa/Djibouti" | "Africa/Douala" | "Africa/El_Aaiun" | "Africa/Freetown" | "Africa/Gaborone" | "Africa/Harare" | "Africa/Johannesburg" | "Africa/Juba" | "Africa/Kampala" | "Africa/Khartoum" | "Africa/Kigali" | "Africa/Kinshasa" | "Africa/Lagos" | "Africa/Libreville" | "Africa/Lome" | "Africa/Luanda" | "Africa/Lubumbashi" | "Africa/Lusaka" | "Africa/Malabo" | "Africa/Maputo" | "Africa/Maseru" | "Africa/Mbabane" | "Africa/Mogadishu" | "Africa/Monrovia" | "Africa/Nairobi" | "Africa/Ndjamena" | "Africa/Niamey" | "Africa/Nouakchott" | "Africa/Ouagadougou" | "Africa/Porto-Novo" | "Africa/Sao_Tome" | "Africa/Timbuktu" | "Africa/Tripoli" | "Africa/Tunis" | "Africa/Windhoek" | "America/Adak" | "America/Anchorage" | "America/Anguilla" | "America/Antigua" | "America/Araguaina" | "America/Argentina/Buenos_Aires" | "America/Argentina/Catamarca" | "America/Argentina/ComodRivadavia" | "America/Argentina/Cordoba" | "America/Argentina/Jujuy" | "America/Argentina/La_Rioja" | "America/Argentina/Mendoza" | "America/Argentina/Rio_Gallegos" | "America/Argentina/Salta" | "America/Argentina/San_Juan" | "America/Argentina/San_Luis" | "America/Argentina/Tucuman" | "America/Argentina/Ushuaia" | "America/Aruba" | "America/Asuncion" | "America/Atikokan" | "America/Atka" | "America/Bahia" | "America/Bahia_Banderas" | "America/Barbados" | "America/Belem" | "America/Belize" | "America/Blanc-Sablon" | "America/Boa_Vista" | "America/Bogota" | "America/Boise" | "America/Buenos_Aires" | "America/Cambridge_Bay" | "America/Campo_Grande" | "America/Cancun" | "America/Caracas" | "America/Catamarca" | "America/Cayenne" | "America/Cayman" | "America/Chicago" | "America/Chihuahua" | "America/Ciudad_Juarez" | "America/Coral_Harbour" | "America/Cordoba" | "America/Costa_Rica" | "America/Coyhaique" | "America/Creston" | "America/Cuiaba" | "America/Curacao" | "America/Danmarkshavn" | "America/Dawson" | "America/Dawson_Creek" | "America/Denver" | "America/Detroit" | "America/Dominica" | "America/Edmonton" | "America/Eirunepe" | "America/El_Salvador" | "America/Ensenada" | "America/Fort_Nelson" | "America/Fort_Wayne" | "America/Fortaleza" | "America/Glace_Bay" | "America/Godthab" | "America/Goose_Bay" | "America/Grand_Turk" | "America/Grenada" | "America/Guadeloupe" | "America/Guatemala" | "America/Guayaquil" | "America/Guyana" | "America/Halifax" | "America/Havana" | "America/Hermosillo" | "America/Indiana/Indianapolis" | "America/Indiana/Knox" | "America/Indiana/Marengo" | "America/Indiana/Petersburg" | "America/Indiana/Tell_City" | "America/Indiana/Vevay" | "America/Indiana/Vincennes" | "America/Indiana/Winamac" | "America/Indianapolis" | "America/Inuvik" | "America/Iqaluit" | "America/Jamaica" | "America/Jujuy" | "America/Juneau" | "America/Kentucky/Louisville" | "America/Kentucky/Monticello" | "America/Knox_IN" | "America/Kralendijk" | "America/La_Paz" | "America/Lima" | "America/Los_Angeles" | "America/Louisville" | "America/Lower_Princes" | "America/Maceio" | "America/Managua" | "America/Manaus" | "America/Marigot" | "America/Martinique" | "America/Matamoros" | "America/Mazatlan" | "America/Mendoza" | "America/Menominee" | "America/Merida" | "America/Metlakatla" | "America/Mexico_City" | "America/Miquelon" | "America/Moncton" | "America/Monterrey" | "America/Montevideo" | "America/Montreal" | "America/Montserrat" | "America/Nassau" | "America/New_York" | "America/Nipigon" | "America/Nome" | "America/Noronha" | "America/North_Dakota/Beulah" | "America/North_Dakota/Center" | "America/North_Dakota/New_Salem" | "America/Nuuk" | "America/Ojinaga" | "America/Panama" | "America/Pangnirtung" | "America/Paramaribo" | "America/Phoenix" | "America/Port-au-Prince" | "America/Port_of_Spain" | "America/Porto_Acre" | "America/Porto_Velho" | "America/Puerto_Rico" | "America/Punta_Arenas" | "America/Rainy_River" | "America/Rankin_Inlet" | "America/Recife" | "America/Regina" | "America/Resolute" | "America/Rio_Branco" | "America/Rosario" | "America/Santa_Isabel" | "America/Santarem" | "America/Santiago" | "America/Santo_Domingo" | "America/Sao_Paulo" | "America/Scoresbysund" | "America/Shiprock" | "America/Sitka" | "America/St_Barthelemy" | "America/St_Johns" | "America/St_Kitts" | "America/St_Lucia" | "America/St_Thomas" | "America/St_Vincent" | "America/Swift_Current" | "America/Tegucigalpa" | "America/Thule" | "America/Thunder_Bay" | "America/Tijuana" | "America/Toronto" | "America/Tortola" | "America/Vancouver" | "America/Virgin" | "America/Whitehorse" | "America/Winnipeg" | "America/Yakutat" | "America/Yellowknife" | "Antarctica/Casey" | "Antarctica/Davis" | "Antarctica/DumontDUrville" | "Antarctica/Macquarie" | "Antarctica/Mawson" | "Antarctica/McMurdo" | "Antarctica/Palmer" | "Antarctica/Rothera" | "Antarctica/South_Pole" | "Antarctica/Syowa" | "Antarctica/Troll" | "Antarctica/Vostok" | "Arctic/Longyearbyen" | "Asia/Aden" | "Asia/Almaty" | "Asia/Amman" | "Asia/Anadyr" | "Asia/Aqtau" | "Asia/Aqtobe" | "Asia/Ashgabat" | "Asia/Ashkhabad" | "Asia/Atyrau" | "Asia/Baghdad" | "Asia/Bahrain" | "Asia/Baku" | "Asia/Bangkok" | "Asia/Barnaul" | "Asia/Beirut" | "Asia/Bishkek" | "Asia/Brunei" | "Asia/Calcutta" | "Asia/Chita" | "Asia/Choibalsan" | "Asia/Chongqing" | "Asia/Chungking" | "Asia/Colombo" | "Asia/Dacca" | "Asia/Damascus" | "Asia/Dhaka" | "Asia/Dili" | "Asia/Dubai" | "Asia/Dushanbe" | "Asia/Famagusta" | "Asia/Gaza" | "Asia/Harbin" | "Asia/Hebron" | "Asia/Ho_Chi_Minh" | "Asia/Hong_Kong" | "Asia/Hovd" | "Asia/Irkutsk" | "Asia/Istanbul" | "Asia/Jakarta" | "Asia/Jayapura" | "Asia/Jerusalem" | "Asia/Kabul" | "Asia/Kamchatka" | "Asia/Karachi" | "Asia/Kashgar" | "Asia/Kathmandu" | "Asia/Katmandu" | "Asia/Khandyga" | "Asia/Kolkata" | "Asia/Krasnoyarsk" | "Asia/Kuala_Lumpur" | "Asia/Kuching" | "Asia/Kuwait" | "Asia/Macao" | "Asia/Macau" | "Asia/Magadan" | "Asia/Makassar" | "Asia/Manila" | "Asia/Muscat" | "Asia/Nicosia" | "Asia/Novokuznetsk" | "Asia/Novosibirsk" | "Asia/Omsk" | "Asia/Oral" | "Asia/Phnom_Penh" | "Asia/Pontianak" | "Asia/Pyongyang" | "Asia/Qatar" | "Asia/Qostanay" | "Asia/Qyzylorda" | "Asia/Rangoon" | "Asia/Riyadh" | "Asia/Saigon" | "Asia/Sakhalin" | "Asia/Samarkand" | "Asia/Seoul" | "Asia/Shanghai" | "Asia/Singapore" | "Asia/Srednekolymsk" | "Asia/Taipei" | "Asia/Tashkent" | "Asia/Tbilisi" | "Asia/Tehran" | "Asia/Tel_Aviv" | "Asia/Thimbu" | "Asia/Thimphu" | "Asia/Tokyo" | "Asia/Tomsk" | "Asia/Ujung_Pandang" | "Asia/Ulaanbaatar" | "Asia/Ulan_Bator" | "Asia/Urumqi" | "Asia/Ust-Nera" | "Asia/Vientiane" | "Asia/Vladivostok" | "Asia/Yakutsk" | "Asia/Yangon" | "Asia/Yekaterinburg" | "Asia/Yerevan" | "Atlantic/Azores" | "Atlantic/Bermuda" | "Atlantic/Canary" | "Atlantic/Cape_Verde" | "Atlantic/Faeroe" | "Atlantic/Faroe" | "Atlantic/Jan_Mayen" | "Atlantic/Madeira" | "Atlantic/Reykjavik" | "Atlantic/South_Georgia" | "Atlantic/St_Helena" | "Atlantic/Stanley" | "Australia/ACT" | "Australia/Adelaide" | "Australia/Brisbane" | "Australia/Broken_Hill" | "Australia/Canberra" | "Australia/Currie" | "Australia/Darwin" | "Australia/Eucla" | "Australia/Hobart" | "Australia/LHI" | "Australia/Lindeman" | "Australia/Lord_Howe" | "Australia/Melbourne" | "Australia/NSW" | "Australia/North" | "Australia/Perth" | "Australia/Queensland" | "Australia/South" | "Australia/Sydney" | "Australia/Tasmania" | "Australia/Victoria" | "Australia/West" | "Australia/Yancowinna" | "Brazil/Acre" | "Brazil/DeNoronha" | "Brazil/East" | "Brazil/West" | "CET" | "CST6CDT" | "Canada/Atlantic" | "Canada/Central" | "Canada/Eastern" | "Canada/Mountain" | "Canada/Newfoundland" | "Canada/Pacific" | "Canada/Saskatchewan" | "Canada/Yukon" | "Chile/Continental" | "Chile/EasterIsland" | "Cuba" | "EET" | "EST" | "EST5EDT" | "Egypt" | "Eire" | "Etc/GMT" | "Etc/GMT+0" | "Etc/GMT+1" | "Etc/GMT+10" | "Etc/GMT+11" | "Etc/GMT+12" | "Etc/GMT+2" | "Etc/GMT+3" | "Etc/GMT+4" | "Etc/GMT+5" | "Etc/GMT+6" | "Etc/GMT+7" | "Etc/GMT+8" | "Etc/GMT+9" | "Etc/GMT-0" | "Etc/GMT-1" | "Etc/GMT-10" | "Etc/GMT-11" | "Etc/GMT-12" | "Etc/GMT-13" | "Etc/GMT-14" | "Etc/GMT-2" | "Etc/GMT-3" | "Etc/GMT-4" | "Etc/GMT-5" | "Etc/GMT-6" | "Etc/GMT-7" | "Etc/GMT-8" | "Etc/GMT-9" | "Etc/GMT0" | "Etc/Greenwich" | "Etc/UCT" | "Etc/UTC" | "Etc/Universal" | "Etc/Zulu" | "Europe/Amsterdam" | "Europe/Andorra" | "Europe/Astrakhan" | "Europe/Athens" | "Europe/Belfast" | "Europe/Belgrade" | "Europe/Berlin" | "Europe/Bratislava" | "Europe/Brussels" | "Europe/Bucharest" | "Europe/Budapest" | "Europe/Busingen" | "Europe/Chisinau" | "Europe/Copenhagen" | "Europe/Dublin" | "Europe/Gibraltar" | "Europe/Guernsey" | "Europe/Helsinki" | "Europe/Isle_of_Man" | "Europe/Istanbul" | "Europe/Jersey" | "Europe/Kaliningrad" | "Europe/Kiev" | "Europe/Kirov" | "Europe/Kyiv" | "Europe/Lisbon" | "Europe/Ljubljana" | "Europe/London" | "Europe/Luxembourg" | "Europe/Madrid" | "Europe/Malta" | "Europe/Mariehamn" | "Europe/Minsk" | "Europe/Monaco" | "Europe/Moscow" | "Europe/Nicosia" | "Europe/Oslo" | "Europe/Paris" | "Europe/Podgorica" | "Europe/Prague" | "Europe/Riga" | "Europe/Rome" | "Europe/Samara" | "Europe/San_Marino" | "Europe/Sarajevo" | "Europe/Saratov" | "Europe/Simferopol" | "Europe/Skopje" | "Europe/Sofia" | "Europe/Stockholm" | "Europe/Tallinn" | "Europe/Tirane" | "Europe/Tiraspol" | "Europe/Ulyanovsk" | "Europe/Uzhgorod" | "Europe/Vaduz" | "Europe/Vatican" | "Europe/Vienna" | "Europe/Vilnius" | "Europe/Volgograd" | "Europe/Warsaw" | "Europe/Zagreb" | "Europe/Zaporozhye" | "Europe/Zurich" | "GB" | "GB-Eire" | "GMT" | "GMT+0" | "GMT-0" | "GMT0" | "Greenwich" | "HST" | "Hongkong" | "Iceland" | "Indian/Antananarivo" | "Indian/Chagos" | "Indian/Christmas" | "Indian/Cocos" | "Indian/Comoro" | "Indian/Kerguelen" | "Indian/Mahe" | "Indian/Maldives" | "Indian/Mauritius" | "Indian/Mayotte" | "Indian/Reunion" | "Iran" | "Israel" | "Jamaica" | "Japan" | "Kwajalein" | "Libya" | "MET" | "MST" | "MST7MDT" | "Mexico/BajaNorte" | "Mexico/BajaSur" | "Mexico/General" | "NZ" | "NZ-CHAT" | "Navajo" | "PRC" | "PST8PDT" | "Pacific/Apia" | "Pacific/Auckland" | "Pacific/Bougainville" | "Pacific/Chatham" | "Pacific/Chuuk" | "Pacific/Easter" | "Pacific/Efate" | "Pacific/Enderbury" | "Pacific/Fakaofo" | "Pacific/Fiji" | "Pacific/Funafuti" | "Pacific/Galapagos" | "Pacific/Gambier" | "Pacific/Guadalcanal" | "Pacific/Guam" | "Pacific/Honolulu" | "Pacific/Johnston" | "Pacific/Kanton" | "Pacific/Kiritimati" | "Pacific/Kosrae" | "Pacific/Kwajalein" | "Pacific/Majuro" | "Pacific/Marquesas" | "Pacific/Midway" | "Pacific/Nauru" | "Pacific/Niue" | "Pacific/Norfolk" | "Pacific/Noumea" | "Pacific/Pago_Pago" | "Pacific/Palau" | "Pacific/Pitcairn" | "Pacific/Pohnpei" | "Pacific/Ponape" | "Pacific/Port_Moresby" | "Pacific/Rarotonga" | "Pacific/Saipan" | "Pacific/Samoa" | "Pacific/Tahiti" | "Pacific/Tarawa" | "Pacific/Tongatapu" | "Pacific/Truk" | "Pacific/Wake" | "Pacific/Wallis" | "Pacific/Yap" | "Poland" | "Portugal" | "ROC" | "ROK" | "Singapore" | "Turkey" | "UCT" | "US/Alaska" | "US/Aleutian" | "US/Arizona" | "US/Central" | "US/East-Indiana" | "US/Eastern" | "US/Hawaii" | "US/Indiana-Starke" | "US/Michigan" | "US/Mountain" | "US/Pacific" | "US/Samoa" | "UTC" | "Universal" | "W-SU" | "WET" | "Zulu";
                /** @description The domain, one GET /domains lists (default: the default domain); any other answers 404 */
                domain?: string;
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
                    "application/json": components["schemas"]["OrphanVisits"];
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
            /** @description The caller may not use this domain, or there is none of this name */
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
    listShorts: {
        parameters: {
            query?: {
                /** @description At most this many items (1-1000) */
                limit?: string;
                /** @description Skip this many items first */
                offset?: string;
                /** @description Only shorts with this tag (any letter case) */
                tag?: string;
                /** @description Only shorts whose name or target URL contains this text (1-200 characters), ignoring letter case. Targets are matched as stored: punycode hosts, percent-encoded paths. */
                search?: string;
                /** @description Only shorts on this domain */
                domain?: string;
                /** @description createdAt (the default) or visits (every visit stored, bots included); shorts with as many visits follow their creation, in the same order */
                orderBy?: "createdAt" | "visits";
                /** @description desc (the default) or asc */
                order?: "asc" | "desc";
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
            header?: {
                /** @description Any string of 1 to 255 printable ASCII characters (a UUID, say), unique per request you mean. The same key with the same body within 24 hours answers the first request's answer again (with `Idempotent-Replayed: true`) and does nothing else; with another body it is 422. Keys are per user; an answer that was an error is not kept, so a retry after one runs again. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewShort"];
            };
        };
        responses: {
            /** @description findIfExists found this short of the caller's: nothing was created (its URL is in the Location header) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Short"];
                };
            };
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
            /** @description The Idempotency-Key was already used with a different request within the last 24 hours */
            422: {
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
    createShorts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any string of 1 to 255 printable ASCII characters (a UUID, say), unique per request you mean. The same key with the same body within 24 hours answers the first request's answer again (with `Idempotent-Replayed: true`) and does nothing else; with another body it is 422. Keys are per user; an answer that was an error is not kept, so a retry after one runs again. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewShortsBulk"];
            };
        };
        responses: {
            /** @description One result per item, in the order sent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkShortResults"];
                };
            };
            /** @description The body is not {"shorts": [...]} of at most 1000 NewShorts (the message names the first bad item's field); nothing is created */
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
            /** @description The body is larger than 4194304 bytes */
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
            /** @description The Idempotency-Key was already used with a different request within the last 24 hours */
            422: {
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
    updateShort: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the short (a UUID; any other value is answered 404) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShortEdit"];
            };
        };
        responses: {
            /** @description The short as edited */
            200: {
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
            /** @description No short with this id belongs to the caller */
            404: {
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
    listShortLogs: {
        parameters: {
            query?: {
                /** @description At most this many items (1-1000) */
                limit?: string;
                /** @description Skip this many items first */
                offset?: string;
                /** @description Keyset paging: only visits older than the visit with this id (newest first, stable while visits arrive). Pass the last id of a page to get the next. */
                before?: string;
                /** @description csv streams the visits as text/csv (as does Accept: text/csv); default json */
                format?: "json" | "csv";
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
                    "text/csv": string;
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
    getShortQrCode: {
        parameters: {
            query?: {
                /** @description png (the default) or svg */
                format?: "png" | "svg";
                /** @description Width and height of the image in pixels, 128-1024 (default 300); a PNG draws every module with the same whole number of pixels, centred with a quiet zone of at least 4 modules */
                size?: string;
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
            /** @description The QR code */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/svg+xml": string;
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
    getShortStats: {
        parameters: {
            query?: {
                /** @description Start, inclusive, rounded down to the hour, from 0001-01-02T00:00:00Z on; default: 30 days before `to` (ISO 8601 date-time) */
                from?: string;
                /** @description End, exclusive, rounded up to the hour, up to 9999-12-31T00:00:00Z; default: now (ISO 8601 date-time) */
                to?: string;
                /** @description Timeseries bucket; at most 1000 buckets in the range, counted in `timezone` */
                interval?: "hour" | "day" | "week" | "month";
                /** @description Zone of the buckets: a day is local midnight to midnight (23 or 25 hours across a DST change). Visits are aggregated by UTC hour: in a zone whose offset is not whole hours, a bucket starts at the UTC hour holding its local start. */
                timezone?: "Africa/Abidjan" | "Africa/Accra" | "Africa/Addis_Ababa" | "Africa/Algiers" | "Africa/Asmara" | "Africa/Asmera" | "Africa/Bamako" | "Africa/Bangui" | "Africa/Banjul" | "Africa/Bissau" | "Africa/Blantyre" | "Africa/Brazzaville" | "Africa/Bujumbura" | "Africa/Cairo" | "Africa/Casablanca" | "Africa/Ceuta" | "Africa/Conakry" | "Africa/Dakar" | "Africa/Dar_es_Salaam" | "Africa/Djibouti" | "Africa/Douala" | "Africa/El_Aaiun" | "Africa/Freetown" | "Africa/Gaborone" | "Africa/Harare" | "Africa/Johannesburg" | "Africa/Juba" | "Africa/Kampala" | "Africa/Khartoum" | "Africa/Kigali" | "Africa/Kinshasa" | "Africa/Lagos" | "Africa/Libreville" | "Africa/Lome" | "Africa/Luanda" | "Africa/Lubumbashi" | "Africa/Lusaka" | "Africa/Malabo" | "Africa/Maputo" | "Africa/Maseru" | "Africa/Mbabane" | "Africa/Mogadishu" | "Africa/Monrovia" | "Africa/Nairobi" | "Africa/Ndjamena" | "Africa/Niamey" | "Africa/Nouakchott" | "Africa/Ouagadougou" | "Africa/Porto-Novo" | "Africa/Sao_Tome" | "Africa/Timbuktu" | "Africa/Tripoli" | "Africa/Tunis" | "Africa/Windhoek" | "America/Adak" | "America/Anchorage" | "America/Anguilla" | "America/Antigua" | "America/Araguaina" | "America/Argentina/Buenos_Aires" | "America/Argentina/Catamarca" | "America/Argentina/ComodRivadavia" | "America/Argentina/Cordoba" | "America/Argentina/Jujuy" | "America/Argentina/La_Rioja" | "America/Argentina/Mendoza" | "America/Argentina/Rio_Gallegos" | "America/Argentina/Salta" | "America/Argentina/San_Juan" | "America/Argentina/San_Luis" | "America/Argentina/Tucuman" | "America/Argentina/Ushuaia" | "America/Aruba" | "America/Asuncion" | "America/Atikokan" | "America/Atka" | "America/Bahia" | "America/Bahia_Banderas" | "America/Barbados" | "America/Belem" | "America/Belize" | "America/Blanc-Sablon" | "America/Boa_Vista" | "America/Bogota" | "America/Boise" | "America/Buenos_Aires" | "America/Cambridge_Bay" | "America/Campo_Grande" | "America/Cancun" | "America/Caracas" | "America/Catamarca" | "America/Cayenne" | "America/Cayman" | "America/Chicago" | "America/Chihuahua" | "America/Ciudad_Juarez" | "America/Coral_Harbour" | "America/Cordoba" | "America/Costa_Rica" | "America/Coyhaique" | "America/Creston" | "America/Cuiaba" | "America/Curacao" | "America/Danmarkshavn" | "America/Dawson" | "America/Dawson_Creek" | "America/Denver" | "America/Detroit" | "America/Dominica" | "America/Edmonton" | "America/Eirunepe" | "America/El_Salvador" | "America/Ensenada" | "America/Fort_Nelson" | "America/Fort_Wayne" | "America/Fortaleza" | "America/Glace_Bay" | "America/Godthab" | "America/Goose_Bay" | "America/Grand_Turk" | "America/Grenada" | "America/Guadeloupe" | "America/Guatemala" | "America/Guayaquil" | "America/Guyana" | "America/Halifax" | "America/Havana" | "America/Hermosillo" | "America/Indiana/Indianapolis" | "America/Indiana/Knox" | "America/Indiana/Marengo" | "America/Indiana/Petersburg" | "America/Indiana/Tell_City" | "America/Indiana/Vevay" | "America/Indiana/Vincennes" | "America/Indiana/Winamac" | "America/Indianapolis" | "America/Inuvik" | "America/Iqaluit" | "America/Jamaica" | "America/Jujuy" | "America/Juneau" | "America/Kentucky/Louisville" | "America/Kentucky/Monticello" | "America/Knox_IN" | "America/Kralendijk" | "America/La_Paz" | "America/Lima" | "America/Los_Angeles" | "America/Louisville" | "America/Lower_Princes" | "America/Maceio" | "America/Managua" | "America/Manaus" | "America/Marigot" | "America/Martinique" | "America/Matamoros" | "America/Mazatlan" | "America/Mendoza" | "America/Menominee" | "America/Merida" | "America/Metlakatla" | "America/Mexico_City" | "America/Miquelon" | "America/Moncton" | "America/Monterrey" | "America/Montevideo" | "America/Montreal" | "America/Montserrat" | "America/Nassau" | "America/New_York" | "America/Nipigon" | "America/Nome" | "America/Noronha" | "America/North_Dakota/Beulah" | "America/North_Dakota/Center" | "America/North_Dakota/New_Salem" | "America/Nuuk" | "America/Ojinaga" | "America/Panama" | "America/Pangnirtung" | "America/Paramaribo" | "America/Phoenix" | "America/Port-au-Prince" | "America/Port_of_Spain" | "America/Porto_Acre" | "America/Porto_Velho" | "America/Puerto_Rico" | "America/Punta_Arenas" | "America/Rainy_River" | "America/Rankin_Inlet" | "America/Recife" | "America/Regina" | "America/Resolute" | "America/Rio_Branco" | "America/Rosario" | "America/Santa_Isabel" | "America/Santarem" | "America/Santiago" | "America/Santo_Domingo" | "America/Sao_Paulo" | "America/Scoresbysund" | "America/Shiprock" | "America/Sitka" | "America/St_Barthelemy" | "America/St_Johns" | "America/St_Kitts" | "America/St_Lucia" | "America/St_Thomas" | "America/St_Vincent" | "America/Swift_Current" | "America/Tegucigalpa" | "America/Thule" | "America/Thunder_Bay" | "America/Tijuana" | "America/Toronto" | "America/Tortola" | "America/Vancouver" | "America/Virgin" | "America/Whitehorse" | "America/Winnipeg" | "America/Yakutat" | "America/Yellowknife" | "Antarctica/Casey" | "Antarctica/Davis" | "Antarctica/DumontDUrville" | "Antarctica/Macquarie" | "Antarctica/Mawson" | "Antarctica/McMurdo" | "Antarctica/Palmer" | "Antarctica/Rothera" | "Antarctica/South_Pole" | "Antarctica/Syowa" | "Antarctica/Troll" | "Antarctica/Vostok" | "Arctic/Longyearbyen" | "Asia/Aden" | "Asia/Almaty" | "Asia/Amman" | "Asia/Anadyr" | "Asia/Aqtau" | "Asia/Aqtobe" | "Asia/Ashgabat" | "Asia/Ashkhabad" | "Asia/Atyrau" | "Asia/Baghdad" | "Asia/Bahrain" | "Asia/Baku" | "Asia/Bangkok" | "Asia/Barnaul" | "Asia/Beirut" | "Asia/Bishkek" | "Asia/Brunei" | "Asia/Calcutta" | "Asia/Chita" | "Asia/Choibalsan" | "Asia/Chongqing" | "Asia/Chungking" | "Asia/Colombo" | "Asia/Dacca" | "Asia/Damascus" | "Asia/Dhaka" | "Asia/Dili" | "Asia/Dubai" | "Asia/Dushanbe" | "Asia/Famagusta" | "Asia/Gaza" | "Asia/Harbin" | "Asia/Hebron" | "Asia/Ho_Chi_Minh" | "Asia/Hong_Kong" | "Asia/Hovd" | "Asia/Irkutsk" | "Asia/Istanbul" | "Asia/Jakarta" | "Asia/Jayapura" | "Asia/Jerusalem" | "Asia/Kabul" | "Asia/Kamchatka" | "Asia/Karachi" | "Asia/Kashgar" | "Asia/Kathmandu" | "Asia/Katmandu" | "Asia/Khandyga" | "Asia/Kolkata" | "Asia/Krasnoyarsk" | "Asia/Kuala_Lumpur" | "Asia/Kuching" | "Asia/Kuwait" | "Asia/Macao" | "Asia/Macau" | "Asia/Magadan" | "Asia/Makassar" | "Asia/Manila" | "Asia/Muscat" | "Asia/Nicosia" | "Asia/Novokuznetsk" | "Asia/Novosibirsk" | "Asia/Omsk" | "Asia/Oral" | "Asia/Phnom_Penh" | "Asia/Pontianak" | "Asia/Pyongyang" | "Asia/Qatar" | "Asia/Qostanay" | "Asia/Qyzylorda" | "Asia/Rangoon" | "Asia/Riyadh" | "Asia/Saigon" | "Asia/Sakhalin" | "Asia/Samarkand" | "Asia/Seoul" | "Asia/Shanghai" | "Asia/Singapore" | "Asia/Srednekolymsk" | "Asia/Taipei" | "Asia/Tashkent" | "Asia/Tbilisi" | "Asia/Tehran" | "Asia/Tel_Aviv" | "Asia/Thimbu" | "Asia/Thimphu" | "Asia/Tokyo" | "Asia/Tomsk" | "Asia/Ujung_Pandang" | "Asia/Ulaanbaatar" | "Asia/Ulan_Bator" | "Asia/Urumqi" | "Asia/Ust-Nera" | "Asia/Vientiane" | "Asia/Vladivostok" | "Asia/Yakutsk" | "Asia/Yangon" | "Asia/Yekaterinburg" | "Asia/Yerevan" | "Atlantic/Azores" | "Atlantic/Bermuda" | "Atlantic/Canary" | "Atlantic/Cape_Verde" | "Atlantic/Faeroe" | "Atlantic/Faroe" | "Atlantic/Jan_Mayen" | "Atlantic/Madeira" | "Atlantic/Reykjavik" | "Atlantic/South_Georgia" | "Atlantic/St_Helena" | "Atlantic/Stanley" | "Australia/ACT" | "Australia/Adelaide" | "Australia/Brisbane" | "Australia/Broken_Hill" | "Australia/Canberra" | "Australia/Currie" | "Australia/Darwin" | "Australia/Eucla" | "Australia/Hobart" | "Australia/LHI" | "Australia/Lindeman" | "Australia/Lord_Howe" | "Australia/Melbourne" | "Australia/NSW" | "Australia/North" | "Australia/Perth" | "Australia/Queensland" | "Australia/South" | "Australia/Sydney" | "Australia/Tasmania" | "Australia/Victoria" | "Australia/West" | "Australia/Yancowinna" | "Brazil/Acre" | "Brazil/DeNoronha" | "Brazil/East" | "Brazil/West" | "CET" | "CST6CDT" | "Canada/Atlantic" | "Canada/Central" | "Canada/Eastern" | "Canada/Mountain" | "Canada/Newfoundland" | "Canada/Pacific" | "Canada/Saskatchewan" | "Canada/Yukon" | "Chile/Continental" | "Chile/EasterIsland" | "Cuba" | "EET" | "EST" | "EST5EDT" | "Egypt" | "Eire" | "Etc/GMT" | "Etc/GMT+0" | "Etc/GMT+1" | "Etc/GMT+10" | "Etc/GMT+11" | "Etc/GMT+12" | "Etc/GMT+2" | "Etc/GMT+3" | "Etc/GMT+4" | "Etc/GMT+5" | "Etc/GMT+6" | "Etc/GMT+7" | "Etc/GMT+8" | "Etc/GMT+9" | "Etc/GMT-0" | "Etc/GMT-1" | "Etc/GMT-10" | "Etc/GMT-11" | "Etc/GMT-12" | "Etc/GMT-13" | "Etc/GMT-14" | "Etc/GMT-2" | "Etc/GMT-3" | "Etc/GMT-4" | "Etc/GMT-5" | "Etc/GMT-6" | "Etc/GMT-7" | "Etc/GMT-8" | "Etc/GMT-9" | "Etc/GMT0" | "Etc/Greenwich" | "Etc/UCT" | "Etc/UTC" | "Etc/Universal" | "Etc/Zulu" | "Europe/Amsterdam" | "Europe/Andorra" | "Europe/Astrakhan" | "Europe/Athens" | "Europe/Belfast" | "Europe/Belgrade" | "Europe/Berlin" | "Europe/Bratislava" | "Europe/Brussels" | "Europe/Bucharest" | "Europe/Budapest" | "Europe/Busingen" | "Europe/Chisinau" | "Europe/Copenhagen" | "Europe/Dublin" | "Europe/Gibraltar" | "Europe/Guernsey" | "Europe/Helsinki" | "Europe/Isle_of_Man" | "Europe/Istanbul" | "Europe/Jersey" | "Europe/Kaliningrad" | "Europe/Kiev" | "Europe/Kirov" | "Europe/Kyiv" | "Europe/Lisbon" | "Europe/Ljubljana" | "Europe/London" | "Europe/Luxembourg" | "Europe/Madrid" | "Europe/Malta" | "Europe/Mariehamn" | "Europe/Minsk" | "Europe/Monaco" | "Europe/Moscow" | "Europe/Nicosia" | "Europe/Oslo" | "Europe/Paris" | "Europe/Podgorica" | "Europe/Prague" | "Europe/Riga" | "Europe/Rome" | "Europe/Samara" | "Europe/San_Marino" | "Europe/Sarajevo" | "Europe/Saratov" | "Europe/Simferopol" | "Europe/Skopje" | "Europe/Sofia" | "Europe/Stockholm" | "Europe/Tallinn" | "Europe/Tirane" | "Europe/Tiraspol" | "Europe/Ulyanovsk" | "Europe/Uzhgorod" | "Europe/Vaduz" | "Europe/Vatican" | "Europe/Vienna" | "Europe/Vilnius" | "Europe/Volgograd" | "Europe/Warsaw" | "Europe/Zagreb" | "Europe/Zaporozhye" | "Europe/Zurich" | "GB" | "GB-Eire" | "GMT" | "GMT+0" | "GMT-0" | "GMT0" | "Greenwich" | "HST" | "Hongkong" | "Iceland" | "Indian/Antananarivo" | "Indian/Chagos" | "Indian/Christmas" | "Indian/Cocos" | "Indian/Comoro" | "Indian/Kerguelen" | "Indian/Mahe" | "Indian/Maldives" | "Indian/Mauritius" | "Indian/Mayotte" | "Indian/Reunion" | "Iran" | "Israel" | "Jamaica" | "Japan" | "Kwajalein" | "Libya" | "MET" | "MST" | "MST7MDT" | "Mexico/BajaNorte" | "Mexico/BajaSur" | "Mexico/General" | "NZ" | "NZ-CHAT" | "Navajo" | "PRC" | "PST8PDT" | "Pacific/Apia" | "Pacific/Auckland" | "Pacific/Bougainville" | "Pacific/Chatham" | "Pacific/Chuuk" | "Pacific/Easter" | "Pacific/Efate" | "Pacific/Enderbury" | "Pacific/Fakaofo" | "Pacific/Fiji" | "Pacific/Funafuti" | "Pacific/Galapagos" | "Pacific/Gambier" | "Pacific/Guadalcanal" | "Pacific/Guam" | "Pacific/Honolulu" | "Pacific/Johnston" | "Pacific/Kanton" | "Pacific/Kiritimati" | "Pacific/Kosrae" | "Pacific/Kwajalein" | "Pacific/Majuro" | "Pacific/Marquesas" | "Pacific/Midway" | "Pacific/Nauru" | "Pacific/Niue" | "Pacific/Norfolk" | "Pacific/Noumea" | "Pacific/Pago_Pago" | "Pacific/Palau" | "Pacific/Pitcairn" | "Pacific/Pohnpei" | "Pacific/Ponape" | "Pacific/Port_Moresby" | "Pacific/Rarotonga" | "Pacific/Saipan" | "Pacific/Samoa" | "Pacific/Tahiti" | "Pacific/Tarawa" | "Pacific/Tongatapu" | "Pacific/Truk" | "Pacific/Wake" | "Pacific/Wallis" | "Pacific/Yap" | "Poland" | "Portugal" | "ROC" | "ROK" | "Singapore" | "Turkey" | "UCT" | "US/Alaska" | "US/Aleutian" | "US/Arizona" | "US/Central" | "US/East-Indiana" | "US/Eastern" | "US/Hawaii" | "US/Indiana-Starke" | "US/Michigan" | "US/Mountain" | "US/Pacific" | "US/Samoa" | "UTC" | "Universal" | "W-SU" | "WET" | "Zulu";
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
                    "application/json": components["schemas"]["ShortStats"];
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
    createStatsLink: {
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
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatsLink"];
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
    deleteStatsLink: {
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
            /** @description Revoked; no body */
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
            /** @description No short with this id belongs to the caller, or it has no link */
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
    getStats: {
        parameters: {
            query?: {
                /** @description Start, inclusive, rounded down to the hour, from 0001-01-02T00:00:00Z on; default: 30 days before `to` (ISO 8601 date-time) */
                from?: string;
                /** @description End, exclusive, rounded up to the hour, up to 9999-12-31T00:00:00Z; default: now (ISO 8601 date-time) */
                to?: string;
                /** @description Timeseries bucket; at most 1000 buckets in the range, counted in `timezone` */
                interval?: "hour" | "day" | "week" | "month";
                /** @description Zone of the buckets: a day is local midnight to midnight (23 or 25 hours across a DST change). Visits are aggregated by UTC hour: in a zone whose offset is not whole hours, a bucket starts at the UTC hour holding its local start. */
                timezone?: "Africa/Abidjan" | "Africa/Accra" | "Africa/Addis_Ababa" | "Africa/Algiers" | "Africa/Asmara" | "Africa/Asmera" | "Africa/Bamako" | "Africa/Bangui" | "Africa/Banjul" | "Africa/Bissau" | "Africa/Blantyre" | "Africa/Brazzaville" | "Africa/Bujumbura" | "Africa/Cairo" | "Africa/Casablanca" | "Africa/Ceuta" | "Africa/Conakry" | "Africa/Dakar" | "Africa/Dar_es_Salaam" | "Africa/Djibouti" | "Africa/Douala" | "Africa/El_Aaiun" | "Africa/Freetown" | "Africa/Gaborone" | "Africa/Harare" | "Africa/Johannesburg" | "Africa/Juba" | "Africa/Kampala" | "Africa/Khartoum" | "Africa/Kigali" | "Africa/Kinshasa" | "Africa/Lagos" | "Africa/Libreville" | "Africa/Lome" | "Africa/Luanda" | "Africa/Lubumbashi" | "Africa/Lusaka" | "Africa/Malabo" | "Africa/Maputo" | "Africa/Maseru" | "Africa/Mbabane" | "Africa/Mogadishu" | "Africa/Monrovia" | "Africa/Nairobi" | "Africa/Ndjamena" | "Africa/Niamey" | "Africa/Nouakchott" | "Africa/Ouagadougou" | "Africa/Porto-Novo" | "Africa/Sao_Tome" | "Africa/Timbuktu" | "Africa/Tripoli" | "Africa/Tunis" | "Africa/Windhoek" | "America/Adak" | "America/Anchorage" | "America/Anguilla" | "America/Antigua" | "America/Araguaina" | "America/Argentina/Buenos_Aires" | "America/Argentina/Catamarca" | "America/Argentina/ComodRivadavia" | "America/Argentina/Cordoba" | "America/Argentina/Jujuy" | "America/Argentina/La_Rioja" | "America/Argentina/Mendoza" | "America/Argentina/Rio_Gallegos" | "America/Argentina/Salta" | "America/Argentina/San_Juan" | "America/Argentina/San_Luis" | "America/Argentina/Tucuman" | "America/Argentina/Ushuaia" | "America/Aruba" | "America/Asuncion" | "America/Atikokan" | "America/Atka" | "America/Bahia" | "America/Bahia_Banderas" | "America/Barbados" | "America/Belem" | "America/Belize" | "America/Blanc-Sablon" | "America/Boa_Vista" | "America/Bogota" | "America/Boise" | "America/Buenos_Aires" | "America/Cambridge_Bay" | "America/Campo_Grande" | "America/Cancun" | "America/Caracas" | "America/Catamarca" | "America/Cayenne" | "America/Cayman" | "America/Chicago" | "America/Chihuahua" | "America/Ciudad_Juarez" | "America/Coral_Harbour" | "America/Cordoba" | "America/Costa_Rica" | "America/Coyhaique" | "America/Creston" | "America/Cuiaba" | "America/Curacao" | "America/Danmarkshavn" | "America/Dawson" | "America/Dawson_Creek" | "America/Denver" | "America/Detroit" | "America/Dominica" | "America/Edmonton" | "America/Eirunepe" | "America/El_Salvador" | "America/Ensenada" | "America/Fort_Nelson" | "America/Fort_Wayne" | "America/Fortaleza" | "America/Glace_Bay" | "America/Godthab" | "America/Goose_Bay" | "America/Grand_Turk" | "America/Grenada" | "America/Guadeloupe" | "America/Guatemala" | "America/Guayaquil" | "America/Guyana" | "America/Halifax" | "America/Havana" | "America/Hermosillo" | "America/Indiana/Indianapolis" | "America/Indiana/Knox" | "America/Indiana/Marengo" | "America/Indiana/Petersburg" | "America/Indiana/Tell_City" | "America/Indiana/Vevay" | "America/Indiana/Vincennes" | "America/Indiana/Winamac" | "America/Indianapolis" | "America/Inuvik" | "America/Iqaluit" | "America/Jamaica" | "America/Jujuy" | "America/Juneau" | "America/Kentucky/Louisville" | "America/Kentucky/Monticello" | "America/Knox_IN" | "America/Kralendijk" | "America/La_Paz" | "America/Lima" | "America/Los_Angeles" | "America/Louisville" | "America/Lower_Princes" | "America/Maceio" | "America/Managua" | "America/Manaus" | "America/Marigot" | "America/Martinique" | "America/Matamoros" | "America/Mazatlan" | "America/Mendoza" | "America/Menominee" | "America/Merida" | "America/Metlakatla" | "America/Mexico_City" | "America/Miquelon" | "America/Moncton" | "America/Monterrey" | "America/Montevideo" | "America/Montreal" | "America/Montserrat" | "America/Nassau" | "America/New_York" | "America/Nipigon" | "America/Nome" | "America/Noronha" | "America/North_Dakota/Beulah" | "America/North_Dakota/Center" | "America/North_Dakota/New_Salem" | "America/Nuuk" | "America/Ojinaga" | "America/Panama" | "America/Pangnirtung" | "America/Paramaribo" | "America/Phoenix" | "America/Port-au-Prince" | "America/Port_of_Spain" | "America/Porto_Acre" | "America/Porto_Velho" | "America/Puerto_Rico" | "America/Punta_Arenas" | "America/Rainy_River" | "America/Rankin_Inlet" | "America/Recife" | "America/Regina" | "America/Resolute" | "America/Rio_Branco" | "America/Rosario" | "America/Santa_Isabel" | "America/Santarem" | "America/Santiago" | "America/Santo_Domingo" | "America/Sao_Paulo" | "America/Scoresbysund" | "America/Shiprock" | "America/Sitka" | "America/St_Barthelemy" | "America/St_Johns" | "America/St_Kitts" | "America/St_Lucia" | "America/St_Thomas" | "America/St_Vincent" | "America/Swift_Current" | "America/Tegucigalpa" | "America/Thule" | "America/Thunder_Bay" | "America/Tijuana" | "America/Toronto" | "America/Tortola" | "America/Vancouver" | "America/Virgin" | "America/Whitehorse" | "America/Winnipeg" | "America/Yakutat" | "America/Yellowknife" | "Antarctica/Casey" | "Antarctica/Davis" | "Antarctica/DumontDUrville" | "Antarctica/Macquarie" | "Antarctica/Mawson" | "Antarctica/McMurdo" | "Antarctica/Palmer" | "Antarctica/Rothera" | "Antarctica/South_Pole" | "Antarctica/Syowa" | "Antarctica/Troll" | "Antarctica/Vostok" | "Arctic/Longyearbyen" | "Asia/Aden" | "Asia/Almaty" | "Asia/Amman" | "Asia/Anadyr" | "Asia/Aqtau" | "Asia/Aqtobe" | "Asia/Ashgabat" | "Asia/Ashkhabad" | "Asia/Atyrau" | "Asia/Baghdad" | "Asia/Bahrain" | "Asia/Baku" | "Asia/Bangkok" | "Asia/Barnaul" | "Asia/Beirut" | "Asia/Bishkek" | "Asia/Brunei" | "Asia/Calcutta" | "Asia/Chita" | "Asia/Choibalsan" | "Asia/Chongqing" | "Asia/Chungking" | "Asia/Colombo" | "Asia/Dacca" | "Asia/Damascus" | "Asia/Dhaka" | "Asia/Dili" | "Asia/Dubai" | "Asia/Dushanbe" | "Asia/Famagusta" | "Asia/Gaza" | "Asia/Harbin" | "Asia/Hebron" | "Asia/Ho_Chi_Minh" | "Asia/Hong_Kong" | "Asia/Hovd" | "Asia/Irkutsk" | "Asia/Istanbul" | "Asia/Jakarta" | "Asia/Jayapura" | "Asia/Jerusalem" | "Asia/Kabul" | "Asia/Kamchatka" | "Asia/Karachi" | "Asia/Kashgar" | "Asia/Kathmandu" | "Asia/Katmandu" | "Asia/Khandyga" | "Asia/Kolkata" | "Asia/Krasnoyarsk" | "Asia/Kuala_Lumpur" | "Asia/Kuching" | "Asia/Kuwait" | "Asia/Macao" | "Asia/Macau" | "Asia/Magadan" | "Asia/Makassar" | "Asia/Manila" | "Asia/Muscat" | "Asia/Nicosia" | "Asia/Novokuznetsk" | "Asia/Novosibirsk" | "Asia/Omsk" | "Asia/Oral" | "Asia/Phnom_Penh" | "Asia/Pontianak" | "Asia/Pyongyang" | "Asia/Qatar" | "Asia/Qostanay" | "Asia/Qyzylorda" | "Asia/Rangoon" | "Asia/Riyadh" | "Asia/Saigon" | "Asia/Sakhalin" | "Asia/Samarkand" | "Asia/Seoul" | "Asia/Shanghai" | "Asia/Singapore" | "Asia/Srednekolymsk" | "Asia/Taipei" | "Asia/Tashkent" | "Asia/Tbilisi" | "Asia/Tehran" | "Asia/Tel_Aviv" | "Asia/Thimbu" | "Asia/Thimphu" | "Asia/Tokyo" | "Asia/Tomsk" | "Asia/Ujung_Pandang" | "Asia/Ulaanbaatar" | "Asia/Ulan_Bator" | "Asia/Urumqi" | "Asia/Ust-Nera" | "Asia/Vientiane" | "Asia/Vladivostok" | "Asia/Yakutsk" | "Asia/Yangon" | "Asia/Yekaterinburg" | "Asia/Yerevan" | "Atlantic/Azores" | "Atlantic/Bermuda" | "Atlantic/Canary" | "Atlantic/Cape_Verde" | "Atlantic/Faeroe" | "Atlantic/Faroe" | "Atlantic/Jan_Mayen" | "Atlantic/Madeira" | "Atlantic/Reykjavik" | "Atlantic/South_Georgia" | "Atlantic/St_Helena" | "Atlantic/Stanley" | "Australia/ACT" | "Australia/Adelaide" | "Australia/Brisbane" | "Australia/Broken_Hill" | "Australia/Canberra" | "Australia/Currie" | "Australia/Darwin" | "Australia/Eucla" | "Australia/Hobart" | "Australia/LHI" | "Australia/Lindeman" | "Australia/Lord_Howe" | "Australia/Melbourne" | "Australia/NSW" | "Australia/North" | "Australia/Perth" | "Australia/Queensland" | "Australia/South" | "Australia/Sydney" | "Australia/Tasmania" | "Australia/Victoria" | "Australia/West" | "Australia/Yancowinna" | "Brazil/Acre" | "Brazil/DeNoronha" | "Brazil/East" | "Brazil/West" | "CET" | "CST6CDT" | "Canada/Atlantic" | "Canada/Central" | "Canada/Eastern" | "Canada/Mountain" | "Canada/Newfoundland" | "Canada/Pacific" | "Canada/Saskatchewan" | "Canada/Yukon" | "Chile/Continental" | "Chile/EasterIsland" | "Cuba" | "EET" | "EST" | "EST5EDT" | "Egypt" | "Eire" | "Etc/GMT" | "Etc/GMT+0" | "Etc/GMT+1" | "Etc/GMT+10" | "Etc/GMT+11" | "Etc/GMT+12" | "Etc/GMT+2" | "Etc/GMT+3" | "Etc/GMT+4" | "Etc/GMT+5" | "Etc/GMT+6" | "Etc/GMT+7" | "Etc/GMT+8" | "Etc/GMT+9" | "Etc/GMT-0" | "Etc/GMT-1" | "Etc/GMT-10" | "Etc/GMT-11" | "Etc/GMT-12" | "Etc/GMT-13" | "Etc/GMT-14" | "Etc/GMT-2" | "Etc/GMT-3" | "Etc/GMT-4" | "Etc/GMT-5" | "Etc/GMT-6" | "Etc/GMT-7" | "Etc/GMT-8" | "Etc/GMT-9" | "Etc/GMT0" | "Etc/Greenwich" | "Etc/UCT" | "Etc/UTC" | "Etc/Universal" | "Etc/Zulu" | "Europe/Amsterdam" | "Europe/Andorra" | "Europe/Astrakhan" | "Europe/Athens" | "Europe/Belfast" | "Europe/Belgrade" | "Europe/Berlin" | "Europe/Bratislava" | "Europe/Brussels" | "Europe/Bucharest" | "Europe/Budapest" | "Europe/Busingen" | "Europe/Chisinau" | "Europe/Copenhagen" | "Europe/Dublin" | "Europe/Gibraltar" | "Europe/Guernsey" | "Europe/Helsinki" | "Europe/Isle_of_Man" | "Europe/Istanbul" | "Europe/Jersey" | "Europe/Kaliningrad" | "Europe/Kiev" | "Europe/Kirov" | "Europe/Kyiv" | "Europe/Lisbon" | "Europe/Ljubljana" | "Europe/London" | "Europe/Luxembourg" | "Europe/Madrid" | "Europe/Malta" | "Europe/Mariehamn" | "Europe/Minsk" | "Europe/Monaco" | "Europe/Moscow" | "Europe/Nicosia" | "Europe/Oslo" | "Europe/Paris" | "Europe/Podgorica" | "Europe/Prague" | "Europe/Riga" | "Europe/Rome" | "Europe/Samara" | "Europe/San_Marino" | "Europe/Sarajevo" | "Europe/Saratov" | "Europe/Simferopol" | "Europe/Skopje" | "Europe/Sofia" | "Europe/Stockholm" | "Europe/Tallinn" | "Europe/Tirane" | "Europe/Tiraspol" | "Europe/Ulyanovsk" | "Europe/Uzhgorod" | "Europe/Vaduz" | "Europe/Vatican" | "Europe/Vienna" | "Europe/Vilnius" | "Europe/Volgograd" | "Europe/Warsaw" | "Europe/Zagreb" | "Europe/Zaporozhye" | "Europe/Zurich" | "GB" | "GB-Eire" | "GMT" | "GMT+0" | "GMT-0" | "GMT0" | "Greenwich" | "HST" | "Hongkong" | "Iceland" | "Indian/Antananarivo" | "Indian/Chagos" | "Indian/Christmas" | "Indian/Cocos" | "Indian/Comoro" | "Indian/Kerguelen" | "Indian/Mahe" | "Indian/Maldives" | "Indian/Mauritius" | "Indian/Mayotte" | "Indian/Reunion" | "Iran" | "Israel" | "Jamaica" | "Japan" | "Kwajalein" | "Libya" | "MET" | "MST" | "MST7MDT" | "Mexico/BajaNorte" | "Mexico/BajaSur" | "Mexico/General" | "NZ" | "NZ-CHAT" | "Navajo" | "PRC" | "PST8PDT" | "Pacific/Apia" | "Pacific/Auckland" | "Pacific/Bougainville" | "Pacific/Chatham" | "Pacific/Chuuk" | "Pacific/Easter" | "Pacific/Efate" | "Pacific/Enderbury" | "Pacific/Fakaofo" | "Pacific/Fiji" | "Pacific/Funafuti" | "Pacific/Galapagos" | "Pacific/Gambier" | "Pacific/Guadalcanal" | "Pacific/Guam" | "Pacific/Honolulu" | "Pacific/Johnston" | "Pacific/Kanton" | "Pacific/Kiritimati" | "Pacific/Kosrae" | "Pacific/Kwajalein" | "Pacific/Majuro" | "Pacific/Marquesas" | "Pacific/Midway" | "Pacific/Nauru" | "Pacific/Niue" | "Pacific/Norfolk" | "Pacific/Noumea" | "Pacific/Pago_Pago" | "Pacific/Palau" | "Pacific/Pitcairn" | "Pacific/Pohnpei" | "Pacific/Ponape" | "Pacific/Port_Moresby" | "Pacific/Rarotonga" | "Pacific/Saipan" | "Pacific/Samoa" | "Pacific/Tahiti" | "Pacific/Tarawa" | "Pacific/Tongatapu" | "Pacific/Truk" | "Pacific/Wake" | "Pacific/Wallis" | "Pacific/Yap" | "Poland" | "Portugal" | "ROC" | "ROK" | "Singapore" | "Turkey" | "UCT" | "US/Alaska" | "US/Aleutian" | "US/Arizona" | "US/Central" | "US/East-Indiana" | "US/Eastern" | "US/Hawaii" | "US/Indiana-Starke" | "US/Michigan" | "US/Mountain" | "US/Pacific" | "US/Samoa" | "UTC" | "Universal" | "W-SU" | "WET" | "Zulu";
                /** @description Only the caller's shorts on this domain (none on an unknown one) */
                domain?: string;
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
                    "application/json": components["schemas"]["UserStats"];
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
                        /**
                         * @description The role of the database reached: leader (it takes writes), or no leader (none reached, or a replica: a failover between leaders). With no leader the service stays ready for DATABASE_WAIT_MS, its requests waiting for one; then /ready answers 503
                         * @enum {string}
                         */
                        database: "leader" | "no leader";
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
    getRobots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The robots.txt */
            200: {
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
    getPublicStats: {
        parameters: {
            query?: {
                /** @description Start, inclusive, rounded down to the hour, from 0001-01-02T00:00:00Z on; default: 30 days before `to` (ISO 8601 date-time) */
                from?: string;
                /** @description End, exclusive, rounded up to the hour, up to 9999-12-31T00:00:00Z; default: now (ISO 8601 date-time) */
                to?: string;
                /** @description Timeseries bucket; at most 1000 buckets in the range, counted in `timezone` */
                interval?: "hour" | "day" | "week" | "month";
                /** @description Zone of the buckets: a day is local midnight to midnight (23 or 25 hours across a DST change). Visits are aggregated by UTC hour: in a zone whose offset is not whole hours, a bucket starts at the UTC hour holding its local start. */
                timezone?: "Africa/Abidjan" | "Africa/Accra" | "Africa/Addis_Ababa" | "Africa/Algiers" | "Africa/Asmara" | "Africa/Asmera" | "Africa/Bamako" | "Africa/Bangui" | "Africa/Banjul" | "Africa/Bissau" | "Africa/Blantyre" | "Africa/Brazzaville" | "Africa/Bujumbura" | "Africa/Cairo" | "Africa/Casablanca" | "Africa/Ceuta" | "Africa/Conakry" | "Africa/Dakar" | "Africa/Dar_es_Salaam" | "Africa/Djibouti" | "Africa/Douala" | "Africa/El_Aaiun" | "Africa/Freetown" | "Africa/Gaborone" | "Africa/Harare" | "Africa/Johannesburg" | "Africa/Juba" | "Africa/Kampala" | "Africa/Khartoum" | "Africa/Kigali" | "Africa/Kinshasa" | "Africa/Lagos" | "Africa/Libreville" | "Africa/Lome" | "Africa/Luanda" | "Africa/Lubumbashi" | "Africa/Lusaka" | "Africa/Malabo" | "Africa/Maputo" | "Africa/Maseru" | "Africa/Mbabane" | "Africa/Mogadishu" | "Africa/Monrovia" | "Africa/Nairobi" | "Africa/Ndjamena" | "Africa/Niamey" | "Africa/Nouakchott" | "Africa/Ouagadougou" | "Africa/Porto-Novo" | "Africa/Sao_Tome" | "Africa/Timbuktu" | "Africa/Tripoli" | "Africa/Tunis" | "Africa/Windhoek" | "America/Adak" | "America/Anchorage" | "America/Anguilla" | "America/Antigua" | "America/Araguaina" | "America/Argentina/Buenos_Aires" | "America/Argentina/Catamarca" | "America/Argentina/ComodRivadavia" | "America/Argentina/Cordoba" | "America/Argentina/Jujuy" | "America/Argentina/La_Rioja" | "America/Argentina/Mendoza" | "America/Argentina/Rio_Gallegos" | "America/Argentina/Salta" | "America/Argentina/San_Juan" | "America/Argentina/San_Luis" | "America/Argentina/Tucuman" | "America/Argentina/Ushuaia" | "America/Aruba" | "America/Asuncion" | "America/Atikokan" | "America/Atka" | "America/Bahia" | "America/Bahia_Banderas" | "America/Barbados" | "America/Belem" | "America/Belize" | "America/Blanc-Sablon" | "America/Boa_Vista" | "America/Bogota" | "America/Boise" | "America/Buenos_Aires" | "America/Cambridge_Bay" | "America/Campo_Grande" | "America/Cancun" | "America/Caracas" | "America/Catamarca" | "America/Cayenne" | "America/Cayman" | "America/Chicago" | "America/Chihuahua" | "America/Ciudad_Juarez" | "America/Coral_Harbour" | "America/Cordoba" | "America/Costa_Rica" | "America/Coyhaique" | "America/Creston" | "America/Cuiaba" | "America/Curacao" | "America/Danmarkshavn" | "America/Dawson" | "America/Dawson_Creek" | "America/Denver" | "America/Detroit" | "America/Dominica" | "America/Edmonton" | "America/Eirunepe" | "America/El_Salvador" | "America/Ensenada" | "America/Fort_Nelson" | "America/Fort_Wayne" | "America/Fortaleza" | "America/Glace_Bay" | "America/Godthab" | "America/Goose_Bay" | "America/Grand_Turk" | "America/Grenada" | "America/Guadeloupe" | "America/Guatemala" | "America/Guayaquil" | "America/Guyana" | "America/Halifax" | "America/Havana" | "America/Hermosillo" | "America/Indiana/Indianapolis" | "America/Indiana/Knox" | "America/Indiana/Marengo" | "America/Indiana/Petersburg" | "America/Indiana/Tell_City" | "America/Indiana/Vevay" | "America/Indiana/Vincennes" | "America/Indiana/Winamac" | "America/Indianapolis" | "America/Inuvik" | "America/Iqaluit" | "America/Jamaica" | "America/Jujuy" | "America/Juneau" | "America/Kentucky/Louisville" | "America/Kentucky/Monticello" | "America/Knox_IN" | "America/Kralendijk" | "America/La_Paz" | "America/Lima" | "America/Los_Angeles" | "America/Louisville" | "America/Lower_Princes" | "America/Maceio" | "America/Managua" | "America/Manaus" | "America/Marigot" | "America/Martinique" | "America/Matamoros" | "America/Mazatlan" | "America/Mendoza" | "America/Menominee" | "America/Merida" | "America/Metlakatla" | "America/Mexico_City" | "America/Miquelon" | "America/Moncton" | "America/Monterrey" | "America/Montevideo" | "America/Montreal" | "America/Montserrat" | "America/Nassau" | "America/New_York" | "America/Nipigon" | "America/Nome" | "America/Noronha" | "America/North_Dakota/Beulah" | "America/North_Dakota/Center" | "America/North_Dakota/New_Salem" | "America/Nuuk" | "America/Ojinaga" | "America/Panama" | "America/Pangnirtung" | "America/Paramaribo" | "America/Phoenix" | "America/Port-au-Prince" | "America/Port_of_Spain" | "America/Porto_Acre" | "America/Porto_Velho" | "America/Puerto_Rico" | "America/Punta_Arenas" | "America/Rainy_River" | "America/Rankin_Inlet" | "America/Recife" | "America/Regina" | "America/Resolute" | "America/Rio_Branco" | "America/Rosario" | "America/Santa_Isabel" | "America/Santarem" | "America/Santiago" | "America/Santo_Domingo" | "America/Sao_Paulo" | "America/Scoresbysund" | "America/Shiprock" | "America/Sitka" | "America/St_Barthelemy" | "America/St_Johns" | "America/St_Kitts" | "America/St_Lucia" | "America/St_Thomas" | "America/St_Vincent" | "America/Swift_Current" | "America/Tegucigalpa" | "America/Thule" | "America/Thunder_Bay" | "America/Tijuana" | "America/Toronto" | "America/Tortola" | "America/Vancouver" | "America/Virgin" | "America/Whitehorse" | "America/Winnipeg" | "America/Yakutat" | "America/Yellowknife" | "Antarctica/Casey" | "Antarctica/Davis" | "Antarctica/DumontDUrville" | "Antarctica/Macquarie" | "Antarctica/Mawson" | "Antarctica/McMurdo" | "Antarctica/Palmer" | "Antarctica/Rothera" | "Antarctica/South_Pole" | "Antarctica/Syowa" | "Antarctica/Troll" | "Antarctica/Vostok" | "Arctic/Longyearbyen" | "Asia/Aden" | "Asia/Almaty" | "Asia/Amman" | "Asia/Anadyr" | "Asia/Aqtau" | "Asia/Aqtobe" | "Asia/Ashgabat" | "Asia/Ashkhabad" | "Asia/Atyrau" | "Asia/Baghdad" | "Asia/Bahrain" | "Asia/Baku" | "Asia/Bangkok" | "Asia/Barnaul" | "Asia/Beirut" | "Asia/Bishkek" | "Asia/Brunei" | "Asia/Calcutta" | "Asia/Chita" | "Asia/Choibalsan" | "Asia/Chongqing" | "Asia/Chungking" | "Asia/Colombo" | "Asia/Dacca" | "Asia/Damascus" | "Asia/Dhaka" | "Asia/Dili" | "Asia/Dubai" | "Asia/Dushanbe" | "Asia/Famagusta" | "Asia/Gaza" | "Asia/Harbin" | "Asia/Hebron" | "Asia/Ho_Chi_Minh" | "Asia/Hong_Kong" | "Asia/Hovd" | "Asia/Irkutsk" | "Asia/Istanbul" | "Asia/Jakarta" | "Asia/Jayapura" | "Asia/Jerusalem" | "Asia/Kabul" | "Asia/Kamchatka" | "Asia/Karachi" | "Asia/Kashgar" | "Asia/Kathmandu" | "Asia/Katmandu" | "Asia/Khandyga" | "Asia/Kolkata" | "Asia/Krasnoyarsk" | "Asia/Kuala_Lumpur" | "Asia/Kuching" | "Asia/Kuwait" | "Asia/Macao" | "Asia/Macau" | "Asia/Magadan" | "Asia/Makassar" | "Asia/Manila" | "Asia/Muscat" | "Asia/Nicosia" | "Asia/Novokuznetsk" | "Asia/Novosibirsk" | "Asia/Omsk" | "Asia/Oral" | "Asia/Phnom_Penh" | "Asia/Pontianak" | "Asia/Pyongyang" | "Asia/Qatar" | "Asia/Qostanay" | "Asia/Qyzylorda" | "Asia/Rangoon" | "Asia/Riyadh" | "Asia/Saigon" | "Asia/Sakhalin" | "Asia/Samarkand" | "Asia/Seoul" | "Asia/Shanghai" | "Asia/Singapore" | "Asia/Srednekolymsk" | "Asia/Taipei" | "Asia/Tashkent" | "Asia/Tbilisi" | "Asia/Tehran" | "Asia/Tel_Aviv" | "Asia/Thimbu" | "Asia/Thimphu" | "Asia/Tokyo" | "Asia/Tomsk" | "Asia/Ujung_Pandang" | "Asia/Ulaanbaatar" | "Asia/Ulan_Bator" | "Asia/Urumqi" | "Asia/Ust-Nera" | "Asia/Vientiane" | "Asia/Vladivostok" | "Asia/Yakutsk" | "Asia/Yangon" | "Asia/Yekaterinburg" | "Asia/Yerevan" | "Atlantic/Azores" | "Atlantic/Bermuda" | "Atlantic/Canary" | "Atlantic/Cape_Verde" | "Atlantic/Faeroe" | "Atlantic/Faroe" | "Atlantic/Jan_Mayen" | "Atlantic/Madeira" | "Atlantic/Reykjavik" | "Atlantic/South_Georgia" | "Atlantic/St_Helena" | "Atlantic/Stanley" | "Australia/ACT" | "Australia/Adelaide" | "Australia/Brisbane" | "Australia/Broken_Hill" | "Australia/Canberra" | "Australia/Currie" | "Australia/Darwin" | "Australia/Eucla" | "Australia/Hobart" | "Australia/LHI" | "Australia/Lindeman" | "Australia/Lord_Howe" | "Australia/Melbourne" | "Australia/NSW" | "Australia/North" | "Australia/Perth" | "Australia/Queensland" | "Australia/South" | "Australia/Sydney" | "Australia/Tasmania" | "Australia/Victoria" | "Australia/West" | "Australia/Yancowinna" | "Brazil/Acre" | "Brazil/DeNoronha" | "Brazil/East" | "Brazil/West" | "CET" | "CST6CDT" | "Canada/Atlantic" | "Canada/Central" | "Canada/Eastern" | "Canada/Mountain" | "Canada/Newfoundland" | "Canada/Pacific" | "Canada/Saskatchewan" | "Canada/Yukon" | "Chile/Continental" | "Chile/EasterIsland" | "Cuba" | "EET" | "EST" | "EST5EDT" | "Egypt" | "Eire" | "Etc/GMT" | "Etc/GMT+0" | "Etc/GMT+1" | "Etc/GMT+10" | "Etc/GMT+11" | "Etc/GMT+12" | "Etc/GMT+2" | "Etc/GMT+3" | "Etc/GMT+4" | "Etc/GMT+5" | "Etc/GMT+6" | "Etc/GMT+7" | "Etc/GMT+8" | "Etc/GMT+9" | "Etc/GMT-0" | "Etc/GMT-1" | "Etc/GMT-10" | "Etc/GMT-11" | "Etc/GMT-12" | "Etc/GMT-13" | "Etc/GMT-14" | "Etc/GMT-2" | "Etc/GMT-3" | "Etc/GMT-4" | "Etc/GMT-5" | "Etc/GMT-6" | "Etc/GMT-7" | "Etc/GMT-8" | "Etc/GMT-9" | "Etc/GMT0" | "Etc/Greenwich" | "Etc/UCT" | "Etc/UTC" | "Etc/Universal" | "Etc/Zulu" | "Europe/Amsterdam" | "Europe/Andorra" | "Europe/Astrakhan" | "Europe/Athens" | "Europe/Belfast" | "Europe/Belgrade" | "Europe/Berlin" | "Europe/Bratislava" | "Europe/Brussels" | "Europe/Bucharest" | "Europe/Budapest" | "Europe/Busingen" | "Europe/Chisinau" | "Europe/Copenhagen" | "Europe/Dublin" | "Europe/Gibraltar" | "Europe/Guernsey" | "Europe/Helsinki" | "Europe/Isle_of_Man" | "Europe/Istanbul" | "Europe/Jersey" | "Europe/Kaliningrad" | "Europe/Kiev" | "Europe/Kirov" | "Europe/Kyiv" | "Europe/Lisbon" | "Europe/Ljubljana" | "Europe/London" | "Europe/Luxembourg" | "Europe/Madrid" | "Europe/Malta" | "Europe/Mariehamn" | "Europe/Minsk" | "Europe/Monaco" | "Europe/Moscow" | "Europe/Nicosia" | "Europe/Oslo" | "Europe/Paris" | "Europe/Podgorica" | "Europe/Prague" | "Europe/Riga" | "Europe/Rome" | "Europe/Samara" | "Europe/San_Marino" | "Europe/Sarajevo" | "Europe/Saratov" | "Europe/Simferopol" | "Europe/Skopje" | "Europe/Sofia" | "Europe/Stockholm" | "Europe/Tallinn" | "Europe/Tirane" | "Europe/Tiraspol" | "Europe/Ulyanovsk" | "Europe/Uzhgorod" | "Europe/Vaduz" | "Europe/Vatican" | "Europe/Vienna" | "Europe/Vilnius" | "Europe/Volgograd" | "Europe/Warsaw" | "Europe/Zagreb" | "Europe/Zaporozhye" | "Europe/Zurich" | "GB" | "GB-Eire" | "GMT" | "GMT+0" | "GMT-0" | "GMT0" | "Greenwich" | "HST" | "Hongkong" | "Iceland" | "Indian/Antananarivo" | "Indian/Chagos" | "Indian/Christmas" | "Indian/Cocos" | "Indian/Comoro" | "Indian/Kerguelen" | "Indian/Mahe" | "Indian/Maldives" | "Indian/Mauritius" | "Indian/Mayotte" | "Indian/Reunion" | "Iran" | "Israel" | "Jamaica" | "Japan" | "Kwajalein" | "Libya" | "MET" | "MST" | "MST7MDT" | "Mexico/BajaNorte" | "Mexico/BajaSur" | "Mexico/General" | "NZ" | "NZ-CHAT" | "Navajo" | "PRC" | "PST8PDT" | "Pacific/Apia" | "Pacific/Auckland" | "Pacific/Bougainville" | "Pacific/Chatham" | "Pacific/Chuuk" | "Pacific/Easter" | "Pacific/Efate" | "Pacific/Enderbury" | "Pacific/Fakaofo" | "Pacific/Fiji" | "Pacific/Funafuti" | "Pacific/Galapagos" | "Pacific/Gambier" | "Pacific/Guadalcanal" | "Pacific/Guam" | "Pacific/Honolulu" | "Pacific/Johnston" | "Pacific/Kanton" | "Pacific/Kiritimati" | "Pacific/Kosrae" | "Pacific/Kwajalein" | "Pacific/Majuro" | "Pacific/Marquesas" | "Pacific/Midway" | "Pacific/Nauru" | "Pacific/Niue" | "Pacific/Norfolk" | "Pacific/Noumea" | "Pacific/Pago_Pago" | "Pacific/Palau" | "Pacific/Pitcairn" | "Pacific/Pohnpei" | "Pacific/Ponape" | "Pacific/Port_Moresby" | "Pacific/Rarotonga" | "Pacific/Saipan" | "Pacific/Samoa" | "Pacific/Tahiti" | "Pacific/Tarawa" | "Pacific/Tongatapu" | "Pacific/Truk" | "Pacific/Wake" | "Pacific/Wallis" | "Pacific/Yap" | "Poland" | "Portugal" | "ROC" | "ROK" | "Singapore" | "Turkey" | "UCT" | "US/Alaska" | "US/Aleutian" | "US/Arizona" | "US/Central" | "US/East-Indiana" | "US/Eastern" | "US/Hawaii" | "US/Indiana-Starke" | "US/Michigan" | "US/Mountain" | "US/Pacific" | "US/Samoa" | "UTC" | "Universal" | "W-SU" | "WET" | "Zulu";
            };
            header?: never;
            path: {
                /** @description The link's token, from POST /api/shorts/{id}/stats-link */
                token: string;
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
                    "application/json": components["schemas"]["PublicStats"];
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
            /** @description No statistics link has this token (or it was revoked) */
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
            /** @description The password form of a protected short (no visit is recorded) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Redirect to the target URL (or, once expired, to the short's expiredUrl); no body */
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
            /** @description No short has this name on the request's domain (which has no URL for unknown names), or it is expired (outside its window or past its visit limit), or the request's Host names no domain */
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
    unlockShort: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Name of the short; any other value is answered 404 */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordForm"];
                "application/x-www-form-urlencoded": components["schemas"]["PasswordForm"];
            };
        };
        responses: {
            /** @description Redirect to the target URL (or, once expired, to the short's expiredUrl); no body */
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
            /** @description The body is not understood */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The form again, saying the password was wrong or missing */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No short has this name on the request's domain (which has no URL for unknown names), or it is expired (outside its window or past its visit limit), or the request's Host names no domain */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
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
            /** @description The body is neither a form nor JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The form, saying to wait */
            429: {
                headers: {
                    /** @description Seconds until this address may try this short's password again */
                    "retry-after"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
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
