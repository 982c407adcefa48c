import { existsSync } from "node:fs";
import { connectionLimitsEnv } from "@app/server/config";
import { z } from "zod";

const boolean = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");

export const ShortenerConfigSchema = z
  .object({
    SHORTENER_PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe("Port of the shortener"),
    HOST: z.string().min(1).default("127.0.0.1").describe("Interface to listen on (0.0.0.0 in containers)"),
    DATABASE_URL: z
      .url()
      .optional()
      .describe("PostgreSQL URL; unset starts an embedded PostgreSQL with its data under DATA_DIR"),
    DATA_DIR: z.string().min(1).default(".data").describe("Where the embedded PostgreSQL keeps its data"),
    SHORT_BASE_URL: z
      .url()
      .optional()
      .describe("Public origin of short URLs (default http://localhost:<SHORTENER_PORT>)"),
    SHORTENER_API_PREFIX: z
      .string()
      .regex(/^\/[A-Za-z0-9_-]+$/, "must look like /api")
      .default("/api")
      .describe("Path prefix of the bearer-protected API"),
    TRUST_PROXY: z
      .string()
      .default("false")
      .describe("Fastify trustProxy: false, true, a hop count, or comma-separated addresses/CIDRs"),
    BODY_LIMIT: z.coerce.number().int().min(1024).default(16_384).describe("Largest request body in bytes"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ...connectionLimitsEnv,
    SHORTENER_METRICS_PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe("Port of a separate listener serving Prometheus metrics at /metrics (on HOST). Unset: off."),
  })
  .transform((env) => ({
    port: env.SHORTENER_PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    shortBaseUrl: (env.SHORT_BASE_URL ?? `http://localhost:${env.SHORTENER_PORT}`).replace(/\/+$/, ""),
    apiPrefix: env.SHORTENER_API_PREFIX,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    bodyLimit: env.BODY_LIMIT,
    logLevel: env.LOG_LEVEL,
    metricsPort: env.SHORTENER_METRICS_PORT,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: env.MAX_CONNECTIONS,
  }));

export type ShortenerConfig = z.output<typeof ShortenerConfigSchema>;

type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

function parseTrustProxy(value: string): TrustProxy {
  const parsed = boolean.safeParse(value);
  if (parsed.success) return parsed.data;
  if (/^\d+$/.test(value)) {
    // Trust that many proxy hops in front of the service.
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(",").map((s) => s.trim());
}

/** Parses the environment once at boot; throws a readable error naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined>): ShortenerConfig {
  const result = ShortenerConfigSchema.safeParse(
    // An empty variable means "unset", as in most .env tooling.
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")),
  );
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid shortener configuration: ${problems.join("; ")}`);
  }
  return result.data;
}

/** Defaults only: what tests start from. */
export const defaultConfig = (overrides: Partial<ShortenerConfig> = {}): ShortenerConfig => ({
  ...loadConfig({}),
  ...overrides,
});

/** The process environment over `.env` in the working directory, if any: real variables win. */
export function readEnvironment(): NodeJS.ProcessEnv {
  if (existsSync(".env")) process.loadEnvFile(".env");
  return process.env;
}
