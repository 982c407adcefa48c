// Rules written as regular expressions, so that one definition both validates a value and
// appears as the `pattern` of the OpenAPI documents: the documents say what the servers do.
// (zod renders `.regex()` as `pattern`; refinements would not show.)
import { fullFormats } from "ajv-formats/dist/formats.js";

/**
 * The decimal spellings of the whole numbers from `min` (0 or 1) to `max`, as a regular
 * expression source without anchors: no sign, no leading zeros, nothing above `max`. As a
 * `pattern` it states the bounds in the OpenAPI documents exactly, where `minimum`/`maximum`
 * cannot apply (path and query values are strings).
 */
export function decimalRange(min: 0 | 1, max: number): string {
  if (!Number.isSafeInteger(max) || max < 1) throw new Error(`decimalRange: bad maximum ${max}`);
  const digits = String(max);
  const repeat = (count: number) => (count === 0 ? "" : count === 1 ? "\\d" : `\\d{${count}}`);
  // Fewer digits than max, then max's own length digit by digit: a prefix of max, one digit
  // below max's at that position, anything after.
  const parts = digits.length > 1 ? [`[1-9]${digits.length > 2 ? `\\d{0,${digits.length - 2}}` : ""}`] : [];
  for (let at = 0; at < digits.length; at++) {
    const low = at === 0 ? 1 : 0;
    const high = Number(digits[at]) - 1;
    if (high < low) continue;
    parts.push(
      `${digits.slice(0, at)}${low === high ? low : `[${low}-${high}]`}${repeat(digits.length - at - 1)}`,
    );
  }
  parts.push(digits);
  if (min === 0) parts.unshift("0");
  return `(?:${parts.join("|")})`;
}

/** `decimalRange` anchored: the whole value is such a number. */
export const decimalPattern = (min: 0 | 1, max: number) => new RegExp(`^${decimalRange(min, max)}$`);

/** No U+0000 anywhere: PostgreSQL text and jsonb cannot hold it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused.
export const NO_NUL = /^[^\u0000]*$/;

/** Not empty, not only blanks (what String.prototype.trim removes is exactly `\s`), no NUL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused.
export const NOT_BLANK = /^[^\u0000]*[^\s\u0000][^\u0000]*$/;

/**
 * An http(s) URL as written: the scheme (any case) and `//`, then no space, control character
 * or DEL. The URL parser checks the rest (a host, valid syntax); this is what the pattern can say.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
export const HTTP_URL = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\u0000-\u0020\u007f]+$/;

/**
 * Whether a value is a URI by the very check a client of the documents applies to `format: uri`
 * (ajv-formats' full RFC 3986 one): ASCII only, every character where the grammar allows it.
 * The URL parser alone is more lenient (it would turn `HtTPs://;S}êwr` into a punycode host).
 */
const uriFormat = fullFormats.uri as (value: string) => boolean;
export const isUri = (value: string): boolean => uriFormat(value);
