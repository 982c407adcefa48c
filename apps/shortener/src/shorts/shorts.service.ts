import { isUniqueViolation, Prisma, type PrismaClient, type ReplicaReads, uuidv7s } from "@app/db";
import {
  type LogsQuery,
  type NewShort,
  SHORT_CODE_LENGTH,
  SHORT_ID_PATTERN,
  type Short,
  type ShortEdit,
  type ShortListQuery,
  type ShortLog,
  windowIsOrdered,
} from "@app/schemas/shortener";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { customAlphabet } from "nanoid";
import { DEFAULT_DOMAIN, type DomainRef } from "../default-domain.ts";
import { BadRequest, Conflict, HttpError, NotFound } from "../errors.ts";
import { TOTALS_END } from "../visits/visit-rollup.ts";
import type { PasswordHasher } from "./password-hash.ts";
import { compileRules, type StoredRule } from "./redirect-rules.ts";
import {
  createTargetCache,
  SHORT_DELETED_CHANNEL,
  type Target,
  type TargetCache,
  targetKey,
} from "./target-cache.ts";

const GENERATED_NAME_ATTEMPTS = 5;
const generateName = customAlphabet(
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
  SHORT_CODE_LENGTH.default,
);

interface ShortRow {
  id: string;
  domainId: string;
  /** The domain's host; null: the default domain. */
  domainHost: string | null;
  name: string;
  url: string;
  createdAt: Date;
  /** NULL only if written by hand: the column's default is []. */
  tags: string[] | null;
  validFrom: Date | null;
  validUntil: Date | null;
  maxVisits: number | null;
  expiredUrl: string | null;
  hasPassword: boolean;
  /** Null when none (an edit stores null for [] too). */
  redirectRules: StoredRule[] | null;
  /** Set only by an import (the link's title at its source). */
  title: string | null;
  forwardQuery: boolean;
  crawlable: boolean;
}

/** What the API shows of a short: never the password hash, only whether there is one. */
const SHORT_COLUMNS = Prisma.sql`s."id", s."domain_id" AS "domainId", d."host" AS "domainHost", s."name", s."url", s."tags", s."created_at" AS "createdAt",
  s."valid_from" AS "validFrom", s."valid_until" AS "validUntil", s."max_visits" AS "maxVisits",
  s."expired_url" AS "expiredUrl", s."password_hash" IS NOT NULL AS "hasPassword",
  s."redirect_rules" AS "redirectRules", s."title", s."forward_query" AS "forwardQuery", s."crawlable"`;

/** An ISO date-time as UTC (PostgreSQL takes offsets of at most 15 hours; JavaScript any). */
const utc = (instant: string | undefined) => (instant === undefined ? null : new Date(instant).toISOString());

/** Which of the redirect's fields a short has, or none: the redirect's fast path. */
export function targetOf(row: {
  id: string;
  url: string;
  validFrom: Date | null;
  validUntil: Date | null;
  maxVisits: number | null;
  expiredUrl: string | null;
  passwordHash: string | null;
  redirectRules: unknown;
  forwardQuery?: boolean;
}): Target {
  const { id, url, validFrom, validUntil, maxVisits, expiredUrl, passwordHash } = row;
  const redirectRules = compileRules(row.redirectRules);
  const target: Target = { id, url };
  if (redirectRules) target.redirectRules = redirectRules;
  if (row.forwardQuery) target.forwardQuery = true;
  if (validFrom === null && validUntil === null && maxVisits === null && passwordHash === null) return target;
  target.rules = {
    validFrom: validFrom?.getTime() ?? null,
    validUntil: validUntil?.getTime() ?? null,
    maxVisits,
    expiredUrl,
    passwordHash,
  };
  return target;
}

const TARGET_FIELDS = {
  id: true,
  url: true,
  validFrom: true,
  validUntil: true,
  maxVisits: true,
  expiredUrl: true,
  passwordHash: true,
  redirectRules: true,
  forwardQuery: true,
} as const;

/** A short to insert: what POST /shorts asked for, its password hashed and its domain resolved (prepare). */
export type ShortToCreate = Omit<NewShort, "password" | "domain" | "findIfExists"> & {
  passwordHash: string | null;
  domain: DomainRef;
  /** An imported link's (imports/importer.ts): its creation at its source, and its title. */
  createdAt?: Date | undefined;
  title?: string | null | undefined;
};

/** An edit as the service takes it: its domain resolved (and allowed) by the route. */
export type ShortChange = Omit<ShortEdit, "domain"> & {
  domain?: DomainRef;
  /** Shlink's API edits a short's title (shlink/); null removes it. */
  title?: string | null | undefined;
};

/** A name taken on its domain: the 409 every write of a name answers. */
const taken = (name: string, domain: DomainRef) =>
  new Conflict(`name "${name}" is already taken${domain.host === null ? "" : ` on ${domain.host}`}`);

/** A short's visit limit, the visits counted against it, and where it redirects past it. */
export interface LimitState {
  maxVisits: number | null;
  countedVisits: number;
  expiredUrl: string | null;
}

export interface ShortsServiceOptions {
  shortBaseUrl: string;
  /** First path segments the service serves itself: never usable as names. */
  reservedNames: Iterable<string>;
  /** The redirect's cache of targets by (domain, name); none: every redirect reads the database. */
  targets?: TargetCache;
  /** Where target lookups read (a replica within its lag bound); default: the primary. */
  reads?: ReplicaReads;
  /** Told after a short is deleted (its visits are then removed in the background). */
  onDeleted?: () => void;
  /** Hashes the passwords of protected shorts. */
  passwords: PasswordHasher;
  /** Folds the visits' pending sums in: called before a visit count is read (docs/adr/0234). */
  settleVisits?: () => Promise<void>;
}

/** Shorts and their visit logs, always scoped to one owner. */
export class ShortsService {
  private readonly reserved: Set<string>;
  private readonly targets: TargetCache | undefined;
  /** Target lookups in flight, by key: visits that miss the cache together share one query. */
  private readonly lookups = new Map<string, Promise<Target | null>>();
  /** The base URL's scheme, which short URLs on other domains share. */
  private readonly scheme: string;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: ShortsServiceOptions,
  ) {
    this.reserved = new Set([...options.reservedNames].map((n) => n.toLowerCase()));
    this.targets = options.targets;
    this.scheme = new URL(options.shortBaseUrl).protocol;
  }

  /** Whether the redirect's cache hears change notifications now (it serves entries only then). */
  get listening(): boolean {
    return this.targets?.isListening ?? false;
  }

  /** The short URL base of a domain (null host: the default domain's, SHORT_BASE_URL). */
  baseUrlOf(domainHost: string | null): string {
    return domainHost === null ? this.options.shortBaseUrl : `${this.scheme}//${domainHost}`;
  }

  isReserved(name: string): boolean {
    // Case-insensitive, so /Docs can never shadow (or be confused with) /docs.
    return this.reserved.has(name.toLowerCase());
  }

  toShort(row: ShortRow, visits = 0): Short {
    return {
      id: row.id,
      url: row.url,
      name: row.name,
      shorturl: `${this.baseUrlOf(row.domainHost)}/${row.name}`,
      createdAt: row.createdAt.toISOString(),
      visits,
      // Only when there are some: a short without tags answers exactly as before tags existed.
      ...(row.tags?.length ? { tags: row.tags } : {}),
      // Likewise each lifecycle field, only when set.
      ...(row.validFrom ? { validFrom: row.validFrom.toISOString() } : {}),
      ...(row.validUntil ? { validUntil: row.validUntil.toISOString() } : {}),
      ...(row.maxVisits !== null ? { maxVisits: row.maxVisits } : {}),
      ...(row.expiredUrl !== null ? { expiredUrl: row.expiredUrl } : {}),
      ...(row.hasPassword ? { hasPassword: true as const } : {}),
      // Only off the default domain: a one-domain instance answers as before domains existed.
      ...(row.domainHost !== null ? { domain: row.domainHost } : {}),
      ...(row.redirectRules?.length ? { redirectRules: row.redirectRules } : {}),
      ...(row.title ? { title: row.title } : {}),
      ...(row.forwardQuery ? { forwardQuery: true as const } : {}),
      ...(row.crawlable ? { crawlable: true as const } : {}),
    };
  }

  /**
   * The caller's shorts that `where` selects, in `order`, each with its visit count from the
   * aggregates written with the visits (never a scan of the visits): summed per short from its
   * hourly rows when only a page of shorts needs it, or for every short of the user at once from
   * their totals of the days rolled up and the hours after those when the order needs them all
   * (docs/adr/0155, 0185, 0187). Both sums are exact.
   */
  private async select(
    userId: string,
    where: Prisma.Sql[],
    order: { by: Prisma.Sql; visitsOfAll?: boolean },
    page: { limit?: number | undefined; offset?: number | undefined } = {},
  ): Promise<Short[]> {
    await this.options.settleVisits?.();
    const visits = order.visitsOfAll
      ? Prisma.sql`LEFT JOIN (
          SELECT "short_id", sum("visits") AS "visits" FROM (
            SELECT t."short_id", t."visits" FROM "shortener"."visit_user_short_totals" t
             WHERE t."user_id" = ${userId}::uuid
            UNION ALL
            SELECT h."short_id", h."visits" FROM "shortener"."visit_user_short_hours" h
             WHERE h."user_id" = ${userId}::uuid AND h."hour" >= ${Prisma.raw(TOTALS_END)}
          ) AS d GROUP BY "short_id"
        ) v ON v."short_id" = s."id"`
      : Prisma.sql`LEFT JOIN LATERAL (
          SELECT sum(h."visits") AS "visits" FROM "shortener"."visit_hours" h WHERE h."short_id" = s."id"
        ) v ON true`;
    const rows = await this.prisma.$queryRaw<(ShortRow & { visits: bigint })[]>`
      SELECT ${SHORT_COLUMNS}, COALESCE(v."visits", 0) AS "visits"
        FROM "shortener"."shorts" s JOIN "shortener"."domains" d ON d."id" = s."domain_id" ${visits}
       WHERE ${Prisma.join([Prisma.sql`s."user_id" = ${userId}::uuid`, ...where], " AND ")}
       ORDER BY ${order.by}
       LIMIT ${page.limit ?? null} OFFSET ${page.offset ?? 0}`;
    return rows.map((row) => this.toShort(row, Number(row.visits)));
  }

  /**
   * A short as it will be stored: its password hashed. Hashing takes a tenth of a second on
   * purpose, so it is done here, before any transaction (one holds a pooled connection).
   */
  async prepare(input: NewShort, domain: DomainRef = DEFAULT_DOMAIN): Promise<ShortToCreate> {
    const { password, domain: _host, findIfExists: _find, namePrefix, ...short } = input;
    return {
      ...short,
      // A prefix before a given name is part of it; before a generated one, it waits for the draw.
      ...(namePrefix === undefined
        ? {}
        : short.name === undefined
          ? { namePrefix }
          : { name: `${namePrefix}${short.name}` }),
      domain,
      passwordHash: password === undefined ? null : await this.options.passwords.hash(password),
    };
  }

  /** One short: createMany of one item, its error thrown. */
  async create(userId: string, input: ShortToCreate, db: PrismaClient = this.prisma): Promise<Short> {
    const [result] = await this.createMany(userId, [input], db);
    if (result instanceof HttpError) throw result;
    return result!;
  }

  /**
   * Creates each item that can be, in a few set-based statements whatever their number: the
   * result at each position is the created short or the error POST /shorts would have answered
   * for that item (an item that is already an error stays one). A reserved name is 400; a taken
   * one 409 (per domain), as is a name an earlier item of the same call asked for on the same
   * domain. Inserts skip taken names (`ON CONFLICT DO NOTHING`: the unique indexes decide, so
   * concurrent requests cannot both have one, and nothing aborts a surrounding transaction;
   * without a conflict target, it also honours the global index on names until the contract
   * step drops it); generated names that were taken are drawn again. Ids are ordered by
   * position, so the items list in the order they were sent.
   */
  async createMany(
    userId: string,
    items: readonly (ShortToCreate | HttpError)[],
    db: PrismaClient = this.prisma,
  ): Promise<(Short | HttpError)[]> {
    const results: (Short | HttpError | undefined)[] = new Array(items.length);
    const ids = uuidv7s(items.length);
    const item = (index: number) => items[index] as ShortToCreate;
    // By targetKey(domain, name): a name is taken per domain.
    const chosen = new Map<string, number>();
    let generated: number[] = [];
    items.forEach((short, index) => {
      if (short instanceof HttpError) results[index] = short;
      else if (short.name === undefined) generated.push(index);
      else if (this.isReserved(short.name))
        results[index] = new BadRequest(`name "${short.name}" is reserved`);
      else if (chosen.has(targetKey(short.domain.id, short.name)))
        results[index] = taken(short.name, short.domain);
      else chosen.set(targetKey(short.domain.id, short.name), index);
    });

    let pending = [...chosen.values()].map((index) => ({ index, name: item(index).name! }));
    for (let attempt = 1; pending.length > 0 || generated.length > 0; attempt++) {
      // 62^7 names make a collision rare; a few fresh draws settle it (62^4, the shortest, too
      // until millions of them are taken on one domain).
      if (attempt > GENERATED_NAME_ATTEMPTS) throw new Error("could not draw a free name for a short");
      const drawn = new Set<string>();
      for (const index of generated) {
        const domainId = item(index).domain.id;
        const length = item(index).shortCodeLength ?? SHORT_CODE_LENGTH.default;
        const prefix = item(index).namePrefix ?? "";
        const draw = () => `${prefix}${generateName(length)}`;
        let name = draw();
        const free = (candidate: string) =>
          !this.isReserved(candidate) &&
          !chosen.has(targetKey(domainId, candidate)) &&
          !drawn.has(targetKey(domainId, candidate));
        while (!free(name)) name = draw();
        drawn.add(targetKey(domainId, name));
        pending.push({ index, name });
      }
      const inserted = new Map(
        (await this.insert(db, userId, pending, ids, items)).map((row) => [
          targetKey(row.domainId, row.name),
          row,
        ]),
      );
      generated = [];
      for (const { index, name } of pending) {
        const key = targetKey(item(index).domain.id, name);
        const row = inserted.get(key);
        if (row) results[index] = this.toShort({ ...row, domainHost: item(index).domain.host });
        else if (chosen.get(key) === index) results[index] = taken(name, item(index).domain);
        else generated.push(index);
      }
      pending = [];
    }
    return results as (Short | HttpError)[];
  }

  /** One INSERT of `rows` (an item's position and name), skipping names that are taken. */
  private insert(
    db: PrismaClient,
    userId: string,
    rows: { index: number; name: string }[],
    ids: string[],
    items: readonly (ShortToCreate | HttpError)[],
  ): Promise<Omit<ShortRow, "domainHost">[]> {
    const column = <T>(value: (item: ShortToCreate) => T) =>
      rows.map((row) => value(items[row.index] as ShortToCreate));
    // Tags match [A-Za-z0-9_-]: a comma joins them safely into one text per row. Rows go in by
    // name, so concurrent inserts wait on each other's names in one order and cannot deadlock.
    return db.$queryRaw<Omit<ShortRow, "domainHost">[]>`
      INSERT INTO "shortener"."shorts" ("id", "user_id", "domain_id", "name", "url", "tags", "valid_from",
        "valid_until", "max_visits", "expired_url", "password_hash", "redirect_rules", "created_at", "title",
        "forward_query", "crawlable")
      SELECT i."id", ${userId}::uuid, i."domain_id", i."name", i."url", string_to_array(i."tags", ',')::varchar(32)[],
        i."valid_from", i."valid_until", i."max_visits", i."expired_url", i."password_hash", i."redirect_rules",
        coalesce(i."created_at", now()), i."title", i."forward_query", i."crawlable"
        FROM unnest(${rows.map((row) => ids[row.index])}::uuid[], ${column((short) => short.domain.id)}::uuid[],
                    ${rows.map((row) => row.name)}::text[],
                    ${column((short) => short.url)}::text[],
                    ${column((short) => (short.tags ?? []).join(","))}::text[],
                    ${column((short) => utc(short.validFrom))}::timestamptz[],
                    ${column((short) => utc(short.validUntil))}::timestamptz[],
                    ${column((short) => short.maxVisits ?? null)}::int[],
                    ${column((short) => short.expiredUrl ?? null)}::text[],
                    ${column((short) => short.passwordHash)}::text[],
                    ${column((short) => storedRules(short.redirectRules))}::jsonb[],
                    ${column((short) => short.createdAt?.toISOString() ?? null)}::timestamptz[],
                    ${column((short) => short.title ?? null)}::text[],
                    ${column((short) => short.forwardQuery === true)}::bool[],
                    ${column((short) => short.crawlable === true)}::bool[])
          AS i("id", "domain_id", "name", "url", "tags", "valid_from", "valid_until", "max_visits", "expired_url",
               "password_hash", "redirect_rules", "created_at", "title", "forward_query", "crawlable")
       ORDER BY i."name", i."domain_id"
      ON CONFLICT DO NOTHING
      RETURNING "id", "domain_id" AS "domainId", "name", "url", "tags", "created_at" AS "createdAt", "valid_from" AS "validFrom",
        "valid_until" AS "validUntil", "max_visits" AS "maxVisits", "expired_url" AS "expiredUrl",
        "password_hash" IS NOT NULL AS "hasPassword", "redirect_rules" AS "redirectRules", "title",
        "forward_query" AS "forwardQuery", "crawlable"`;
  }

  /**
   * findIfExists (Shlink's): the caller's oldest short with the same url on the same domain and,
   * of what `short` gives, the same name, tags (as a set), window bounds, limit, expired URL,
   * forwardQuery and crawlable; null when none. A short asked for with a password or redirect
   * rules matches none (neither can be compared as given: a new one is created).
   */
  async findMatching(userId: string, short: ShortToCreate): Promise<Short | null> {
    if (short.passwordHash !== null || (short.redirectRules?.length ?? 0) > 0) return null;
    const where: Prisma.Sql[] = [
      Prisma.sql`s."url" = ${short.url}`,
      Prisma.sql`s."domain_id" = ${short.domain.id}::uuid`,
    ];
    if (short.name !== undefined) where.push(Prisma.sql`s."name" = ${short.name}`);
    else if (short.namePrefix !== undefined)
      where.push(Prisma.sql`starts_with(s."name", ${short.namePrefix})`);
    if (short.tags !== undefined) {
      const tags = [...new Set(short.tags)];
      where.push(Prisma.sql`s."tags" @> ${tags}::varchar(32)[] AND s."tags" <@ ${tags}::varchar(32)[]`);
    }
    if (short.validFrom !== undefined)
      where.push(Prisma.sql`s."valid_from" = ${utc(short.validFrom)}::timestamptz`);
    if (short.validUntil !== undefined)
      where.push(Prisma.sql`s."valid_until" = ${utc(short.validUntil)}::timestamptz`);
    if (short.maxVisits !== undefined) where.push(Prisma.sql`s."max_visits" = ${short.maxVisits}`);
    if (short.expiredUrl !== undefined) where.push(Prisma.sql`s."expired_url" = ${short.expiredUrl}`);
    if (short.forwardQuery !== undefined) where.push(Prisma.sql`s."forward_query" = ${short.forwardQuery}`);
    if (short.crawlable !== undefined) where.push(Prisma.sql`s."crawlable" = ${short.crawlable}`);
    const [found] = await this.select(
      userId,
      where,
      { by: Prisma.sql`s."created_at", s."id"` },
      { limit: 1 },
    );
    return found ?? null;
  }

  /**
   * The names of a domain's shorts that robots.txt allows (crawlable), by name: read when a
   * crawler asks, from the domain's rows (a scan of its names, no index of its own: asked for
   * rarely, and each answer is short).
   */
  async crawlableNames(domainId: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ name: string }[]>`
      SELECT "name" FROM "shortener"."shorts" WHERE "domain_id" = ${domainId}::uuid AND "crawlable" ORDER BY "name"`;
    return rows.map((row) => row.name);
  }

  /**
   * The caller's shorts: filtered by domain (its id, resolved by the route from the host the
   * query names), tag and text, ordered by creation or visits, paged.
   */
  async list(userId: string, query: Omit<ShortListQuery, "domain">, domainId?: string): Promise<Short[]> {
    const where: Prisma.Sql[] = [];
    if (domainId !== undefined) where.push(Prisma.sql`s."domain_id" = ${domainId}::uuid`);
    if (query.tag !== undefined) where.push(Prisma.sql`s."tags" @> ARRAY[${query.tag}::varchar(32)]`);
    if (query.search !== undefined) {
      const pattern = `%${escapeLike(query.search)}%`;
      where.push(Prisma.sql`(s."name" ILIKE ${pattern} OR s."url" ILIKE ${pattern})`);
    }
    const direction = query.order === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
    const byCreation = Prisma.sql`s."created_at" ${direction}, s."id" ${direction}`;
    const order =
      query.orderBy === "visits"
        ? { by: Prisma.sql`COALESCE(v."visits", 0) ${direction}, ${byCreation}`, visitsOfAll: true }
        : { by: byCreation };
    return this.select(userId, where, order, query);
  }

  /** The caller's short; someone else's is exactly as missing as a nonexistent one. */
  async get(userId: string, id: string): Promise<Short> {
    const [short] = await this.select(userId, [Prisma.sql`s."id" = ${validId(id)}::uuid`], {
      by: Prisma.sql`s."id"`,
    });
    if (!short) throw new NotFound();
    return short;
  }

  /**
   * Changes what `edit` holds and nothing else. The redirect follows a new target, name or
   * domain at once: this instance's cache drops the old key before answering, every other
   * instance's when the shorts_notify_changed trigger's notification reaches it (sent at commit).
   * The old name stops redirecting and is free for anyone to take on its domain.
   */
  async update(userId: string, id: string, edit: ShortChange): Promise<Short> {
    const shortId = validId(id);
    // Hashed before the row is locked: the hash takes a tenth of a second on purpose.
    const passwordHash =
      edit.password === undefined
        ? undefined
        : edit.password === null
          ? null
          : await this.options.passwords.hash(edit.password);
    const instant = (value: string | null | undefined) =>
      value === undefined ? undefined : value === null ? null : new Date(value);
    if (edit.name !== undefined && this.isReserved(edit.name))
      throw new BadRequest(`name "${edit.name}" is reserved`);
    // The name and domain the short will have, once the row is read: what a 409 names.
    let wanted: { name: string; domain: DomainRef } = {
      name: edit.name ?? "",
      domain: edit.domain ?? DEFAULT_DOMAIN,
    };
    const write = () =>
      this.prisma.$transaction(async (tx) => {
        // Locked, so the name read is the one this edit replaces. FOR UPDATE also waits for the
        // visits being stored (they hold FOR KEY SHARE or the row itself) and holds off new ones
        // until commit, so a limit set here counts every visit stored before it, exactly.
        const [before] = await tx.$queryRaw<
          {
            domainId: string;
            domainHost: string | null;
            name: string;
            validFrom: Date | null;
            validUntil: Date | null;
          }[]
        >`
          SELECT s."domain_id" AS "domainId", d."host" AS "domainHost", s."name", s."valid_from" AS "validFrom",
                 s."valid_until" AS "validUntil"
            FROM "shortener"."shorts" s JOIN "shortener"."domains" d ON d."id" = s."domain_id"
           WHERE s."id" = ${shortId}::uuid AND s."user_id" = ${userId}::uuid FOR UPDATE OF s`;
        if (!before) throw new NotFound();
        wanted = {
          name: edit.name ?? before.name,
          domain: edit.domain ?? { id: before.domainId, host: before.domainHost },
        };
        const validFrom = instant(edit.validFrom);
        const validUntil = instant(edit.validUntil);
        if (
          !windowIsOrdered(
            validFrom === undefined ? before.validFrom : validFrom,
            validUntil === undefined ? before.validUntil : validUntil,
          )
        ) {
          throw new BadRequest("validUntil must be later than validFrom");
        }
        await tx.short.update({
          where: { id: shortId },
          data: {
            url: edit.url,
            domainId: edit.domain?.id,
            name: edit.name,
            tags: edit.tags,
            validFrom,
            validUntil,
            maxVisits: edit.maxVisits,
            expiredUrl: edit.expiredUrl,
            title: edit.title,
            passwordHash,
            forwardQuery: edit.forwardQuery,
            crawlable: edit.crawlable,
            // [] and null both remove them: the column is null when there are none.
            redirectRules:
              edit.redirectRules === undefined
                ? undefined
                : edit.redirectRules === null || edit.redirectRules.length === 0
                  ? Prisma.DbNull
                  : (edit.redirectRules as Prisma.InputJsonValue),
          },
          select: { id: true },
        });
        if (typeof edit.maxVisits === "number") {
          // A limit counts every visit of the short, those before it too: the count starts at
          // the visits stored so far (the aggregates and the sums not folded yet: one statement
          // sees a fold's whole move from one to the other, or none of it; docs/adr/0234).
          await tx.$executeRaw`
            UPDATE "shortener"."shorts" SET "counted_visits" = (
              SELECT COALESCE(sum("visits"), 0) FROM "shortener"."visit_hours" WHERE "short_id" = ${shortId}::uuid
            ) + (
              SELECT COALESCE(sum((t ->> 1)::int), 0)
                FROM "shortener"."visit_pending_sums" p, json_array_elements(p."sums" -> 't') t
               WHERE p."short_id" = ${shortId}::uuid
            ) WHERE "id" = ${shortId}::uuid`;
        }
        return before;
      });
    // The unique index decides, so two edits to one name cannot both have it.
    const previous = await write().catch((error: unknown) => {
      throw isUniqueViolation(error) ? taken(wanted.name, wanted.domain) : error;
    });
    // Neither tags, crawlable nor the title is read by the redirect.
    const { tags: _tags, crawlable: _crawlable, title: _title, ...redirectFields } = edit;
    if (Object.values(redirectFields).some((value) => value !== undefined))
      this.targets?.forget(targetKey(previous.domainId, previous.name));
    return this.get(userId, shortId);
  }

  /** The short's visit limit and count now, from the database; null if it is gone. */
  async limitState(shortId: string): Promise<LimitState | null> {
    return this.prisma.short.findUnique({
      where: { id: shortId },
      select: { maxVisits: true, countedVisits: true, expiredUrl: true },
    });
  }

  /**
   * Deletes the short at once, whatever its visit count: its visits and aggregates are queued
   * (deleted_shorts) and go in the background (visits/visit-maintenance.ts). Every instance's redirect
   * cache hears of it at commit.
   */
  async delete(userId: string, id: string): Promise<void> {
    const deleted = await this.prisma.$queryRaw<{ name: string }[]>`
      WITH gone AS (
        DELETE FROM "shortener"."shorts" WHERE "id" = ${validId(id)}::uuid AND "user_id" = ${userId}::uuid
        RETURNING "id", "domain_id", "name", "user_id"
      ), queued AS (
        INSERT INTO "shortener"."deleted_shorts" ("short_id", "user_id") SELECT "id", "user_id" FROM gone
        ON CONFLICT DO NOTHING
      )
      -- Its key, and its bare name for instances of the previous release (which key by name alone);
      -- on the default domain the two are one, and PostgreSQL sends it once.
      SELECT gone."name" FROM gone, LATERAL (
        SELECT pg_notify(${SHORT_DELETED_CHANNEL}, "shortener"."short_cache_key"(gone."domain_id", gone."name")),
               pg_notify(${SHORT_DELETED_CHANNEL}, gone."name")
      ) AS notified`;
    if (deleted.length === 0) throw new NotFound();
    this.options.onDeleted?.();
  }

  /**
   * A page of a short's visits, newest first: by id, the order they were stored in (createdAt
   * follows it but may tie). `before` pages by id (keyset: stable while visits arrive, one index
   * range per page); `offset` is kept for the seed's clients.
   */
  async logs(userId: string, id: string, page: LogsQuery): Promise<ShortLog[]> {
    const short = await this.findOwned(userId, id);
    const rows = await this.prisma.shortLog.findMany({
      where: { shortId: short.id, ...(page.before === undefined ? {} : { id: { lt: BigInt(page.before) } }) },
      orderBy: { id: "desc" },
      take: page.limit,
      skip: page.offset,
    });
    return rows.map(toShortLog);
  }

  /** The owned short's id (404 otherwise), for routes that read its visits another way. */
  async ownedId(userId: string, id: string): Promise<string> {
    return (await this.findOwned(userId, id)).id;
  }

  /** What the redirect needs, by domain and name: from the cache when it holds it. */
  /** findTarget's answer when the cache holds it, without a promise: the redirect's fast path. */
  cachedTarget(domainId: string, name: string): Target | undefined {
    return this.targets?.get(targetKey(domainId, name));
  }

  async findTarget(domainId: string, name: string): Promise<Target | null> {
    const key = targetKey(domainId, name);
    const cached = this.targets?.get(key);
    if (cached) return cached;
    // When a busy name's entry expires, every visit in flight misses at once: one query
    // answers them all instead of one each (docs/performance.md).
    let lookup = this.lookups.get(key);
    if (!lookup) {
      lookup = this.readTarget(domainId, name, { replica: true }).finally(() => this.lookups.delete(key));
      this.lookups.set(key, lookup);
    }
    return lookup;
  }

  /**
   * The target as the database has it, cached anew. `replica`: from the read replica when one is
   * in bound (a cache miss); without it from the primary (a visit refused what the cache held).
   */
  readTarget(domainId: string, name: string, { replica = false } = {}): Promise<Target | null> {
    // A deletion notified while the read is in flight keeps its answer out of the cache.
    const readAt = this.targets?.generation();
    const find = (db: PrismaClient) =>
      db.short.findUnique({ where: { domainId_name: { domainId, name } }, select: TARGET_FIELDS });
    const read = replica && this.options.reads ? this.options.reads.read(find) : find(this.prisma);
    return read.then((row) => {
      const target = row && targetOf(row);
      if (target) this.targets?.set(targetKey(domainId, name), target, readAt);
      return target;
    });
  }

  private async findOwned(userId: string, id: string): Promise<{ id: string }> {
    const row = await this.prisma.short.findFirst({
      where: { id: validId(id), userId },
      select: { id: true },
    });
    if (!row) throw new NotFound();
    return row;
  }
}

interface LogRow {
  id: bigint;
  shortId: string;
  ipAddress: string;
  userAgent: string;
  referer: string;
  createdAt: Date;
  isBot: boolean;
  browser: string;
  os: string;
  device: string;
  country: string;
  referrerHost: string;
  rule: number | null;
  visitedUrl: string | null;
  redirectUrl: string | null;
}

function toShortLog(row: LogRow): ShortLog {
  return {
    id: row.id.toString(),
    shortID: row.shortId,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    referer: row.referer,
    createdAt: row.createdAt.toISOString(),
    isBot: row.isBot,
    browser: row.browser,
    os: row.os,
    device: row.device,
    country: row.country,
    referrerHost: row.referrerHost,
    ...(row.rule !== null ? { rule: row.rule } : {}),
    ...(row.visitedUrl !== null ? { visitedUrl: row.visitedUrl } : {}),
    ...(row.redirectUrl !== null ? { redirectUrl: row.redirectUrl } : {}),
  };
}

/** A create's rules as the jsonb[] element of its row: null when there are none. */
function storedRules(rules: readonly StoredRule[] | undefined): string | null {
  return rules === undefined || rules.length === 0 ? null : JSON.stringify(rules);
}

/** `text` matched literally by LIKE/ILIKE: its wildcards and the escape character escaped. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Ids are UUIDs; anything else cannot name a short (and must not reach the uuid column). */
function validId(id: string): string {
  if (!SHORT_ID_PATTERN.test(id)) throw new NotFound();
  return id;
}

/** The app's `shorts` service, with the redirect's target cache (listening from ready to close). */
async function shortsPlugin(
  app: FastifyInstance,
  {
    onNotified,
    ...options
  }: Omit<ShortsServiceOptions, "targets" | "reads" | "onDeleted" | "passwords"> & {
    /**
     * Told of every notification on the cache's channel, which other caches share (the
     * domains'), and of its loss (null: anything may have changed meanwhile).
     */
    onNotified?: (payload: string | null) => void;
  },
): Promise<void> {
  const targets = createTargetCache(app.prisma, {
    // A refill after a change must not come from a replica that has not replayed it.
    onChange: (payload) => {
      app.reads.wrote();
      onNotified?.(payload);
    },
    onOutage: (err) => {
      onNotified?.(null);
      app.log.warn(
        { err },
        "redirect cache: invalidation channel lost; serving from the database until it is back",
      );
    },
    onRecovery: () => app.log.info("redirect cache: invalidation channel back; serving from the cache again"),
  });
  app.addHook("onReady", () => targets.start());
  app.addHook("onClose", () => targets.stop());
  const onDeleted = () => {
    void app.visitMaintenance
      .sweep()
      .catch((err: unknown) => app.log.error({ err }, "deleted short: sweep failed"));
  };
  app.decorate(
    "shorts",
    new ShortsService(app.prisma, {
      ...options,
      targets,
      reads: app.reads,
      onDeleted,
      passwords: app.passwords,
      settleVisits: () => app.visitLog.settle(),
    }),
  );
}

export default fp(shortsPlugin, {
  name: "shorts",
  fastify: "5.x",
  decorators: { fastify: ["prisma", "reads", "visitMaintenance", "passwords", "visitLog"] },
});
