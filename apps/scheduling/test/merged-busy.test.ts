// A host's calendar busy times are merged before the slot engine checks slots against them
// (slots.service.ts mergedBusy): overlapping and touching ones of a calendar become one block,
// and what they block together is exactly what they blocked apart.
import { describe, expect, it } from "vitest";
import { mergedBusy } from "../src/slots/slots.service.ts";

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 7, 9) + minutes * 60_000);
const busy = (calendar: string, from: number, to: number) => ({ start: at(from), end: at(to), calendar });
const spans = (list: ReturnType<typeof mergedBusy>) =>
  list.map((b) => [
    b.calendar,
    (b.start.getTime() - at(0).getTime()) / 60_000,
    (b.end.getTime() - at(0).getTime()) / 60_000,
  ]);

describe("a host's calendar busy times, merged", () => {
  it("joins overlapping, contained and touching intervals of a calendar, in any order; keeps gaps", () => {
    const merged = mergedBusy([
      busy("a", 60, 90),
      busy("a", 0, 30),
      busy("a", 10, 20),
      busy("a", 30, 45),
      busy("a", 89, 120),
      busy("a", 200, 230),
    ]);
    expect(spans(merged)).toEqual([
      ["a", 0, 45],
      ["a", 60, 120],
      ["a", 200, 230],
    ]);
  });

  it("keeps each calendar's own blocks (availability names the calendar a busy time is from)", () => {
    expect(spans(mergedBusy([busy("b", 0, 30), busy("a", 15, 45)]))).toEqual([
      ["a", 15, 45],
      ["b", 0, 30],
    ]);
  });

  it("covers every instant it was given, and no other", () => {
    const given = Array.from({ length: 200 }, (_, i) =>
      busy(i % 2 ? "a" : "b", (i * 37) % 500, ((i * 37) % 500) + 5 + (i % 40)),
    );
    const merged = mergedBusy(given);
    for (let minute = 0; minute < 560; minute++) {
      const instant = at(minute + 0.5).getTime();
      for (const calendar of ["a", "b"]) {
        const inGiven = given.some(
          (b) => b.calendar === calendar && b.start.getTime() <= instant && instant < b.end.getTime(),
        );
        const inMerged = merged.some(
          (b) => b.calendar === calendar && b.start.getTime() <= instant && instant < b.end.getTime(),
        );
        expect(inMerged, `${calendar} at ${minute}`).toBe(inGiven);
      }
    }
  });
});
