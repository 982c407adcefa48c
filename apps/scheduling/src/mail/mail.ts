// Booking e-mails as a plugin of the app (docs/adr/0222): with SMTP_URL, this instance's
// sender starts with the app and finishes its send in flight when the app closes; without it,
// no e-mail is written or sent, and the start-up line says so.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { SchedulingConfig } from "../config.ts";
import "../types.ts";
import { MailSender, smtpAddress } from "./sender.ts";

async function mail(app: FastifyInstance, { config }: { config: SchedulingConfig }) {
  const { SMTP_URL, MAIL_FROM } = config;
  if (SMTP_URL === undefined || MAIL_FROM === undefined) {
    app.decorate("mail", null);
    app.log.info({}, "mail: off (no SMTP_URL): booking e-mails are neither written nor sent");
    return;
  }
  const sender = new MailSender({
    prisma: app.prisma,
    smtpUrl: SMTP_URL,
    from: MAIL_FROM,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    pollMs: config.MAIL_POLL_MS,
    sendTimeoutMs: config.MAIL_SEND_TIMEOUT_MS,
    log: app.log,
  });
  app.decorate("mail", sender);
  app.log.info(
    { smtp: smtpAddress(SMTP_URL), from: MAIL_FROM },
    "mail: booking e-mails are sent through the SMTP server",
  );
  app.addHook("onReady", () => sender.start());
  app.addHook("onClose", () => sender.stop());
}

export default fp(mail, { name: "mail", decorators: { fastify: ["prisma"] } });
