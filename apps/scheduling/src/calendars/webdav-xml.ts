// A streaming reader of WebDAV XML answers (a 207 multistatus, a DAV:error body): the root
// element's children come out one by one as small trees as soon as each closes, so a listing of
// 100,000 objects is never whole in memory. saxes reads the markup; character data is read here,
// outside saxes, because saxes keeps an element's whole text until its next tag: a 10 MB
// calendar-data would sit in its buffer whatever the bounds. Every text and every construct is
// bounded; the one text allowed to overflow softly (C:calendar-data) is flagged, not kept.
import { type SaxesAttributeNS, SaxesParser, type SaxesTagNS } from "saxes";

export const DAV = "DAV:";
export const CALDAV = "urn:ietf:params:xml:ns:caldav";
export const CALENDARSERVER = "http://calendarserver.org/ns/";

export interface XmlElement {
  ns: string;
  name: string;
  /** Attributes by local name (namespace declarations left out). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's character data (entities decoded, line ends normalised to \n). */
  text: string;
  /** The text was over its bound and was dropped (only where the bounds say `flag`). */
  overflow: boolean;
}

export class XmlReadError extends Error {
  constructor(
    readonly kind: "malformed" | "too-large",
    message: string,
  ) {
    super(message);
  }
}

export interface XmlBounds {
  /** Bytes of text one element may hold (UTF-8); past it the answer fails as too large… */
  maxTextBytes: number;
  /** …except for these elements, whose text past `maxBytes` is dropped and flagged `overflow`. */
  softText?: { ns: string; name: string; maxBytes: number };
  /** Elements in one child of the root, all depths. */
  maxElements?: number;
}

/** Markup saxes may read without producing an element (a tag, a comment): bounds its own buffers. */
const MAX_MARKUP_CHARS = 1 << 20;
const MAX_DEPTH = 40;
const CDATA_OPEN = "<![CDATA[";
/** The next `<` or `&` (one scan: two indexOf calls would each run to the chunk's end). */
const MARKUP_OR_ENTITY = /[<&]/g;
const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

interface OpenElement extends XmlElement {
  bytes: number;
  maxBytes: number;
  soft: boolean;
}

/**
 * Feed it decoded text with `write` and take the root's finished children with `take()` after
 * each write; `end()` when the body is over. `root` is the root element once it opened.
 */
export class XmlItemReader {
  root: { ns: string; name: string } | undefined;
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private readonly stack: OpenElement[] = [];
  private items: XmlElement[] = [];
  private elementsInItem = 0;
  /** Character data follows the tag saxes just closed: it is read here until the next `<`. */
  private inText = false;
  private tagClosed = false;
  private inCdata = false;
  private entity: string | undefined;
  private pendingCr = false;
  /** The end of the previous write that cannot be decided yet (`<![CD`, `]]`). */
  private carry = "";
  private markupChars = 0;

  constructor(private readonly bounds: XmlBounds) {
    const parser = this.parser;
    parser.on("opentag", (tag: SaxesTagNS) => this.open(tag));
    parser.on("closetag", () => this.close());
    // Between an element's children (comments, processing instructions) the text goes on.
    parser.on("comment", () => this.markupDone());
    parser.on("processinginstruction", () => this.markupDone());
    parser.on("doctype", () => {
      throw new XmlReadError("malformed", "the XML has a DOCTYPE, which WebDAV answers never have");
    });
    parser.on("error", (error: Error) => {
      throw new XmlReadError("malformed", `the XML is not well-formed: ${error.message}`);
    });
  }

  write(chunk: string): void {
    const text = this.carry + chunk;
    this.carry = "";
    let at = 0;
    while (at < text.length) {
      if (this.inText) {
        at = this.readText(text, at);
        continue;
      }
      // Markup goes to saxes a tag at a time, so that the text after each tag is read here.
      const gt = text.indexOf(">", at);
      const end = gt === -1 ? text.length : gt + 1;
      this.tagClosed = false;
      this.markupChars += end - at;
      if (this.markupChars > MAX_MARKUP_CHARS)
        throw new XmlReadError("too-large", "the XML has a tag or comment over 1 MiB");
      this.parser.write(text.slice(at, end));
      at = end;
      if (gt !== -1 && this.tagClosed) this.inText = true;
    }
  }

  /** The root's children finished since the last call. */
  take(): XmlElement[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  end(): void {
    if (this.entity !== undefined || this.inCdata)
      throw new XmlReadError("malformed", "the XML ended inside an entity or a CDATA section");
    const rest = this.carry;
    this.carry = "";
    this.inText = false;
    if (rest) this.parser.write(rest);
    this.parser.close();
    if (!this.root) throw new XmlReadError("malformed", "the answer holds no XML element");
    if (this.stack.length > 0) throw new XmlReadError("malformed", "the XML ended before its last element");
  }

  private open(tag: SaxesTagNS): void {
    this.markupDone();
    if (this.stack.length >= MAX_DEPTH)
      throw new XmlReadError("malformed", `the XML nests deeper than ${MAX_DEPTH} elements`);
    const ns = tag.uri;
    const name = tag.local;
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes) as SaxesAttributeNS[])
      if (attribute.prefix !== "xmlns" && attribute.name !== "xmlns")
        attributes[attribute.local] = attribute.value;
    const soft = this.bounds.softText;
    const isSoft = soft !== undefined && soft.ns === ns && soft.name === name;
    const element: OpenElement = {
      ns,
      name,
      attributes,
      children: [],
      text: "",
      overflow: false,
      bytes: 0,
      maxBytes: isSoft ? soft.maxBytes : this.bounds.maxTextBytes,
      soft: isSoft,
    };
    if (this.stack.length === 0) this.root = { ns, name };
    else {
      if (this.stack.length === 1) this.elementsInItem = 0;
      if (++this.elementsInItem > (this.bounds.maxElements ?? 10_000))
        throw new XmlReadError("too-large", "one answer in the XML holds too many elements");
      if (this.stack.length >= 2) this.stack.at(-1)?.children.push(element);
    }
    this.stack.push(element);
  }

  private close(): void {
    this.markupDone();
    const element = this.stack.pop();
    if (element && this.stack.length === 1) {
      const { bytes: _bytes, maxBytes: _maxBytes, soft: _soft, ...plain } = element;
      this.items.push(plain);
    }
  }

  private markupDone(): void {
    this.tagClosed = true;
    this.markupChars = 0;
  }

  /** Reads character data from `at` up to the next markup; returns where it stopped. */
  private readText(text: string, at: number): number {
    let i = at;
    while (i < text.length) {
      if (this.entity !== undefined) {
        const semicolon = text.indexOf(";", i);
        if (semicolon === -1) {
          this.entity += text.slice(i);
          if (this.entity.length > 10)
            throw new XmlReadError("malformed", "the XML has an unterminated entity");
          return text.length;
        }
        this.entity += text.slice(i, semicolon);
        this.append(decodeEntity(this.entity), false);
        this.entity = undefined;
        i = semicolon + 1;
        continue;
      }
      if (this.inCdata) {
        const close = text.indexOf("]]>", i);
        if (close === -1) {
          // Keep a possible start of "]]>" for the next write.
          const keep = text.endsWith("]]") ? 2 : text.endsWith("]") ? 1 : 0;
          this.append(text.slice(i, text.length - keep), true);
          this.carry = text.slice(text.length - keep);
          return text.length;
        }
        this.append(text.slice(i, close), true);
        this.inCdata = false;
        i = close + 3;
        continue;
      }
      MARKUP_OR_ENTITY.lastIndex = i;
      const stop = MARKUP_OR_ENTITY.exec(text)?.index ?? -1;
      if (stop === -1) {
        this.append(text.slice(i), true);
        return text.length;
      }
      this.append(text.slice(i, stop), true);
      if (text[stop] === "&") {
        this.entity = "";
        i = stop + 1;
        continue;
      }
      const rest = text.length - stop;
      if (rest < CDATA_OPEN.length && CDATA_OPEN.startsWith(text.slice(stop))) {
        this.carry = text.slice(stop);
        return text.length;
      }
      if (text.startsWith(CDATA_OPEN, stop)) {
        this.inCdata = true;
        i = stop + CDATA_OPEN.length;
        continue;
      }
      // Markup: saxes reads it from here (it is in its text state, with no text pending).
      this.inText = false;
      return stop;
    }
    return i;
  }

  /** Adds character data to the open element, within its bound. */
  private append(raw: string, normalise: boolean): void {
    let piece = raw;
    if (normalise) {
      if (this.pendingCr && piece.startsWith("\n")) piece = piece.slice(1);
      if (piece.length > 0) this.pendingCr = piece.endsWith("\r");
      piece = piece.replace(/\r\n?/g, "\n");
    } else this.pendingCr = false;
    if (piece.length === 0) return;
    const element = this.stack.at(-1);
    if (!element) {
      if (/\S/.test(piece)) throw new XmlReadError("malformed", "the XML has text after its root element");
      return;
    }
    // The root's own text is the whitespace between its children: not kept.
    if (this.stack.length === 1 || element.overflow) return;
    element.bytes += Buffer.byteLength(piece);
    if (element.bytes > element.maxBytes) {
      if (!element.soft)
        throw new XmlReadError(
          "too-large",
          `the XML element ${element.name} holds more than ${element.maxBytes} bytes of text`,
        );
      element.overflow = true;
      element.text = "";
      return;
    }
    element.text += piece;
  }
}

function decodeEntity(entity: string): string {
  const named = PREDEFINED[entity];
  if (named !== undefined) return named;
  const match = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(entity);
  const code = match ? Number.parseInt(match[1] ?? match[2] ?? "", match[1] ? 16 : 10) : Number.NaN;
  if (!Number.isInteger(code) || code > 0x10ffff || code === 0 || (code >= 0xd800 && code <= 0xdfff))
    throw new XmlReadError("malformed", `the XML has an unknown entity &${entity};`);
  return String.fromCodePoint(code);
}

/** The children of `element` named `ns` `name`. */
export const childrenNamed = (element: XmlElement | undefined, ns: string, name: string): XmlElement[] =>
  element?.children.filter((child) => child.ns === ns && child.name === name) ?? [];

export const childNamed = (
  element: XmlElement | undefined,
  ns: string,
  name: string,
): XmlElement | undefined => element?.children.find((child) => child.ns === ns && child.name === name);

/** XML-escapes text for an element's content or a double-quoted attribute. */
export const escapeXml = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
