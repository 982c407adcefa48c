// docs/configuration.md is what the configuration schemas say (scripts/configuration-doc.ts):
// every variable either service reads, with its default, what it accepts and an example.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SCHEDULING_VARIABLES } from "../apps/scheduling/src/config.ts";
import { SHORTENER_VARIABLES } from "../apps/shortener/src/config.ts";
import { accepted, CONFIGURATION_DOC, renderConfiguration } from "../scripts/configuration-doc.ts";

describe("docs/configuration.md", () => {
  it("is what the schemas say (regenerate: pnpm docs:configuration)", () => {
    expect(readFileSync(CONFIGURATION_DOC, "utf8")).toBe(renderConfiguration());
  });

  it("has a row, with a default or a dash, accepted values and an example, for every variable", () => {
    const text = renderConfiguration();
    for (const name of new Set([...SHORTENER_VARIABLES, ...SCHEDULING_VARIABLES])) {
      const row = text.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).toBeDefined();
      const [, fallback, accepts, example, meaning] = row!.split(" | ");
      expect(fallback, name).toMatch(/^(`.+`|–)$/);
      expect(accepts, name).not.toBe("");
      expect(example, name).toMatch(new RegExp(`^\`${name}=.+\`$`));
      expect(meaning!.length, name).toBeGreaterThan(10);
    }
  });

  it("says in words what a variable accepts, from its checks and their messages", () => {
    expect(accepted(z.enum(["a", "b"]).default("a"))).toBe("one of `a`, `b`");
    expect(accepted(z.coerce.number().int().min(2).max(9))).toBe("a whole number from 2 to 9");
    expect(accepted(z.coerce.number().int().positive())).toBe("a whole number, at least 1");
    expect(accepted(z.string().regex(/^x/, "must be an x-thing").optional())).toBe("an x-thing");
    expect(accepted(z.string().min(1))).toBe("any text, not empty");
  });
});
