// Which parser reads a file: by its source (--from), and for the sources with two exports by
// what the file holds (JSON, SQL or CSV).
import { parseBitlyCsv } from "./bitly-csv.ts";
import { parseGenericCsv } from "./generic-csv.ts";
import { parseKuttJson } from "./kutt-json.ts";
import { parseShlinkCsv, parseShlinkJson } from "./shlink-export.ts";
import { fileChunks, fileStart, type ImportSource, type SourceLine } from "./source-link.ts";
import { parseYourlsCsv, parseYourlsSql } from "./yourls-export.ts";

const isJson = (start: string) => start.startsWith("{") || start.startsWith("[");
const isSql = (path: string, start: string) =>
  /\.sql$/i.test(path) || /^(--|\/\*|#|CREATE\s|INSERT\s|SET\s|DROP\s|LOCK\s|USE\s)/i.test(start);

/** The links of the export at `path` (a file that cannot be read throws: the run fails). */
export async function readExport(path: string, source: ImportSource): Promise<AsyncIterable<SourceLine>> {
  const start = await fileStart(path);
  switch (source) {
    case "bitly":
      return parseBitlyCsv(fileChunks(path));
    case "kutt":
      return parseKuttJson(path);
    case "shlink":
      return isJson(start) ? parseShlinkJson(path) : parseShlinkCsv(fileChunks(path));
    case "yourls":
      return isSql(path, start) ? parseYourlsSql(path) : parseYourlsCsv(fileChunks(path));
    case "csv":
      return parseGenericCsv(fileChunks(path));
  }
}
