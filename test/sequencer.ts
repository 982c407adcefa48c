// The order vitest starts test files in (docs/adr/0256). Its own order comes from its cache of
// the last run's durations, which a fresh clone (CI) has not: it then starts files as listed,
// and a drill of minutes listed last became the run's tail while the other workers sat idle
// (the machine tier, 586 s). test/durations.json, the seconds each file took in a measured run
// (`pnpm test:durations <vitest JSON reports>` writes it), puts the longest first, as vitest's
// cache would; a file it does not know yet starts first, as vitest does with unknown files.
import { readFileSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const DURATIONS = path.join(import.meta.dirname, "durations.json");

function durations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = durations();
    const of = (file: TestSpecification) =>
      seconds[path.relative(file.project.config.root, file.moduleId).split(path.sep).join("/")] ??
      Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => of(b) - of(a));
  }
}
