// Booking e-mails in hosted mode (docs/adr/0230), through the real app and a real SMTP server:
// two tenants, each on its own database, booking at once through two instances that share the
// default database. Each tenant's rows are written in its own database; every message arrives
// exactly once (one delivery per Message-ID), to that tenant's people only; the marks in the
// default database are gone once everything is sent. Mail left in a tenant's outbox by an
// instance that died before sending it is sent by another instance's sweep.
import { createPrisma, type PrismaClient } from "@app/db";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp, type SchedulingApp } from "../src/app.ts";
import type { SchedulingConfig } from "../src/config.ts";
import { at, futureMonday, makeHost } from "./booking-helpers.ts";
import { createUser, testConfig } from "./helpers.ts";
import { hostedUrl, newTenantSecret, registerTenant, type TestTenant } from "./hosted-helpers.ts";
import { startSmtp, type TestSmtp } from "./mail-helpers.ts";

const UNTIL = { timeout: 60_000, interval: 25 } as const;
const TENANT_SECRET = newTenantSecret();
const FROM = "Bookings <bookings@mail.example.test>";
type Name = "a" | "b";
const NAMES: Name[] = ["a", "b"];

let main: TestDatabase;
let mainPrisma: PrismaClient;
const databases = {} as Record<Name, TestDatabase>;
const prisma = {} as Record<Name, PrismaClient>;
const tenants = {} as Record<Name, TestTenant>;
let smtp: TestSmtp;
const apps: SchedulingApp[] = [];

const hostedMail = (overrides: Partial<SchedulingConfig> = {}): SchedulingConfig =>
  testConfig({
    HOSTED_MODE: "on",
    TENANT_SECRET,
    SMTP_URL: smtp.url,
    MAIL_FROM: FROM,
    MAIL_RETRY_BASE_MS: 20,
    MAIL_POLL_MS: 50,
    ...overrides,
  });

async function instance(): Promise<SchedulingApp> {
  const app = await buildApp({ config: hostedMail(), prisma: mainPrisma });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  smtp = await startSmtp();
  main = await createTestDatabase();
  mainPrisma = createPrisma(main.url, { poolMax: 4, directUrl: main.directUrl });
  for (const name of NAMES) {
    databases[name] = await createTestDatabase();
    // A tenant's URL is a direct connection (docs/adr/0177): behind a PgBouncer (CI's second
    // run) only the default database goes through it.
    prisma[name] = createPrisma(databases[name].directUrl, { poolMax: 2 });
    tenants[name] = await registerTenant(
      mainPrisma,
      TENANT_SECRET,
      databases[name].directUrl,
      `tenant-${name}`,
    );
  }
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await smtp?.close();
  for (const client of [mainPrisma, ...Object.values(prisma)]) await client?.$disconnect();
  await Promise.all([main, ...Object.values(databases)].map((database) => database?.drop()));
});

const marks = () => mainPrisma.tenantMailDue.findMany();

describe("hosted mode: each tenant's bookings send their e-mails", () => {
  it("two tenants booking at once through two instances: every message once, each to its own tenant's people, from its own outbox", async () => {
    const [one, two] = [await instance(), await instance()];
    const hosts = {} as Record<Name, { apiKey: string; email: string; eventTypeId: number }>;
    for (const name of NAMES) {
      // The same user id in both databases, different people.
      const made = await createUser(prisma[name], { email: `host-${name}@${name}.example` });
      const eventType = await makeHost(prisma[name], made.user.id);
      hosts[name] = { apiKey: made.apiKey, email: made.user.email, eventTypeId: eventType.id };
    }
    const monday = futureMonday();
    const PER_TENANT = 6;
    const answers = await Promise.all(
      NAMES.flatMap((name) =>
        Array.from({ length: PER_TENANT }, (_, i) =>
          (i % 2 ? one : two).inject({
            method: "POST",
            url: hostedUrl("/v1/bookings", hosts[name].apiKey, tenants[name].licenseKey),
            payload: {
              eventTypeId: hosts[name].eventTypeId,
              start: at(monday, 60 + i * 30).toISOString(),
              timeZone: "Europe/Berlin",
              language: "en",
              metadata: {},
              responses: { name: `Booker ${name}${i}`, email: `booker-${i}@${name}.example` },
            },
          }),
        ),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);

    // Written in each tenant's own outbox (its requests, rendered into rows there: docs/adr/0236),
    // none in the default database's.
    for (const name of NAMES) {
      await vi.waitFor(async () => {
        expect(await prisma[name].mailRequest.count()).toBe(0);
        expect(await prisma[name].mailOutbox.count()).toBe(PER_TENANT * 2);
      }, UNTIL);
    }
    expect(await mainPrisma.mailOutbox.count()).toBe(0);
    expect(await mainPrisma.mailRequest.count()).toBe(0);

    await vi.waitFor(async () => {
      for (const name of NAMES)
        expect(await prisma[name].mailOutbox.count({ where: { status: { not: "SENT" } } })).toBe(0);
    }, UNTIL);
    // Exactly once: one delivery per Message-ID, and as many as rows.
    const ids = smtp.deliveries.map((d) => d.mail.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(PER_TENANT * 2 * NAMES.length);
    for (const name of NAMES) {
      const sent = await prisma[name].mailOutbox.findMany();
      const theirs = new Set(sent.map((row) => row.messageId));
      const deliveries = smtp.deliveries.filter((d) => theirs.has(d.mail.messageId ?? ""));
      expect(deliveries).toHaveLength(sent.length);
      // Nothing crosses: a tenant's messages go to its own host and bookers only.
      for (const delivery of deliveries)
        for (const address of delivery.envelopeTo) expect(address.endsWith(`@${name}.example`)).toBe(true);
      const recipients = sent.map((row) => row.recipient).sort();
      expect(recipients).toEqual(
        [
          ...Array.from({ length: PER_TENANT }, () => hosts[name].email),
          ...Array.from({ length: PER_TENANT }, (_, i) => `booker-${i}@${name}.example`),
        ].sort(),
      );
    }
    // The marks outlive the bookings by the grace only: still there, due later, none due now. A
    // visit that met a request not yet rendered (the other instance rendered and sent it) left
    // its mark due at once; the next sweep's visit finds nothing and puts it a grace ahead.
    await vi.waitFor(async () => {
      for (const mark of await marks()) expect(mark.dueAt.getTime()).toBeGreaterThan(Date.now());
    }, UNTIL);
  });

  it("mail an instance left behind (it died after the commit) is sent by another's sweep; the mark then goes", async () => {
    const app = await instance();
    // What a died instance leaves: the tenant's row, and the mark it made before the write.
    await prisma.b.mailOutbox.create({
      data: {
        bookingUid: "left-behind",
        kind: "scheduled",
        recipient: "late@b.example",
        subject: "Left behind",
        textBody: "text",
        htmlBody: "<p>html</p>",
      },
    });
    const markedAt = new Date(Date.now() - 10 * 60_000);
    await mainPrisma.tenantMailDue.upsert({
      where: { tenantId: tenants.b.id },
      create: { tenantId: tenants.b.id, dueAt: markedAt, markedAt },
      update: { dueAt: markedAt, markedAt },
    });
    await vi.waitFor(
      () => expect(smtp.deliveries.some((d) => d.mail.subject === "Left behind")).toBe(true),
      UNTIL,
    );
    await vi.waitFor(
      async () => expect(await mainPrisma.tenantMailDue.count({ where: { tenantId: tenants.b.id } })).toBe(0),
      UNTIL,
    );
    const row = await prisma.b.mailOutbox.findFirstOrThrow({ where: { bookingUid: "left-behind" } });
    expect(row).toMatchObject({ status: "SENT", attempts: 1 });
    expect(smtp.deliveries.filter((d) => d.mail.messageId === row.messageId)).toHaveLength(1);
    void app;
  });
});
