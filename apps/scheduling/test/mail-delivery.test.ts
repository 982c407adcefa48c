// Booking e-mails' delivery (docs/adr/0222, 0223) against a real SMTP server in this process:
// retries after 4xx and refused connections, the dead state after a 5xx or MAIL_MAX_ATTEMPTS, a
// stalled send's timeout, requests that cannot be rendered (given up on, listed, blocking
// nothing), mail:dead and mail:resend; with two instances sharing one outbox and 20 bookings at
// once, every e-mail delivered exactly once; the metrics and the logs. What bookings send is
// mail.test.ts's. Waits are on conditions only.
import { PassThrough } from "node:stream";
import type { PrismaClient } from "@app/db";
import { runCliInProcess } from "@app/testing/cli";
import type { TestDatabase } from "@app/testing/database";
import { describe, expect, it, vi } from "vitest";
import { schedulingCli } from "../src/cli.ts";
import { at, futureMonday } from "./booking-helpers.ts";
import { withKey } from "./helpers.ts";
import { mailSuite, to, UNTIL } from "./mail-suite.ts";

let database: TestDatabase;
let prisma: PrismaClient;
const { opened, servers, smtp, instance, outbox, written, book, bookingBody, host } = mailSuite(
  (madeDatabase, madePrisma) => {
    database = madeDatabase;
    prisma = madePrisma;
  },
);

describe("delivery: retries, the dead state, exactly once", () => {
  it("a 4xx is retried with backoff until the server accepts; delivered once", async () => {
    const server = await smtp("4xx");
    const app = await instance({ SMTP_URL: server.url, MAIL_MAX_ATTEMPTS: 100 });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 240), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(async () => {
      const rows = await outbox();
      expect(rows.every((r) => r.attempts >= 2 && r.status === "PENDING")).toBe(true);
      expect(rows[0]!.lastError).toContain("451");
    }, UNTIL);
    server.mode = "accept";
    // Due now rather than after however long the backoff has grown: the test waits on no clock.
    await prisma.mailOutbox.updateMany({
      where: { status: "PENDING" },
      data: { nextAttemptAt: new Date(0) },
    });
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "SENT")).toBe(true),
      UNTIL,
    );
    expect(server.deliveries.map(to).sort()).toEqual([organizer.user.email, "b@example.com"].sort());
  });

  it("a send the server stalls past MAIL_SEND_TIMEOUT_MS times out and is retried, after a backoff that doubles each attempt; delivered once", async () => {
    const server = await smtp();
    // The first attempt never answered, the next two refused for now, the fourth accepted.
    server.script = ["stall", "4xx", "4xx"];
    const lines: string[] = [];
    const timeoutMs = 2_000;
    const baseMs = 200;
    await instance(
      {
        SMTP_URL: server.url,
        MAIL_SEND_TIMEOUT_MS: timeoutMs,
        MAIL_RETRY_BASE_MS: baseMs,
        MAIL_MAX_ATTEMPTS: 10,
      },
      lines,
    );
    const row = await prisma.mailOutbox.create({
      data: {
        bookingUid: "stalled",
        kind: "scheduled",
        recipient: "s@example.com",
        subject: "Stalled",
        textBody: "t",
        htmlBody: "h",
      },
    });
    await vi.waitFor(async () => {
      expect(await prisma.mailOutbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: "SENT",
        attempts: 4,
        lastError: null,
        messageId: `<${row.id}@mail.example.test>`,
      });
    }, UNTIL);
    expect(server.deliveries.map((d) => d.mail.messageId)).toEqual([`<${row.id}@mail.example.test>`]);
    expect(server.attempts).toBe(4);
    const retries = lines
      .map((line) => JSON.parse(line) as { msg: string; retryInMs?: number; reason?: string })
      .filter((entry) => entry.msg === "mail: not sent; will retry");
    expect(retries.map((entry) => entry.retryInMs)).toEqual([baseMs, baseMs * 2, baseMs * 4]);
    expect(retries[0]!.reason).toMatch(/ETIMEDOUT|timeout/i);
    expect(retries[1]!.reason).toContain("451");
    // As the server saw them: each attempt came no sooner than the previous one's end plus its
    // backoff (the stalled one ended at the timeout); a few ms of leeway for the two clocks' reads.
    const [t1, t2, t3, t4] = server.attemptTimes as [number, number, number, number];
    const leeway = 25;
    expect(t2 - t1).toBeGreaterThanOrEqual(timeoutMs + baseMs - leeway);
    expect(t3 - t2).toBeGreaterThanOrEqual(baseMs * 2 - leeway);
    expect(t4 - t3).toBeGreaterThanOrEqual(baseMs * 4 - leeway);
  });

  it("a 5xx makes the e-mail dead at once; mail:dead lists it, mail:resend --id puts it back and it is sent", async () => {
    const server = await smtp("5xx");
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 270), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "DEAD")).toBe(true),
      UNTIL,
    );
    expect((await outbox()).map((r) => r.attempts)).toEqual([1, 1]);
    const env = { DATABASE_URL: database.url, DATABASE_DIRECT_URL: database.directUrl };
    const listed = await runCliInProcess(schedulingCli, ["mail:dead", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const dead = JSON.parse(listed.stdout) as { id: string; recipient: string; lastError: string }[];
    expect(dead.map((d) => d.recipient).sort()).toEqual([organizer.user.email, "b@example.com"].sort());
    expect(dead[0]!.lastError).toContain("550");
    const table = await runCliInProcess(schedulingCli, ["mail:dead"], env);
    expect(table.stdout).toContain("ATTEMPTS");

    server.mode = "accept";
    const one = await runCliInProcess(schedulingCli, ["mail:resend", "--id", dead[0]!.id, "--json"], env);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ resent: 1 });
    await vi.waitFor(() => expect(server.deliveries.map(to)).toEqual([dead[0]!.recipient]), UNTIL);
    const rest = await runCliInProcess(schedulingCli, ["mail:resend", "--all"], env);
    expect(rest.stdout).toContain("1 e-mail put back");
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    const usage = await runCliInProcess(schedulingCli, ["mail:resend"], env);
    expect(usage.code).toBe(2);
  });

  it("booking changes whose e-mails cannot be rendered are given up on, listed by mail:dead, and hold back no newer booking's e-mails", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url });
    // More than a render batch (50) of requests no release here can read (a newer release's
    // format, left by a roll-back), older than the booking's own.
    const UNREADABLE = 60;
    await prisma.mailRequest.createMany({
      data: Array.from({ length: UNREADABLE }, (_, i) => ({
        bookingUid: `unreadable-${i}`,
        messages: 1,
        facts: { v: 3, messages: [{ kind: "scheduled", to: { email: `u${i}@example.com` } }] },
      })),
    });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 420), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(
      () => expect(server.deliveries.map(to).sort()).toEqual([organizer.user.email, "b@example.com"].sort()),
      UNTIL,
    );
    await vi.waitFor(async () => {
      expect(await prisma.mailRequest.count({ where: { failedAt: null } })).toBe(0);
      expect(await prisma.mailRequest.count()).toBe(UNREADABLE);
    }, UNTIL);
    const env = { DATABASE_URL: database.url, DATABASE_DIRECT_URL: database.directUrl };
    const listed = await runCliInProcess(schedulingCli, ["mail:dead", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const dead = JSON.parse(listed.stdout) as {
      id: string;
      kind: string;
      recipient: string;
      lastError: string;
    }[];
    expect(dead).toHaveLength(UNREADABLE);
    for (const entry of dead) {
      expect(entry.kind).toBe("unrendered");
      expect(entry.lastError).toContain("not rendered: a mail request of an unknown version (3)");
    }
    expect(dead.map((entry) => entry.recipient).sort()).toEqual(
      Array.from({ length: UNREADABLE }, (_, i) => `u${i}@example.com`).sort(),
    );
    const table = await runCliInProcess(schedulingCli, ["mail:dead"], env);
    expect(table.stdout).toContain("unrendered");
    // Counted as dead e-mails, none pending.
    const metrics = await app.metrics.metrics();
    expect(metrics).toContain(`mail_outbox_messages{status="dead",service="scheduling"} ${UNREADABLE}`);
    expect(metrics).toContain('mail_outbox_messages{status="pending",service="scheduling"} 0');
    // Put back, it is tried again (still unreadable here: given up on again, listed again).
    const one = await runCliInProcess(schedulingCli, ["mail:resend", "--id", dead[0]!.id, "--json"], env);
    expect(JSON.parse(one.stdout)).toEqual({ resent: 1 });
    await vi.waitFor(async () => {
      const again = await prisma.mailRequest.findUniqueOrThrow({ where: { id: dead[0]!.id } });
      expect(again.failedAt).not.toBeNull();
      expect(again.lastError).toContain("unknown version (3)");
    }, UNTIL);
    expect(server.deliveries).toHaveLength(2);
  });

  it("a refused connection (closed port) is retried MAIL_MAX_ATTEMPTS times, then dead", async () => {
    const closed = await smtp();
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    const app = await instance({ SMTP_URL: closed.url, MAIL_MAX_ATTEMPTS: 3 });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 300), { noEmail: false }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "DEAD")).toBe(true),
      UNTIL,
    );
    for (const row of await outbox()) {
      expect(row.attempts).toBe(3);
      expect(row.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
      expect(row.sentAt).toBeNull();
    }
  });

  it("closing the app waits for the send in flight and records it", async () => {
    const server = await smtp("stall");
    const app = await instance({ SMTP_URL: server.url });
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 450), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    await vi.waitFor(() => expect(server.stalledRaw).toHaveLength(1), UNTIL);
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    // Still waiting for the server's answer: the close has not finished.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    await server.releaseStalled(true);
    await closing;
    const rows = await outbox();
    expect(rows.filter((r) => r.status === "SENT")).toHaveLength(1);
    // The other was not started: it waits for the next instance.
    expect(rows.filter((r) => r.status === "PENDING")).toHaveLength(1);
    expect(server.deliveries).toHaveLength(1);
  });

  it("the sender gives way while the instance answers a request, and sends once it is answered", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url, MAIL_GIVE_WAY_MS: 600_000 });
    const organizer = await host();
    // A request in flight: its body is still coming.
    const body = new PassThrough();
    const slow = app.inject({
      method: "POST",
      url: withKey("/v1/bookings", organizer.apiKey),
      headers: { "content-type": "application/json" },
      payload: body,
    });
    await vi.waitFor(() => expect(app.requestsInFlight).toBe(1), UNTIL);
    const monday = futureMonday(5);
    const booked = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(monday, 0), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(booked.statusCode, booked.body).toBe(201);
    // Written with the booking, not sent while the other request is in flight (the wait is bounded
    // by MAIL_GIVE_WAY_MS, ten minutes here).
    expect(await written()).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.attempts).toBe(0);
    body.end(
      JSON.stringify(
        bookingBody(organizer.eventType.id, at(monday, 30), {
          responses: { name: "C", email: "c@example.com" },
        }),
      ),
    );
    expect((await slow).statusCode).toBe(201);
    // Both bookings' e-mails, once nothing is in flight.
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(4), UNTIL);
    expect(app.requestsInFlight).toBe(0);
  });

  it("the sender gives way at most MAIL_GIVE_WAY_MS: a request in flight for longer does not hold the e-mails back", async () => {
    const server = await smtp();
    const app = await instance({ SMTP_URL: server.url, MAIL_GIVE_WAY_MS: 200 });
    const organizer = await host();
    const body = new PassThrough();
    const slow = app.inject({
      method: "POST",
      url: withKey("/v1/bookings", organizer.apiKey),
      headers: { "content-type": "application/json" },
      payload: body,
    });
    await vi.waitFor(() => expect(app.requestsInFlight).toBe(1), UNTIL);
    const booked = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(5), 60), {
        responses: { name: "B", email: "b@example.com" },
      }),
    );
    expect(booked.statusCode, booked.body).toBe(201);
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(2), UNTIL);
    // Delivered while the other request was still in flight.
    expect(app.requestsInFlight).toBe(1);
    body.end("{}");
    expect((await slow).statusCode).toBe(400);
  });

  it("20 bookings at once over two instances sharing one outbox: every e-mail delivered exactly once", async () => {
    const server = await smtp();
    const [one, two] = [await instance({ SMTP_URL: server.url }), await instance({ SMTP_URL: server.url })];
    const organizers = await Promise.all(Array.from({ length: 4 }, () => host()));
    const monday = futureMonday(4);
    const requests = Array.from({ length: 20 }, (_, i) => {
      const organizer = organizers[i % 4]!;
      const app = i % 2 === 0 ? one : two;
      return book(
        app,
        organizer.apiKey,
        bookingBody(organizer.eventType.id, at(monday, 30 * Math.floor(i / 4)), {
          responses: { name: `Booker ${i}`, email: `booker${i}@example.com` },
        }),
      );
    });
    const responses = await Promise.all(requests);
    for (const response of responses) expect(response.statusCode, response.body).toBe(201);
    // Each booking: its organizer and its booker.
    await vi.waitFor(
      async () => expect((await outbox()).every((r) => r.status === "SENT")).toBe(true),
      UNTIL,
    );
    const rows = await outbox();
    expect(rows).toHaveLength(40);
    expect(server.deliveries).toHaveLength(40);
    const ids = server.deliveries.map((d) => d.mail.messageId);
    expect(new Set(ids).size).toBe(40);
    expect(ids.sort()).toEqual(rows.map((r) => r.messageId).sort());
    expect(server.attempts).toBe(40);
  });
});

describe("configuration and logs", () => {
  it("/metrics: the pending and dead gauges equal the outbox's rows at each scrape; sent and failures count this instance's attempts", async () => {
    const server = await smtp("5xx");
    const app = await instance({ SMTP_URL: server.url });
    const metric = async (name: string, label = "") => {
      const text = await app.metrics.metrics();
      const line = text
        .split("\n")
        .find((l) => l.startsWith(`${name}{`) && l.includes(label) && !l.startsWith("#"));
      return line === undefined ? undefined : Number(line.split(" ").at(-1));
    };
    const row = (status: "PENDING" | "SENT" | "DEAD", nextAttemptAt = new Date()) => ({
      bookingUid: "metrics",
      kind: "scheduled",
      recipient: "m@example.com",
      subject: "Metrics",
      textBody: "t",
      htmlBody: "h",
      status,
      nextAttemptAt,
    });
    const later = new Date(Date.now() + 3_600_000);
    await prisma.mailOutbox.createMany({
      data: [row("PENDING", later), row("PENDING", later), row("DEAD"), row("SENT")],
    });
    const stored = async () => ({
      pending: await prisma.mailOutbox.count({ where: { status: "PENDING" } }),
      dead: await prisma.mailOutbox.count({ where: { status: "DEAD" } }),
    });
    const scraped = async () => ({
      pending: await metric("mail_outbox_messages", 'status="pending"'),
      dead: await metric("mail_outbox_messages", 'status="dead"'),
    });
    await vi.waitFor(async () => expect(await scraped()).toEqual({ pending: 2, dead: 1 }), UNTIL);
    expect(await scraped()).toEqual(await stored());
    // One due now, refused for good (5xx): dead at once, counted as a failure.
    await prisma.mailOutbox.create({ data: row("PENDING") });
    await vi.waitFor(async () => expect(await stored()).toEqual({ pending: 2, dead: 2 }), UNTIL);
    await vi.waitFor(async () => expect(await scraped()).toEqual({ pending: 2, dead: 2 }), UNTIL);
    expect(await metric("mail_send_failures_total", 'outcome="dead"')).toBe(1);
    // Accepted now: sent, counted.
    server.mode = "accept";
    await prisma.mailOutbox.updateMany({ where: { status: "PENDING" }, data: { nextAttemptAt: new Date() } });
    await vi.waitFor(async () => expect(await stored()).toEqual({ pending: 0, dead: 2 }), UNTIL);
    await vi.waitFor(async () => expect(await scraped()).toEqual({ pending: 0, dead: 2 }), UNTIL);
    expect(await metric("mail_sent_total")).toBe(2);
  });

  it("without SMTP_URL nothing is written and the start-up line says so", async () => {
    const lines: string[] = [];
    const app = await instance({ SMTP_URL: undefined, MAIL_FROM: undefined }, lines);
    expect(app.mail).toBeNull();
    expect(lines.join("\n")).toContain("mail: off (no SMTP_URL)");
    const organizer = await host();
    const response = await book(
      app,
      organizer.apiKey,
      bookingBody(organizer.eventType.id, at(futureMonday(), 330)),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(await outbox()).toEqual([]);
  });

  it("the SMTP password is in no log line, whether the server takes it or refuses it", async () => {
    const password = "s3cret-smtp-Passw0rd";
    const server = await smtp("accept", { user: "mailer", pass: password });
    const lines: string[] = [];
    const good = await instance({ SMTP_URL: server.url }, lines);
    const organizer = await host();
    await book(good, organizer.apiKey, bookingBody(organizer.eventType.id, at(futureMonday(), 360)));
    await vi.waitFor(() => expect(server.deliveries).toHaveLength(3), UNTIL);
    const first = opened.pop()!;
    await first.app.close();
    await first.prisma.$disconnect();
    // A wrong password: refused (535, dead).
    const wrong = server.url.replace(encodeURIComponent(password), `${password}-wrong`);
    const bad = await instance({ SMTP_URL: wrong }, lines);
    await book(bad, organizer.apiKey, bookingBody(organizer.eventType.id, at(futureMonday(), 390)));
    await vi.waitFor(async () => expect((await outbox()).some((r) => r.status === "DEAD")).toBe(true), UNTIL);
    const log = lines.join("\n");
    expect(log).toContain("mail: sent");
    expect(log).toContain("mail: given up");
    expect(log).toContain(`smtp://127.0.0.1:${server.port}`);
    expect(log).not.toContain(password);
    const dead = (await outbox()).filter((r) => r.status === "DEAD");
    for (const row of dead) expect(row.lastError).not.toContain(password);
  });
});
