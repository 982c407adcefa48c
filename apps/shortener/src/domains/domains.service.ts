import { Prisma, type PrismaClient } from "@app/db";
import type { Domain } from "@app/schemas/shortener";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { DEFAULT_DOMAIN, DEFAULT_DOMAIN_ID, type DomainRef, hostOf } from "../default-domain.ts";
import { BadRequest } from "../errors.ts";

/**
 * What the domains_notify_changed trigger sends at the commit of any change to the domains, on
 * the redirect cache's channel (one listening connection per instance hears both).
 */
export const DOMAINS_CHANGED = "*domains";

/** A bound on a copy of the directory, even if a notification were lost. */
const DIRECTORY_TTL_MS = 60_000;

/** A domain as the redirect reads it. */
export interface DomainEntry extends DomainRef {
  /** Where GET / redirects; null: 404. */
  rootUrl: string | null;
  /** Where a name no short of the domain has redirects; null: 404. */
  notFoundUrl: string | null;
}

/** Every domain, by host: few enough to hold whole, and read on every redirect. */
interface Directory {
  byHost: Map<string, DomainEntry>;
  fallback: DomainEntry;
}

/** The domain `hostname` reaches in `directory` (forHost). */
function reach(directory: Directory, defaultHost: string, hostname: string): DomainEntry | null {
  const host = hostname.toLowerCase();
  if (host === defaultHost) return directory.fallback;
  return directory.byHost.get(host) ?? (directory.byHost.size === 0 ? directory.fallback : null);
}

/** Which domain a request reaches, and which domains a user may use. */
export class DomainsService {
  /** The default domain's host (SHORT_BASE_URL's), lower case, without the port. */
  readonly defaultHost: string;
  /** The directory as last read, while notifications are heard; none: read it again. */
  private cached: { directory: Directory; expires: number } | undefined;
  private generation = 0;
  private loading: Promise<Directory> | undefined;
  /** Whether change notifications are heard now; until told, never (every redirect reads). */
  private listening: () => boolean = () => false;

  constructor(
    private readonly prisma: PrismaClient,
    shortBaseUrl: string,
  ) {
    this.defaultHost = hostOf(shortBaseUrl);
  }

  /** The directory is kept in memory only while `listening` says notifications are heard. */
  hearChangesThrough(listening: () => boolean): void {
    this.listening = listening;
  }

  /** A notification on the channel (null: the channel was lost, anything may have changed). */
  changed(payload: string | null): void {
    if (payload !== null && payload !== DOMAINS_CHANGED) return;
    this.generation++;
    this.cached = undefined;
    this.loading = undefined;
  }

  /**
   * The domain a request's host name reaches (docs/adr/0221), or null (404): a registered
   * domain's host reaches it; the base URL's host reaches the default domain, and so does any
   * other host while no domain is registered (an instance with one domain answers whatever
   * name it is reached by, as before domains existed).
   */
  async forHost(hostname: string): Promise<DomainEntry | null> {
    return this.inMemoryForHost(hostname) ?? reach(await this.directory(), this.defaultHost, hostname);
  }

  /**
   * forHost's answer when the directory is in memory (every redirect but the first after a
   * change), without a promise; undefined when it must be read: the redirect's fast path.
   */
  inMemoryForHost(hostname: string): DomainEntry | null | undefined {
    const { cached } = this;
    if (!cached || cached.expires <= Date.now() || !this.listening()) return undefined;
    return reach(cached.directory, this.defaultHost, hostname);
  }

  private directory(): Promise<Directory> {
    const { cached } = this;
    if (cached && cached.expires > Date.now() && this.listening()) return Promise.resolve(cached.directory);
    // A miss: requests in flight share one read (a change drops it, so none waits for a stale one).
    if (!this.loading) {
      const loading = this.loadDirectory().finally(() => {
        if (this.loading === loading) this.loading = undefined;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  private async loadDirectory(): Promise<Directory> {
    // A change notified while the read is in flight keeps its answer out of memory.
    const readAt = this.generation;
    const rows = await this.prisma.shortDomain.findMany({
      select: { id: true, host: true, rootUrl: true, notFoundUrl: true },
    });
    const byHost = new Map<string, DomainEntry>();
    let fallback: DomainEntry = { ...DEFAULT_DOMAIN, rootUrl: null, notFoundUrl: null };
    for (const row of rows) {
      if (row.id === DEFAULT_DOMAIN_ID) fallback = row;
      // The base URL's host is the default domain's, even if it was registered before it became so.
      else if (row.host !== null && row.host !== this.defaultHost) byHost.set(row.host, row);
    }
    const directory = { byHost, fallback };
    if (this.listening() && readAt === this.generation) {
      this.cached = { directory, expires: Date.now() + DIRECTORY_TTL_MS };
    }
    return directory;
  }

  /** The domains `userId` may create shorts on: the default, then the others by host. */
  async usableBy(userId: string): Promise<Domain[]> {
    const rows = await this.prisma.$queryRaw<{ host: string }[]>`
      SELECT d."host" FROM "shortener"."domains" d
       WHERE d."host" IS NOT NULL AND d."host" <> ${this.defaultHost} AND ${openTo(userId)}
       ORDER BY d."host"`;
    return [
      { host: this.defaultHost, isDefault: true },
      ...rows.map((row) => ({ host: row.host, isDefault: false })),
    ];
  }

  /**
   * The domain `host` names, if `userId` may use it; 400 otherwise, the same for a domain that
   * does not exist and one that is not the caller's (nothing to learn from the difference).
   */
  async usable(userId: string, host: string): Promise<DomainRef> {
    const domain = await this.usableOrNull(userId, host);
    if (!domain) throw new BadRequest(`domain "${host}" is not one you may use`);
    return domain;
  }

  /** The domain `host` names, if `userId` may use it (what usableBy lists); null otherwise. */
  async usableOrNull(userId: string, host: string): Promise<DomainRef | null> {
    if (host === this.defaultHost) return DEFAULT_DOMAIN;
    const [row] = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT d."id" FROM "shortener"."domains" d WHERE d."host" = ${host} AND ${openTo(userId)}`;
    return row ? { id: row.id, host } : null;
  }

  /** The id of the domain `host` names, whoever may use it; null when none does. */
  async idOf(host: string): Promise<string | null> {
    if (host === this.defaultHost) return DEFAULT_DOMAIN_ID;
    const row = await this.prisma.shortDomain.findUnique({ where: { host }, select: { id: true } });
    return row?.id ?? null;
  }
}

/** `d` is open to every user (none assigned) or assigned to this one (docs/adr/0220). */
function openTo(userId: string) {
  return Prisma.sql`(NOT EXISTS (SELECT FROM "shortener"."domain_users" u WHERE u."domain_id" = d."id")
    OR EXISTS (SELECT FROM "shortener"."domain_users" u WHERE u."domain_id" = d."id" AND u."user_id" = ${userId}::uuid))`;
}

/**
 * The app's `domains` service. Its copy of the directory follows the redirect cache's channel:
 * app.ts passes it the notifications and whether they are heard.
 */
async function domainsPlugin(app: FastifyInstance, options: { shortBaseUrl: string }): Promise<void> {
  app.decorate("domains", new DomainsService(app.prisma, options.shortBaseUrl));
}

export default fp(domainsPlugin, { name: "domains", fastify: "5.x", decorators: { fastify: ["prisma"] } });
