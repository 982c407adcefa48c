// Booking e-mails as a plugin of the app (docs/adr/0222): with SMTP_URL, this instance's
// sender starts with the app and finishes its send in flight when the app closes; without it,
// no e-mail is written or sent. The service's start-up line says which (mailSummary, server.ts).
// In hosted mode a second sender serves the tenants' outboxes (docs/adr/0230). Registered after
// the hosting plugin.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { SchedulingConfig } from "../config.ts";
import { databaseUrlKey } from "../hosting/secrets.ts";
import "../types.ts";
import { mailMetrics } from "./metrics.ts";
import { MailSender, smtpAddress } from "./sender.ts";
import { TenantMailSender } from "./tenant-sender.ts";

/** The requests that may write booking e-mails: a booking's create, change, cancel. */
const BOOKING_WRITE = /^\/api\/v1\/bookings(\/|$)/;
const writesBookings = (request: FastifyRequest): boolean =>
  request.method !== "GET" && request.method !== "HEAD" && BOOKING_WRITE.test(request.routeOptions.url ?? "");

/**
 * Whether booking e-mails are on, for the service's start-up line: the SMTP server's address
 * (never its credentials), or that nothing is written or sent.
 */
export function mailSummary({
  SMTP_URL,
  MAIL_FROM,
}: Pick<SchedulingConfig, "SMTP_URL" | "MAIL_FROM">): string {
  return SMTP_URL === undefined || MAIL_FROM === undefined
    ? "mail: off (no SMTP_URL)"
    : `mail: on (${smtpAddress(SMTP_URL)})`;
}

async function mail(app: FastifyInstance, { config }: { config: SchedulingConfig }) {
  const { SMTP_URL, MAIL_FROM } = config;
  if (SMTP_URL === undefined || MAIL_FROM === undefined) {
    app.decorate("mail", null);
    app.log.info({}, "mail: off (no SMTP_URL): booking e-mails are neither written nor sent");
    return;
  }
  const counters = mailMetrics(app.metrics, app.prisma);
  const settings = {
    smtpUrl: SMTP_URL,
    from: MAIL_FROM,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    pollMs: config.MAIL_POLL_MS,
    sendTimeoutMs: config.MAIL_SEND_TIMEOUT_MS,
    busy: () => app.requestsInFlight > 0,
    giveWayMs: config.MAIL_GIVE_WAY_MS,
    counters,
    log: app.log,
  };
  const sender = new MailSender({ prisma: app.prisma, ...settings });
  app.decorate("mail", sender);
  app.log.info(
    { smtp: smtpAddress(SMTP_URL), from: MAIL_FROM },
    "mail: booking e-mails are sent through the SMTP server",
  );
  app.addHook("onReady", () => sender.start());
  app.addHook("onClose", () => sender.stop());

  const { hosting } = app;
  if (!hosting || config.TENANT_SECRET === undefined) return;
  const tenants = new TenantMailSender({
    prisma: app.prisma,
    clients: hosting.clients,
    urlKey: databaseUrlKey(config.TENANT_SECRET),
    ...settings,
  });
  // Marked before the write (the mark survives this instance), visited once it is answered.
  app.addHook("preHandler", async (request) => {
    if (request.tenantId !== null && writesBookings(request)) await tenants.mark(request.tenantId);
  });
  app.addHook("onResponse", async (request, reply) => {
    if (request.tenantId !== null && reply.statusCode < 400 && writesBookings(request))
      tenants.due(request.tenantId);
  });
  app.addHook("onReady", async () => tenants.start());
  app.addHook("onClose", () => tenants.stop());
}

export default fp(mail, { name: "mail", decorators: { fastify: ["prisma", "metrics", "hosting"] } });
