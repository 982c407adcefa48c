// `pnpm test:durations <report.json>…`: writes test/durations.json, the seconds each test file
// took, from vitest JSON reports (.ci/run leaves one per run at the checkout's root: .vitest-*.json). test/sequencer.ts
// starts the longest first (docs/adr/0256). A file in several reports keeps its longest time.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = path.join(root, "test/durations.json");
const reports = process.argv.slice(2);
if (reports.length === 0 || reports.includes("--help")) {
  console.log("usage: pnpm test:durations <vitest JSON report>… (writes test/durations.json)");
  process.exit(reports.length === 0 ? 2 : 0);
}

const seconds: Record<string, number> = JSON.parse(readFileSync(target, "utf8"));
const measured = new Map<string, number>();
for (const report of reports) {
  const { testResults } = JSON.parse(readFileSync(report, "utf8")) as {
    testResults: { name: string; startTime: number; endTime: number }[];
  };
  for (const file of testResults) {
    // Named from the checkout that ran them: the report's folder (.ci/run writes them at its root).
    const name = path
      .relative(path.dirname(path.resolve(report)), file.name)
      .split(path.sep)
      .join("/");
    const took = Math.round((file.endTime - file.startTime) / 100) / 10;
    measured.set(name, Math.max(measured.get(name) ?? 0, took));
  }
}
for (const [name, took] of measured) seconds[name] = took;
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${measured.size} files measured, ${Object.keys(sorted).length} in all`);
