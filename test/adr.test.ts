// Decision records (docs/adr): one decision per file, each with its number, title, status,
// area, context, decision and consequences, and every file listed in the index.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const dir = new URL("../docs/adr/", import.meta.url);
const files = readdirSync(dir)
  .filter((name) => /^\d{4}-.+\.md$/.test(name))
  .sort();
const index = readFileSync(new URL("README.md", dir), "utf8");

describe("decision records", () => {
  it("are numbered 0001, 0002, … without gaps or repeats", () => {
    expect(files.map((name) => name.slice(0, 4))).toEqual(
      files.map((_, i) => String(i + 1).padStart(4, "0")),
    );
  });

  it.each(files)("%s has a title, status, area, context, decision and consequences", (name) => {
    const text = readFileSync(new URL(name, dir), "utf8");
    expect(text).toMatch(new RegExp(`^# ${name.slice(0, 4)}\\. \\S`));
    expect(text).toMatch(/^- Status: (proposed|accepted|rejected|superseded by \d{4})$/m);
    expect(text).toMatch(/^- Area: \S/m);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(sections).toEqual(["Context", "Decision", "Consequences"]);
    for (const part of text.split(/^## .+$/m).slice(1)) expect(part.trim().length).toBeGreaterThan(20);
    const superseding = text.match(/superseded by (\d{4})/)?.[1];
    if (superseding) expect(files.some((file) => file.startsWith(superseding))).toBe(true);
  });

  it("are each listed in the index, which links nothing else", () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect([...linked].sort()).toEqual(files);
    expect(new Set(linked).size).toBe(linked.length);
  });
});
