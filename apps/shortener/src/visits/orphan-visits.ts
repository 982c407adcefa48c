// Orphan visits (issue 39 item 4, docs/adr/0227): GET requests for a name no short of the
// domain has, for a domain's root, and for a Host that names no domain. Counted in memory per
// domain, UTC hour, kind and value of each dimension, and added to the aggregates by one
// statement about once a second (and when the service stops): a scanner's burst costs no
// database round trip per request, and no row per request is ever stored. Each (domain, hour,
// dimension) keeps at most ORPHAN_VALUES_PER_HOUR values, in memory and in the tables alike;
// the rest are summed under OTHER_VALUE.
import type { IncomingHttpHeaders } from "node:http";
import { inTransaction, type PrismaClient, poolOf, uuidv7 } from "@app/db";
import { ORPHAN_VALUES_PER_HOUR } from "@app/schemas/shortener";
import { Counter } from "@app/server/metrics";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { plainArray, textArray, timeArray } from "./array-literals.ts";
import { VisitEnricher, type VisitIpMode } from "./visit-enrichment.ts";

/** What was asked for: an unknown name, a domain's root, or a Host that names no domain. */
export type OrphanKind = "name" | "root" | "host";
export const ORPHAN_KINDS: readonly OrphanKind[] = ["name", "root", "host"];

/** The bucket of requests whose Host names no domain: an id no domain has. */
export const UNKNOWN_HOST_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
/** The value the others are summed under: parentheses are in no name, host, country or browser. */
export const OTHER_VALUE = "(other)";
/**
 * The dimensions: `name` (of unknown names) and `host` (of unknown hosts) besides a visit's own.
 * Eight characters at most (the column).
 */
export const ORPHAN_DIMENSIONS = ["name", "host", "browser", "os", "device", "country", "referrer"] as const;
export type OrphanDimension = (typeof ORPHAN_DIMENSIONS)[number];

/** How often the counts go to the database. */
const FLUSH_MS = 1000;
const HOUR = 3_600_000;
// Header values cut as the visit log's are.
const MAX_USER_AGENT = 1024;
const MAX_REFERER = 2048;
const MAX_VALUE = 255;
/**
 * Flushes of every instance, one at a time (a transaction-level advisory lock), so that each
 * sees how many values an hour already holds and the bound is exact. domain-registry.ts takes
 * the same lock to remove a domain's rows. About one short statement a second per instance.
 */
export const ORPHAN_LOCK = `SELECT pg_advisory_xact_lock(hashtext('shortener.orphan_visits'))`;

/** The part of a request the count reads (a FastifyRequest is one). */
export interface OrphanRequest {
  method: string;
  ip: string;
  headers: IncomingHttpHeaders;
}

interface Sum {
  visits: number;
  humans: number;
}

interface HourCounts {
  domainId: string;
  hour: number;
  kinds: Map<OrphanKind, Sum>;
  /** Per dimension (ORPHAN_DIMENSIONS' order), at most ORPHAN_VALUES_PER_HOUR values and OTHER_VALUE. */
  values: Map<string, Sum>[];
}

function header(value: string | string[] | undefined, max: number): string {
  const text = Array.isArray(value) ? value.join(", ") : (value ?? "");
  return text.replaceAll("\u0000", "").slice(0, max);
}

function add(sums: Map<string, Sum>, key: string, visits: number, humans: number): void {
  const sum = sums.get(key);
  if (sum) {
    sum.visits += visits;
    sum.humans += humans;
  } else sums.set(key, { visits, humans });
}

/** Adds to `value`, or to OTHER_VALUE once the dimension holds its most values. */
function addCapped(sums: Map<string, Sum>, value: string, visits: number, humans: number): void {
  const full = sums.size - (sums.has(OTHER_VALUE) ? 1 : 0) >= ORPHAN_VALUES_PER_HOUR;
  add(sums, full && !sums.has(value) ? OTHER_VALUE : value, visits, humans);
}

/** The counter of one instance; the app's `orphanVisits`. */
export class OrphanVisits {
  private groups = new Map<string, HourCounts>();
  private readonly enricher: VisitEnricher;
  private readonly pool: ReturnType<typeof poolOf>;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  /**
   * A flush that failed, kept as it was sent, with its id: sent again before anything counted
   * since, so that a flush whose commit did happen (its answer lost) finds its id and adds
   * nothing twice (docs/adr/0288).
   */
  private unsent: { id: string; groups: Map<string, HourCounts>; count: number } | undefined;
  /** Requests counted and not yet stored. */
  pending = 0;
  /** Requests whose counts are stored, since start. */
  stored = 0;

  constructor(
    prisma: PrismaClient,
    ipMode: VisitIpMode,
    private readonly observer: { counted(kind: OrphanKind): void; failed(error: unknown): void },
  ) {
    this.pool = poolOf(prisma);
    // The address itself is never stored (only the country derived from it): VISIT_IP holds.
    this.enricher = new VisitEnricher(ipMode);
  }

  /**
   * Counts one orphan request: `domainId` of the domain it reached (UNKNOWN_HOST_ID for none),
   * `value` the name asked for (kind "name") or the host (kind "host"). GET only: HEAD and a
   * POST store no visit of a short either.
   */
  count(kind: OrphanKind, domainId: string, value: string, request: OrphanRequest, at = Date.now()): void {
    if (request.method !== "GET") return;
    this.observer.counted(kind);
    const described = this.enricher.describe({
      ipAddress: request.ip,
      userAgent: header(request.headers["user-agent"], MAX_USER_AGENT),
      referer: header(request.headers.referer, MAX_REFERER),
    });
    const hour = Math.floor(at / HOUR) * HOUR;
    const key = `${domainId} ${hour}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { domainId, hour, kinds: new Map(), values: ORPHAN_DIMENSIONS.map(() => new Map()) };
      this.groups.set(key, group);
    }
    const human = described.isBot ? 0 : 1;
    add(group.kinds as Map<string, Sum>, kind, 1, human);
    const values = [
      kind === "name" ? value : undefined,
      kind === "host" ? value.toLowerCase() : undefined,
      described.browser,
      described.os,
      described.device,
      described.country,
      described.referrerHost,
    ];
    values.forEach((text, i) => {
      if (text !== undefined) addCapped(group.values[i]!, text.slice(0, MAX_VALUE), 1, human);
    });
    this.pending++;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.observer.failed(error));
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Stores what is counted so far; resolves once stored (a flush in flight first). */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** Stops the timer and stores what is left (tried three times: a stop loses nothing counted). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.flush();
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  /** Sends the flush that failed first, if any, then what is counted (each with its own id). */
  private async write(): Promise<void> {
    for (;;) {
      if (!this.unsent) {
        if (this.groups.size === 0) return;
        // Nothing is unsent here: every request pending is in these groups.
        this.unsent = { id: uuidv7(), groups: this.groups, count: this.pending };
        this.groups = new Map();
      }
      const batch = this.unsent;
      try {
        await this.store(batch.id, batch.groups);
      } catch (error) {
        // Stored or not, it is sent again as it is, with its id.
        this.schedule();
        throw error;
      }
      this.unsent = undefined;
      this.pending -= batch.count;
      this.stored += batch.count;
    }
  }

  /**
   * One flush's counts, in one transaction under ORPHAN_LOCK (flushes of every instance one at a
   * time): its id first; an id already stored means an earlier copy of this flush committed, and
   * nothing is added.
   */
  private async store(id: string, groups: Map<string, HourCounts>): Promise<void> {
    const totals = { domainId: [] as string[], hour: [] as Date[], kind: [] as string[], ...sums() };
    const values = {
      domainId: [] as string[],
      hour: [] as Date[],
      dimension: [] as string[],
      value: [] as string[],
      ...sums(),
    };
    // In key order: no two statements could lock the same rows in two orders (they are
    // serialized anyway; this keeps it so if they ever were not).
    for (const group of [...groups.values()].sort(
      (a, b) => byText(a.domainId, b.domainId) || a.hour - b.hour,
    )) {
      const hour = new Date(group.hour);
      for (const kind of [...group.kinds.keys()].sort(byText)) {
        const sum = group.kinds.get(kind)!;
        totals.domainId.push(group.domainId);
        totals.hour.push(hour);
        totals.kind.push(kind);
        totals.visits.push(sum.visits);
        totals.humans.push(sum.humans);
      }
      group.values.forEach((dimension, i) => {
        for (const value of [...dimension.keys()].sort(byText)) {
          const sum = dimension.get(value)!;
          values.domainId.push(group.domainId);
          values.hour.push(hour);
          values.dimension.push(ORPHAN_DIMENSIONS[i]!);
          values.value.push(value);
          values.visits.push(sum.visits);
          values.humans.push(sum.humans);
        }
      });
    }
    await inTransaction(this.pool, async (client) => {
      await client.query(ORPHAN_LOCK);
      const fresh = await client.query({
        name: "claim_orphan_batch",
        text: `INSERT INTO "shortener"."orphan_visit_batches" ("id") VALUES ($1::uuid) ON CONFLICT DO NOTHING`,
        values: [id],
      });
      if (fresh.rowCount === 0) return;
      await client.query({
        name: "add_orphan_visits",
        text: ADD_ORPHAN_VISITS,
        values: [
          plainArray(totals.domainId),
          timeArray(totals.hour),
          textArray(totals.kind),
          plainArray(totals.visits),
          plainArray(totals.humans),
          plainArray(values.domainId),
          timeArray(values.hour),
          textArray(values.dimension),
          textArray(values.value),
          plainArray(values.visits),
          plainArray(values.humans),
          ORPHAN_VALUES_PER_HOUR,
        ],
      });
    });
  }
}

const sums = () => ({ visits: [] as number[], humans: [] as number[] });
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds a flush's counts ($1-$5 per kind, $6-$11 per value) to the aggregates, for domains that
 * still exist and the unknown hosts' bucket. A value the hour already holds is added to; a new
 * one only while the hour has room ($12 values; the most visited first), else to OTHER_VALUE.
 * Run under ORPHAN_LOCK, in its own statement: its snapshot sees every flush before it.
 */
const ADD_ORPHAN_VISITS = `WITH targets AS (
  SELECT "id" FROM "shortener"."domains" UNION ALL SELECT '${UNKNOWN_HOST_ID}'::uuid
), totals AS (
  INSERT INTO "shortener"."orphan_visit_hours" AS t ("domain_id", "hour", "kind", "visits", "humans")
  SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::varchar[], $4::int[], $5::int[]) AS a("domain_id")
  WHERE a."domain_id" IN (SELECT "id" FROM targets)
  ON CONFLICT ("domain_id", "hour", "kind") DO UPDATE SET "visits" = t."visits" + excluded."visits",
    "humans" = t."humans" + excluded."humans"
), input AS (
  SELECT * FROM unnest($6::uuid[], $7::timestamptz[], $8::varchar[], $9::varchar[], $10::int[], $11::int[])
    AS a("domain_id", "hour", "dimension", "value", "visits", "humans")
  WHERE a."domain_id" IN (SELECT "id" FROM targets)
), marked AS (
  SELECT i.*, i."value" = '${OTHER_VALUE}' OR EXISTS (
    SELECT FROM "shortener"."orphan_visit_hour_values" v
    WHERE v."domain_id" = i."domain_id" AND v."hour" = i."hour" AND v."dimension" = i."dimension" AND v."value" = i."value"
  ) AS "held"
  FROM input i
), room AS (
  SELECT g.*, $12::int - (
    SELECT count(*) FROM "shortener"."orphan_visit_hour_values" v
    WHERE v."domain_id" = g."domain_id" AND v."hour" = g."hour" AND v."dimension" = g."dimension"
      AND v."value" <> '${OTHER_VALUE}'
  ) AS "room"
  FROM (SELECT DISTINCT "domain_id", "hour", "dimension" FROM input) AS g
), kept AS (
  SELECT m."domain_id", m."hour", m."dimension",
    CASE WHEN m."held" OR row_number() OVER (
      PARTITION BY m."domain_id", m."hour", m."dimension", m."held" ORDER BY m."visits" DESC, m."value"
    ) <= r."room" THEN m."value" ELSE '${OTHER_VALUE}' END AS "value",
    m."visits", m."humans"
  FROM marked m JOIN room r USING ("domain_id", "hour", "dimension")
)
INSERT INTO "shortener"."orphan_visit_hour_values" AS d ("domain_id", "hour", "dimension", "value", "visits", "humans")
SELECT "domain_id", "hour", "dimension", "value", sum("visits"), sum("humans") FROM kept
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
ON CONFLICT ("domain_id", "hour", "dimension", "value") DO UPDATE SET "visits" = d."visits" + excluded."visits",
  "humans" = d."humans" + excluded."humans"`;

/** The app's `orphanVisits`: counted by the redirect, stored as the service stops. */
async function orphanVisitsPlugin(app: FastifyInstance, { ipMode }: { ipMode: VisitIpMode }): Promise<void> {
  const counted = new Counter({
    name: "orphan_visits_total",
    help: "Orphan visits counted (unknown name, domain root, unknown host), by kind",
    labelNames: ["kind"],
    registers: [app.metrics],
  });
  const orphanVisits = new OrphanVisits(app.prisma, ipMode, {
    counted: (kind) => counted.inc({ kind }),
    failed: (error) => app.log.warn({ err: error }, "orphan visits not stored yet; tried again in a second"),
  });
  app.decorate("orphanVisits", orphanVisits);
  app.addHook("onClose", async () => {
    try {
      await orphanVisits.close();
    } catch (error) {
      // The stop goes on (the visits' drain and the pool's close come after this hook): what
      // could not be stored is said, not thrown.
      app.log.error({ err: error, lost: orphanVisits.pending }, "orphan visits not stored at stop");
    }
  });
}

export default fp(orphanVisitsPlugin, {
  name: "orphan-visits",
  fastify: "5.x",
  decorators: { fastify: ["prisma", "metrics"] },
});
