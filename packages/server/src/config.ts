// One configuration loader for both services. Each app keeps its own zod schema of the
// environment variables it reads (keys are the variables' names, values parsed); this module
// holds what they read the same way (connection limits, ports, TRUST_PROXY) and the one way a
// schema is applied: `.env` under the real environment, empty means unset, a bad value stops
// the start naming the variable and echoing what it received, and a variable that looks like
// ours but that no schema reads (a typo) is reported once.
import { existsSync } from "node:fs";
import { z } from "zod";

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The process environment over `.env` in the working directory, if any: real variables win. */
export function readEnvironment(): NodeJS.ProcessEnv {
  if (existsSync(".env")) process.loadEnvFile(".env");
  return process.env;
}

type EnvSchema = z.ZodObject<z.ZodRawShape>;

/**
 * Parses `env` with `schema` (a `z.object` of variables, optionally refined), empty variables
 * counting as unset, so a blank line in an .env file falls back to the default. Throws a
 * ConfigError naming each bad variable with the value it received.
 */
export function parseEnvironment<Schema extends z.ZodType>(
  service: string,
  schema: Schema,
  env: Record<string, string | undefined>,
): z.output<Schema> {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
    ),
  );
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".");
    const received = present[name];
    // The raw text, not what coercion made of it ("abc", not NaN); a secret is not echoed.
    const echo =
      received === undefined || /SECRET|PASSWORD|DATABASE.*URL|REDIS_URL|SMTP_URL/.test(name)
        ? ""
        : ` (received "${received}")`;
    return `${name}: ${issue.message}${echo}`;
  });
  throw new ConfigError(`Invalid ${service} configuration: ${problems.join("; ")}`);
}

/** The variable names a schema reads. */
export function variablesOf(schema: EnvSchema): string[] {
  return Object.keys(schema.shape);
}

/**
 * Variables of `env` that look like ours (they start with the first word of a variable some
 * schema reads, e.g. `SHORTENER_`, `RATE_`) but that none of them reads: most likely typos,
 * which would otherwise be silently ignored.
 */
export function unknownVariables(env: Record<string, string | undefined>, known: Iterable<string>): string[] {
  const names = new Set(known);
  const prefixes = new Set(
    [...names].filter((name) => name.includes("_")).map((name) => name.split("_")[0]!),
  );
  return Object.keys(env)
    .filter((name) => !names.has(name) && prefixes.has(name.split("_")[0]!) && name.includes("_"))
    .sort();
}

/** The one start-up warning about unknown variables, or undefined when there are none. */
export function unknownVariablesWarning(
  env: Record<string, string | undefined>,
  known: Iterable<string>,
): string | undefined {
  const unknown = unknownVariables(env, known);
  if (unknown.length === 0) return undefined;
  return `warning: ignoring ${unknown.join(", ")}: no service reads ${unknown.length === 1 ? "this variable" : "these variables"} (a typo? .env.example lists every variable)`;
}

export const port = (fallback: number, description: string) =>
  z.coerce
    .number({ error: "must be a port number" })
    .int("must be an integer from 0 to 65535")
    .min(0, "must be an integer from 0 to 65535")
    .max(65_535, "must be an integer from 0 to 65535")
    .default(fallback)
    .describe(description);

export const optionalPort = (description: string) =>
  z.coerce
    .number({ error: "must be a port number" })
    .int("must be an integer from 0 to 65535")
    .min(0, "must be an integer from 0 to 65535")
    .max(65_535, "must be an integer from 0 to 65535")
    .optional()
    .describe(description);

export type TrustProxy = boolean | number | string[];

/**
 * TRUST_PROXY, one rule for both services: `true`/`false`, a hop count (trust that many
 * proxies in front: the client is the address that many hops back in X-Forwarded-For), or
 * comma-separated proxy addresses/CIDRs. Anything else stops the start.
 */
export const trustProxyEnv = z
  .string()
  .regex(
    /^(true|false|\d+|[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*)$/,
    "must be true, false, a hop count, or comma-separated proxy addresses/CIDRs",
  )
  .transform((value): TrustProxy => {
    if (value === "true") return true;
    if (value === "false") return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value.split(",").map((address) => address.trim());
  })
  .default(false)
  .describe(
    "Trust X-Forwarded-For from a reverse proxy: true, false, a hop count, or comma-separated proxy addresses/CIDRs",
  );

/** Fastify's trustProxy option for a TRUST_PROXY value (it honours a hop count; its types want a function). */
export function fastifyTrustProxy(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === "number" ? (_address: string, hop: number) => hop < setting : setting;
}

const milliseconds = (fallback: number, description: string) =>
  z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds from 100 to 600000")
    .min(100, "must be a whole number of milliseconds from 100 to 600000")
    .max(600_000, "must be a whole number of milliseconds from 100 to 600000")
    .default(fallback)
    .describe(description);

/**
 * Rules between the database variables, for each app's refinement: a direct URL or a replica
 * only makes sense next to a DATABASE_URL (the embedded database has neither).
 */
export function checkDatabaseUrls(
  config: {
    DATABASE_URL?: string | undefined;
    DATABASE_DIRECT_URL?: string | undefined;
    DATABASE_REPLICA_URL?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  for (const name of ["DATABASE_DIRECT_URL", "DATABASE_REPLICA_URL"] as const) {
    if (config[name] !== undefined && config.DATABASE_URL === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: "needs DATABASE_URL (the embedded database has none)",
      });
    }
  }
}

/** The variables that say where the database is (sharedEnv's). */
export interface DatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATABASE_DIRECT_URL?: string | undefined;
  DATA_DIR: string;
  DATABASE_WAIT_MS?: number;
}

/**
 * Where a service's database is, from the variables both read the same way (sharedEnv): every
 * entry point opens it through this (services, CLIs, scripts), so none forgets the direct URL.
 */
export function databaseOptions(config: DatabaseSettings): {
  databaseUrl: string | undefined;
  directUrl: string | undefined;
  dataDir: string;
  waitMs: number | undefined;
} {
  return {
    databaseUrl: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    dataDir: config.DATA_DIR,
    waitMs: config.DATABASE_WAIT_MS,
  };
}

/** Variables both services read the same way (each app's schema spreads them). */
export const sharedEnv = {
  HOST: z.string().min(1).default("127.0.0.1").describe("Interface to listen on (0.0.0.0 in containers)"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgresql:// URL")
    .optional()
    .describe("PostgreSQL URL; unset starts an embedded PostgreSQL with its data under DATA_DIR"),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgresql:// URL")
    .optional()
    .describe(
      "The same database as DATABASE_URL without a pooler in between, when DATABASE_URL is PgBouncer in " +
        "transaction mode: migrations and LISTEN go here, and DATABASE_URL gets unnamed statements only. " +
        "Unset: DATABASE_URL is used for everything",
    ),
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgresql:// URL")
    .optional()
    .describe(
      "A streaming replica of DATABASE_URL's database: redirect target lookups, statistics and scheduling's " +
        "list/read routes read there while it is less than REPLICA_MAX_LAG_MS behind. Unset: every read goes to DATABASE_URL",
    ),
  REPLICA_MAX_LAG_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds from 10 to 600000")
    .min(10, "must be a whole number of milliseconds from 10 to 600000")
    .max(600_000, "must be a whole number of milliseconds from 10 to 600000")
    .default(1_000)
    .describe(
      "Reads go to DATABASE_REPLICA_URL only while it has replayed what the primary had this many ms ago " +
        "(and this instance's last write); otherwise, or while it is down, to the primary",
    ),
  DATABASE_WAIT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds from 0 to 120000")
    .min(0, "must be a whole number of milliseconds from 0 to 120000")
    .max(120_000, "must be a whole number of milliseconds from 0 to 120000")
    .default(15_000)
    .describe(
      "While the database accepts no connection (a failover electing a new leader), work waits this long for " +
        "one, and a visit batch whose commit's answer was lost is sent again this long; then the request is " +
        "answered 503 with Retry-After. 0: at once",
    ),
  DATA_DIR: z.string().min(1).default(".data").describe("Where the embedded PostgreSQL keeps its data"),
  TRUST_PROXY: trustProxyEnv,
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info")
    .describe("pino log level"),
  REQUEST_TIMEOUT_MS: milliseconds(
    10_000,
    "A request (headers and body) must arrive within this, or it is answered 408 and closed",
  ),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000, "An idle keep-alive connection is closed after this"),
  STOP_WAIT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds from 0 to 120000")
    .min(0, "must be a whole number of milliseconds from 0 to 120000")
    .max(120_000, "must be a whole number of milliseconds from 0 to 120000")
    .default(5_000)
    .describe(
      "On SIGTERM, /ready answers 503 at once and the service keeps serving this long (every answer with " +
        "Connection: close) before it stops listening and drains, so a proxy or orchestrator takes it out of " +
        "rotation first: at least the proxy's check interval × its failures to mark a server down (the compose " +
        "HAProxy: 2 s × 2). A second SIGTERM ends the wait early; SIGINT (Ctrl-C) does not wait; 0 never waits",
    ),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional()
    .describe(
      "Redis for counters shared by several instances: scheduling's rate limit, the shortener's " +
        "password attempts. Unset: counted in each process's memory.",
    ),
  REDIS_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds from 1 to 10000")
    .min(1, "must be a whole number of milliseconds from 1 to 10000")
    .max(10_000, "must be a whole number of milliseconds from 1 to 10000")
    .default(25)
    .describe(
      "A Redis command slower than this fails (a slow Redis must not slow every request): a scheduling " +
        "request passes uncounted, a password attempt is counted by its instance alone; raise it when " +
        "Redis is far away or the host is busy",
    ),
  MAX_CONNECTIONS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number from 1 to 1000000")
    .min(1, "must be a whole number from 1 to 1000000")
    .max(1_000_000, "must be a whole number from 1 to 1000000")
    .default(10_000)
    .describe("Connections one service accepts at once; more are refused"),
};
