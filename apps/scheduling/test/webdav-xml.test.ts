// The streaming WebDAV XML reader (src/calendars/webdav-xml.ts) reads character data itself,
// outside saxes, to bound it: whatever the chunks' boundaries (inside an entity, a CDATA
// section, a CRLF, a tag), it reads what a whole-document read gives; and every bound holds.
import { describe, expect, it } from "vitest";
import { CALDAV, DAV, type XmlElement, XmlItemReader, XmlReadError } from "../src/calendars/webdav-xml.ts";

const DOCUMENT = [
  `<?xml version="1.0" encoding="utf-8"?>\r\n<!-- a comment before the root -->`,
  `<multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:x="urn:x">`,
  `<response><href>/alice/work/caf%C3%A9 &amp; tea.ics</href>`,
  `<propstat><prop><getetag>"e&#x41;1"</getetag>`,
  `<C:calendar-data>BEGIN:VCALENDAR&#13;\r\nSUMMARY:Café ☕ &lt;b&gt;\r\nDESCRIPTION:a\rb<![CDATA[ <raw> & ]] ]]>end&#10;END:VCALENDAR</C:calendar-data>`,
  `<x:odd attr="a > b" other='1'/><resourcetype><collection/><C:calendar/></resourcetype>`,
  `</prop><status>HTTP/1.1 200 OK</status></propstat></response>`,
  `<response><href>/alice/work/gone.ics</href><!-- between --><status>HTTP/1.1 404 Not Found</status></response>`,
  `<sync-token>http://radicale.org/ns/sync/abc</sync-token>`,
  `</multistatus>\n`,
].join("");

function read(chunks: string[], bounds = { maxTextBytes: 1024 }) {
  const reader = new XmlItemReader(bounds);
  const items: XmlElement[] = [];
  for (const chunk of chunks) {
    reader.write(chunk);
    items.push(...reader.take());
  }
  reader.end();
  items.push(...reader.take());
  return { root: reader.root, items };
}

const find = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.name === name ? element : element?.children.map((child) => find(child, name)).find(Boolean);

describe("XmlItemReader", () => {
  it("reads the root's children as trees: namespaces, entities, CDATA, line ends, attributes", () => {
    const { root, items } = read([DOCUMENT]);
    expect(root).toEqual({ ns: DAV, name: "multistatus" });
    expect(items.map((item) => item.name)).toEqual(["response", "response", "sync-token"]);
    const [first, second, token] = items;
    expect(find(first, "href")?.text).toBe("/alice/work/caf%C3%A9 & tea.ics");
    expect(find(first, "getetag")?.text).toBe('"eA1"');
    const data = find(first, "calendar-data");
    expect(data?.ns).toBe(CALDAV);
    // CR LF and a lone CR become LF; a character reference keeps its CR; CDATA is verbatim.
    expect(data?.text).toBe(
      "BEGIN:VCALENDAR\r\nSUMMARY:Café ☕ <b>\nDESCRIPTION:a\nb <raw> & ]] end\nEND:VCALENDAR",
    );
    expect(find(first, "odd")).toMatchObject({ ns: "urn:x", attributes: { attr: "a > b", other: "1" } });
    expect(find(first, "resourcetype")?.children.map((child) => `${child.ns}${child.name}`)).toEqual([
      "DAV:collection",
      `${CALDAV}calendar`,
    ]);
    expect(find(second, "status")?.text).toBe("HTTP/1.1 404 Not Found");
    expect(token?.text).toBe("http://radicale.org/ns/sync/abc");
  });

  it("reads the same whatever the chunks: split at every position, and one character at a time", () => {
    const whole = read([DOCUMENT]).items;
    for (let at = 1; at < DOCUMENT.length; at++)
      expect(read([DOCUMENT.slice(0, at), DOCUMENT.slice(at)]).items, `split at ${at}`).toEqual(whole);
    expect(read([...DOCUMENT]).items).toEqual(whole);
  });

  it("gives each finished child as soon as it closes, not at the end", () => {
    const reader = new XmlItemReader({ maxTextBytes: 1024 });
    const cut = DOCUMENT.indexOf("<response><href>/alice/work/gone.ics");
    reader.write(DOCUMENT.slice(0, cut));
    expect(reader.take().map((item) => item.name)).toEqual(["response"]);
    reader.write(DOCUMENT.slice(cut));
    expect(reader.take().map((item) => item.name)).toEqual(["response", "sync-token"]);
  });

  it("flags and drops a soft-bounded text over its bound; any other text over it fails as too large", () => {
    const big = `<multistatus xmlns="DAV:" xmlns:C="${CALDAV}"><response><href>/a</href><C:calendar-data>${"x".repeat(5000)}</C:calendar-data></response><response><href>/b</href></response></multistatus>`;
    const chunks = big.match(/[\s\S]{1,100}/g) ?? [];
    const { items } = read(chunks, {
      maxTextBytes: 64,
      softText: { ns: CALDAV, name: "calendar-data", maxBytes: 1000 },
    } as never);
    expect(find(items[0], "calendar-data")).toMatchObject({ overflow: true, text: "" });
    expect(find(items[1], "href")?.text).toBe("/b");
    expect(() => read(chunks, { maxTextBytes: 64 })).toThrow(
      expect.objectContaining({ kind: "too-large", message: expect.stringContaining("calendar-data") }),
    );
  });

  it.each([
    [
      "a DOCTYPE (no entity expansion)",
      `<!DOCTYPE m [<!ENTITY a "aa">]><multistatus xmlns="DAV:"/>`,
      "malformed",
    ],
    [
      "an unknown entity",
      `<multistatus xmlns="DAV:"><response><href>&nbsp;</href></response></multistatus>`,
      "malformed",
    ],
    [
      "a mismatched end tag",
      `<multistatus xmlns="DAV:"><response><href>/a</hre></response></multistatus>`,
      "malformed",
    ],
    ["text after the root", `<multistatus xmlns="DAV:"/>trailing`, "malformed"],
    ["an unfinished document", `<multistatus xmlns="DAV:"><response>`, "malformed"],
    ["no element at all", `   `, "malformed"],
    ["nesting 41 deep", `${"<a>".repeat(41)}${"</a>".repeat(41)}`, "malformed"],
    ["a tag over 1 MiB", `<multistatus xmlns="DAV:" x="${"y".repeat(1 << 20)}"/>`, "too-large"],
  ])("refuses %s", (_what, document, kind) => {
    let error: unknown;
    try {
      read([document]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(XmlReadError);
    expect((error as XmlReadError).kind).toBe(kind);
  });
});
