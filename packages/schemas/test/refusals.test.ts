// The fixed form a document declares its refusals in (docs/adr/0214): what withRefusals writes,
// refusalsOf reads back, and isDeclaredRefusal tells a declared refusal from any other answer.
import { describe, expect, it } from "vitest";
import { type DeclaredRefusal, isDeclaredRefusal, refusalsOf, withRefusals } from "../src/refusals.ts";

const refusals: DeclaredRefusal[] = [
  {
    status: 400,
    answer: "validUntil must be later than validFrom",
    rule: "the window starts before it ends",
  },
  { status: 400, answer: "the range holds more than 1000 … buckets", rule: "at most 1000 buckets" },
  { status: 422, answer: 'a "quoted" text', rule: "quotes inside the answer" },
];

describe("declared refusals", () => {
  it("are written after the description and read back as they were", () => {
    const text = withRefusals("Creates a short.", refusals);
    expect(text).toBe(
      [
        "Creates a short.",
        "",
        "Refused beyond the schema:",
        '- 400 "validUntil must be later than validFrom": the window starts before it ends',
        '- 400 "the range holds more than 1000 … buckets": at most 1000 buckets',
        '- 422 "a "quoted" text": quotes inside the answer',
      ].join("\n"),
    );
    expect(refusalsOf(text)).toEqual(refusals);
    expect(refusalsOf(withRefusals("", refusals))).toEqual(refusals);
  });

  it("leave a description without refusals as it is, and read none from it", () => {
    expect(withRefusals("Creates a short.", [])).toBe("Creates a short.");
    expect(refusalsOf("Creates a short.")).toEqual([]);
    expect(refusalsOf(undefined)).toEqual([]);
  });

  it("refuse a refusal that does not fit on one line", () => {
    expect(() => withRefusals("", [{ status: 400, answer: "a\nb", rule: "r" }])).toThrow(/one line/);
  });

  it("match an answer by status and by a message holding the text, … for any text", () => {
    const [window, buckets] = refusals as [DeclaredRefusal, DeclaredRefusal];
    const answer = (statusCode: number, error: string) => ({
      statusCode,
      body: JSON.stringify({ status: "Bad Request", error }),
    });
    expect(
      isDeclaredRefusal(window, answer(400, "Invalid body: validUntil must be later than validFrom")),
    ).toBe(true);
    expect(isDeclaredRefusal(window, answer(409, "validUntil must be later than validFrom"))).toBe(false);
    expect(isDeclaredRefusal(window, answer(400, "validUntil must be later"))).toBe(false);
    expect(isDeclaredRefusal(buckets, answer(400, "the range holds more than 1000 hour buckets"))).toBe(true);
    expect(isDeclaredRefusal(buckets, answer(400, "the range holds more than 999 hour buckets"))).toBe(false);
    // A message with characters JSON escapes, and a plain-text body.
    expect(
      isDeclaredRefusal(window, { statusCode: 400, body: "validUntil must be later than validFrom" }),
    ).toBe(true);
  });
});
