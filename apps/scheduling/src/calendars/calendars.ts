// Connected calendars as a plugin of the app (docs/adr/0247, 0254, 0255): the busy-time settings the
// slot routes read, and this instance's calendar sync. Registered after the hosting plugin. The
// process checks that CREDENTIALS_KEY opens every stored login before it listens (server.ts,
// credentialKeyProblem).
import { Counter } from "@app/server/metrics";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { SchedulingConfig } from "../config.ts";
import { type CredentialKeys, credentialKeys } from "./logins.ts";
import { CalendarSync } from "./sync.ts";

export interface Calendars {
  /** CALENDAR_STALE_MS: how old a calendar's copy may be before its owner is busy. */
  staleMs: number;
  /** The keys that open connected accounts' logins; undefined without CREDENTIALS_KEY. */
  keys: CredentialKeys | undefined;
  /** This instance's sync of the default database's calendars. */
  sync: CalendarSync;
}

async function calendars(app: FastifyInstance, { config }: { config: SchedulingConfig }) {
  const keys = credentialKeys(config);
  const failures = new Counter({
    name: "scheduling_calendar_sync_failures_total",
    help: "Calendar syncs that failed, by kind (unauthorized, forbidden, timeout, network, http, malformed...)",
    labelNames: ["kind"],
    registers: [app.metrics],
  });
  const syncs = new Counter({
    name: "scheduling_calendar_syncs_total",
    help: "Calendar syncs that succeeded",
    registers: [app.metrics],
  });
  const sync = new CalendarSync(
    app.prisma,
    {
      intervalMs: config.CALENDAR_SYNC_INTERVAL_MS,
      timeoutMs: config.CALENDAR_TIMEOUT_MS,
      horizonDays: config.CALENDAR_HORIZON_DAYS,
      keys,
    },
    app.log,
    { failed: (kind) => failures.inc({ kind }), synced: () => syncs.inc() },
  );
  const state: Calendars = { staleMs: config.CALENDAR_STALE_MS, keys, sync };
  app.decorate("calendars", state);
  app.addHook("onReady", () => sync.start());
  app.addHook("onClose", () => sync.stop());
}

export default fp(calendars, { name: "calendars", dependencies: ["hosting"] });
