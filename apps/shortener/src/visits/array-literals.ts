// PostgreSQL array literals for the visit log's batch statement, built from values whose types
// are known, instead of node-postgres's generic serializer (which escapes every element and
// formats dates in local time): the batch's 33 arrays cost half as much to send this way.

/** `{a,b,c}` of elements that never need quoting: numbers, booleans, UUIDs, ISO dates. */
export function plainArray(values: readonly (string | number | boolean)[]): string {
  return `{${values.join(",")}}`;
}

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/** `{"a","b"}`: each element quoted (an empty or NULL-looking text stays text). */
export function textArray(values: readonly string[]): string {
  let literal = "{";
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    literal += `${i === 0 ? '"' : ',"'}${NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, "\\$&") : value}"`;
  }
  return `${literal}}`;
}

/**
 * Times as UTC ISO 8601 text, which timestamptz reads exactly (to the millisecond). A busy batch's
 * visits share their milliseconds (20 a millisecond at 20,000 a second): each is formatted once.
 */
export function timeArray(values: readonly Date[]): string {
  let literal = "{";
  let last = Number.NaN;
  let text = "";
  for (let i = 0; i < values.length; i++) {
    const time = values[i]!.getTime();
    if (time !== last) {
      last = time;
      text = values[i]!.toISOString();
    }
    literal += (i === 0 ? "" : ",") + text;
  }
  return `${literal}}`;
}

/** textArray's literal with NULL (unquoted) for each undefined element. */
export function nullableTextArray(values: readonly (string | undefined)[]): string {
  let literal = "{";
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ",";
    literal +=
      value === undefined ? "NULL" : `"${NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, "\\$&") : value}"`;
  }
  return `${literal}}`;
}
