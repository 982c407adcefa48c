// The suite's two tiers (docs/adr/0244, docs/development.md "Tiers"). `pnpm test` runs the quick
// tier: every test that drives the apps in process against the test database. The drills tier
// is what costs minutes rather than seconds: real processes, clusters, a browser, the docs
// replayed command by command, deep fuzzing and volume; `pnpm test:drills` runs it and `.ci/run`
// runs it in its own step. A file is in the quick tier unless it is listed here, with why.

export const DRILLS: Record<string, string> = {
  // Real processes and clusters.
  "test/scale.test.ts": "instances of both services behind HAProxy",
  "test/scale-restart.test.ts": "rolling restarts of instances behind HAProxy under load",
  "test/upgrade.test.ts": "a rolling upgrade from the previous release behind HAProxy",
  "test/backup-restore.test.ts": "pg_dump, pgBackRest and restores on servers of its own",
  "test/read-replica.test.ts": "a primary and a streaming replica of its own",
  "test/pgbouncer.test.ts": "a PgBouncer of its own",
  "test/ha-failover.test.ts": "a three-node Patroni cluster under the services, its leader killed",
  "test/start.test.ts": "pnpm start as a process, on the embedded PostgreSQL",
  "test/start-failures.test.ts": "pnpm start as a process, failing to start",
  "test/slow-clients.test.ts": "both services listening, held by slow sockets until they time out",
  "test/sdk-install.test.ts": "both SDKs packed and installed into a project of its own",
  "packages/db/test/embedded.test.ts": "embedded PostgreSQL clusters of its own",
  "apps/shortener/test/shutdown.test.ts": "the shortener as a process, stopped under load",
  "apps/shortener/test/durability.test.ts": "the shortener as a process, its pool killed mid-burst",
  "apps/scheduling/test/mail-crash.test.ts": "the scheduling service as a process, killed mid-send",
  // A browser.
  "test/api-reference.browser.test.ts": "headless Chromium",
  "test/link-password.browser.test.ts": "headless Chromium",
  "test/stats-page.browser.test.ts": "headless Chromium",
  "test/manage-ui.browser.test.ts": "headless Chromium",
  // The docs, every command as a reader runs it (each a process).
  "test/docs-readme.test.ts": "README.md replayed command by command",
  "test/docs-shortener.test.ts": "docs/shortener.md replayed command by command",
  "test/docs-scheduling.test.ts": "docs/scheduling.md replayed command by command",
  "test/docs-operations.test.ts": "docs/operations.md replayed command by command",
  "test/docs-sdks.test.ts": "docs/sdks.md's programs compiled and run",
  // Deep fuzzing and volume.
  "apps/shortener/test/fuzz-admitted.test.ts": "60 generated requests per operation",
  "apps/shortener/test/fuzz-refused.test.ts": "60 generated requests per operation",
  "apps/scheduling/test/fuzz-admitted.test.ts": "60 generated requests per operation",
  "apps/scheduling/test/fuzz-refused.test.ts": "60 generated requests per operation",
  "apps/shortener/test/logs-export.test.ts": "1,000,000 visits exported",
  "apps/shortener/test/visit-partition-migration.test.ts": "1,000,000 visits partitioned under load",
  "apps/scheduling/test/time-zones.test.ts": "every offset change of nine zones since 1900",
};

/**
 * Quick-tier files with tests that need Redis (`TEST_REDIS_URL`): without it (`pnpm test`, nothing
 * set) those tests are skipped, so `.ci/run` runs these files again with the drills, on the
 * machine's PostgreSQL and Redis (mode "machine").
 */
export const NEEDS_REDIS = [
  "apps/scheduling/test/rate-limit.test.ts",
  "apps/scheduling/test/operations.test.ts",
  "apps/shortener/test/link-passwords.test.ts",
];

/** Every test file, of either tier. */
export const ALL_TESTS = ["apps/*/test/**/*.test.ts", "packages/*/test/**/*.test.ts", "test/**/*.test.ts"];
