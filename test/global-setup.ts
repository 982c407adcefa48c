// Builds what the tests start as processes (`pnpm build`, when a source changed), starts (or
// connects to) the test PostgreSQL server once per vitest run and migrates a template database
// that every test file clones (see @app/testing/database).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { migrate, startEmbeddedPostgres } from "@app/db";
import { adminQuery, withDatabase } from "@app/testing/database";
import { fuzzSettings } from "@app/testing/fuzz";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  // The services, CLIs and scripts the tests spawn run compiled, as users run them (ADR 0206).
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { stdio: "inherit" });
  // The only place tests read the environment: it says which servers CI provides.
  // With TEST_DATABASE_DIRECT_URL, TEST_DATABASE_URL is a PgBouncer in front of that server
  // (.ci/run's PgBouncer step): databases are made on the server, apps connect through the pooler.
  const poolerUrl = process.env.TEST_DATABASE_DIRECT_URL ? process.env.TEST_DATABASE_URL : undefined;
  let serverUrl = process.env.TEST_DATABASE_DIRECT_URL || process.env.TEST_DATABASE_URL;
  const embedded = serverUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: path.resolve(".data/test-postgres"), database: "postgres" });
  serverUrl ??= embedded!.url;

  // Unique per run, so two runs against one server do not trip over each other.
  const template = `template_${process.pid}_${Date.now()}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${template}"`);
  await migrate(withDatabase(serverUrl, template));

  project.provide("databaseServerUrl", serverUrl);
  project.provide("databasePoolerUrl", poolerUrl ?? "");
  project.provide("templateDatabase", template);
  project.provide("redisUrl", process.env.TEST_REDIS_URL ?? "");
  project.provide("fuzz", fuzzSettings(process.env));

  return async () => {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await embedded?.stop();
  };
}
