// Shared by the booking e-mail tests: a real SMTP server (smtp-server) in the test process,
// whose answer to a message can be switched (accept, 4xx, 5xx, stall) or scripted message by
// message, and the messages it accepted, parsed back (mailparser).
import type { AddressInfo } from "node:net";
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll } from "vitest";

export type SmtpMode = "accept" | "4xx" | "5xx" | "stall";

export interface Delivery {
  envelopeTo: string[];
  raw: string;
  mail: ParsedMail;
}

export interface TestSmtp {
  port: number;
  url: string;
  /** What the server accepted, in order. */
  deliveries: Delivery[];
  /** DATA commands received, whatever the answer. */
  attempts: number;
  /** When each DATA command was received (Date.now()), whatever the answer. */
  attemptTimes: number[];
  /** Messages received in "stall" mode and never answered. */
  stalledRaw: string[];
  mode: SmtpMode;
  /** How the next messages are answered, one mode each, in order; `mode` again once it is empty. */
  script: SmtpMode[];
  /** Answers the stalled messages at last: accepted (recorded as deliveries) or refused. */
  releaseStalled(accept: boolean): Promise<void>;
  close(): Promise<void>;
}

/** An SMTP server on a free port; with `auth`, it requires that user and password. */
export async function startSmtp(
  mode: SmtpMode = "accept",
  auth?: { user: string; pass: string },
): Promise<TestSmtp> {
  const stalled: ((accept: boolean) => Promise<void>)[] = [];
  const state: TestSmtp = {
    port: 0,
    url: "",
    deliveries: [],
    attempts: 0,
    attemptTimes: [],
    stalledRaw: [],
    mode,
    script: [],
    releaseStalled: async (accept) => {
      for (const release of stalled.splice(0)) await release(accept);
    },
    close: async () => {},
  };
  const server = new SMTPServer({
    // Plain SMTP on localhost: no STARTTLS (a self-signed certificate nodemailer would refuse).
    disabledCommands: auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !auth,
    logger: false,
    onAuth(credentials, _session, callback) {
      if (auth && credentials.username === auth.user && credentials.password === auth.pass)
        return callback(null, { user: auth.user });
      const refused = Object.assign(new Error("Invalid username or password"), { responseCode: 535 });
      return callback(refused);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        state.attempts++;
        state.attemptTimes.push(Date.now());
        const raw = Buffer.concat(chunks).toString("utf8");
        const answer = state.script.shift() ?? state.mode;
        if (answer === "stall") {
          // The message arrived and is never answered: the sender is in doubt.
          state.stalledRaw.push(raw);
          stalled.push(async (accept) => {
            if (!accept) return callback(new Error("closing"));
            const mail = await simpleParser(raw);
            state.deliveries.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, mail });
            callback();
          });
          return;
        }
        if (answer === "4xx")
          return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        if (answer === "5xx")
          return callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
        void simpleParser(raw).then((mail) => {
          state.deliveries.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, mail });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.server.address() as AddressInfo).port;
  state.url = auth
    ? `smtp://${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@127.0.0.1:${state.port}`
    : `smtp://127.0.0.1:${state.port}`;
  state.close = async () => {
    await state.releaseStalled(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** The invite a delivery carries (its text/calendar part), or undefined. */
export function inviteOf(delivery: Delivery): string | undefined {
  const attachment = delivery.mail.attachments.find((a) => a.contentType.startsWith("text/calendar"));
  return attachment?.content.toString("utf8");
}

/** An app instance a mail test opened, with its own pool. */
export interface OpenedApp {
  app: { close(): Promise<unknown> };
  prisma: PrismaClient;
}

/**
 * A mail test file's lifecycle, in its hooks: a database of its own (handed to `made` once
 * created), and after each test the app instances it opened and the SMTP servers it started
 * closed, and the outbox and its requests emptied (each test starts from an empty outbox).
 */
export function mailTestLifecycle(made: (database: TestDatabase, prisma: PrismaClient) => void) {
  let database: TestDatabase | undefined;
  let prisma: PrismaClient | undefined;
  const opened: OpenedApp[] = [];
  const servers: TestSmtp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = createPrisma(database.url, { poolMax: 4, directUrl: database.directUrl });
    made(database, prisma);
  });
  afterEach(async () => {
    for (const { app, prisma: own } of opened.splice(0)) {
      await app.close();
      await own.$disconnect();
    }
    for (const server of servers.splice(0)) await server.close();
    await prisma?.mailOutbox.deleteMany({});
    await prisma?.mailRequest.deleteMany({});
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await database?.drop();
  });
  return { opened, servers };
}
