// What /rest reads, straight from the model's tables (nothing is stored for /rest): shorts with
// their visit sums from the hourly aggregates (exact, as the existing API's), visit rows, tags,
// orphan visits. Every query is scoped to one user's shorts or the domains they may use.
import { Prisma, type PrismaClient, queryRows } from "@app/db";
import { DEFAULT_DOMAIN_ID } from "../default-domain.ts";
import { TOTALS_END } from "../visits/visit-rollup.ts";
import { ORDERABLE, type ShortUrlsQuery } from "./params.ts";
import type { OrphanType, ShortUrlRow, VisitRow } from "./short-url-view.ts";

const SHORT_URL_COLUMNS = Prisma.sql`s."id", s."name", s."url", d."host" AS "domainHost", s."created_at" AS "createdAt",
  s."tags", s."valid_from" AS "validFrom", s."valid_until" AS "validUntil", s."max_visits" AS "maxVisits",
  s."title", s."redirect_rules" IS NOT NULL AS "hasRules", s."forward_query" AS "forwardQuery", s."crawlable",
  COALESCE(v."visits", 0)::int8 AS "visits", COALESCE(v."humans", 0)::int8 AS "humans"`;
const WITH_VISITS = Prisma.sql`FROM "shortener"."shorts" s JOIN "shortener"."domains" d ON d."id" = s."domain_id"
  LEFT JOIN LATERAL (
    SELECT sum(h."visits") AS "visits", sum(h."humans") AS "humans"
      FROM "shortener"."visit_hours" h WHERE h."short_id" = s."id"
  ) v ON true`;

type RawShortUrl = Omit<ShortUrlRow, "visits" | "humans"> & { visits: bigint; humans: bigint };
// A visit row as /rest lists it (VisitRow): read on the driver, its time as UTC text (docs/adr/0286).
const VISIT_COLUMNS = Prisma.sql`l."created_at" AT TIME ZONE 'UTC' AS "createdAt", l."referer", l."user_agent" AS "userAgent",
  l."is_bot" AS "isBot", l."country", l."visited_url" AS "visitedUrl", l."redirect_url" AS "redirectUrl"`;

/** An hour in milliseconds: the visit aggregates' unit (visit-aggregates.ts). */
const HOUR_MS = 3_600_000;

const toRow = (raw: RawShortUrl): ShortUrlRow => ({
  ...raw,
  visits: Number(raw.visits),
  humans: Number(raw.humans),
});

/** `text` matched literally by LIKE/ILIKE. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Reads of one user's shorts and visits, as Shlink's API shows them. */
export class ShlinkQueries {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly defaultHost: string,
  ) {}

  /** The user's short `name` on `domainId`, with its stored rules; null when there is none. */
  async shortUrl(userId: string, domainId: string, name: string) {
    const [row] = await this.prisma.$queryRaw<(RawShortUrl & { redirectRules: unknown })[]>`
      SELECT ${SHORT_URL_COLUMNS}, s."redirect_rules" AS "redirectRules" ${WITH_VISITS}
       WHERE s."user_id" = ${userId}::uuid AND s."domain_id" = ${domainId}::uuid AND s."name" = ${name}`;
    return row ? { ...toRow(row), redirectRules: row.redirectRules } : null;
  }

  /**
   * A page of the user's shorts as GET /short-urls filters and orders them, and how many there
   * are. `domainId` null: a domain no short can be on (an unknown one): none.
   */
  async listShortUrls(
    userId: string,
    query: ShortUrlsQuery & { tagsIn: string[]; tagsOut: string[] },
    domainId: string | null | undefined,
    page: { limit: number | null; offset: number },
  ): Promise<{ rows: ShortUrlRow[]; total: number }> {
    if (domainId === null) return { rows: [], total: 0 };
    const where: Prisma.Sql[] = [Prisma.sql`s."user_id" = ${userId}::uuid`];
    if (domainId !== undefined) where.push(Prisma.sql`s."domain_id" = ${domainId}::uuid`);
    if (query.tagsIn.length) {
      const tags = Prisma.sql`${query.tagsIn}::varchar(32)[]`;
      where.push(
        query.tagsMode === "all" ? Prisma.sql`s."tags" @> ${tags}` : Prisma.sql`s."tags" && ${tags}`,
      );
    }
    if (query.tagsOut.length) {
      const tags = Prisma.sql`${query.tagsOut}::varchar(32)[]`;
      where.push(
        query.excludeTagsMode === "all"
          ? Prisma.sql`NOT s."tags" @> ${tags}`
          : Prisma.sql`NOT s."tags" && ${tags}`,
      );
    }
    if (query.searchTerm) {
      const pattern = `%${escapeLike(query.searchTerm)}%`;
      // Tag names are searched too, unless the list asks for all of its tags (as Shlink).
      const inTags =
        query.tagsIn.length && query.tagsMode === "all"
          ? Prisma.sql`false`
          : Prisma.sql`EXISTS (SELECT 1 FROM unnest(s."tags") AS t("tag") WHERE t."tag" ILIKE ${pattern})`;
      // The columns through the trigram index on their joined text (docs/adr/0277), each column
      // then checked on the few rows it finds; the domains whose host has the term are read
      // first (a handful of rows), so that without one the condition is the index's alone and
      // the planner sees how few rows it selects.
      const hosts = await this.prisma.$queryRaw<{ id: string }[]>`
        SELECT "id"::text AS "id" FROM "shortener"."domains" WHERE "host" ILIKE ${pattern}`;
      const domainIds = hosts.map((row) => row.id);
      if (this.defaultHost.includes(query.searchTerm.toLowerCase())) domainIds.push(DEFAULT_DOMAIN_ID);
      const joined = Prisma.sql`"shortener"."short_search_text"(s."name", s."url", s."title", s."tags") ILIKE ${pattern}`;
      // The joined text separates its columns and tags with spaces: a term without one that it
      // contains is contained in one of them, and the check column by column (most of a broad
      // search's time: the index's rows are read again) can only say the same. Not so when the
      // tags are left out, or the term has a space.
      const tagsSearched = !(query.tagsIn.length && query.tagsMode === "all");
      const columns =
        tagsSearched && !query.searchTerm.includes(" ")
          ? joined
          : Prisma.sql`(${joined}
        AND (s."name" ILIKE ${pattern} OR s."url" ILIKE ${pattern} OR s."title" ILIKE ${pattern} OR ${inTags}))`;
      where.push(
        domainIds.length ? Prisma.sql`(${columns} OR s."domain_id" = ANY(${domainIds}::uuid[]))` : columns,
      );
    }
    if (query.startDate) where.push(Prisma.sql`s."created_at" >= ${query.startDate}`);
    if (query.endDate) where.push(Prisma.sql`s."created_at" <= ${query.endDate}`);
    if (query.excludeMaxVisitsReached)
      where.push(Prisma.sql`(s."max_visits" IS NULL OR s."max_visits" > s."counted_visits")`);
    if (query.excludePastValidUntil)
      where.push(Prisma.sql`(s."valid_until" IS NULL OR s."valid_until" >= now())`);
    const filter = Prisma.join(where, " AND ");
    // The shorts alone: a search reads the domains whose host matches beforehand.
    const shorts = Prisma.sql`"shortener"."shorts" s`;
    const order = query.orderBy ?? { field: "dateCreated" as const, desc: true };
    const dir = order.desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;
    const column = ORDERABLE[order.field];
    const by = {
      createdAt: Prisma.sql`s."created_at"`,
      name: Prisma.sql`s."name"`,
      url: Prisma.sql`s."url"`,
      title: Prisma.sql`s."title"`,
      visits: Prisma.sql`COALESCE(v."visits", 0)`,
      humans: Prisma.sql`COALESCE(v."humans", 0)`,
    }[column];
    // Title is the one nullable column: its nulls last either way, as Shlink's list has them.
    const nulls = column === "title" ? Prisma.sql`NULLS LAST` : Prisma.empty;
    const order_ = Prisma.sql`ORDER BY ${by} ${dir} ${nulls}, s."id" ${dir}`;
    const byVisits = column === "visits" || column === "humans";
    // A page by a column of the shorts is cut before the visit sums are read, so a far page
    // sums its own shorts' visits only; by visits, every filtered short's sum is the order.
    // By visits, every filtered short's sum orders the page: summed from the user's totals of
    // the days rolled up and the hours after them, as the existing list orders by visits
    // (docs/adr/0185), rather than from each short's hours.
    const rowsQuery = byVisits
      ? this.prisma.$queryRaw<RawShortUrl[]>`
          SELECT ${SHORT_URL_COLUMNS}
            FROM "shortener"."shorts" s JOIN "shortener"."domains" d ON d."id" = s."domain_id"
            LEFT JOIN (
              SELECT "short_id", sum("visits") AS "visits", sum("humans") AS "humans" FROM (
                SELECT t."short_id", t."visits", t."humans" FROM "shortener"."visit_user_short_totals" t
                 WHERE t."user_id" = ${userId}::uuid
                UNION ALL
                SELECT h."short_id", h."visits", h."humans" FROM "shortener"."visit_user_short_hours" h
                 WHERE h."user_id" = ${userId}::uuid AND h."hour" >= ${Prisma.raw(TOTALS_END)}
              ) AS sums GROUP BY "short_id"
            ) v ON v."short_id" = s."id"
           WHERE ${filter} ${order_} LIMIT ${page.limit} OFFSET ${page.offset}`
      : this.prisma.$queryRaw<RawShortUrl[]>`
          WITH page AS (
            SELECT s."id" FROM ${shorts}
             WHERE ${filter} ${order_} LIMIT ${page.limit} OFFSET ${page.offset}
          )
          SELECT ${SHORT_URL_COLUMNS} ${WITH_VISITS} JOIN page ON page."id" = s."id" ${order_}`;
    const [rows, [count]] = await Promise.all([
      rowsQuery,
      this.prisma.$queryRaw<{ total: bigint }[]>`
        SELECT count(*) AS "total" FROM ${shorts}
         WHERE ${filter}`,
    ]);
    return { rows: rows.map(toRow), total: Number(count?.total ?? 0) };
  }

  /**
   * A page of the visits of the user's shorts that `shorts` selects (a condition on s), newest
   * first, and how many there are.
   */
  async visits(
    userId: string,
    shorts: Prisma.Sql,
    filter: { startDate?: Date | undefined; endDate?: Date | undefined; excludeBots: boolean },
    page: { limit: number | null; offset: number },
  ): Promise<{ rows: VisitRow[]; total: number }> {
    const where: Prisma.Sql[] = [
      Prisma.sql`l."short_id" IN (SELECT s."id" FROM "shortener"."shorts" s WHERE s."user_id" = ${userId}::uuid AND ${shorts})`,
    ];
    if (filter.startDate) where.push(Prisma.sql`l."created_at" >= ${filter.startDate}`);
    if (filter.endDate) where.push(Prisma.sql`l."created_at" <= ${filter.endDate}`);
    if (filter.excludeBots) where.push(Prisma.sql`NOT l."is_bot"`);
    const condition = Prisma.join(where, " AND ");
    const [rows, [count]] = await Promise.all([
      queryRows<VisitRow>(
        this.prisma,
        Prisma.sql`
        SELECT ${VISIT_COLUMNS} FROM "shortener"."short_logs" l WHERE ${condition}
         ORDER BY l."created_at" DESC, l."id" DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      ),
      this.prisma.$queryRaw<{ total: bigint }[]>`
        SELECT count(*) AS "total" FROM "shortener"."short_logs" l WHERE ${condition}`,
    ]);
    return { rows, total: Number(count?.total ?? 0) };
  }

  /**
   * A page of one short's visits, newest first, and how many there are: what `visits` answers
   * for `s."id" = shortId`, without reading the rows before the page or counting them all
   * (docs/adr/0285). The count is the short's hourly aggregates (exact once `settle` has folded
   * what is pending, as the existing API's figures) for the whole hours in range, and a count of
   * the rows in the partial hours at either end; the page starts in the hour those sums place its
   * first visit in, read through `short_logs_short_id_created_at_id_idx` from that hour's end.
   * The hours count from the short's oldest row: retention drops the rows of whole months and
   * keeps their hours.
   */
  async shortVisits(
    shortId: string,
    filter: { startDate?: Date | undefined; endDate?: Date | undefined; excludeBots: boolean },
    page: { limit: number | null; offset: number },
  ): Promise<{ rows: VisitRow[]; total: number }> {
    const [oldest] = await this.prisma.$queryRaw<{ createdAt: Date }[]>`
      SELECT l."created_at" AS "createdAt" FROM "shortener"."short_logs" l
       WHERE l."short_id" = ${shortId}::uuid ORDER BY l."created_at", l."id" LIMIT 1`;
    if (!oldest) return { rows: [], total: 0 };
    // [from, until): created_at is stored to the millisecond, so `<= endDate` is `< endDate + 1 ms`.
    const from =
      filter.startDate && filter.startDate > oldest.createdAt ? filter.startDate : oldest.createdAt;
    const until = filter.endDate ? new Date(filter.endDate.getTime() + 1) : null;
    if (until && until <= from) return { rows: [], total: 0 };
    const bots = filter.excludeBots ? Prisma.sql`AND NOT l."is_bot"` : Prisma.empty;
    const rowsIn = async (after: Date, before: Date | null) => {
      const [row] = await this.prisma.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS "n" FROM "shortener"."short_logs" l
         WHERE l."short_id" = ${shortId}::uuid AND l."created_at" >= ${after}
           ${before ? Prisma.sql`AND l."created_at" < ${before}` : Prisma.empty} ${bots}`;
      return Number(row?.n ?? 0);
    };
    // Whole hours [firstHour, endHour) from the aggregates; the rows of [from, firstHour) and
    // [endHour, until) counted. A range within two hours is counted from its rows alone.
    const firstHour = new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS);
    const endHour = until ? new Date(Math.floor(until.getTime() / HOUR_MS) * HOUR_MS) : null;
    const counted = Prisma.sql`${filter.excludeBots ? Prisma.sql`h."humans"` : Prisma.sql`h."visits"`}`;
    const split = !(endHour && endHour <= firstHour);
    let newest = 0;
    let hours = { total: 0, anchor: null as Date | null, newer: 0 };
    let oldestPart: number;
    if (!split) {
      oldestPart = await rowsIn(from, until);
    } else {
      [newest, oldestPart] = await Promise.all([
        until && endHour ? rowsIn(endHour, until) : 0,
        rowsIn(from, firstHour),
      ]);
      // The hour the page's first visit is in (by the visits in the hours after it), and the
      // hours' total.
      const skip = page.offset - newest;
      const [sums] = await this.prisma.$queryRaw<
        { total: bigint; anchor: Date | null; newer: bigint | null }[]
      >`
        WITH hours AS (
          SELECT h."hour", ${counted} AS "n", sum(${counted}) OVER (ORDER BY h."hour" DESC) AS "through"
            FROM "shortener"."visit_hours" h
           WHERE h."short_id" = ${shortId}::uuid AND h."hour" >= ${firstHour}
             ${endHour ? Prisma.sql`AND h."hour" < ${endHour}` : Prisma.empty}
        ), anchor AS (
          SELECT "hour", "through" - "n" AS "newer" FROM hours WHERE "through" > ${skip} ORDER BY "hour" DESC LIMIT 1
        )
        SELECT COALESCE((SELECT sum("n") FROM hours), 0)::int8 AS "total",
               (SELECT "hour" FROM anchor) AS "anchor", (SELECT "newer" FROM anchor)::int8 AS "newer"`;
      hours = {
        total: Number(sums?.total ?? 0),
        anchor: sums?.anchor ?? null,
        newer: Number(sums?.newer ?? 0),
      };
    }
    const total = newest + hours.total + oldestPart;
    if (page.offset >= total) return { rows: [], total };
    // The page's upper bound and how many rows below it come before the page.
    const [upTo, skipped] =
      page.offset < newest
        ? [until, page.offset]
        : hours.anchor
          ? [new Date(hours.anchor.getTime() + HOUR_MS), page.offset - newest - hours.newer]
          : [split ? firstHour : until, page.offset - newest - hours.total];
    const rows = await queryRows<VisitRow>(
      this.prisma,
      Prisma.sql`
      SELECT ${VISIT_COLUMNS} FROM "shortener"."short_logs" l
       WHERE l."short_id" = ${shortId}::uuid AND l."created_at" >= ${from}
         ${upTo ? Prisma.sql`AND l."created_at" < ${upTo}` : Prisma.empty} ${bots}
       ORDER BY l."created_at" DESC, l."id" DESC LIMIT ${page.limit} OFFSET ${skipped}`,
    );
    return { rows, total };
  }

  /** The user's visits in all (from the hourly aggregates, as the existing API's statistics). */
  async visitSums(userId: string): Promise<{ visits: number; humans: number }> {
    const [row] = await this.prisma.$queryRaw<{ visits: bigint; humans: bigint }[]>`
      SELECT COALESCE(sum(h."visits"), 0)::int8 AS "visits", COALESCE(sum(h."humans"), 0)::int8 AS "humans"
        FROM "shortener"."visit_hours" h
       WHERE h."short_id" IN (SELECT s."id" FROM "shortener"."shorts" s WHERE s."user_id" = ${userId}::uuid)`;
    return { visits: Number(row?.visits ?? 0), humans: Number(row?.humans ?? 0) };
  }

  /**
   * Orphan visits of `domainIds` (counted per hour and kind, never a row per request:
   * docs/adr/0227), each shown as one visit at the start of its hour, newest first, and how many.
   */
  async orphanVisits(
    domainIds: string[],
    filter: {
      kinds: string[];
      startDate?: Date | undefined;
      endDate?: Date | undefined;
      excludeBots: boolean;
    },
    page: { limit: number | null; offset: number },
  ): Promise<{ rows: (VisitRow & { kind: string })[]; total: number }> {
    const where: Prisma.Sql[] = [
      Prisma.sql`o."domain_id" = ANY(${domainIds}::uuid[])`,
      Prisma.sql`o."kind" = ANY(${filter.kinds}::text[])`,
    ];
    if (filter.startDate)
      where.push(Prisma.sql`o."hour" >= date_trunc('hour', ${filter.startDate}::timestamptz)`);
    if (filter.endDate) where.push(Prisma.sql`o."hour" <= ${filter.endDate}`);
    const condition = Prisma.join(where, " AND ");
    // The humans of an hour first (n <= humans), then its bots.
    const counted = filter.excludeBots ? Prisma.sql`o."humans"` : Prisma.sql`o."visits"`;
    const [rows, [count]] = await Promise.all([
      queryRows<VisitRow & { kind: string }>(
        this.prisma,
        Prisma.sql`
        SELECT o."hour" AT TIME ZONE 'UTC' AS "createdAt", '' AS "referer", '' AS "userAgent", n > o."humans" AS "isBot",
               '' AS "country", NULL::text AS "visitedUrl", NULL::text AS "redirectUrl", o."kind"
          FROM "shortener"."orphan_visit_hours" o, generate_series(1, ${counted}) AS n
         WHERE ${condition}
         ORDER BY o."hour" DESC, o."kind", o."domain_id", n LIMIT ${page.limit} OFFSET ${page.offset}`,
      ),
      this.prisma.$queryRaw<{ total: bigint }[]>`
        SELECT COALESCE(sum(${counted}), 0)::int8 AS "total" FROM "shortener"."orphan_visit_hours" o WHERE ${condition}`,
    ]);
    return { rows, total: Number(count?.total ?? 0) };
  }

  /** Tags of the user's shorts, each with how many shorts carry it and their visits. */
  async tagStats(userId: string) {
    const rows = await this.prisma.$queryRaw<
      { tag: string; shorts: bigint; visits: bigint; humans: bigint }[]
    >`
      SELECT t."tag", count(*)::int8 AS "shorts", COALESCE(sum(v."visits"), 0)::int8 AS "visits",
             COALESCE(sum(v."humans"), 0)::int8 AS "humans"
        FROM "shortener"."shorts" s CROSS JOIN LATERAL unnest(s."tags") AS t("tag")
        LEFT JOIN LATERAL (
          SELECT sum(h."visits") AS "visits", sum(h."humans") AS "humans"
            FROM "shortener"."visit_hours" h WHERE h."short_id" = s."id"
        ) v ON true
       WHERE s."user_id" = ${userId}::uuid
       GROUP BY t."tag" ORDER BY t."tag"`;
    return rows.map((row) => ({
      tag: row.tag,
      shortUrlsCount: Number(row.shorts),
      visits: Number(row.visits),
      humans: Number(row.humans),
    }));
  }

  /** Renames a tag on every short of the user that has it (a short with both keeps one). */
  async renameTag(userId: string, oldName: string, newName: string): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE "shortener"."shorts" SET "tags" = array_replace("tags", ${oldName}::varchar(32), ${newName}::varchar(32))
       WHERE "user_id" = ${userId}::uuid AND "tags" @> ARRAY[${oldName}::varchar(32)]`;
  }

  /** Removes tags from every short of the user. */
  async deleteTags(userId: string, tags: string[]): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE "shortener"."shorts"
         SET "tags" = ARRAY(SELECT t FROM unnest("tags") AS t WHERE t <> ALL(${tags}::varchar(32)[]))::varchar(32)[]
       WHERE "user_id" = ${userId}::uuid AND "tags" && ${tags}::varchar(32)[]`;
  }

  /** Orphan visits in all of `domainIds` (kinds name and root: a user's domains have no others). */
  async orphanSums(domainIds: string[]): Promise<{ visits: number; humans: number }> {
    const [row] = await this.prisma.$queryRaw<{ visits: bigint; humans: bigint }[]>`
      SELECT COALESCE(sum("visits"), 0)::int8 AS "visits", COALESCE(sum("humans"), 0)::int8 AS "humans"
        FROM "shortener"."orphan_visit_hours" WHERE "domain_id" = ANY(${domainIds}::uuid[]) AND "kind" IN ('name', 'root')`;
    return { visits: Number(row?.visits ?? 0), humans: Number(row?.humans ?? 0) };
  }

  /** Deletes the orphan visits of `domainIds`: their hours and their values; how many visits went. */
  async deleteOrphanVisits(domainIds: string[]): Promise<number> {
    if (domainIds.length === 0) return 0;
    return this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ visits: bigint }[]>`
        WITH gone AS (
          DELETE FROM "shortener"."orphan_visit_hours" WHERE "domain_id" = ANY(${domainIds}::uuid[]) RETURNING "visits"
        ) SELECT COALESCE(sum("visits"), 0)::int8 AS "visits" FROM gone`;
      await tx.$executeRaw`DELETE FROM "shortener"."orphan_visit_hour_values" WHERE "domain_id" = ANY(${domainIds}::uuid[])`;
      return Number(row?.visits ?? 0);
    });
  }

  /** The domains' rows (redirects) of the hosts given, by host. */
  async domainRows(ids: string[]) {
    return this.prisma.shortDomain.findMany({
      where: { id: { in: ids } },
      select: { id: true, host: true, rootUrl: true, notFoundUrl: true },
    });
  }
}

export type { OrphanType };
