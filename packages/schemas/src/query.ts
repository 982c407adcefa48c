// How a number in a query string is read, by both APIs.
import { z } from "zod";
import { decimalPattern } from "./patterns.ts";

/**
 * A whole number in a query string, written in decimal digits only: `0x10`, `1e2`, ` 5`, `007`
 * and an empty value are refused (400), not coerced into some other number. The bounds are part
 * of the pattern, so the document states them.
 */
export const queryInteger = (min: number, max: number) =>
  z
    .string()
    .regex(
      decimalPattern(min, max),
      `must be a whole number from ${min} to ${max}, written in decimal digits (no sign or leading zeros)`,
    )
    .transform(Number);
