// The docs-that-run machinery itself (test/docs-runner.ts): how a markdown file's sh blocks
// are read, and that every document with a block that runs has its own test file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksAsShown, repoRoot, shellBlocks } from "./docs-runner.ts";

/** Each document with blocks that run, and the test file that runs it. */
const RUN_BY: Record<string, string> = {
  "README.md": "test/docs-readme.test.ts",
  "docs/shortener.md": "test/docs-shortener.test.ts",
  "docs/scheduling.md": "test/docs-scheduling.test.ts",
  "docs/operations.md": "test/docs-operations.test.ts",
};

const documents = [
  "README.md",
  ...readdirSync(path.join(repoRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

describe("the docs", () => {
  it.each(documents)(
    "%s: its blocks that run are run by a test of its own; the others say why not",
    (file) => {
      const blocks = shellBlocks(readFileSync(path.join(repoRoot, file), "utf8"));
      const running = blocks.filter((block) => block.notRun === undefined);
      if (running.length > 0) {
        expect(
          RUN_BY[file],
          `${file} has blocks that run (line ${running[0]!.line}) but no test runs it`,
        ).toBeDefined();
        expect(readFileSync(path.join(repoRoot, RUN_BY[file]!), "utf8")).toContain(`"${file}"`);
      } else {
        expect(RUN_BY[file], `${file} has no block that runs`).toBeUndefined();
      }
      for (const block of blocks)
        if (block.notRun !== undefined) expect(block.notRun.length).toBeGreaterThan(5);
    },
  );

  it.each(documents)("%s: every relative link reaches a file, and its #anchor a heading there", (file) => {
    const text = readFileSync(path.join(repoRoot, file), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [where, anchor] = target!.split("#");
      const linked = where
        ? path.join(path.dirname(path.join(repoRoot, file)), where)
        : path.join(repoRoot, file);
      expect(existsSync(linked), `${file} links ${target}`).toBe(true);
      if (anchor && linked.endsWith(".md")) {
        // GitHub's anchors: the heading in lower case, punctuation dropped, spaces as dashes.
        const anchors = [...readFileSync(linked, "utf8").matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
          heading!
            .toLowerCase()
            .replace(/[^\p{L}\p{N} _-]/gu, "")
            .replace(/ /g, "-"),
        );
        expect(anchors, `${file} links ${target}`).toContain(anchor);
      }
    }
  });
});

describe("what the documents promise", () => {
  const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

  it("README's Start names docker compose (DESIGN §2), in a block marked not run, with a link to operations", () => {
    const start = read("README.md")
      .split(/^## /m)
      .find((part) => part.startsWith("Start"))!;
    const compose = shellBlocks(start).find((block) =>
      block.steps.some((step) => step.command.startsWith("docker compose up")),
    );
    expect(compose, "no block with docker compose up under ## Start").toBeDefined();
    expect(compose!.notRun).toMatch(/Docker/);
    expect(start).toContain("](docs/operations.md#docker-compose)");
  });

  it("scheduling.md's table of differences from v1 points to the e-mails and the calendar feed it documents", () => {
    const table = read("docs/scheduling.md").split("**Different, on purpose**")[1]!.split("\n\n")[1]!;
    expect(table).not.toMatch(/e-mails[^\n]*not involved/);
    expect(table).toContain("](#booking-e-mails)");
    expect(table).toContain("](#calendar-feed)");
  });
});

describe("shellBlocks", () => {
  it("splits a block into commands (continued lines, open quotes) and what each prints", () => {
    const [block, skipped] = shellBlocks(
      [
        "```sh",
        "# prose before a command",
        "A=$(curl -s \\",
        "  http://x)",
        "echo '{",
        '  "a": 1}\'',
        "# {",
        '#   "a": 1}',
        "",
        "# prose after a blank line",
        "true   # an inline note",
        "```",
        "<!-- not run: needs a thing -->",
        "```sh",
        "false",
        "```",
      ].join("\n"),
    );
    expect(block!.steps).toEqual([
      { line: 3, command: "A=$(curl -s \\\n  http://x)", expected: [] },
      { line: 5, command: "echo '{\n  \"a\": 1}'", expected: ["{", '  "a": 1}'] },
      { line: 11, command: "true   # an inline note", expected: [] },
    ]);
    expect(skipped!.notRun).toBe("needs a thing");
  });

  it("reads … as any text", () => {
    expect(looksAsShown('{"id":"…","n":1}', '{"id":"abc","n":1}')).toBe(true);
    expect(looksAsShown('{"id":"…","n":1}', '{"id":"abc","n":2}')).toBe(false);
    expect(looksAsShown("a…", "a\nb")).toBe(true);
  });
});
