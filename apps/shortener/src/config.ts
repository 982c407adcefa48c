// The shortener's environment variables, parsed once at start (@app/server/config applies it).
import {
  checkDatabaseUrls,
  optionalPort,
  parseEnvironment,
  port,
  readEnvironment,
  sharedEnv,
  variablesOf,
} from "@app/server/config";
import { z } from "zod";

export const ShortenerConfigSchema = z
  .object({
    ...sharedEnv,
    SHORTENER_PORT: port(3000, "Port of the shortener"),
    SHORT_BASE_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .optional()
      .describe("Public origin of short URLs (default http://localhost:<SHORTENER_PORT>)"),
    SHORTENER_API_PREFIX: z
      .string()
      .regex(/^\/[A-Za-z0-9_-]+$/, "must look like /api")
      .default("/api")
      .describe("Path prefix of the bearer-protected API"),
    BODY_LIMIT: z.coerce
      .number({ error: "must be a number of bytes" })
      .int("must be a whole number of bytes, at least 1024")
      .min(1024, "must be a whole number of bytes, at least 1024")
      .default(16_384)
      .describe("Largest request body in bytes"),
    VISIT_IP: z
      .enum(["full", "anonymized", "none"], { error: "must be one of full, anonymized, none" })
      .default("full")
      .describe(
        "What a visit row keeps of the visitor's IP address: full, anonymized (IPv4 /24, IPv6 /48) or none. " +
          "The country and the visitor hash are derived from the full address first, then it is dropped.",
      ),
    VISIT_RETENTION_DAYS: z.coerce
      .number({ error: "must be a whole number of days, at least 1" })
      .int("must be a whole number of days, at least 1")
      .min(1, "must be a whole number of days, at least 1")
      .optional()
      .describe(
        "Raw visits are kept this many days (whole months are dropped once all their days are older); " +
          "the hourly statistics are kept. Unset: keep every visit.",
      ),
    SHORTENER_MANAGE_UI: z
      .enum(["on", "off"], { error: "must be on or off" })
      .default("on")
      .describe(
        "The management UI at /manage (Shlink's web component, signed in with a user's token): on or off. " +
          "Off: /manage answers 404.",
      ),
    SHLINK_CORS_ALLOW_ORIGIN: z
      .string()
      .min(1, "must be *, <origin> or a comma-separated list of origins")
      .default("*")
      .describe(
        "Access-Control-Allow-Origin of Shlink's API under /rest, as Shlink's CORS_ALLOW_ORIGIN: * (any " +
          "origin), <origin> (the request's Origin echoed) or a comma-separated list of origins (echoed " +
          "when listed, else none). Nothing else of the service answers CORS.",
      ),
    SHORTENER_METRICS_PORT: optionalPort(
      "Port of a separate listener serving Prometheus metrics at /metrics (on HOST). Unset: off.",
    ),
  })
  .superRefine(checkDatabaseUrls)
  // Derived once here, so no caller works out the default origin again.
  .transform((env) => ({
    ...env,
    SHORT_BASE_URL: (env.SHORT_BASE_URL ?? `http://localhost:${env.SHORTENER_PORT}`).replace(/\/+$/, ""),
  }));

export type ShortenerConfig = z.output<typeof ShortenerConfigSchema>;

/** The variables the shortener reads. */
export const SHORTENER_VARIABLES = variablesOf(ShortenerConfigSchema.in);

/** Parses the environment once at boot; throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined>): ShortenerConfig {
  return parseEnvironment("shortener", ShortenerConfigSchema, env);
}

/** Defaults only: what tests start from. */
export const defaultConfig = (overrides: Partial<ShortenerConfig> = {}): ShortenerConfig => ({
  ...loadConfig({}),
  ...overrides,
});

export { readEnvironment };
