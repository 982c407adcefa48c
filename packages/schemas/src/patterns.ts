// Rules written as regular expressions, so that one definition both validates a value and
// appears as the `pattern` of the OpenAPI documents: the documents say what the servers do.
// (zod renders `.regex()` as `pattern`; refinements would not show.)
import { fullFormats } from "ajv-formats/dist/formats.js";

/**
 * The decimal spellings of the whole numbers from `min` to `max`, as a regular expression source
 * without anchors: no sign, no leading zeros, nothing outside the bounds. As a `pattern` it
 * states the text a path or query value must be in the OpenAPI documents exactly (ids are also
 * documented as integers with `minimum`/`maximum`, docs/adr/0250).
 */
export function decimalRange(min: number, max: number): string {
  if (!Number.isSafeInteger(max) || max < 1) throw new Error(`decimalRange: bad maximum ${max}`);
  if (!Number.isSafeInteger(min) || min < 0 || min > max) throw new Error(`decimalRange: bad minimum ${min}`);
  if (min > 1) return boundedBelow(min, max);
  const digits = String(max);
  // Fewer digits than max, then max's own length digit by digit: a prefix of max, one digit
  // below max's at that position, anything after.
  const parts = digits.length > 1 ? [`[1-9]${digits.length > 2 ? `\\d{0,${digits.length - 2}}` : ""}`] : [];
  for (let at = 0; at < digits.length; at++) {
    const low = at === 0 ? 1 : 0;
    const high = Number(digits[at]) - 1;
    if (high < low) continue;
    parts.push(`${digits.slice(0, at)}${digitClass(low, high)}${repeatDigit(digits.length - at - 1)}`);
  }
  parts.push(digits);
  if (min === 0) parts.unshift("0");
  return `(?:${parts.join("|")})`;
}

const repeatDigit = (count: number) => (count === 0 ? "" : count === 1 ? "\\d" : `\\d{${count}}`);
const digitClass = (low: number, high: number) => (low === high ? `${low}` : `[${low}-${high}]`);

/** decimalRange for a minimum above 1: each length from min's to max's, bounded at both ends. */
function boundedBelow(min: number, max: number): string {
  const [low, high] = [String(min), String(max)];
  const parts: string[] = [];
  for (let length = low.length; length <= high.length; length++) {
    parts.push(
      ...sameLength(
        length === low.length ? low : `1${"0".repeat(length - 1)}`,
        length === high.length ? high : "9".repeat(length),
      ),
    );
  }
  return `(?:${parts.join("|")})`;
}

/** Alternatives matching the digit strings from `low` to `high`, both of one length. */
function sameLength(low: string, high: string): string[] {
  if (low === high) return [low];
  const [first, last] = [Number(low[0]), Number(high[0])];
  const rest = low.length - 1;
  if (rest === 0) return [digitClass(first, last)];
  const prefixed = (digit: string, alternatives: string[]) => alternatives.map((a) => `${digit}${a}`);
  if (first === last) return prefixed(low[0]!, sameLength(low.slice(1), high.slice(1)));
  const parts: string[] = [];
  // low's first digit with the rest of low or more; high's with the rest of high or less; every
  // first digit between them with anything after.
  const lowIsRound = /^0*$/.test(low.slice(1));
  const highIsRound = /^9*$/.test(high.slice(1));
  if (!lowIsRound) parts.push(...prefixed(low[0]!, sameLength(low.slice(1), "9".repeat(rest))));
  const [from, to] = [lowIsRound ? first : first + 1, highIsRound ? last : last - 1];
  if (from <= to) parts.push(`${digitClass(from, to)}${repeatDigit(rest)}`);
  if (!highIsRound) parts.push(...prefixed(high[0]!, sameLength("0".repeat(rest), high.slice(1))));
  return parts;
}

/** `decimalRange` anchored: the whole value is such a number. */
export const decimalPattern = (min: number, max: number) => new RegExp(`^${decimalRange(min, max)}$`);

/** No U+0000 anywhere: PostgreSQL text and jsonb cannot hold it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused.
export const NO_NUL = /^[^\u0000]*$/;

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
