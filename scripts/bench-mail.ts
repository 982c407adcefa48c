// The mail row of `pnpm bench` (issue 40): an SMTP server in the bench's process (smtp-server)
// that accepts every message and records when each arrived, by its Message-ID; the outbox maps a
// Message-ID to its booking, and so to the moment that booking's 201 came back.
import type { AddressInfo } from "node:net";
import type { PrismaClient } from "@app/db";
import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  url: string;
  /** Message-ID → when its DATA ended (performance.now()). */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const arrivals = new Map<string, number>();
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    // The headers are all it reads; the body is drained.
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 8_192) head += chunk.toString("utf8");
      });
      stream.on("end", () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1];
        if (id) arrivals.set(id, performance.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The outbox rows of these bookings (their Message-ID once sent, by booking uid), and how many of
 * their requests are still to be rendered into rows (docs/adr/0236): all rows are there at 0.
 */
export async function messagesOf(prisma: PrismaClient, bookingUids: string[]) {
  const [rows, unrendered] = await Promise.all([
    prisma.mailOutbox.findMany({
      where: { bookingUid: { in: bookingUids } },
      select: { bookingUid: true, status: true, messageId: true },
    }),
    prisma.mailRequest.count({ where: { bookingUid: { in: bookingUids } } }),
  ]);
  return { rows, unrendered };
}
