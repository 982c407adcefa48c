// Names no short may have: the first path segments the service serves itself. Shared by the app
// and by the CLI's import, which creates shorts under the same rules.

// Besides the API prefix ("docs" covers /docs/reference too). "rest" (Shlink's API view) and
// "manage" (its web UI) came with issue 48: a short that already had one of them keeps it and
// keeps redirecting at its one-segment path (docs/adr/0270).
const OWN_PATHS = ["docs", "health", "ready", "stats", "favicon.ico", "robots.txt", "rest", "manage"];

/** The reserved names under SHORTENER_API_PREFIX `apiPrefix` ("/api"). */
export const reservedNames = (apiPrefix: string) => [apiPrefix.slice(1), ...OWN_PATHS];
