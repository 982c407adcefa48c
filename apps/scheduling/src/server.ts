// The scheduling API as a process: config from the environment, the database (embedded when
// no DATABASE_URL), the app, listen, and an orderly stop (@app/server/service-process).
// Everything else is in app.ts.
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { listenService, runServices } from "@app/server/service-process";
import { buildApp, type SchedulingApp } from "./app.ts";
import { credentialKeyProblem, credentialKeys } from "./calendars/logins.ts";
import { tenantCredentialKeyProblem } from "./calendars/tenant-calendars.ts";
import { loadConfig, SCHEDULING_VARIABLES, type SchedulingConfig } from "./config.ts";
import { databaseUrlKey } from "./hosting/secrets.ts";
import { SERVICE } from "./logger.ts";
import { mailSummary } from "./mail/mail.ts";

/**
 * Why the service cannot start with its CREDENTIALS_KEY, or null: a stored login of the default
 * database, or of a registered tenant's database in hosted mode, that the key does not open.
 */
export async function startupKeyProblem(
  config: SchedulingConfig,
  prisma: PrismaClient,
  warn: (obj: object, msg: string) => void = () => {},
): Promise<string | null> {
  const keys = credentialKeys(config);
  const problem = await credentialKeyProblem(prisma, keys);
  if (problem || config.HOSTED_MODE === "off" || config.TENANT_SECRET === undefined) return problem;
  return tenantCredentialKeyProblem(prisma, databaseUrlKey(config.TENANT_SECRET), keys, (tenant, err) =>
    warn(
      { err, tenant },
      "calendars: a tenant's calendar logins could not be checked (its database is not reachable)",
    ),
  );
}

/**
 * Builds the app with its production logger and starts listening. Used standalone (below)
 * and by the root `pnpm start`. The caller owns `prisma`: close the returned app first.
 */
export async function startScheduling(
  config: SchedulingConfig,
  prisma: PrismaClient,
): Promise<SchedulingApp> {
  // Before listening: a service that cannot open the calendar logins would keep their owners
  // busy for ever (docs/adr/0255); in hosted mode, the registered tenants' logins too (0260).
  const unchecked: [object, string][] = [];
  const problem = await startupKeyProblem(config, prisma, (obj, msg) => unchecked.push([obj, msg]));
  if (problem) throw new Error(problem);
  const app = await buildApp({ config, prisma, logger: true });
  for (const [obj, msg] of unchecked) app.log.warn(obj, msg);
  return listenService(app, {
    service: SERVICE,
    host: config.HOST,
    port: config.SCHEDULING_PORT,
    metricsPort: config.SCHEDULING_METRICS_PORT,
    detail: mailSummary(config),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runServices((environment) => {
    const config = loadConfig(environment);
    return {
      variables: SCHEDULING_VARIABLES,
      database: databaseOptions(config),
      stopWaitMs: config.STOP_WAIT_MS,
      services: [(prisma) => startScheduling(config, prisma)],
    };
  });
}
