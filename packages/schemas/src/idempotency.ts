// The Idempotency-Key request header, as both services take it on operations that create
// (scheduling's POST /bookings, the shortener's POST /shorts and /shorts/bulk): docs/adr/0148, 0161.
import { z } from "zod";

/** How long a request's Idempotency-Key is remembered. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** The request headers of an operation that takes an Idempotency-Key; every other header passes. */
export const IdempotencyHeaders = z.looseObject({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7e]+$/, "must be printable ASCII")
    .optional()
    .describe(
      `Any string of 1 to 255 printable ASCII characters (a UUID, say), unique per request you mean. ` +
        `The same key with the same body within ${IDEMPOTENCY_WINDOW_HOURS} hours answers the first ` +
        "request's answer again (with `Idempotent-Replayed: true`) and does nothing else; with another " +
        "body it is 422. Keys are per user; an answer that was an error is not kept, so a retry after " +
        "one runs again.",
    ),
});
