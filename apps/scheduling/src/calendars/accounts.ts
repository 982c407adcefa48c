// Connected calendar accounts (v1's Credential rows), made and removed by the CLI only: the seed
// keeps credentials out of the API (docs/adr/0255). Connecting discovers the account's calendars
// as CalDAV clients do, keeps the ones that hold events, and seals the login.
import type { PrismaClient } from "@app/db";
import { CalDavClient, CalDavError, normalizeCalendarUrl } from "./caldav-client.ts";
import { type CredentialKeys, sealLogin } from "./logins.ts";

/** The integrations an account can be connected for (v1's names), and how. */
export const CALENDAR_INTEGRATIONS = {
  caldav_calendar: { appId: "caldav-calendar", fixedUrl: undefined },
  apple_calendar: { appId: "apple-calendar", fixedUrl: "https://caldav.icloud.com" },
} as const;

export type CalendarIntegration = keyof typeof CALENDAR_INTEGRATIONS;

export const isCalendarIntegration = (value: string): value is CalendarIntegration =>
  Object.hasOwn(CALENDAR_INTEGRATIONS, value);

/** A connect, list or disconnect that cannot be done: its message says why, for a person. */
export class AccountError extends Error {
  override name = "AccountError";
}

/** What went wrong talking to the server, said for the person who typed the URL and login. */
export function describeCalDavError(error: unknown, url: string): string {
  if (!(error instanceof CalDavError)) return error instanceof Error ? error.message : String(error);
  switch (error.kind) {
    case "unauthorized":
      return `${url} refused the username or password (401)`;
    case "forbidden":
      return `${url} does not let this login read it (403)`;
    case "not-found":
      return `${url} has nothing there (404)`;
    case "not-caldav":
      return `${url} is not a CalDAV server (no calendar home found): give the server's CalDAV URL`;
    case "timeout":
      return `${url} did not answer in time`;
    case "network":
      return `${url} cannot be reached: ${error.message}`;
    default:
      return `${url}: ${error.message}`;
  }
}

export interface ConnectedAccount {
  credentialId: number;
  calendars: { id: number; url: string; displayName: string | null }[];
}

export async function connectAccount(
  prisma: PrismaClient,
  keys: CredentialKeys,
  input: {
    userId: number;
    integration: CalendarIntegration;
    url?: string | undefined;
    username: string;
    password: string;
    timeoutMs: number;
  },
): Promise<ConnectedAccount> {
  const { appId, fixedUrl } = CALENDAR_INTEGRATIONS[input.integration];
  const given = fixedUrl ?? input.url;
  if (!given) throw new AccountError(`${input.integration} needs --url (the server's CalDAV URL)`);
  let url: string;
  try {
    url = normalizeCalendarUrl(given);
  } catch {
    throw new AccountError(`--url must be an http(s) URL, not ${JSON.stringify(given)}`);
  }
  const taken = await prisma.credential.findFirst({
    where: { userId: input.userId, type: input.integration, url },
    select: { id: true },
  });
  if (taken) {
    throw new AccountError(
      `an account at ${url} is already connected for this user (id ${taken.id}): calendar:disconnect it first`,
    );
  }
  const client = new CalDavClient({
    username: input.username,
    password: input.password,
    timeoutMs: input.timeoutMs,
  });
  let found: Awaited<ReturnType<CalDavClient["discover"]>>;
  try {
    found = await client.discover(url);
  } catch (error) {
    throw new AccountError(describeCalDavError(error, url));
  } finally {
    client.close();
  }
  const calendars = found.calendars.filter((calendar) => calendar.components.includes("VEVENT"));
  if (calendars.length === 0) throw new AccountError(`${url} has no calendar of events for this login`);
  return prisma.$transaction(async (tx) => {
    const credential = await tx.credential.create({
      data: { type: input.integration, appId, userId: input.userId, url, secret: "", keyId: "" },
      select: { id: true },
    });
    // The id is the sealed login's associated data: known only once the row exists.
    await tx.credential.update({
      where: { id: credential.id },
      data: sealLogin(keys, credential.id, { username: input.username, password: input.password }),
    });
    const rows = [];
    for (const calendar of calendars) {
      rows.push(
        await tx.connectedCalendar.create({
          data: {
            credentialId: credential.id,
            userId: input.userId,
            url: normalizeCalendarUrl(calendar.url),
            displayName: calendar.displayName,
            supportsSync: calendar.supportsSyncCollection,
          },
          select: { id: true, url: true, displayName: true },
        }),
      );
    }
    return { credentialId: credential.id, calendars: rows };
  });
}

/**
 * Makes each calendar of the account a selected calendar of its owner (v1's selected-calendars
 * rows), so its events block time; answers how many were new.
 */
export async function selectCalendars(prisma: PrismaClient, credentialId: number): Promise<number> {
  const credential = await prisma.credential.findUniqueOrThrow({
    where: { id: credentialId },
    select: { userId: true, type: true, id: true, calendars: { select: { url: true } } },
  });
  const created = await prisma.selectedCalendar.createMany({
    data: credential.calendars.map((calendar) => ({
      userId: credential.userId,
      integration: credential.type,
      externalId: calendar.url,
      credentialId: credential.id,
    })),
    skipDuplicates: true,
  });
  return created.count;
}

export interface AccountListing {
  id: number;
  userId: number;
  email: string;
  integration: string;
  url: string;
  createdAt: Date;
  calendars: {
    id: number;
    url: string;
    displayName: string | null;
    selected: boolean;
    syncedAt: Date | null;
    failingSince: Date | null;
    lastError: string | null;
  }[];
}

/** Every account (or one user's), with its calendars and where their sync stands; never a login. */
export async function listAccounts(prisma: PrismaClient, userId?: number): Promise<AccountListing[]> {
  const credentials = await prisma.credential.findMany({
    where: userId === undefined ? {} : { userId },
    orderBy: { id: "asc" },
    select: {
      id: true,
      userId: true,
      type: true,
      url: true,
      createdAt: true,
      user: {
        select: { email: true, selectedCalendars: { select: { integration: true, externalId: true } } },
      },
      calendars: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          url: true,
          displayName: true,
          syncedAt: true,
          failingSince: true,
          lastError: true,
        },
      },
    },
  });
  return credentials.map((credential) => ({
    id: credential.id,
    userId: credential.userId,
    email: credential.user.email,
    integration: credential.type,
    url: credential.url,
    createdAt: credential.createdAt,
    calendars: credential.calendars.map((calendar) => ({
      ...calendar,
      selected: credential.user.selectedCalendars.some(
        (selected) => selected.integration === credential.type && selected.externalId === calendar.url,
      ),
    })),
  }));
}

/** Removes an account, its calendars and their busy times; answers its owner's id. */
export async function disconnectAccount(prisma: PrismaClient, credentialId: number): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const credential = await tx.credential.findUnique({
      where: { id: credentialId },
      select: { userId: true },
    });
    if (!credential) throw new AccountError(`no calendar account has id ${credentialId}`);
    await tx.credential.delete({ where: { id: credentialId } });
    return credential.userId;
  });
}

/** v1's answer when a destination calendar names no calendar of a connected account. */
export const CREDENTIAL_INVALID = "Bad request, credential id invalid";

/**
 * The connected calendar a destination-calendar row names (v1's POST /destination-calendars):
 * `integration` must be the type of an account the user connected, and `externalId` one of its
 * calendars, compared after normalisation (a trailing slash, a default port); else null. A row
 * naming nothing would be written nowhere (cal.com reported such writes as successes).
 */
export async function connectedCalendarFor(
  db: Pick<PrismaClient, "connectedCalendar">,
  userId: number,
  integration: string,
  externalId: string,
): Promise<{ credentialId: number; url: string } | null> {
  let url: string;
  try {
    url = normalizeCalendarUrl(externalId);
  } catch {
    return null;
  }
  const calendar = await db.connectedCalendar.findFirst({
    where: { userId, url, credential: { type: integration } },
    orderBy: { id: "asc" },
    select: { credentialId: true, url: true },
  });
  return calendar;
}
