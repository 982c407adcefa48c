// RFC 4180 CSV, streamed: each record with the line it starts on (a quoted field may hold line
// breaks), so a bad one is reported where a person finds it in the file.

export interface CsvRow {
  line: number;
  fields: string[];
}

/** The records of `chunks`, in order; blank lines are skipped. */
export async function* csvRows(chunks: AsyncIterable<string>, delimiter = ","): AsyncGenerator<CsvRow> {
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  /** After a closing quote, until the delimiter or the end of the record. */
  let afterQuote = false;
  let line = 1;
  let start = 1;
  let empty = true;
  /** The last character was a CR outside quotes: an LF right after it (next chunk too) ends nothing. */
  let afterCr = false;
  const endField = () => {
    fields.push(field);
    field = "";
    afterQuote = false;
  };
  for await (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      const c = chunk[i]!;
      if (afterCr) {
        afterCr = false;
        if (c === "\n") {
          i++;
          continue;
        }
      }
      if (quoted) {
        if (c === '"') {
          // A quote doubled is one quote; a lone one ends the field (the next chunk may hold its pair).
          if (i + 1 === n) {
            quoted = false;
            afterQuote = true;
          } else if (chunk[i + 1] === '"') {
            field += '"';
            i++;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else {
          if (c === "\n") line++;
          field += c;
        }
        i++;
        continue;
      }
      if (c === '"' && afterQuote) {
        // The pair of a quote that ended the last chunk.
        field += '"';
        quoted = true;
        afterQuote = false;
      } else if (c === '"' && field === "") {
        quoted = true;
        empty = false;
      } else if (c === delimiter) {
        endField();
        empty = false;
      } else if (c === "\n" || c === "\r") {
        if (c === "\r") afterCr = true;
        if (!empty || field !== "") {
          endField();
          yield { line: start, fields };
        }
        fields = [];
        field = "";
        afterQuote = false;
        empty = true;
        line++;
        start = line;
      } else {
        // Characters after a closing quote are kept, as spreadsheets do.
        field += c;
        empty = false;
      }
      i++;
    }
  }
  if (!empty || field !== "" || fields.length > 0) {
    endField();
    yield { line: start, fields };
  }
}

/**
 * Rows as records by header (normalized by `normalize`): the first row is the header. Values
 * are trimmed; a missing one is "".
 */
export async function* csvRecords(
  chunks: AsyncIterable<string>,
  normalize: (header: string) => string,
): AsyncGenerator<{ line: number; record: Record<string, string>; width: number }> {
  let header: string[] | undefined;
  for await (const row of csvRows(chunks)) {
    if (header === undefined) {
      header = row.fields.map(normalize);
      continue;
    }
    const record: Record<string, string> = {};
    header.forEach((name, i) => {
      record[name] ??= (row.fields[i] ?? "").trim();
    });
    yield { line: row.line, record, width: row.fields.length };
  }
}
