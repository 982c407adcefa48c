// The generic CSV format (docs/shortener.md, "Importing from another shortener"): a header row,
// then one link a row. Columns by name, in any order: url (required), name, title, tags
// ("a|b"), created (ISO 8601), visits (a total). Unknown columns are ignored.
import { csvRecords } from "./csv-rows.ts";
import { normalizeHeader, type SourceLine, sourceLink, splitTags } from "./source-link.ts";

export const GENERIC_CSV_COLUMNS = ["url", "name", "title", "tags", "created", "visits"] as const;

export async function* parseGenericCsv(chunks: AsyncIterable<string>): AsyncGenerator<SourceLine> {
  let checked = false;
  for await (const { line, record } of csvRecords(chunks, normalizeHeader)) {
    const place = `line ${line}`;
    if (!checked) {
      checked = true;
      if (!("url" in record))
        throw new Error(`the CSV has no "url" column (columns: ${GENERIC_CSV_COLUMNS.join(", ")})`);
    }
    const name = record.name || undefined;
    yield sourceLink(place, {
      // A link without a name is known by its target: the same target twice is one link.
      key: name ?? record.url ?? "",
      name,
      url: record.url ?? "",
      title: record.title || undefined,
      tags: splitTags(record.tags, /\|/),
      created: record.created,
      visitTotal: record.visits,
    });
  }
}
