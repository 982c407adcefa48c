// The scheduling API's environment variables, parsed once at start (@app/server/config applies it).
import {
  ConfigError,
  checkDatabaseUrls,
  optionalPort,
  parseEnvironment,
  port,
  readEnvironment,
  sharedEnv,
  variablesOf,
} from "@app/server/config";
import { z } from "zod";
import { parseTenantSecret, TENANT_SECRET_FORMAT } from "./hosting/secrets.ts";

export const SchedulingConfigSchema = z.object({
  ...sharedEnv,
  SCHEDULING_PORT: port(3001, "TCP port the scheduling API listens on (0 picks a free one)."),
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
  RATE_LIMIT_REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, "must be 1-64 letters, digits, '_', '.', ':' or '-'")
    .default("scheduling-rate-limit:")
    .describe(
      "Prefix of the rate-limit counters' Redis keys: the instances of one deployment share it; " +
        "deployments sharing one Redis need one each.",
    ),
  SCHEDULING_METRICS_PORT: optionalPort(
    "Port of a separate listener serving Prometheus metrics at /metrics (on HOST). Unset: off.",
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
        "required, and by tenant:create, which seals the new tenant's URL (the other tenant:* commands " +
        "do not read it). Losing it makes the stored URLs unreadable.",
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
function crossCheck(config: z.output<typeof SchedulingConfigSchema>, ctx: z.RefinementCtx): void {
  checkDatabaseUrls(config, ctx);
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

const checkedSchema = SchedulingConfigSchema.superRefine(crossCheck);

export type SchedulingConfig = z.output<typeof SchedulingConfigSchema>;

/** The variables the scheduling API reads. */
export const SCHEDULING_VARIABLES = variablesOf(SchedulingConfigSchema);

/**
 * The app's configuration, parsed once from the environment given. Empty variables count
 * as unset, so a blank line in an .env file falls back to the default.
 */
export function loadConfig(env: Record<string, string | undefined>): SchedulingConfig {
  return parseEnvironment("scheduling", checkedSchema, env);
}

export { ConfigError, readEnvironment };
