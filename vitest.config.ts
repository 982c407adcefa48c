import { defineConfig } from "vitest/config";
import LongestFirst from "./test/sequencer.ts";
import { ALL_TESTS, DRILLS, NEEDS_REDIS } from "./test/tiers.ts";

// The tests run the TypeScript sources: workspace packages export them under the "source"
// condition and their compiled dist/ by default (docs/adr/0206). Every environment that loads
// test code gets it: `ssr` runs the test files, `__vitest__` the global setup.
const resolve = {
  conditions: ["source", "module", "node", "development|production"],
  externalConditions: ["source"],
};

// The tier is the mode (docs/adr/0244): `vitest run` (mode "test", `pnpm test`) is the quick
// tier, `--mode drills` the drills of test/tiers.ts, `--mode all` both; `--mode machine` is what
// .ci/run runs on the machine's PostgreSQL and Redis: the drills and the Redis tests.
const TIERS: Record<string, { include: string[]; exclude: string[] }> = {
  test: { include: ALL_TESTS, exclude: Object.keys(DRILLS) },
  drills: { include: Object.keys(DRILLS), exclude: [] },
  machine: { include: [...Object.keys(DRILLS), ...NEEDS_REDIS], exclude: [] },
  all: { include: ALL_TESTS, exclude: [] },
};

export default defineConfig(({ mode }) => {
  const tier = TIERS[mode];
  if (!tier) throw new Error(`unknown test tier "${mode}": --mode test, drills, machine or all`);
  return {
    environments: { ssr: { resolve }, __vitest__: { resolve } },
    test: {
      include: tier.include,
      exclude: ["**/node_modules/**", ...tier.exclude],
      globalSetup: ["test/global-setup.ts"],
      setupFiles: ["test/each-file.ts"],
      // The longest files first, by test/durations.json: a fresh clone has no cache of its own.
      sequence: { sequencer: LongestFirst },
      // A worker runs its files on one module cache: each file no longer imports and evaluates the
      // apps, Prisma and Fastify again (about 2 s a file; docs/adr/0207). Per-file state lives in
      // the files' own hooks; test/each-file.ts resets the suite-wide checks.
      isolate: false,
      // The suite mostly waits on PostgreSQL: three files at once keep both cores of the machines
      // it runs on busy (one at a time, the default on 2 cores, left them half idle: 4 min vs 2.4).
      maxWorkers: 3,
      // Each worker, and each vitest run of .ci/run, transformed the same TypeScript again (35 s
      // of a quick tier's CPU): transformed modules are kept on disk, keyed by their content, and
      // shared by every worker and run (node_modules/.experimental-vitest-cache, gone with a reinstall).
      experimental: { fsModuleCache: true },
      // Outer limits only: a test waits for what it needs (a line, a port, an exit), and a loaded
      // two-core machine may take many times longer than a quiet one to get there.
      testTimeout: 120_000,
      hookTimeout: 180_000,
    },
  };
});
