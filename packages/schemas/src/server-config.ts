// Shared by both services: the environment variables they read the same way (each app's
// config.ts spreads them), and how a number in a query string is read.
import { z } from "zod";
import { decimalPattern } from "./patterns.ts";

const milliseconds = (fallback: number, description: string) =>
  z.coerce.number().int().min(100).max(600_000).default(fallback).describe(description);

export const connectionLimitsEnv = {
  REQUEST_TIMEOUT_MS: milliseconds(
    10_000,
    "A request (headers and body) must arrive within this, or it is answered 408 and closed",
  ),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000, "An idle keep-alive connection is closed after this"),
  MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .describe("Connections one service accepts at once; more are refused"),
};

/**
 * A whole number in a query string, written in decimal digits only: `0x10`, `1e2`, ` 5`, `007`
 * and an empty value are refused (400), not coerced into some other number. The bounds are part
 * of the pattern, so the document states them.
 */
export const queryInteger = (min: 0 | 1, max: number) =>
  z
    .string()
    .regex(
      decimalPattern(min, max),
      `must be a whole number from ${min} to ${max}, written in decimal digits (no sign or leading zeros)`,
    )
    .transform(Number);
