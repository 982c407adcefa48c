// Connected calendars as a plugin of the app (docs/adr/0247, 0254, 0255): the busy-time settings the
// slot routes read, and this instance's calendar sync. Registered after the hosting plugin. The
// process checks that CREDENTIALS_KEY opens every stored login before it listens (server.ts,
// credentialKeyProblem).
import { NotificationListener } from "@app/db";
import { Counter } from "@app/server/metrics";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { SchedulingConfig } from "../config.ts";
import { type CredentialKeys, credentialKeys } from "./logins.ts";
import { CalendarSync } from "./sync.ts";
import { CALENDAR_WRITES_CHANNEL, CalendarWriter } from "./writes.ts";

export interface Calendars {
  /** CALENDAR_STALE_MS: how old a calendar's copy may be before its owner is busy. */
  staleMs: number;
  /** The keys that open connected accounts' logins; undefined without CREDENTIALS_KEY. */
  keys: CredentialKeys | undefined;
  /** This instance's sync of the default database's calendars. */
  sync: CalendarSync;
  /** This instance's writer of bookings into their destination calendars. */
  writer: CalendarWriter;
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
  const writer = new CalendarWriter({
    prisma: app.prisma,
    keys,
    timeoutMs: config.CALENDAR_TIMEOUT_MS,
    maxAttempts: config.CALENDAR_WRITE_MAX_ATTEMPTS,
    retryBaseMs: config.CALENDAR_WRITE_RETRY_BASE_MS,
    pollMs: Math.min(config.CALENDAR_SYNC_INTERVAL_MS, 10_000),
    log: app.log,
  });
  // A committed write wakes every instance's writer (the outbox's NOTIFY); the poll finds retries.
  const listener = new NotificationListener(app.prisma, {
    channel: CALENDAR_WRITES_CHANNEL,
    onNotification: () => writer.poke(),
    onListening: () => writer.poke(),
    onOutage: (err) => app.log.warn({ err }, "calendars: not listening for new writes; polling"),
    onRecovery: () => app.log.info({}, "calendars: listening for new writes again"),
  });
  const state: Calendars = { staleMs: config.CALENDAR_STALE_MS, keys, sync, writer };
  app.decorate("calendars", state);
  app.addHook("onReady", async () => {
    sync.start();
    if (!keys) return;
    writer.start();
    await listener.start();
  });
  app.addHook("onClose", async () => {
    await listener.stop();
    await writer.stop();
    await sync.stop();
  });
}

export default fp(calendars, { name: "calendars", dependencies: ["hosting"] });
