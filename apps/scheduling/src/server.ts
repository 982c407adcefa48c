// The scheduling API as a process: config from the environment, the database (embedded when
// no DATABASE_URL), the app, listen, and an orderly stop (@app/server/service-process).
// Everything else is in app.ts.
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "@app/db";
import { databaseOptions } from "@app/server/config";
import { listenService, runServices } from "@app/server/service-process";
import { buildApp, type SchedulingApp } from "./app.ts";
import { credentialKeyProblem, credentialKeys } from "./calendars/logins.ts";
import { loadConfig, SCHEDULING_VARIABLES, type SchedulingConfig } from "./config.ts";
import { SERVICE } from "./logger.ts";
import { mailSummary } from "./mail/mail.ts";

/**
 * Builds the app with its production logger and starts listening. Used standalone (below)
 * and by the root `pnpm start`. The caller owns `prisma`: close the returned app first.
 */
export async function startScheduling(
  config: SchedulingConfig,
  prisma: PrismaClient,
): Promise<SchedulingApp> {
  // Before listening: a service that cannot open the calendar logins would keep their owners
  // busy for ever (docs/adr/0255).
  const problem = await credentialKeyProblem(prisma, credentialKeys(config));
  if (problem) throw new Error(problem);
  return listenService(await buildApp({ config, prisma, logger: true }), {
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
