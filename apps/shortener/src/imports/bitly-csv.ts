// Bitly's CSV export of links (web app: Links, select them, Export; or the API's
// POST /v4/groups/{group_guid}/exports, export_type links_list). Columns are matched by name,
// the web app's labels and the API's field names alike: the Bitlink (its key), the long URL,
// title, created date, tags, a custom back-half, and clicks (a total: Bitly exports no visits
// one by one).
import { csvRecords } from "./csv-rows.ts";
import { normalizeHeader, type SourceLine, sourceLink, splitTags } from "./source-link.ts";

const first = (record: Record<string, string>, names: string[]) => {
  for (const name of names) if (record[name]) return record[name];
  return "";
};

/** The back-half of a Bitlink ("bit.ly/3abcDEF", "https://bit.ly/x"): its name. */
const backHalf = (link: string) =>
  link
    .replace(/^[a-z]+:\/\//i, "")
    .split("/")
    .slice(1)
    .join("/");

export async function* parseBitlyCsv(chunks: AsyncIterable<string>): AsyncGenerator<SourceLine> {
  for await (const { line, record } of csvRecords(chunks, normalizeHeader)) {
    const place = `line ${line}`;
    const bitlink = first(record, ["bitlink", "link", "id", "shortlink", "shorturl"]);
    const custom = first(record, ["custombitlinks", "custombitlink", "customlink", "custombackhalf"]).split(
      /[,|\s]+/,
    )[0];
    const name = backHalf(custom || bitlink);
    yield sourceLink(place, {
      key: bitlink.replace(/^[a-z]+:\/\//i, ""),
      name: name || undefined,
      url: first(record, ["longurl", "destinationurl", "destination", "url"]),
      title: first(record, ["title"]) || undefined,
      tags: splitTags(first(record, ["tags"])),
      created: first(record, ["created", "createdat", "datecreated", "creationdate", "createddate"]),
      visitTotal: first(record, ["clicks", "totalclicks", "engagements", "totalengagements"]),
    });
  }
}
