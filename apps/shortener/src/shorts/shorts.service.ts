import { isUniqueViolation, Prisma, type PrismaClient, type ReplicaReads, uuidv7s } from "@app/db";
import {
  type LogsQuery,
  type NewShort,
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
import { BadRequest, Conflict, HttpError, NotFound } from "../errors.ts";
import { TOTALS_END } from "../visits/visit-rollup.ts";
import type { PasswordHasher } from "./password-hash.ts";
import { createTargetCache, SHORT_DELETED_CHANNEL, type Target, type TargetCache } from "./target-cache.ts";

const GENERATED_NAME_ATTEMPTS = 5;
const generateName = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 7);

interface ShortRow {
  id: string;
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
}

/** What the API shows of a short: never the password hash, only whether there is one. */
const SHORT_COLUMNS = Prisma.sql`s."id", s."name", s."url", s."tags", s."created_at" AS "createdAt",
  s."valid_from" AS "validFrom", s."valid_until" AS "validUntil", s."max_visits" AS "maxVisits",
  s."expired_url" AS "expiredUrl", s."password_hash" IS NOT NULL AS "hasPassword"`;

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
}): Target {
  const { id, url, validFrom, validUntil, maxVisits, expiredUrl, passwordHash } = row;
  if (validFrom === null && validUntil === null && maxVisits === null && passwordHash === null) {
    return { id, url };
  }
  const rules = {
    validFrom: validFrom?.getTime() ?? null,
    validUntil: validUntil?.getTime() ?? null,
    maxVisits,
    expiredUrl,
    passwordHash,
  };
  return { id, url, rules };
}

const TARGET_FIELDS = {
  id: true,
  url: true,
  validFrom: true,
  validUntil: true,
  maxVisits: true,
  expiredUrl: true,
  passwordHash: true,
} as const;

/** A short's visit limit, the visits counted against it, and where it redirects past it. */
/** A short to insert: what POST /shorts asked for, its password already hashed (prepare). */
export type ShortToCreate = Omit<NewShort, "password"> & { passwordHash: string | null };

export interface LimitState {
  maxVisits: number | null;
  countedVisits: number;
  expiredUrl: string | null;
}

export interface ShortsServiceOptions {
  shortBaseUrl: string;
  /** First path segments the service serves itself: never usable as names. */
  reservedNames: Iterable<string>;
  /** The redirect's cache of targets by name; none: every redirect reads the database. */
  targets?: TargetCache;
  /** Where target lookups read (a replica within its lag bound); default: the primary. */
  reads?: ReplicaReads;
  /** Told after a short is deleted (its visits are then removed in the background). */
  onDeleted?: () => void;
  /** Hashes the passwords of protected shorts. */
  passwords: PasswordHasher;
}

/** Shorts and their visit logs, always scoped to one owner. */
export class ShortsService {
  private readonly reserved: Set<string>;
  private readonly targets: TargetCache | undefined;
  /** Target lookups in flight, by name: visits that miss the cache together share one query. */
  private readonly lookups = new Map<string, Promise<Target | null>>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: ShortsServiceOptions,
  ) {
    this.reserved = new Set([...options.reservedNames].map((n) => n.toLowerCase()));
    this.targets = options.targets;
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
      shorturl: `${this.options.shortBaseUrl}/${row.name}`,
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
        FROM "shortener"."shorts" s ${visits}
       WHERE ${Prisma.join([Prisma.sql`s."user_id" = ${userId}::uuid`, ...where], " AND ")}
       ORDER BY ${order.by}
       LIMIT ${page.limit ?? null} OFFSET ${page.offset ?? 0}`;
    return rows.map((row) => this.toShort(row, Number(row.visits)));
  }

  /**
   * Writes a short under a name the caller chose: a reserved name is 400, a taken one 409
   * (the unique index decides, so two requests for one name cannot both have it).
   */
  private async withChosenName<T>(name: string, write: () => Promise<T>): Promise<T> {
    if (this.isReserved(name)) throw new BadRequest(`name "${name}" is reserved`);
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(`name "${name}" is already taken`);
      throw error;
    }
  }

  /**
   * A short as it will be stored: its password hashed. Hashing takes a tenth of a second on
   * purpose, so it is done here, before any transaction (one holds a pooled connection).
   */
  async prepare(input: NewShort): Promise<ShortToCreate> {
    const { password, ...short } = input;
    return {
      ...short,
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
   * one 409, as is a name an earlier item of the same call asked for. Inserts skip taken names
   * (`ON CONFLICT DO NOTHING`: the unique index decides, so concurrent requests cannot both have
   * one, and nothing aborts a surrounding transaction); generated names that were taken are
   * drawn again. Ids are ordered by position, so the items list in the order they were sent.
   */
  async createMany(
    userId: string,
    items: readonly (ShortToCreate | HttpError)[],
    db: PrismaClient = this.prisma,
  ): Promise<(Short | HttpError)[]> {
    const results: (Short | HttpError | undefined)[] = new Array(items.length);
    const ids = uuidv7s(items.length);
    const chosen = new Map<string, number>();
    let generated: number[] = [];
    items.forEach((item, index) => {
      if (item instanceof HttpError) results[index] = item;
      else if (item.name === undefined) generated.push(index);
      else if (this.isReserved(item.name)) results[index] = new BadRequest(`name "${item.name}" is reserved`);
      else if (chosen.has(item.name)) results[index] = new Conflict(`name "${item.name}" is already taken`);
      else chosen.set(item.name, index);
    });

    let pending = [...chosen].map(([name, index]) => ({ index, name }));
    for (let attempt = 1; pending.length > 0 || generated.length > 0; attempt++) {
      // 62^7 names make a collision rare; a few fresh draws settle it.
      if (attempt > GENERATED_NAME_ATTEMPTS) throw new Error("could not draw a free name for a short");
      const drawn = new Set<string>();
      for (const index of generated) {
        let name = generateName();
        while (this.isReserved(name) || chosen.has(name) || drawn.has(name)) name = generateName();
        drawn.add(name);
        pending.push({ index, name });
      }
      const inserted = new Map(
        (await this.insert(db, userId, pending, ids, items)).map((row) => [row.name, row]),
      );
      generated = [];
      for (const { index, name } of pending) {
        const row = inserted.get(name);
        if (row) results[index] = this.toShort(row);
        else if (chosen.get(name) === index) results[index] = new Conflict(`name "${name}" is already taken`);
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
  ): Promise<ShortRow[]> {
    const column = <T>(value: (item: ShortToCreate) => T) =>
      rows.map((row) => value(items[row.index] as ShortToCreate));
    // Tags match [A-Za-z0-9_-]: a comma joins them safely into one text per row. Rows go in by
    // name, so concurrent inserts wait on each other's names in one order and cannot deadlock.
    return db.$queryRaw<ShortRow[]>`
      INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url", "tags", "valid_from", "valid_until",
        "max_visits", "expired_url", "password_hash")
      SELECT i."id", ${userId}::uuid, i."name", i."url", string_to_array(i."tags", ',')::varchar(32)[],
        i."valid_from", i."valid_until", i."max_visits", i."expired_url", i."password_hash"
        FROM unnest(${rows.map((row) => ids[row.index])}::uuid[], ${rows.map((row) => row.name)}::text[],
                    ${column((short) => short.url)}::text[],
                    ${column((short) => (short.tags ?? []).join(","))}::text[],
                    ${column((short) => utc(short.validFrom))}::timestamptz[],
                    ${column((short) => utc(short.validUntil))}::timestamptz[],
                    ${column((short) => short.maxVisits ?? null)}::int[],
                    ${column((short) => short.expiredUrl ?? null)}::text[],
                    ${column((short) => short.passwordHash)}::text[])
          AS i("id", "name", "url", "tags", "valid_from", "valid_until", "max_visits", "expired_url", "password_hash")
       ORDER BY i."name"
      ON CONFLICT ("name") DO NOTHING
      RETURNING "id", "name", "url", "tags", "created_at" AS "createdAt", "valid_from" AS "validFrom",
        "valid_until" AS "validUntil", "max_visits" AS "maxVisits", "expired_url" AS "expiredUrl",
        "password_hash" IS NOT NULL AS "hasPassword"`;
  }

  /** The caller's shorts: filtered by tag and text, ordered by creation or visits, paged. */
  async list(userId: string, query: ShortListQuery): Promise<Short[]> {
    const where: Prisma.Sql[] = [];
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
   * Changes what `edit` holds and nothing else. The redirect follows a new target or name at
   * once: this instance's cache drops the old name before answering, every other instance's when
   * the shorts_notify_changed trigger's notification reaches it (sent at commit). The old name
   * stops redirecting and is free for anyone to take.
   */
  async update(userId: string, id: string, edit: ShortEdit): Promise<Short> {
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
    const write = () =>
      this.prisma.$transaction(async (tx) => {
        // Locked, so the name read is the one this edit replaces. FOR UPDATE also waits for the
        // visits being stored (they hold FOR KEY SHARE or the row itself) and holds off new ones
        // until commit, so a limit set here counts every visit stored before it, exactly.
        const [before] = await tx.$queryRaw<
          { name: string; validFrom: Date | null; validUntil: Date | null }[]
        >`
          SELECT "name", "valid_from" AS "validFrom", "valid_until" AS "validUntil" FROM "shortener"."shorts"
           WHERE "id" = ${shortId}::uuid AND "user_id" = ${userId}::uuid FOR UPDATE`;
        if (!before) throw new NotFound();
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
            name: edit.name,
            tags: edit.tags,
            validFrom,
            validUntil,
            maxVisits: edit.maxVisits,
            expiredUrl: edit.expiredUrl,
            passwordHash,
          },
          select: { id: true },
        });
        if (typeof edit.maxVisits === "number") {
          // A limit counts every visit of the short, those before it too: the count starts at
          // the visits stored so far (the aggregates equal them).
          await tx.$executeRaw`
            UPDATE "shortener"."shorts" SET "counted_visits" = (
              SELECT COALESCE(sum("visits"), 0) FROM "shortener"."visit_hours" WHERE "short_id" = ${shortId}::uuid
            ) WHERE "id" = ${shortId}::uuid`;
        }
        return before.name;
      });
    const previousName = await (edit.name === undefined ? write() : this.withChosenName(edit.name, write));
    const { tags: _tags, ...redirectFields } = edit;
    if (Object.values(redirectFields).some((value) => value !== undefined))
      this.targets?.forget(previousName);
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
        RETURNING "id", "name", "user_id"
      ), queued AS (
        INSERT INTO "shortener"."deleted_shorts" ("short_id", "user_id") SELECT "id", "user_id" FROM gone
        ON CONFLICT DO NOTHING
      )
      SELECT gone."name" FROM gone, LATERAL (SELECT pg_notify(${SHORT_DELETED_CHANNEL}, gone."name")) AS notified`;
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

  /** What the redirect needs, by name: from the cache when it holds it. */
  async findTarget(name: string): Promise<Target | null> {
    const cached = this.targets?.get(name);
    if (cached) return cached;
    // When a busy name's entry expires, every visit in flight misses at once: one query
    // answers them all instead of one each (docs/performance.md).
    let lookup = this.lookups.get(name);
    if (!lookup) {
      lookup = this.readTarget(name, { replica: true }).finally(() => this.lookups.delete(name));
      this.lookups.set(name, lookup);
    }
    return lookup;
  }

  /**
   * The target as the database has it, cached anew. `replica`: from the read replica when one is
   * in bound (a cache miss); without it from the primary (a visit refused what the cache held).
   */
  readTarget(name: string, { replica = false } = {}): Promise<Target | null> {
    // A deletion notified while the read is in flight keeps its answer out of the cache.
    const readAt = this.targets?.generation();
    const find = (db: PrismaClient) => db.short.findUnique({ where: { name }, select: TARGET_FIELDS });
    const read = replica && this.options.reads ? this.options.reads.read(find) : find(this.prisma);
    return read.then((row) => {
      const target = row && targetOf(row);
      if (target) this.targets?.set(name, target, readAt);
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
  };
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
  options: Omit<ShortsServiceOptions, "targets" | "reads" | "onDeleted" | "passwords">,
): Promise<void> {
  const targets = createTargetCache(app.prisma, {
    // A refill after a change must not come from a replica that has not replayed it.
    onChange: () => app.reads.wrote(),
    onOutage: (err) =>
      app.log.warn(
        { err },
        "redirect cache: invalidation channel lost; serving from the database until it is back",
      ),
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
    }),
  );
}

export default fp(shortsPlugin, {
  name: "shorts",
  fastify: "5.x",
  decorators: { fastify: ["prisma", "reads", "visitMaintenance", "passwords"] },
});
