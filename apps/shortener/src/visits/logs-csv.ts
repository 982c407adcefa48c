// A short's visits as CSV, streamed from a server-side cursor: memory stays flat whatever the
// number of visits (rows are fetched 1,000 at a time and written as the client reads them).
import { pipeline, Transform } from "node:stream";
import { type PrismaClient, poolOf } from "@app/db";
import type { LogsQuery } from "@app/schemas/shortener";
import type { FastifyReply } from "fastify";
import QueryStream from "pg-query-stream";

const COLUMNS = [
  "id",
  "createdAt",
  "ipAddress",
  "userAgent",
  "referer",
  "isBot",
  "browser",
  "os",
  "device",
  "country",
  "referrerHost",
  "rule",
  "visitedUrl",
  "redirectUrl",
] as const;

/**
 * `format` decides; without it, the Accept header (RFC 9110 §12.5.1): CSV when it weighs
 * text/csv above JSON, or as much and names it first. Each type takes the weight of the most
 * specific range that matches it (the type itself, then `text/*` or `application/*`, then the range of
 * any type); `q=0` refuses it.
 */
export function wantsCsv(format: "json" | "csv" | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === "csv";
  const ranges = (accept ?? "").split(",").map((part, position) => {
    const [range = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { range, weight: Number.isFinite(weight) ? weight : 0, position };
  });
  const preference = (type: string) => {
    const [major] = type.split("/");
    const match = [type, `${major}/*`, "*/*"]
      .map((range) => ranges.find((candidate) => candidate.range === range))
      .find((found) => found !== undefined);
    return match ?? { weight: 0, position: Infinity };
  };
  const csv = preference("text/csv");
  const json = preference("application/json");
  return (
    csv.weight > json.weight || (csv.weight > 0 && csv.weight === json.weight && csv.position < json.position)
  );
}

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a leading =, +, -, @, tab or
 * carriage return gets a ' first, so a spreadsheet shows the text instead of running it.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

interface Row {
  id: string;
  created_at: Date;
  ip_address: string;
  user_agent: string;
  referer: string;
  is_bot: boolean;
  browser: string;
  os: string;
  device: string;
  country: string;
  referrer_host: string;
  /** The redirect rule that sent the visit; null: the short's url (an empty field). */
  rule: number | null;
  /** The URL visited and the one the visit was sent to (docs/adr/0271); null: not kept (empty). */
  visited_url: string | null;
  redirect_url: string | null;
}

const line = (row: Row) =>
  `${[
    row.id,
    row.created_at.toISOString(),
    row.ip_address,
    row.user_agent,
    row.referer,
    String(row.is_bot),
    row.browser,
    row.os,
    row.device,
    row.country,
    row.referrer_host,
    row.rule === null ? "" : String(row.rule),
    row.visited_url ?? "",
    row.redirect_url ?? "",
  ]
    .map(csvField)
    .join(",")}\r\n`;

/** Sends the visits `query` selects (newest first) as text/csv on `reply`. */
export async function streamLogsCsv(
  prisma: PrismaClient,
  reply: FastifyReply,
  shortId: string,
  query: LogsQuery,
): Promise<FastifyReply> {
  const values: unknown[] = [shortId];
  let sql = `SELECT "id"::text AS "id", "created_at", "ip_address", "user_agent", "referer", "is_bot", "browser",
    "os", "device", "country", "referrer_host", "rule", "visited_url", "redirect_url" FROM "shortener"."short_logs" WHERE "short_id" = $1::uuid`;
  if (query.before !== undefined) sql += ` AND "id" < $${values.push(query.before)}::int8`;
  // By the column, not the text of the same name the list selects (which sorts "9" above "31").
  sql += ` ORDER BY "short_logs"."id" DESC`;
  if (query.limit !== undefined) sql += ` LIMIT $${values.push(query.limit)}`;
  if (query.offset !== undefined) sql += ` OFFSET $${values.push(query.offset)}`;

  const client = await poolOf(prisma).connect();
  // An export of millions of visits may take minutes: no statement timeout on the server for
  // it (only in this transaction) and none on the client (the pool's are for queries).
  try {
    await client.query("BEGIN READ ONLY");
    await client.query("SET LOCAL statement_timeout = 0");
  } catch (error) {
    // Not handed out again: its state is unknown (the stream's end releases it otherwise).
    client.release(error as Error);
    throw error;
  }
  const stream = Object.assign(new QueryStream(sql, values, { batchSize: 1000 }), {
    query_timeout: 2_147_483_647,
  });
  const rows = client.query(stream);
  const csv = new Transform({
    writableObjectMode: true,
    transform(row: Row, _encoding, done) {
      done(null, line(row));
    },
  });
  csv.push(`${COLUMNS.join(",")}\r\n`);
  // Ends with the response, however it ends (done, failed, or the client went away).
  pipeline(rows, csv, (error) => {
    if (error) client.release(error);
    else
      client.query("COMMIT").then(
        () => client.release(),
        (failed: Error) => client.release(failed),
      );
  });
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="short-${shortId}-visits.csv"`)
    .send(csv);
}
