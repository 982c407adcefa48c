// The one e-mail schema of both services against RFC 5321's lengths (64 octets before the @, a
// domain label of 63, 254 in all) and the domain rules the document's `format: email` applies;
// its pattern, which the documents show, says the same as the schema.
import { EMAIL_PATTERN, email } from "@app/schemas/email";
import { describe, expect, it } from "vitest";

const label = (n: number, c = "d") => c.repeat(n);

const CASES: [string, boolean][] = [
  ["ann@example.com", true],
  ["first.last+tag@sub-domain.example.co", true],
  [`${label(64, "a")}@example.com`, true],
  [`${label(65, "a")}@example.com`, false],
  [`${label(136, "a")}@example.com`, false],
  [`a@${label(63)}.com`, true],
  [`a@${label(64)}.com`, false],
  [`${label(64, "a")}@${label(63, "b")}.${label(63, "c")}.${label(57)}.com`, true], // 254
  [`${label(64, "a")}@${label(63, "b")}.${label(63, "c")}.${label(58)}.com`, false], // 255
  ["a@b-.com", false],
  ["a@-b.com", false],
  ["a@b.c", false],
  ["a@@b.com", false],
  ["@example.com", false],
  ["a.@example.com", false],
];

describe("email()", () => {
  it.each(CASES)("%s: %s", (address, taken) => {
    expect(email().safeParse(address).success).toBe(taken);
  });

  it("has a pattern that admits exactly what it does, but for the whole length (maxLength)", () => {
    for (const [address, taken] of CASES) {
      expect(EMAIL_PATTERN.test(address) && address.length <= 254, address).toBe(taken);
    }
  });

  it("says why it refuses an address past RFC 5321's lengths", () => {
    const refused = email().safeParse(`${label(65, "a")}@example.com`);
    expect(refused.error?.issues[0]?.message).toMatch(/64 characters before the @/);
  });
});
