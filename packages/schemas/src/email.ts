// The one e-mail address schema of both services: every e-mail field of the scheduling API and
// the CLIs' --email. One definition, so a rule added here holds everywhere at once.
import { z } from "zod";

/** RFC 5321 §4.5.3.1: a local part of at most 64 octets; a path of 256, so 254 between its `<>`. */
export const EMAIL_LIMITS = { local: 64, whole: 254 } as const;

/**
 * zod's e-mail rule, ASCII only (so characters are octets), with RFC 5321's local part of at most
 * 64 (the lookahead) and RFC 1035's domain labels: 1-63 letters, digits and hyphens, neither
 * first nor last (zod's own pattern admits `a@b-.com` and labels of any length, which the
 * document's `format: email` excludes). The whole length is `maxLength`.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

const NOT_AN_ADDRESS =
  `must be an e-mail address such as ann@example.com, of at most ${EMAIL_LIMITS.local} characters ` +
  `before the @ and ${EMAIL_LIMITS.whole} in all (RFC 5321)`;

/** An e-mail address; `message` replaces the explanations (a CLI names its flag). */
export const email = (message?: string) =>
  z
    .email({ pattern: EMAIL_PATTERN, error: message ?? NOT_AN_ADDRESS })
    .max(EMAIL_LIMITS.whole, message ?? `must be at most ${EMAIL_LIMITS.whole} characters (RFC 5321)`);
