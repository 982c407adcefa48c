// decimalPattern states numeric bounds as a pattern: checked here against every spelling of
// the numbers around its bounds, for minimums of 0, 1 and above (the QR code's size, 128-1024).
import { decimalPattern } from "@app/schemas/patterns";
import { describe, expect, it } from "vitest";

const RANGES: [number, number][] = [
  [0, 9],
  [1, 1000],
  [0, 2_147_483_647],
  [2, 9],
  [10, 99],
  [128, 1024],
  [100, 100],
  [37, 4_096],
  [999, 1_001],
  [1_234, 98_765],
];

describe("decimalPattern(min, max)", () => {
  it.each(RANGES)("matches exactly the decimal spellings from %i to %i", (min, max) => {
    const pattern = decimalPattern(min, max);
    const around = (n: number) => Array.from({ length: 41 }, (_, i) => n - 20 + i);
    const numbers = [...around(min), ...around(max), ...around(Math.floor((min + max) / 2))];
    for (let n = 0; n <= Math.min(max + 20, 20_000); n++) numbers.push(n);
    for (const n of numbers.filter((x) => x >= 0)) {
      expect(pattern.test(String(n)), `${n}`).toBe(n >= min && n <= max);
    }
    for (const spelling of ["", "-1", "+5", `0${min}`, `${min}.0`, `${max}0`, " 1", "1e2", "0x10"]) {
      const value = Number(spelling);
      const canonical = String(value) === spelling && value >= min && value <= max;
      expect(pattern.test(spelling), JSON.stringify(spelling)).toBe(canonical);
    }
  });

  it("refuses bounds that are not a range", () => {
    expect(() => decimalPattern(5, 4)).toThrow(/minimum/);
    expect(() => decimalPattern(-1, 4)).toThrow(/minimum/);
    expect(() => decimalPattern(0, 0)).toThrow(/maximum/);
  });
});
