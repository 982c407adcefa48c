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
import { DEFAULT_CALENDAR_STALE_MS } from "./calendars/busy.ts";
import { parseSecret, SECRET_FORMAT } from "./sealing.ts";

/** smtp:// or smtps:// with a host; credentials are optional (user:password@). */
const isSmtpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
};

const milliseconds = (fallback: number, min: number, description: string) =>
  z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int(`must be a whole number of milliseconds from ${min} to 86400000`)
    .min(min, `must be a whole number of milliseconds from ${min} to 86400000`)
    .max(86_400_000, `must be a whole number of milliseconds from ${min} to 86400000`)
    .default(fallback)
    .describe(description);

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
    .refine((value) => parseSecret(value) !== null, SECRET_FORMAT)
    .optional()
    .describe(
      "Seals the tenants' database URLs at rest (AES-256-GCM). Required when HOSTED_MODE is on or " +
        "required, by tenant:create, which seals the new tenant's URL (the other tenant:* commands " +
        "do not read it), and by the calendar:* commands given --tenant, which open the tenant's " +
        "database. Losing it makes the stored URLs unreadable.",
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
  SMTP_URL: z
    .string()
    .refine(
      isSmtpUrl,
      "must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@mail.example.com:465",
    )
    .optional()
    .describe(
      "The SMTP server booking e-mails go through: smtp:// (STARTTLS when offered) or smtps:// (TLS), " +
        "with user:password@ when it needs them (URL-encoded). Unset: no e-mail is written or sent.",
    ),
  MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>]*<)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/, "must be an address, or `Name <address>`")
    .optional()
    .describe("The From of booking e-mails, e.g. `Bookings <bookings@example.com>`. Required with SMTP_URL."),
  MAIL_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(8)
    .describe(
      "Failed sends of one e-mail before it is dead (`mail:dead` lists it; a 5xx answer makes it dead at once).",
    ),
  MAIL_RETRY_BASE_MS: milliseconds(
    30_000,
    1,
    "Wait before a failed e-mail's second attempt; each further attempt waits twice as long (at most an hour).",
  ),
  MAIL_POLL_MS: milliseconds(
    10_000,
    10,
    "How often the sender looks for due e-mails besides the notification each new one sends (retries come due this way).",
  ),
  MAIL_SEND_TIMEOUT_MS: milliseconds(
    60_000,
    100,
    "Connecting to the SMTP server, its greeting, and each of its answers must come within this; else the attempt failed.",
  ),
  MAIL_GIVE_WAY_MS: milliseconds(
    3_000,
    0,
    "While this instance is answering requests, its sender waits before rendering and sending new e-mails " +
      "(their work would slow the requests down), at most this long after they were written; 0: sends at once.",
  ),
  CREDENTIALS_KEY: z
    .string()
    .refine((value) => parseSecret(value) !== null, SECRET_FORMAT)
    .optional()
    .describe(
      "Seals the logins of connected calendar accounts at rest (AES-256-GCM). Required once an account " +
        "is connected (`calendar:connect`); the service does not start without it, or with one that does " +
        "not open them. Losing it makes the stored logins unreadable: connect the accounts again.",
    ),
  CREDENTIALS_KEY_PREVIOUS: z
    .string()
    .refine((value) => parseSecret(value) !== null, SECRET_FORMAT)
    .optional()
    .describe(
      "The CREDENTIALS_KEY before a rotation: logins it sealed still open, and `calendar:rotate-key` " +
        "seals them again under CREDENTIALS_KEY; unset it afterwards.",
    ),
  CALENDAR_SYNC_INTERVAL_MS: milliseconds(
    60_000,
    1_000,
    "How often each connected calendar is synchronised: an event added, moved or removed in it changes " +
      "the slots within this (plus the sync's own time). A booking checks its hosts' calendars afresh.",
  ),
  CALENDAR_STALE_MS: milliseconds(
    DEFAULT_CALENDAR_STALE_MS,
    0,
    "How long a calendar whose sync fails still counts with its last copy; past it, its owner is busy " +
      "for every time asked about until a sync succeeds (docs/adr/0254).",
  ),
  CALENDAR_TIMEOUT_MS: milliseconds(
    10_000,
    100,
    "Each request to a calendar server must be answered within this; else the sync (or the write) failed.",
  ),
  CALENDAR_HORIZON_DAYS: z.coerce
    .number()
    .int()
    .min(30)
    .max(3_650)
    .default(400)
    .describe(
      "Recurring calendar events are expanded this many days ahead: a host with a connected calendar is " +
        "busy past it (it cannot be confirmed free).",
    ),
  CALENDAR_WRITE_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(8)
    .describe("Failed writes of a booking into its calendar before it is dead (`calendar:dead` lists it)."),
  CALENDAR_WRITE_RETRY_BASE_MS: milliseconds(
    30_000,
    1,
    "Wait before a failed calendar write's second attempt; each further attempt waits twice as long (at most an hour).",
  ),
});

/** Rules between variables, checked after each variable alone. */
function crossCheck(config: z.output<typeof SchedulingConfigSchema>, ctx: z.RefinementCtx): void {
  checkDatabaseUrls(config, ctx);
  if (config.HOSTED_MODE !== "off" && config.TENANT_SECRET === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["TENANT_SECRET"],
      message: `required when HOSTED_MODE is ${config.HOSTED_MODE}; it ${SECRET_FORMAT}`,
    });
  }
  if (config.SMTP_URL !== undefined && config.MAIL_FROM === undefined) {
    ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "required when SMTP_URL is set" });
  }
  if (config.CALENDAR_STALE_MS < 2 * config.CALENDAR_SYNC_INTERVAL_MS) {
    ctx.addIssue({
      code: "custom",
      path: ["CALENDAR_STALE_MS"],
      message: "must be at least twice CALENDAR_SYNC_INTERVAL_MS (a healthy copy is renewed every interval)",
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
