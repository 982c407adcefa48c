// Shared by both services: the environment variables they read the same way (each app's
// config.ts spreads them).
import { z } from "zod";

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
