// The tiers of test/tiers.ts stay true as files come and go: every listed file exists, and a
// quick-tier file that reads Redis is run again where Redis is (docs/adr/0244).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./docs-runner.ts";
import { DRILLS, NEEDS_REDIS } from "./tiers.ts";

/** The test files of ALL_TESTS' folders: apps/*\/test, packages/*\/test and test, at any depth. */
const files = ["apps", "packages"]
  .flatMap((top) => readdirSync(path.join(repoRoot, top)).map((name) => `${top}/${name}/test`))
  .concat("test")
  .filter((folder) => existsSync(path.join(repoRoot, folder)))
  .flatMap((folder) =>
    readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".test.ts") && !name.includes("node_modules"))
      .map((name) => `${folder}/${name}`),
  )
  .sort();

describe("the test tiers", () => {
  it("name only test files that exist", () => {
    for (const file of [...Object.keys(DRILLS), ...NEEDS_REDIS]) {
      expect(existsSync(path.join(repoRoot, file)), file).toBe(true);
      expect(files, file).toContain(file);
    }
  });

  it("know how long each file takes (test/durations.json orders the run, ADR 0256), and name no file that is gone", () => {
    const durations = JSON.parse(readFileSync(path.join(repoRoot, "test/durations.json"), "utf8"));
    for (const file of Object.keys(durations)) expect(files, file).toContain(file);
    // A file it does not know starts first: fine for a new one, not for a drill of minutes.
    for (const file of Object.keys(DRILLS)) expect(durations, file).toHaveProperty([file]);
  });

  it("run every quick-tier file that needs Redis again with Redis, and no drill twice", () => {
    const asksForRedis = ["inject(", '"redisUrl")'].join(""); // not written whole: this file would match
    const readsRedis = files.filter((file) =>
      readFileSync(path.join(repoRoot, file), "utf8").includes(asksForRedis),
    );
    const quick = readsRedis.filter((file) => !(file in DRILLS));
    expect(quick.sort()).toEqual([...NEEDS_REDIS].sort());
    for (const file of NEEDS_REDIS) expect(DRILLS, file).not.toHaveProperty(file);
  });
});
