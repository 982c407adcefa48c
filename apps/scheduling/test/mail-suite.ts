// The setup both booking e-mail files share (mail.test.ts: what bookings send; mail-delivery.test.ts:
// retries, the dead state, exactly once, configuration): a test database, SMTP servers and app
// instances of each file's own, closed after each test, and the helpers their tests use.
import { Writable } from "node:stream";
import { createPrisma, type PrismaClient } from "@app/db";
import type { TestDatabase } from "@app/testing/database";
import ICAL from "ical.js";
import { expect, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import { loadConfig, type SchedulingConfig } from "../src/config.ts";
import { makeHost } from "./booking-helpers.ts";
import { createUser, REDIS_PREFIX, withKey } from "./helpers.ts";
import { type Delivery, mailTestLifecycle, startSmtp, type TestSmtp } from "./mail-helpers.ts";

/** Generous: a loaded two-core machine; the wait ends as soon as the condition holds. */
export const UNTIL = { timeout: 60_000, interval: 25 } as const;
export const FROM = "Bookings <bookings@mail.example.test>";

/**
 * A file's mail suite: its hooks (mailTestLifecycle) and helpers on its own database, handed to
 * `made` when it is open. Called once at a test file's top level.
 */
export function mailSuite(made: (database: TestDatabase, prisma: PrismaClient) => void) {
  let database: TestDatabase;
  let prisma: PrismaClient;
  const { opened, servers } = mailTestLifecycle((madeDatabase, madePrisma) => {
    database = madeDatabase;
    prisma = madePrisma;
    made(madeDatabase, madePrisma);
  });

  async function smtp(...args: Parameters<typeof startSmtp>): Promise<TestSmtp> {
    const server = await startSmtp(...args);
    servers.push(server);
    return server;
  }

  function mailConfig(overrides: Partial<SchedulingConfig> = {}): SchedulingConfig {
    return {
      ...loadConfig({}),
      RATE_LIMIT_MAX: 100_000,
      RATE_LIMIT_REDIS_PREFIX: REDIS_PREFIX,
      MAIL_FROM: FROM,
      MAIL_RETRY_BASE_MS: 20,
      MAIL_POLL_MS: 50,
      MAIL_SEND_TIMEOUT_MS: 10_000,
      ...overrides,
    };
  }

  /** An app instance of its own (own pool, own sender) on the test database; logs into `lines`. */
  async function instance(
    overrides: Partial<SchedulingConfig>,
    lines: string[] = [],
  ): Promise<SchedulingApp> {
    const own = createPrisma(database.url, { poolMax: 4, directUrl: database.directUrl });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const app = await buildApp({
      config: mailConfig(overrides),
      prisma: own,
      logger: { level: "info", stream },
    });
    await app.ready();
    opened.push({ app, prisma: own });
    return app;
  }

  /** The outbox's rows, once the requests the bookings wrote are rendered into them (docs/adr/0236). */
  async function outbox() {
    await vi.waitFor(async () => expect(await prisma.mailRequest.count()).toBe(0), UNTIL);
    return prisma.mailOutbox.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  }

  /**
   * What the bookings wrote, as [kind, recipient]: the messages of their requests not yet rendered
   * and the outbox's rows, read in one snapshot (a sender may render a request between two reads).
   */
  async function written(): Promise<string[][]> {
    const [requests, rows] = await prisma.$transaction(
      [prisma.mailRequest.findMany(), prisma.mailOutbox.findMany()],
      {
        isolationLevel: "RepeatableRead",
      },
    );
    const planned = requests.flatMap((request) =>
      (request.facts as { messages: { kind: string; to: { email: string } }[] }).messages.map((m) => [
        m.kind,
        m.to.email,
      ]),
    );
    return [...planned, ...rows.map((row) => [row.kind, row.recipient])];
  }

  async function book(app: SchedulingApp, apiKey: string, body: Record<string, unknown>) {
    const response = await app.inject({
      method: "POST",
      url: withKey("/v1/bookings", apiKey),
      payload: body,
    });
    return response;
  }

  function bookingBody(eventTypeId: number, start: Date, extra: Record<string, unknown> = {}) {
    return {
      eventTypeId,
      start: start.toISOString(),
      timeZone: "Europe/Berlin",
      language: "en",
      metadata: {},
      responses: { name: "Bea Booker", email: "bea@example.com", guests: ["gus@example.com"] },
      ...extra,
    };
  }

  /** Host user with a name, a time zone, a schedule and a 30-minute event type. */
  async function host(options: { timeZone?: string; requiresConfirmation?: boolean } = {}) {
    const made = await createUser(prisma);
    const eventType = await makeHost(prisma, made.user.id, {
      requiresConfirmation: options.requiresConfirmation ?? false,
    });
    await prisma.user.update({
      where: { id: made.user.id },
      data: { name: "Hope Host", timeZone: options.timeZone ?? "America/New_York" },
    });
    return { ...made, eventType };
  }

  return { opened, servers, smtp, mailConfig, instance, outbox, written, book, bookingBody, host };
}

export const to = (delivery: Delivery) => delivery.envelopeTo.join(",");
export const hhmm = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    date,
  );

export function parseInvite(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent("vevent")!;
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.getFirstPropertyValue("uid"),
    sequence: event.getFirstPropertyValue("sequence"),
    status: event.getFirstPropertyValue("status"),
    summary: event.getFirstPropertyValue("summary"),
    start: (event.getFirstPropertyValue("dtstart") as unknown as { toJSDate(): Date }).toJSDate(),
    end: (event.getFirstPropertyValue("dtend") as unknown as { toJSDate(): Date }).toJSDate(),
    // A URI's scheme is case-insensitive (ical-generator writes MAILTO:).
    organizer: String(event.getFirstPropertyValue("organizer")).replace(/^mailto:/i, "mailto:"),
    organizerName: event.getFirstProperty("organizer")!.getParameter("cn"),
    attendees: event.getAllProperties("attendee").map((p) => ({
      address: String(p.getFirstValue()).replace(/^mailto:/i, "mailto:"),
      name: p.getParameter("cn"),
      role: p.getParameter("role"),
      partstat: p.getParameter("partstat"),
    })),
  };
}
