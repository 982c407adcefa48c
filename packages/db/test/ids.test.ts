// Version-7 UUIDs made in the service (ids.ts): valid v7, time-ordered, and a batch ordered by
// position, so rows inserted together list in the order they were sent.
import { describe, expect, it } from "vitest";
import { UUIDV7_BATCH_MAX, uuidv7, uuidv7s } from "../src/ids.ts";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (id: string) => Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);

describe("uuidv7", () => {
  it("is a version-7 UUID holding the current millisecond", () => {
    const before = Date.now();
    const id = uuidv7();
    expect(id).toMatch(V7);
    expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisecondsOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it("makes a batch that sorts in the order returned, each id distinct", () => {
    const ids = uuidv7s(UUIDV7_BATCH_MAX);
    expect(ids.every((id) => V7.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(() => uuidv7s(UUIDV7_BATCH_MAX + 1)).toThrow(RangeError);
  });
});
