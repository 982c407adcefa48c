import { existsSync } from "node:fs";
import { connectionLimitsEnv } from "@app/server/config";
import { z } from "zod";
import { parseTenantSecret, TENANT_SECRET_FORMAT } from "./hosting/secrets.ts";

const TRUE = new Set(["true", "1", "yes"]);
const FALSE = new Set(["false", "0", "no"]);

/** Fastify's trustProxy: a boolean, a hop count, or the addresses/CIDRs of the proxies. */
const trustProxy = z
  .string()
  .regex(/^[\w.:/, -]+$/, "must be true, false, a hop count, or comma-separated addresses")
  .transform((value): boolean | number | string[] => {
    const word = value.trim().toLowerCase();
    if (TRUE.has(word)) return true;
    if (FALSE.has(word)) return false;
    if (/^\d+$/.test(word)) return Number(word);
    return value
      .split(",")
      .map((address) => address.trim())
      .filter(Boolean);
  });

const configSchema = z.object({
  SCHEDULING_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(3001)
    .describe("TCP port the scheduling API listens on (0 picks a free one)."),
  HOST: z.string().min(1).default("127.0.0.1").describe("Interface to listen on; 0.0.0.0 in containers."),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional()
    .describe("PostgreSQL connection URL. Unset: an embedded PostgreSQL is started under DATA_DIR."),
  DATA_DIR: z.string().min(1).default(".data").describe("Where the embedded PostgreSQL keeps its data."),
  APIKEY_PREFIX: z
    .string()
    .default("cal_")
    .describe("Prefix of every API key handed out; only a leading occurrence is stripped before hashing."),
  RATE_LIMIT_MAX: z.coerce
    .number()
    .int()
    .positive()
    .default(30)
    .describe("Requests one user may make per RATE_LIMIT_WINDOW_MS."),
  RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60_000)
    .describe("Length of the rate-limit window in milliseconds."),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional()
    .describe("Redis for rate-limit counters shared by several instances. Unset: counted in memory."),
  ...connectionLimitsEnv,
  SCHEDULING_METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .optional()
    .describe("Port of a separate listener serving Prometheus metrics at /metrics (on HOST). Unset: off."),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("pino log level."),
  TRUST_PROXY: trustProxy
    .default(false)
    .describe(
      "Trust X-Forwarded-* from proxies: false, true, a hop count, or comma-separated addresses/CIDRs.",
    ),
  HOSTED_MODE: z
    .enum(["off", "on", "required"])
    .default("off")
    .describe(
      "Experimental hosted mode. off: a `key` query parameter is refused (400). on: a request with " +
        "`key` (a tenant's license key) runs on that tenant's database, one without on DATABASE_URL's. " +
        "required: every authenticated request needs `key`.",
    ),
  TENANT_SECRET: z
    .string()
    .refine((value) => parseTenantSecret(value) !== null, TENANT_SECRET_FORMAT)
    .optional()
    .describe(
      "Seals the tenants' database URLs at rest (AES-256-GCM). Required when HOSTED_MODE is on or " +
        "required, and by the tenant:* commands. Losing it makes the stored URLs unreadable.",
    ),
  TENANT_POOL_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(5)
    .describe("Hosted mode: connections in one tenant database's pool."),
  TENANT_CONNECTIONS_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(100)
    .describe(
      "Hosted mode: connections all tenant pools of this instance may hold together; it keeps " +
        "TENANT_CONNECTIONS_MAX / TENANT_POOL_MAX tenant clients, the least recently used idle one closed first.",
    ),
});

/** Rules between variables, checked after each variable alone. */
function crossCheck(config: z.output<typeof configSchema>, ctx: z.RefinementCtx): void {
  if (config.HOSTED_MODE !== "off" && config.TENANT_SECRET === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["TENANT_SECRET"],
      message: `required when HOSTED_MODE is ${config.HOSTED_MODE}; it ${TENANT_SECRET_FORMAT}`,
    });
  }
  if (config.TENANT_CONNECTIONS_MAX < config.TENANT_POOL_MAX) {
    ctx.addIssue({
      code: "custom",
      path: ["TENANT_CONNECTIONS_MAX"],
      message: "must be at least TENANT_POOL_MAX (room for one tenant's pool)",
    });
  }
}

const checkedSchema = configSchema.superRefine(crossCheck);

export type SchedulingConfig = z.output<typeof configSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * The app's configuration, parsed once from the environment given. Empty variables count
 * as unset, so a blank line in an .env file falls back to the default.
 */
export function loadConfig(env: NodeJS.ProcessEnv): SchedulingConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = checkedSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  return result.data;
}

/** The process environment over `.env` in the working directory, if any: real variables win. */
export function readEnvironment(): NodeJS.ProcessEnv {
  if (existsSync(".env")) process.loadEnvFile(".env");
  return process.env;
}
