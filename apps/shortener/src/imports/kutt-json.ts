// Kutt's API v2 JSON: what GET /api/v2/links answers ({ limit, skip, total, data: [link…] }),
// one page, a list of pages, or the links alone. Each link: id, address (its name), target,
// description (its title), domain, created_at and visit_count (a total: the API gives no visits
// one by one). Read whole: a JSON export is one document.
import { readFile } from "node:fs/promises";
import { type SourceLine, sourceLink } from "./source-link.ts";

type KuttLink = Record<string, unknown>;

/** The links of a Kutt export, whichever of its shapes. */
function linksOf(document: unknown): KuttLink[] {
  if (Array.isArray(document))
    return document.flatMap((item) =>
      item && typeof item === "object" && "data" in item ? linksOf(item) : [item],
    );
  if (document && typeof document === "object" && Array.isArray((document as { data?: unknown }).data))
    return (document as { data: KuttLink[] }).data;
  throw new Error("not a Kutt export: expected GET /api/v2/links's { data: [...] }, or a list of links");
}

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

export async function* parseKuttJson(path: string): AsyncGenerator<SourceLine> {
  const links = linksOf(JSON.parse(await readFile(path, "utf8")));
  for (const [index, link] of links.entries()) {
    const place = `item ${index + 1}`;
    if (!link || typeof link !== "object") {
      yield { place, error: "not a link object" };
      continue;
    }
    const address = text(link.address);
    const domain = text(link.domain);
    yield sourceLink(place, {
      // Its id stays when the address is edited at Kutt; older exports have none.
      key: text(link.id) || (address && `${domain}/${address}`),
      name: address || undefined,
      url: text(link.target),
      title: text(link.description) || undefined,
      tags: [],
      created: text(link.created_at),
      visitTotal: link.visit_count as number | undefined,
    });
  }
}
