// What the table-driven resource tests need beyond the resource table itself: for each
// resource, a valid create body (with the rows it points at, made for its owner) and an edit
// that comes back as sent. Also an API client that remembers every response so each file
// can check that no secret ever left the server.
import type { PrismaClient, User } from "@app/db";
import { afterAll, expect } from "vitest";
import { resources } from "../src/resources/index.ts";
import type { Resource } from "../src/resources/resource.ts";
import { createUser, type TestApp, withKey } from "./helpers.ts";

export { resources };

export function resource(path: string): Resource {
  const found = resources.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no resource ${path} in the table`);
  return found;
}

/** Stored with every test user, payment and event reference; no response may contain it. */
export const SECRET = "SECRET-must-not-leak";

/** Column names that must never appear in a response, whatever the resource. */
const SECRET_KEYS = ["passwordHash", "twoFactorSecret", "hashedKey", "dailytoken"];

export interface Caller {
  user: User;
  apiKey: string;
}

let counter = 0;
export const unique = (label: string) => `${label}-${process.pid}-${++counter}`;

/** A user with an API key, and a password hash and 2FA secret that must stay in the database. */
export async function newUser(prisma: PrismaClient, { admin = false } = {}): Promise<Caller> {
  const { user, apiKey } = await createUser(prisma, { admin });
  const withSecrets = await prisma.user.update({
    where: { id: user.id },
    data: { passwordHash: `${SECRET}-hash`, twoFactorSecret: `${SECRET}-2fa` },
  });
  return { user: withSecrets, apiKey };
}

export interface ApiResponse {
  status: number;
  headers: Record<string, unknown>;
  body: Record<string, unknown> & { message?: string };
  text: string;
}

/** Requests through app.inject; every response body is checked for secrets after the file. */
export function apiClient(t: TestApp) {
  const seen: { url: string; text: string }[] = [];
  afterAll(() => {
    expect(seen.length).toBeGreaterThan(0);
    for (const { url, text } of seen) {
      expect(text, url).not.toContain(SECRET);
      for (const key of SECRET_KEYS) expect(text, url).not.toContain(`"${key}":`);
      if (url.includes("/payments")) {
        expect(text, url).not.toMatch(/"(data|externalId)"/);
      }
    }
  });
  return async function call(
    method: string,
    url: string,
    caller?: Caller | string,
    body?: unknown,
  ): Promise<ApiResponse> {
    const apiKey = typeof caller === "string" ? caller : caller?.apiKey;
    const response = await t.app.inject({
      method: method as "GET",
      url: apiKey === undefined ? url : withKey(url, apiKey),
      ...(body === undefined ? {} : { payload: body as object }),
    });
    seen.push({ url, text: response.body });
    let parsed: ApiResponse["body"] = {};
    try {
      parsed = response.json();
    } catch {
      // Non-JSON bodies are checked through `text`.
    }
    return { status: response.statusCode, headers: response.headers, body: parsed, text: response.body };
  };
}

export type Call = ReturnType<typeof apiClient>;

// ── rows the create bodies point at, made straight in the database ──

export async function makeBooking(prisma: PrismaClient, userId: number) {
  return prisma.booking.create({
    data: {
      uid: unique("booking"),
      userId,
      title: "Intro call",
      startTime: new Date("2026-06-01T09:00:00Z"),
      endTime: new Date("2026-06-01T09:30:00Z"),
    },
  });
}

export async function makeEventType(prisma: PrismaClient, userId: number) {
  return prisma.eventType.create({ data: { userId, title: "Intro", slug: unique("intro"), length: 30 } });
}

/**
 * A CalDAV account of `userId` with one calendar, stored as calendar:connect stores one (its login
 * sealed under a key no test app holds: nothing here reads it); the calendar's URL.
 */
export async function makeConnectedCalendar(prisma: PrismaClient, userId: number): Promise<string> {
  const name = unique("calendar");
  const url = `https://dav.example.com/${name}/work/`;
  await prisma.credential.create({
    data: {
      type: "caldav_calendar",
      appId: "caldav-calendar",
      userId,
      url: `https://dav.example.com/${name}/`,
      secret: "v1.unopened",
      keyId: "test",
      calendars: { create: { userId, url, displayName: "Work" } },
    },
  });
  return url;
}

export async function makeSchedule(prisma: PrismaClient, userId: number) {
  return prisma.schedule.create({ data: { userId, name: "Working hours" } });
}

/** A team with `owner` as its accepted OWNER. */
export async function makeTeam(prisma: PrismaClient, ownerId: number) {
  return prisma.team.create({
    data: {
      name: "Team",
      slug: unique("team"),
      members: { create: { userId: ownerId, role: "OWNER", accepted: true } },
    },
  });
}

export async function makePayment(prisma: PrismaClient, userId: number) {
  const booking = await makeBooking(prisma, userId);
  return prisma.payment.create({
    data: {
      uid: unique("payment"),
      bookingId: booking.id,
      amount: 5000,
      fee: 150,
      currency: "eur",
      success: true,
      refunded: false,
      data: { card: SECRET },
      externalId: `${SECRET}-${unique("pi")}`,
    },
  });
}

export interface Fixture {
  /** A valid create body for `owner`, after making the rows it points at. */
  createBody?: (prisma: PrismaClient, owner: User) => Promise<Record<string, unknown>>;
  /** An edit whose fields come back exactly as sent. */
  edit?: Record<string, unknown>;
  /** Creates are admin-only (users): the generic CRUD runs as an admin. */
  adminCreates?: boolean;
  /** A create body using the optional references, where createBody leaves them out. */
  referencingBody?: (prisma: PrismaClient, owner: User) => Promise<Record<string, unknown>>;
}

export const fixtures: Record<string, Fixture> = {
  users: {
    adminCreates: true,
    createBody: async () => ({ email: `${unique("new")}@example.com`, username: unique("new") }),
    edit: { name: "Ada Lovelace", timeZone: "Europe/Paris", weekStart: "Monday" },
  },
  "event-types": {
    createBody: async () => ({ title: "Consultation", slug: unique("consult"), length: 45 }),
    edit: { title: "Long consultation", length: 90, hidden: true },
    referencingBody: async (prisma, owner) => ({
      title: "Consultation",
      slug: unique("consult"),
      length: 45,
      scheduleId: (await makeSchedule(prisma, owner.id)).id,
    }),
  },
  // Made by booking a slot (v1's create), tested in bookings.test.ts; edited generically.
  bookings: {
    edit: { title: "Demo (moved)", status: "PENDING" },
  },
  attendees: {
    createBody: async (prisma, owner) => ({
      bookingId: (await makeBooking(prisma, owner.id)).id,
      email: "guest@example.com",
      name: "Guest",
      timeZone: "Europe/Paris",
    }),
    edit: { name: "Guest Renamed", timeZone: "America/New_York" },
  },
  payments: {},
  schedules: {
    createBody: async () => ({ name: "Evenings", timeZone: "Europe/Berlin" }),
    edit: { name: "Late evenings" },
  },
  teams: {
    createBody: async () => ({ name: "Acme", slug: unique("acme") }),
    edit: { name: "Acme Ltd", isPrivate: true },
  },
  memberships: {
    createBody: async (prisma, owner) => ({
      teamId: (await makeTeam(prisma, owner.id)).id,
      userId: (await createUser(prisma)).user.id,
    }),
    edit: { role: "ADMIN", disableImpersonation: true },
  },
  availabilities: {
    createBody: async (prisma, owner) => ({
      scheduleId: (await makeSchedule(prisma, owner.id)).id,
      startTime: "1970-01-01T09:00:00.000Z",
      endTime: "1970-01-01T12:00:00.000Z",
      days: [1, 3],
    }),
    edit: { days: [2, 4], endTime: "1970-01-01T13:00:00.000Z" },
  },
  "custom-inputs": {
    createBody: async (prisma, owner) => ({
      eventTypeId: (await makeEventType(prisma, owner.id)).id,
      label: "Company",
      type: "TEXT",
    }),
    edit: { label: "Company name", required: true },
  },
  "event-references": {
    createBody: async (prisma, owner) => ({
      bookingId: (await makeBooking(prisma, owner.id)).id,
      dailyurl: "https://meet.example.com/room-1",
      dailytoken: `${SECRET}-daily-token`,
    }),
    edit: { dailyurl: "https://meet.example.com/room-2" },
  },
  "booking-references": {
    createBody: async (prisma, owner) => ({
      bookingId: (await makeBooking(prisma, owner.id)).id,
      type: "daily_video",
      uid: unique("daily"),
    }),
    edit: { meetingUrl: "https://meet.example.com/x", meetingPassword: "pw" },
  },
  // A destination is a calendar of an account its owner connected (docs/adr/0247).
  "destination-calendars": {
    createBody: async (prisma, owner) => ({
      integration: "caldav_calendar",
      externalId: await makeConnectedCalendar(prisma, owner.id),
    }),
    edit: { primaryEmail: "primary@example.com" },
    referencingBody: async (prisma, owner) => ({
      integration: "caldav_calendar",
      externalId: await makeConnectedCalendar(prisma, owner.id),
      eventTypeId: (await makeEventType(prisma, owner.id)).id,
    }),
  },
  "selected-calendars": {
    createBody: async () => ({
      integration: "google_calendar",
      externalId: `${unique("sel")}_calendar_x@group.calendar.google.com`,
    }),
    edit: { error: "token expired", credentialId: 7 },
  },
  // No edit: a feed token is made, listed, read and revoked (calendar-feed.test.ts).
  "feed-tokens": {
    createBody: async () => ({ note: unique("device") }),
  },
};

/**
 * A row of this resource belonging to `owner`, returned as the API shows it. Made through the
 * API where the resource offers create (users: the owner's own row; payments: the database).
 */
export async function makeRow(
  call: Call,
  prisma: PrismaClient,
  target: Resource,
  owner: Caller,
): Promise<Record<string, unknown>> {
  if (target.path === "users") return { ...owner.user };
  if (target.path === "payments") return { ...(await makePayment(prisma, owner.user.id)) };
  if (target.path === "bookings") {
    const booking = await makeBooking(prisma, owner.user.id);
    const response = await call("GET", `/api/v1/bookings/${booking.id}`, owner);
    expect(response.status, response.text).toBe(200);
    return response.body.booking as Record<string, unknown>;
  }
  const body = await fixtures[target.path]!.createBody!(prisma, owner.user);
  const response = await call("POST", `/api/v1/${target.path}`, owner, body);
  expect(response.status, response.text).toBe(201);
  return response.body[target.keys.singular] as Record<string, unknown>;
}

/** The row as stored, read with the resource's own select (for "unchanged" checks). */
export async function storedRow(prisma: PrismaClient, target: Resource, apiId: string) {
  const key = target.params.parse({ id: apiId }).id;
  return target.delegate(prisma).findFirst({ where: target.keyWhere(key), select: target.select });
}
