import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["apps/*/test/**/*.test.ts", "packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // The suite mostly waits on PostgreSQL: three files at once keep both cores of the machines
    // it runs on busy (one at a time, the default on 2 cores, left them half idle: 4 min vs 2.4).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
