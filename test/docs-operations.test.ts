// docs/operations.md runs as written (test/docs-runner.ts): its hosted-mode tour, against both
// services started in hosted mode on a PostgreSQL server of the test's own, since the tour
// creates a database by name (`acme`), which another run on the shared server could be making.
import { randomBytes } from "node:crypto";
import { migrate } from "@app/db";
import { postgresBinaries, startPostgres } from "@app/testing/postgres-servers";
import { afterAll, expect, it } from "vitest";
import { runDocument, type Services, startServices } from "./docs-runner.ts";

const missing = postgresBinaries() ? undefined : "PostgreSQL server binaries (apt-get install postgresql)";
if (missing) console.warn(`test/docs-operations.test.ts skipped: needs ${missing}`);

let services: Services | undefined;
let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
afterAll(async () => {
  await services?.close();
  await server?.stop();
}, 60_000);

it.skipIf(missing)(
  "runs as written, in hosted mode",
  async () => {
    server = await startPostgres();
    await migrate(server.url);
    const tenantSecret = randomBytes(32).toString("base64");
    services = await startServices({
      db: { url: server.url, directUrl: server.url, drop: async () => {} },
      schedulingEnv: { HOSTED_MODE: "on", TENANT_SECRET: tenantSecret },
      env: { TENANT_SECRET: tenantSecret },
      // Where the embedded server keeps its port, as the tour reads it: this server's.
      files: { ".data/postgres.port": `${server.port}\n` },
    });
    expect(await runDocument("docs/operations.md", services)).toBeGreaterThan(8);
  },
  // A bound for a hang, not a timing: 18 s alone, past 180 s with a second CI run on the machine.
  300_000,
);
