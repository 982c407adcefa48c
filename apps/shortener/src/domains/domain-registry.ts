// The operator's commands on domains (cli.ts parses and prints; the work is here): register,
// list, remove, assign to users, and set a domain's redirects. Every change reaches each
// instance's redirect at commit (the domains_notify_changed trigger).
import { isUniqueViolation, type PrismaClient, uuidv7s } from "@app/db";
import { DEFAULT_DOMAIN_ID } from "../default-domain.ts";

/** A domain command that cannot be done (no such domain or user, has shorts...): its message says why. */
export class DomainError extends Error {
  override name = "DomainError";
}

export interface DomainListing {
  host: string;
  isDefault: boolean;
  /** The e-mail addresses of the users it is assigned to; none: open to every user. */
  users: string[];
  shorts: number;
  rootUrl: string | null;
  notFoundUrl: string | null;
  createdAt: Date;
}

export interface DomainRedirects {
  /** Where GET / redirects; null removes it; undefined keeps it. */
  rootUrl?: string | null | undefined;
  notFoundUrl?: string | null | undefined;
}

async function userId(prisma: PrismaClient, email: string): Promise<string> {
  const user = await prisma.shortenerUser.findUnique({
    where: { email: email.toLowerCase() },
    select: { id: true },
  });
  if (!user) throw new DomainError(`no user ${email}`);
  return user.id;
}

/** The domain `host` names: the default one when it is the base URL's host. */
async function domainId(prisma: PrismaClient, defaultHost: string, host: string): Promise<string> {
  if (host === defaultHost) return DEFAULT_DOMAIN_ID;
  const domain = await prisma.shortDomain.findUnique({ where: { host }, select: { id: true } });
  if (!domain) throw new DomainError(`no domain ${host} (domain:list shows them)`);
  return domain.id;
}

/** Registers `host`, open to every user, or assigned to `user` only. */
export async function addDomain(
  prisma: PrismaClient,
  defaultHost: string,
  host: string,
  { user, ...redirects }: { user?: string | undefined } & DomainRedirects = {},
): Promise<DomainListing> {
  if (host === defaultHost) throw new DomainError(`${host} is the default domain (SHORT_BASE_URL's host)`);
  const owner = user === undefined ? undefined : await userId(prisma, user);
  const [id] = uuidv7s(1);
  try {
    await prisma.shortDomain.create({
      data: {
        id: id!,
        host,
        rootUrl: redirects.rootUrl ?? null,
        notFoundUrl: redirects.notFoundUrl ?? null,
        ...(owner === undefined ? {} : { users: { create: { userId: owner } } }),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError(`domain ${host} is already registered`);
    throw error;
  }
  return (await listDomains(prisma, defaultHost)).find((domain) => domain.host === host)!;
}

/** Every domain, the default first, with its users and its number of shorts. */
export async function listDomains(prisma: PrismaClient, defaultHost: string): Promise<DomainListing[]> {
  const rows = await prisma.shortDomain.findMany({
    select: {
      id: true,
      host: true,
      rootUrl: true,
      notFoundUrl: true,
      createdAt: true,
      users: { select: { user: { select: { email: true } } } },
      _count: { select: { shorts: true } },
    },
    orderBy: { host: { sort: "asc", nulls: "first" } },
  });
  return rows.map((row) => ({
    host: row.id === DEFAULT_DOMAIN_ID ? defaultHost : row.host!,
    isDefault: row.id === DEFAULT_DOMAIN_ID,
    users: row.users.map((u) => u.user.email).sort(),
    shorts: row._count.shorts,
    rootUrl: row.rootUrl,
    notFoundUrl: row.notFoundUrl,
    createdAt: row.createdAt,
  }));
}

const hasShorts = (host: string, shorts: number) =>
  new DomainError(
    `domain ${host} has ${shorts} short${shorts === 1 ? "" : "s"}; delete them or move them to another domain first`,
  );

/** Removes a domain that has no shorts; one with shorts is refused, saying how many. */
export async function removeDomain(prisma: PrismaClient, defaultHost: string, host: string): Promise<void> {
  const id = await domainId(prisma, defaultHost, host);
  if (id === DEFAULT_DOMAIN_ID) throw new DomainError(`${host} is the default domain; it cannot be removed`);
  const count = () => prisma.short.count({ where: { domainId: id } });
  const shorts = await count();
  if (shorts > 0) throw hasShorts(host, shorts);
  try {
    await prisma.$transaction(async (tx) => {
      await tx.shortDomain.delete({ where: { id } });
      // Its orphan visits go with it (no foreign key: docs/adr/0227), under the lock the orphan
      // counter's flushes take, so that none adds a row after this (visits/orphan-visits.ts).
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('shortener.orphan_visits'))`;
      await tx.$executeRaw`DELETE FROM "shortener"."orphan_visit_hours" WHERE "domain_id" = ${id}::uuid`;
      await tx.$executeRaw`DELETE FROM "shortener"."orphan_visit_hour_values" WHERE "domain_id" = ${id}::uuid`;
    });
  } catch (error) {
    // The foreign key (RESTRICT) refuses it when a short was created on it meanwhile.
    const now = await count();
    if (now > 0) throw hasShorts(host, now);
    throw error;
  }
}

/** Restricts a domain to `user` too (a domain with no users is open to every user). */
export async function assignDomain(prisma: PrismaClient, defaultHost: string, host: string, user: string) {
  const id = await domainId(prisma, defaultHost, host);
  if (id === DEFAULT_DOMAIN_ID) throw new DomainError(`${host} is the default domain; every user may use it`);
  const owner = await userId(prisma, user);
  await prisma.shortDomainUser.createMany({ data: [{ domainId: id, userId: owner }], skipDuplicates: true });
}

/**
 * Takes `user` off a domain. Taking off the last one would open the domain to every user: that
 * takes `open`, so that nobody does it by accident. Their shorts stay on it.
 */
export async function unassignDomain(
  prisma: PrismaClient,
  defaultHost: string,
  host: string,
  user: string,
  { open = false } = {},
): Promise<{ open: boolean }> {
  const id = await domainId(prisma, defaultHost, host);
  const owner = await userId(prisma, user);
  return prisma.$transaction(async (tx) => {
    // Locked, so two unassigns cannot both see another user left.
    await tx.$executeRaw`SELECT FROM "shortener"."domains" WHERE "id" = ${id}::uuid FOR UPDATE`;
    const users = await tx.shortDomainUser.findMany({ where: { domainId: id }, select: { userId: true } });
    if (!users.some((u) => u.userId === owner)) throw new DomainError(`${user} is not assigned to ${host}`);
    if (users.length === 1 && !open) {
      throw new DomainError(
        `${user} is the last user of ${host}; without users a domain is open to every user (add --open to do that)`,
      );
    }
    await tx.shortDomainUser.delete({ where: { domainId_userId: { domainId: id, userId: owner } } });
    return { open: users.length === 1 };
  });
}

/** Sets (or, with null, removes) where a domain's root and unknown names redirect. */
export async function setDomainRedirects(
  prisma: PrismaClient,
  defaultHost: string,
  host: string,
  redirects: DomainRedirects,
): Promise<DomainListing> {
  const id = await domainId(prisma, defaultHost, host);
  await prisma.shortDomain.update({
    where: { id },
    data: { rootUrl: redirects.rootUrl, notFoundUrl: redirects.notFoundUrl },
  });
  return (await listDomains(prisma, defaultHost)).find((domain) => domain.host === host)!;
}
