// YOURLS's data, from its database (YOURLS has no export of its own): a CSV of the yourls_url
// table (phpMyAdmin's or mysql's export: keyword, url, title, timestamp, ip, clicks, with or
// without the header row), or an SQL dump (mysqldump, phpMyAdmin) of yourls_url and, for the
// visits one by one, yourls_log (click_id, click_time, shorturl, referrer, user_agent,
// ip_address, country_code). Any table prefix. Times are as YOURLS stores them, read as UTC.
import { readFile } from "node:fs/promises";
import { csvRows } from "./csv-rows.ts";
import { normalizeHeader, parseDate, type SourceLine, type SourceVisit, sourceLink } from "./source-link.ts";

const URL_COLUMNS = ["keyword", "url", "title", "timestamp", "ip", "clicks"];
const LOG_COLUMNS = [
  "click_id",
  "click_time",
  "shorturl",
  "referrer",
  "user_agent",
  "ip_address",
  "country_code",
];

/** A yourls_url row as a link; the clicks a total unless the visits come from the log. */
function urlRow(place: string, row: Record<string, string | null>, visits?: SourceVisit[]): SourceLine {
  const keyword = row.keyword ?? "";
  return sourceLink(place, {
    key: keyword,
    name: keyword || undefined,
    url: row.url ?? "",
    title: row.title || undefined,
    tags: [],
    created: row.timestamp,
    visitTotal: visits === undefined ? row.clicks : undefined,
    visits,
  });
}

export async function* parseYourlsCsv(chunks: AsyncIterable<string>): AsyncGenerator<SourceLine> {
  let columns: string[] | undefined;
  for await (const { line, fields } of csvRows(chunks)) {
    if (columns === undefined) {
      const header = fields.map((field) => normalizeHeader(field));
      const named = header.includes("keyword") && header.includes("url");
      columns = named ? fields.map((f) => f.trim().toLowerCase()) : URL_COLUMNS;
      if (named) continue;
    }
    const cols = columns;
    yield urlRow(`line ${line}`, Object.fromEntries(cols.map((c, i) => [c, fields[i]?.trim() ?? ""])));
  }
}

/** A value of an INSERT's tuple: a string, a number's text, or NULL. */
type SqlValue = string | null;

/** The rows of each INSERT INTO a table in `sql`, with the line each row starts on. */
export function* sqlInsertRows(
  sql: string,
): Generator<
  | { table: string; columns: string[] | undefined; line: number; values: SqlValue[] }
  | { line: number; error: string }
> {
  const insert = /INSERT\s+(?:IGNORE\s+)?INTO\s+[`"]?([\w$]+)[`"]?\s*(?:\(([^)]*)\))?\s*VALUES\s*/giy;
  const statementStart = /INSERT\s/gi;
  let line = 1;
  let counted = 0;
  const lineAt = (index: number) => {
    for (; counted < index; counted++) if (sql.charCodeAt(counted) === 10) line++;
    return line;
  };
  for (let found = statementStart.exec(sql); found; found = statementStart.exec(sql)) {
    insert.lastIndex = found.index;
    const head = insert.exec(sql);
    if (!head) continue;
    const table = head[1]!;
    const columns = head[2]?.split(",").map((c) => c.trim().replace(/^[`"]|[`"]$/g, ""));
    let i = insert.lastIndex;
    for (;;) {
      while (/\s/.test(sql[i] ?? "")) i++;
      const rowLine = lineAt(i);
      if (sql[i] !== "(") {
        yield { line: rowLine, error: `INSERT INTO ${table}: expected "(" at a row` };
        break;
      }
      i++;
      const values: SqlValue[] = [];
      let bad = false;
      for (;;) {
        while (/\s/.test(sql[i] ?? "")) i++;
        if (sql[i] === "'") {
          let value = "";
          i++;
          for (; i < sql.length; i++) {
            const c = sql[i]!;
            if (c === "\\") {
              const next = sql[++i] ?? "";
              value +=
                ({ n: "\n", r: "\r", t: "\t", "0": "\0", Z: "\x1a" } as Record<string, string>)[next] ?? next;
            } else if (c === "'" && sql[i + 1] === "'") {
              value += "'";
              i++;
            } else if (c === "'") break;
            else value += c;
          }
          i++;
          values.push(value);
        } else {
          const start = i;
          while (i < sql.length && sql[i] !== "," && sql[i] !== ")") i++;
          const token = sql.slice(start, i).trim();
          values.push(/^null$/i.test(token) ? null : token);
        }
        while (/\s/.test(sql[i] ?? "")) i++;
        if (sql[i] === ",") {
          i++;
          continue;
        }
        if (sql[i] === ")") {
          i++;
          break;
        }
        bad = true;
        break;
      }
      if (bad) {
        yield { line: rowLine, error: `INSERT INTO ${table}: a row that does not end` };
        break;
      }
      yield { table, columns, line: rowLine, values };
      while (/\s/.test(sql[i] ?? "")) i++;
      if (sql[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    statementStart.lastIndex = Math.max(i, statementStart.lastIndex);
  }
}

export async function* parseYourlsSql(path: string): AsyncGenerator<SourceLine> {
  const sql = await readFile(path, "utf8");
  const links: { place: string; row: Record<string, SqlValue> }[] = [];
  const visits = new Map<string, SourceVisit[]>();
  let hasLog = false;
  const problems: SourceLine[] = [];
  for (const row of sqlInsertRows(sql)) {
    if ("error" in row) {
      problems.push({ place: `line ${row.line}`, error: row.error });
      continue;
    }
    const isUrl = /url$/i.test(row.table);
    const isLog = /log$/i.test(row.table);
    if (!isUrl && !isLog) continue;
    const named = Object.fromEntries(
      (row.columns ?? (isUrl ? URL_COLUMNS : LOG_COLUMNS)).map((c, i) => [
        c.toLowerCase(),
        row.values[i] ?? null,
      ]),
    );
    if (isUrl) {
      links.push({ place: `line ${row.line}`, row: named });
      continue;
    }
    hasLog = true;
    const at = parseDate(named.click_time);
    if (!(at instanceof Date)) {
      problems.push({
        place: `line ${row.line}`,
        error: `yourls_log click ${named.click_id}: no readable click_time`,
      });
      continue;
    }
    const keyword = named.shorturl ?? "";
    const referrer = named.referrer ?? "";
    const list = visits.get(keyword) ?? [];
    visits.set(keyword, list);
    // YOURLS writes "direct" for a visit without a referrer.
    list.push({
      at,
      userAgent: named.user_agent ?? "",
      referer: referrer === "direct" ? "" : referrer,
      ipAddress: named.ip_address ?? "",
    });
  }
  yield* problems;
  for (const { place, row } of links) {
    yield urlRow(place, row, hasLog ? (visits.get(row.keyword ?? "") ?? []) : undefined);
  }
}
