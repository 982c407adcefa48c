// The outbox's metrics (docs/operations.md): how many e-mails wait and how many are dead, read
// from the outbox itself at each scrape (one COUNT FILTER over the unsent rows, by the status
// index, plus the messages of the requests not yet rendered, docs/adr/0236, or that could not
// be, docs/adr/0241; at most once a second, however often it is scraped), and this instance's
// sends.
import type { PrismaClient } from "@app/db";
import { Counter, Gauge, type Registry } from "@app/server/metrics";
import type { MailCounters } from "./sender.ts";

/** Scrapes within this long of a count share it. */
const COUNT_REUSE_MS = 1_000;

interface OutboxCounts {
  pending: number;
  dead: number;
}

export function mailMetrics(registry: Registry, prisma: PrismaClient): MailCounters {
  let last: { at: number; counts: Promise<OutboxCounts> } | undefined;
  const counts = (): Promise<OutboxCounts> => {
    if (!last || Date.now() - last.at >= COUNT_REUSE_MS) {
      // Pending: the outbox's unsent rows and the messages of the requests not yet rendered into
      // it; dead: its dead rows and the messages of the requests that could not be rendered.
      const read = prisma.$queryRaw<OutboxCounts[]>`
        WITH requests AS (
          SELECT coalesce(sum(messages) FILTER (WHERE failed_at IS NULL), 0) AS waiting,
                 coalesce(sum(messages) FILTER (WHERE failed_at IS NOT NULL), 0) AS failed
            FROM "scheduling"."mail_requests")
        SELECT (count(*) FILTER (WHERE status = 'PENDING') + (SELECT waiting FROM requests))::int AS pending,
               (count(*) FILTER (WHERE status = 'DEAD') + (SELECT failed FROM requests))::int AS dead
          FROM "scheduling"."mail_outbox"
         WHERE status IN ('PENDING', 'DEAD')`.then(([row]) => row ?? { pending: 0, dead: 0 });
      last = { at: Date.now(), counts: read };
      // A failed read is not reused.
      read.catch(() => {
        last = undefined;
      });
    }
    return last.counts;
  };
  new Gauge({
    name: "mail_outbox_messages",
    help: "Booking e-mails in the (default database's) outbox by status: pending (not yet sent, retries included) and dead",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const { pending, dead } = await counts();
      this.set({ status: "pending" }, pending);
      this.set({ status: "dead" }, dead);
    },
  });
  const sent = new Counter({
    name: "mail_sent_total",
    help: "Booking e-mails this instance handed to the SMTP server (tenants' included)",
    registers: [registry],
  });
  const failures = new Counter({
    name: "mail_send_failures_total",
    help: "Failed attempts to send a booking e-mail, by what follows: retry, or dead",
    labelNames: ["outcome"],
    registers: [registry],
  });
  return {
    sent: () => sent.inc(),
    failed: (outcome) => failures.inc({ outcome }),
  };
}
