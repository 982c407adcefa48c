// Connected calendars as a plugin of the app (docs/adr/0247, 0254, 0255): the busy-time settings the
// slot routes read, and this instance's calendar sync. Registered after the hosting plugin. The
// process checks that CREDENTIALS_KEY opens every stored login before it listens (server.ts,
// credentialKeyProblem). In hosted mode, the tenants' calendars are synchronised and written by
// visits to the registered tenants (docs/adr/0259, tenant-calendars.ts).
import { NotificationListener } from "@app/db";
import { Counter } from "@app/server/metrics";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { SchedulingConfig } from "../config.ts";
import { databaseUrlKey } from "../hosting/secrets.ts";
import { type CredentialKeys, credentialKeys } from "./logins.ts";
import { CalendarSync } from "./sync.ts";
import { TenantCalendars } from "./tenant-calendars.ts";
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
  /** Hosted mode: the tenants' syncs and writes (docs/adr/0259); null otherwise. */
  tenants: TenantCalendars | null;
}

/** The requests that may write calendar writes: a booking's create, change, cancel. */
const BOOKING_WRITE = /^\/api\/v1\/bookings(\/|$)/;
const writesBookings = (request: FastifyRequest): boolean =>
  request.method !== "GET" && request.method !== "HEAD" && BOOKING_WRITE.test(request.routeOptions.url ?? "");

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
  const { hosting } = app;
  const tenants =
    hosting && config.TENANT_SECRET !== undefined
      ? new TenantCalendars({
          prisma: app.prisma,
          clients: hosting.clients,
          urlKey: databaseUrlKey(config.TENANT_SECRET),
          sync: {
            intervalMs: config.CALENDAR_SYNC_INTERVAL_MS,
            timeoutMs: config.CALENDAR_TIMEOUT_MS,
            horizonDays: config.CALENDAR_HORIZON_DAYS,
            keys,
          },
          keys,
          timeoutMs: config.CALENDAR_TIMEOUT_MS,
          maxAttempts: config.CALENDAR_WRITE_MAX_ATTEMPTS,
          retryBaseMs: config.CALENDAR_WRITE_RETRY_BASE_MS,
          log: app.log,
          counters: { failed: (kind) => failures.inc({ kind }), synced: () => syncs.inc() },
        })
      : null;
  const state: Calendars = { staleMs: config.CALENDAR_STALE_MS, keys, sync, writer, tenants };
  app.decorate("calendars", state);
  if (tenants) {
    // A registered tenant's booking write: marked before (the mark survives this instance), its
    // calendar writes made once it is answered.
    app.addHook("preHandler", async (request) => {
      if (request.tenantId !== null && writesBookings(request)) await tenants.mark(request.tenantId);
    });
    app.addHook("onResponse", async (request, reply) => {
      if (request.tenantId !== null && reply.statusCode < 400 && writesBookings(request))
        tenants.due(request.tenantId);
    });
  }
  app.addHook("onReady", async () => {
    sync.start();
    tenants?.start();
    if (!keys) return;
    writer.start();
    await listener.start();
  });
  app.addHook("onClose", async () => {
    await listener.stop();
    await writer.stop();
    await tenants?.stop();
    await sync.stop();
  });
}

export default fp(calendars, { name: "calendars", dependencies: ["hosting"] });
