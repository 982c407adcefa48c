// A small CalDAV client (RFC 4791, RFC 6578 sync-collection, RFC 6764 discovery) on node:http(s):
// what the calendar sync needs and no more. Basic auth on every request; every request bounded in
// time and size; multistatus answers read as a stream (webdav-xml.ts), so a calendar of 100,000
// objects is never whole in memory. Failures are one typed error, CalDavError, whose message a
// person can read and which never holds the password (nor a URL's userinfo).
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { performance } from "node:perf_hooks";
import {
  CALDAV,
  CALENDARSERVER,
  childNamed,
  childrenNamed,
  DAV,
  escapeXml,
  type XmlBounds,
  type XmlElement,
  XmlItemReader,
  XmlReadError,
} from "./webdav-xml.ts";

export type CalDavErrorKind =
  /** 401: the server refused the username or password. */
  | "unauthorized"
  /** 403: the user may not read or write there (another user's calendar). */
  | "forbidden"
  | "not-found"
  /** Another status than the request expects; `status` says which. */
  | "http"
  /** Connection refused or reset, host not found, TLS failure, closed mid-answer. */
  | "network"
  | "timeout"
  /** Not a CalDAV server (a plain web site), or no calendar home found. */
  | "not-caldav"
  /** An answer that is not the XML it should be. */
  | "malformed"
  /** An answer over the client's bounds. */
  | "too-large"
  /** RFC 6578: the server no longer knows the sync token; list the calendar in full instead. */
  | "invalid-sync-token";

export class CalDavError extends Error {
  override readonly name = "CalDavError";
  constructor(
    readonly kind: CalDavErrorKind,
    message: string,
    /** The HTTP status, when the server answered one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface CalDavClientOptions {
  username: string;
  password: string;
  /**
   * How long one request may wait on the server, in all: connecting, the head and every part of
   * the body (a server that stalls mid-body fails here). Time the caller spends between the
   * items of a streamed answer does not count. Default 30 s.
   */
  timeoutMs?: number;
  /** The largest calendar object read (GET, or calendar-data in a multiget). Default 1 MiB. */
  maxObjectBytes?: number;
  userAgent?: string;
}

export interface DiscoveredCalendar {
  /** The collection's absolute URL as the server names it (trailing slash included). */
  url: string;
  displayName: string | null;
  /** The components it accepts (`VEVENT`, `VTODO`…); all of RFC 4791's when it does not say. */
  components: string[];
  ctag: string | null;
  syncToken: string | null;
  supportsSyncCollection: boolean;
}

export interface Discovery {
  principalUrl: string | null;
  homeUrl: string | null;
  /** The calendar collections of the home (and the one the URL named, when it named one). */
  calendars: DiscoveredCalendar[];
  /** When the URL given was itself a calendar collection: its URL. */
  calendarUrl: string | null;
}

export interface ObjectRef {
  /** The object's absolute URL. */
  href: string;
  etag: string | null;
}

export type SyncChange = { href: string; etag: string | null } | { href: string; deleted: true };

export type MultigetItem =
  | { href: string; etag: string | null; data: string }
  /** Over maxObjectBytes: its data was not kept. */
  | { href: string; etag: string | null; tooLarge: true }
  /** Not returned (404 for one that does not exist). */
  | { href: string; status: number };

export interface TimeRange {
  start: Date;
  end: Date;
}

const DEFAULTS = { timeoutMs: 30_000, maxObjectBytes: 1 << 20, userAgent: "scheduling-caldav/1" };
/** Bound of any text in an answer but calendar data (an href, an etag, a display name). */
const MAX_TEXT_BYTES = 64 * 1024;
/** Collections in one home, responses in one discovery answer. */
const MAX_DISCOVERY_RESPONSES = 10_000;
/** Hrefs per calendar-multiget request: longer lists are sent in several. */
const MULTIGET_BATCH = 200;
/** What is read of an error answer (to tell an invalid sync token). */
const MAX_ERROR_BODY = 64 * 1024;
const ALL_COMPONENTS = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"];

type Prop = readonly [ns: string, name: string];
const P = {
  resourcetype: [DAV, "resourcetype"],
  displayname: [DAV, "displayname"],
  currentUserPrincipal: [DAV, "current-user-principal"],
  supportedReportSet: [DAV, "supported-report-set"],
  syncToken: [DAV, "sync-token"],
  getetag: [DAV, "getetag"],
  calendarHomeSet: [CALDAV, "calendar-home-set"],
  componentSet: [CALDAV, "supported-calendar-component-set"],
  calendarData: [CALDAV, "calendar-data"],
  getctag: [CALENDARSERVER, "getctag"],
} as const satisfies Record<string, Prop>;
const CALENDAR_PROPS: Prop[] = [
  P.resourcetype,
  P.displayname,
  P.componentSet,
  P.getctag,
  P.syncToken,
  P.supportedReportSet,
];

const PREFIXES: Record<string, string> = { [DAV]: "D", [CALDAV]: "C", [CALENDARSERVER]: "CS" };
const XML_HEAD = `<?xml version="1.0" encoding="utf-8"?>`;
const NAMESPACES = `xmlns:D="DAV:" xmlns:C="${CALDAV}" xmlns:CS="${CALENDARSERVER}"`;
const propXml = (props: readonly Prop[]) =>
  `<D:prop>${props.map(([ns, name]) => `<${PREFIXES[ns]}:${name}/>`).join("")}</D:prop>`;

/** One `DAV:response` of a multistatus. */
interface DavResponse {
  /** Absolute URL. */
  href: string;
  /** The response's own status (a missing member), when it has one. */
  status: number | undefined;
  /** The properties found (in a 2xx propstat), by `ns name`. */
  props: Map<string, XmlElement>;
}

const key = (ns: string, name: string) => `${ns} ${name}`;
const prop = (response: DavResponse, [ns, name]: Prop) => response.props.get(key(ns, name));
const statusOf = (text: string) => Number(/^\s*HTTP\/[\d.]+\s+(\d{3})/.exec(text)?.[1] ?? Number.NaN);

/** A URL for messages: no userinfo, no query. */
const shown = (url: URL | string) => {
  const parsed = new URL(String(url));
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
};

/** The time a request has spent waiting on the server; it runs only while the client waits. */
class WaitBudget {
  private remaining: number;
  private since = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(total: number) {
    this.remaining = total;
  }
  run(onExpire: () => void): void {
    this.since = performance.now();
    this.timer = setTimeout(onExpire, Math.max(0, this.remaining));
  }
  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remaining -= performance.now() - this.since;
  }
}

/** A response whose body is read chunk by chunk, each wait bounded by the request's budget. */
class Exchange {
  private chunks: Buffer[] = [];
  private ended = false;
  private failure: CalDavError | undefined;
  private wake: (() => void) | undefined;

  constructor(
    readonly url: URL,
    readonly response: IncomingMessage,
    private readonly request: ClientRequest,
    private readonly budget: WaitBudget,
    private readonly what: string,
    private readonly timeoutMs: number,
  ) {
    response.pause();
    response.on("data", (chunk: Buffer) => {
      this.chunks.push(chunk);
      // One chunk at a time: the socket's flow control holds the rest at the server.
      response.pause();
      this.notify();
    });
    response.on("end", () => {
      this.ended = true;
      this.notify();
    });
    response.on("error", () =>
      this.fail(new CalDavError("network", `${what}: the connection failed mid-answer`)),
    );
    response.on("close", () => {
      if (!this.ended)
        this.fail(
          new CalDavError("network", `${what}: the server closed the connection before the answer ended`),
        );
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.response.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private fail(error: CalDavError): void {
    this.failure ??= error;
    this.notify();
  }

  /** The next chunk of the body, or undefined at its end. */
  async next(): Promise<Buffer | undefined> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) return chunk;
      if (this.failure) throw this.failure;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.budget.run(() => {
          this.fail(
            new CalDavError("timeout", `${this.what}: no answer from the server within ${this.timeoutMs} ms`),
          );
          this.dispose();
        });
        this.response.resume();
      });
      this.budget.pause();
    }
  }

  /** The whole body as text, failing past `limit` bytes (too-large, or `onOver`'s error). */
  async text(limit: number, onOver?: () => CalDavError): Promise<string> {
    const length = Number(this.header("content-length"));
    const over = () => {
      this.dispose();
      return onOver?.() ?? new CalDavError("too-large", `${this.what}: the answer is over ${limit} bytes`);
    };
    if (length > limit) throw over();
    const parts: Buffer[] = [];
    let size = 0;
    for (let chunk = await this.next(); chunk; chunk = await this.next()) {
      size += chunk.length;
      if (size > limit) throw over();
      parts.push(chunk);
    }
    return Buffer.concat(parts).toString("utf8");
  }

  /** Frees the request: an answer not read to its end is dropped with its connection. */
  dispose(): void {
    if (this.ended) return;
    this.response.destroy();
    this.request.destroy();
  }
}

/**
 * A CalDAV account on one server. Reuses connections (keep-alive); `close()` drops them.
 * Every method may throw CalDavError; the expected outcomes of a write (412, a missing object)
 * are values.
 */
export class CalDavClient {
  private readonly authorization: string;
  private readonly timeoutMs: number;
  private readonly maxObjectBytes: number;
  private readonly userAgent: string;
  private readonly agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: 4 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 4 }),
  };

  constructor(options: CalDavClientOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString("base64")}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxObjectBytes = options.maxObjectBytes ?? DEFAULTS.maxObjectBytes;
    this.userAgent = options.userAgent ?? DEFAULTS.userAgent;
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  // Discovery ---------------------------------------------------------------------------------

  /**
   * The account's calendars, found as CalDAV clients find them (RFC 6764, RFC 4791 §6): the
   * well-known URL when given a server's root, then current-user-principal, calendar-home-set and
   * the home's calendar collections. `url` may also be a principal, a home or a calendar itself.
   */
  async discover(url: string): Promise<Discovery> {
    const given = parseHttpUrl(url);
    const isRoot = given.pathname === "/" || /^\/\.well-known\/caldav\/?$/.test(given.pathname);
    const root = isRoot ? await this.wellKnown(given) : given;
    const self = await this.propfindSelf(root, [
      ...CALENDAR_PROPS,
      P.currentUserPrincipal,
      P.calendarHomeSet,
    ]);
    const pasted = self && isCalendar(self) ? toCalendar(self) : undefined;
    let principalUrl = self ? hrefIn(prop(self, P.currentUserPrincipal), root) : undefined;
    let homeUrl: string | undefined;
    if (self && !principalUrl && prop(self, P.calendarHomeSet)) principalUrl = self.href;
    if (principalUrl) {
      const principal =
        self && sameUrl(principalUrl, self.href)
          ? self
          : await this.propfindSelf(new URL(principalUrl), [P.calendarHomeSet]);
      homeUrl = principal ? hrefIn(prop(principal, P.calendarHomeSet), new URL(principalUrl)) : undefined;
    }
    let calendars: DiscoveredCalendar[] = [];
    if (homeUrl) calendars = await this.calendarsIn(new URL(homeUrl));
    else if (self && !pasted) {
      // No principal: the URL may be a home (a collection of calendars).
      calendars = await this.calendarsIn(root);
      if (calendars.length > 0) homeUrl = root.href;
    }
    if (pasted && !calendars.some((calendar) => sameUrl(calendar.url, pasted.url))) calendars.push(pasted);
    if (!homeUrl && !pasted)
      throw new CalDavError(
        "not-caldav",
        `${shown(root)} is not a CalDAV account: the server names no calendar home there (calendar-home-set)`,
      );
    await this.completeReportSets(calendars);
    return {
      principalUrl: principalUrl ?? null,
      homeUrl: homeUrl ?? null,
      calendars,
      calendarUrl: pasted?.url ?? null,
    };
  }

  /** RFC 6764 §5: PROPFIND /.well-known/caldav, following its redirect (tsdav's rules). */
  private async wellKnown(given: URL): Promise<URL> {
    let target = new URL("/.well-known/caldav", given);
    for (let hop = 0; hop < 3; hop++) {
      const what = `PROPFIND ${shown(target)}`;
      const exchange = await this.send("PROPFIND", target, {
        depth: "0",
        body: `${XML_HEAD}<D:propfind ${NAMESPACES}>${propXml([P.currentUserPrincipal])}</D:propfind>`,
      });
      exchange.dispose();
      const location = exchange.header("location");
      if (![301, 302, 303, 307, 308].includes(exchange.status) || !location) {
        if (exchange.status === 401) throw unauthorized(what);
        // No well-known service here (404, 405…): the server's root is where to ask.
        return exchange.status === 207 ? target : given;
      }
      const next = new URL(location, target);
      // As tsdav: the same host keeps its port when the Location names none, and the scheme the
      // user gave is kept (never downgraded from https).
      if (next.hostname === target.hostname && target.port && !next.port) next.port = target.port;
      next.protocol = given.protocol;
      if (!next.pathname.endsWith("/.well-known/caldav") && !next.pathname.endsWith("/.well-known/caldav/"))
        return next;
      target = next;
    }
    throw new CalDavError("not-caldav", `${shown(given)}: the well-known CalDAV address redirects in a loop`);
  }

  /**
   * The resource's own response to a Depth 0 PROPFIND (undefined in an empty multistatus). In
   * discovery, an answer that is not a multistatus means the URL is not CalDAV at all.
   */
  private async propfindSelf(
    url: URL,
    props: readonly Prop[],
    { discovery = true } = {},
  ): Promise<DavResponse | undefined> {
    const responses = await this.collect(this.propfind(url, "0", props, { discovery }));
    return responses.find((response) => sameUrl(response.href, url.href)) ?? responses[0];
  }

  private async calendarsIn(home: URL): Promise<DiscoveredCalendar[]> {
    const responses = await this.collect(this.propfind(home, "1", CALENDAR_PROPS, { discovery: true }));
    return responses
      .filter((response) => !sameUrl(response.href, home.href) && isCalendar(response))
      .map(toCalendar);
  }

  /** Servers that leave supported-report-set out of a Depth 1 listing are asked per calendar. */
  private async completeReportSets(calendars: DiscoveredCalendar[]): Promise<void> {
    for (const calendar of calendars) {
      if (reportSetKnown.has(calendar)) continue;
      const self = await this.propfindSelf(new URL(calendar.url), [P.supportedReportSet]);
      calendar.supportsSyncCollection = self ? supportsSync(self) : false;
    }
  }

  private async collect(responses: AsyncIterable<DavResponse>): Promise<DavResponse[]> {
    const all: DavResponse[] = [];
    for await (const response of responses) {
      all.push(response);
      if (all.length > MAX_DISCOVERY_RESPONSES)
        throw new CalDavError("too-large", `the server listed over ${MAX_DISCOVERY_RESPONSES} resources`);
    }
    return all;
  }

  // Reading a calendar ------------------------------------------------------------------------

  /** The calendar's change tag (CS:getctag) and sync token: unchanged values mean nothing changed. */
  async getCtag(calendarUrl: string): Promise<{ ctag: string | null; syncToken: string | null }> {
    const url = parseHttpUrl(calendarUrl);
    const self = await this.propfindSelf(url, [P.getctag, P.syncToken], { discovery: false });
    return {
      ctag: self ? textOf(prop(self, P.getctag)) : null,
      syncToken: self ? textOf(prop(self, P.syncToken)) : null,
    };
  }

  /**
   * RFC 6578 sync-collection: the members changed or deleted since `syncToken` (all members
   * with null), then the new token in `.syncToken`. A token the server no longer knows fails
   * with kind `invalid-sync-token`. Truncated answers (507 on the collection) are continued.
   */
  syncCollection(
    calendarUrl: string,
    syncToken: string | null,
    options: { limit?: number } = {},
  ): SyncCollection {
    return new SyncCollection(this, parseHttpUrl(calendarUrl), syncToken, options.limit);
  }

  /** @internal one sync-collection REPORT; its changes, then `{ token, truncated }`. */
  async *syncPage(
    url: URL,
    syncToken: string | null,
    limit: number | undefined,
  ): AsyncGenerator<SyncChange, { token: string | undefined; truncated: boolean }> {
    const body =
      `${XML_HEAD}<D:sync-collection ${NAMESPACES}><D:sync-token>${escapeXml(syncToken ?? "")}</D:sync-token>` +
      `<D:sync-level>1</D:sync-level>${limit ? `<D:limit><D:nresults>${limit}</D:nresults></D:limit>` : ""}` +
      `${propXml([P.getetag])}</D:sync-collection>`;
    let token: string | undefined;
    let truncated = false;
    const items = this.multistatus("REPORT", url, {
      depth: "0",
      body,
      members: true,
      syncToken: syncToken !== null,
    });
    for await (const item of items) {
      if (item.kind === "token") {
        token = item.token;
        continue;
      }
      const response = item.response;
      if (sameUrl(response.href, url.href)) {
        if (response.status === 507) truncated = true;
        continue;
      }
      if (response.status === 404) yield { href: response.href, deleted: true };
      else if (response.status === undefined || isOk(response.status))
        yield { href: response.href, etag: textOf(prop(response, P.getetag)) };
    }
    return { token, truncated };
  }

  /** The calendar's events (calendar-query, VEVENT, optionally overlapping `timeRange`): href and ETag. */
  async *listObjects(
    calendarUrl: string,
    options: { timeRange?: TimeRange } = {},
  ): AsyncGenerator<ObjectRef> {
    const url = parseHttpUrl(calendarUrl);
    const range = options.timeRange
      ? `<C:time-range start="${icalUtc(options.timeRange.start)}" end="${icalUtc(options.timeRange.end)}"/>`
      : "";
    const body =
      `${XML_HEAD}<C:calendar-query ${NAMESPACES}>${propXml([P.getetag])}` +
      `<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">${range}</C:comp-filter></C:comp-filter></C:filter>` +
      `</C:calendar-query>`;
    for await (const item of this.multistatus("REPORT", url, { depth: "1", body, members: true })) {
      if (item.kind !== "response" || sameUrl(item.response.href, url.href)) continue;
      const { response } = item;
      if (response.status !== undefined && !isOk(response.status)) continue;
      yield { href: response.href, etag: textOf(prop(response, P.getetag)) };
    }
  }

  /**
   * calendar-multiget of `hrefs` (absolute URLs or paths), in batches: each object's ETag and
   * data; an object over maxObjectBytes comes back `tooLarge` without its data; one the server
   * does not return, with its status (404).
   */
  async *multiget(calendarUrl: string, hrefs: Iterable<string>): AsyncGenerator<MultigetItem> {
    const url = parseHttpUrl(calendarUrl);
    let batch: string[] = [];
    for (const href of hrefs) {
      batch.push(href);
      if (batch.length === MULTIGET_BATCH) {
        yield* this.multigetBatch(url, batch);
        batch = [];
      }
    }
    if (batch.length > 0) yield* this.multigetBatch(url, batch);
  }

  private async *multigetBatch(url: URL, hrefs: string[]): AsyncGenerator<MultigetItem> {
    const asked = hrefs.map((href) => new URL(href, url));
    const body =
      `${XML_HEAD}<C:calendar-multiget ${NAMESPACES}>${propXml([P.getetag, P.calendarData])}` +
      asked
        .map(
          (href) => `<D:href>${escapeXml(href.origin === url.origin ? href.pathname : href.href)}</D:href>`,
        )
        .join("") +
      `</C:calendar-multiget>`;
    const answered = new Set<string>();
    for await (const item of this.multistatus("REPORT", url, {
      depth: "1",
      body,
      members: true,
      objects: true,
    })) {
      if (item.kind !== "response") continue;
      const { response } = item;
      answered.add(normalizeObjectUrl(response.href));
      if (response.status !== undefined && !isOk(response.status)) {
        yield { href: response.href, status: response.status };
        continue;
      }
      const etag = textOf(prop(response, P.getetag));
      const data = prop(response, P.calendarData);
      if (data?.overflow) yield { href: response.href, etag, tooLarge: true };
      else if (data) yield { href: response.href, etag, data: data.text };
      else yield { href: response.href, status: 404 };
    }
    // RFC 4791 §7.9 wants a response per href; one left out is as missing as a 404.
    for (const href of asked)
      if (!answered.has(normalizeObjectUrl(href.href))) yield { href: href.href, status: 404 };
  }

  // Objects -----------------------------------------------------------------------------------

  /** GET one object: its data and ETag, or `{ status: 404 }`. */
  async getObject(
    objectUrl: string,
  ): Promise<{ status: 200; etag: string | null; data: string } | { status: 404 }> {
    const url = parseHttpUrl(objectUrl);
    const what = `GET ${shown(url)}`;
    const exchange = await this.send("GET", url, { accept: "text/calendar" });
    if (exchange.status === 404 || exchange.status === 410) {
      exchange.dispose();
      return { status: 404 };
    }
    await this.expect(exchange, what, [200]);
    const data = await exchange.text(
      this.maxObjectBytes,
      () => new CalDavError("too-large", `${what}: the object is over ${this.maxObjectBytes} bytes`),
    );
    return { status: 200, etag: exchange.header("etag") ?? null, data };
  }

  /**
   * PUT an object: `ifNoneMatch: "*"` creates only, `ifMatch` replaces only that version.
   * 201/204 are success, 412 (the precondition failed) is returned, not thrown.
   */
  async putObject(
    objectUrl: string,
    ics: string,
    conditions: { ifNoneMatch?: "*"; ifMatch?: string } = {},
  ): Promise<{ status: 200 | 201 | 204 | 412; etag: string | null }> {
    const url = parseHttpUrl(objectUrl);
    const exchange = await this.send("PUT", url, {
      contentType: "text/calendar; charset=utf-8",
      body: ics,
      ifMatch: conditions.ifMatch,
      ifNoneMatch: conditions.ifNoneMatch,
    });
    const status = exchange.status;
    if (status === 412) {
      exchange.dispose();
      return { status, etag: null };
    }
    await this.expect(exchange, `PUT ${shown(url)}`, [200, 201, 204]);
    exchange.dispose();
    return { status: status as 200 | 201 | 204, etag: exchange.header("etag") ?? null };
  }

  /** DELETE an object (only that version with `ifMatch`): 200/204 done, 404 and 412 returned. */
  async deleteObject(
    objectUrl: string,
    conditions: { ifMatch?: string } = {},
  ): Promise<{ status: 200 | 204 | 404 | 412 }> {
    const url = parseHttpUrl(objectUrl);
    const exchange = await this.send("DELETE", url, { ifMatch: conditions.ifMatch });
    const status = exchange.status;
    if (status === 404 || status === 412) {
      exchange.dispose();
      return { status };
    }
    await this.expect(exchange, `DELETE ${shown(url)}`, [200, 204]);
    exchange.dispose();
    return { status: status as 200 | 204 };
  }

  // HTTP --------------------------------------------------------------------------------------

  private propfind(
    url: URL,
    depth: "0" | "1",
    props: readonly Prop[],
    options: { discovery?: boolean } = {},
  ): AsyncGenerator<DavResponse> {
    const body = `${XML_HEAD}<D:propfind ${NAMESPACES}>${propXml(props)}</D:propfind>`;
    return (async function* (client: CalDavClient) {
      for await (const item of client.multistatus("PROPFIND", url, { depth, body, ...options }))
        if (item.kind === "response") yield item.response;
    })(this);
  }

  /** A request whose answer must be a 207 multistatus, read as a stream of its responses. */
  private async *multistatus(
    method: string,
    url: URL,
    options: {
      depth: string;
      body: string;
      discovery?: boolean;
      /** The answer lists a collection's members: on the collection's origin, or it is refused. */
      members?: boolean;
      objects?: boolean;
      syncToken?: boolean;
    },
  ): AsyncGenerator<{ kind: "response"; response: DavResponse } | { kind: "token"; token: string }> {
    const what = `${method} ${shown(url)}`;
    const exchange = await this.send(method, url, { depth: options.depth, body: options.body });
    try {
      if (exchange.status !== 207) {
        if (options.syncToken && (exchange.status === 403 || exchange.status === 409)) {
          const text = await exchange.text(MAX_ERROR_BODY).catch(() => "");
          if (text.includes("valid-sync-token"))
            throw new CalDavError(
              "invalid-sync-token",
              `${what}: the server no longer knows the sync token (${exchange.status}); list the calendar in full`,
              exchange.status,
            );
        }
        if (options.discovery && ![401, 403].includes(exchange.status) && exchange.status < 500)
          throw new CalDavError(
            "not-caldav",
            `${shown(url)} is not a CalDAV server: PROPFIND answered ${exchange.status}, not a WebDAV multistatus`,
            exchange.status,
          );
        await this.expect(exchange, what, [207]);
      }
      const type = exchange.header("content-type") ?? "";
      if (type && !/xml/i.test(type)) {
        if (options.discovery)
          throw new CalDavError(
            "not-caldav",
            `${shown(url)} is not a CalDAV server: its 207 answer is ${type}`,
          );
        throw new CalDavError("malformed", `${what}: the 207 answer is ${type}, not XML`);
      }
      const bounds: XmlBounds = {
        maxTextBytes: MAX_TEXT_BYTES,
        softText: options.objects
          ? { ns: CALDAV, name: "calendar-data", maxBytes: this.maxObjectBytes }
          : undefined,
      };
      const reader = new XmlItemReader(bounds);
      const decoder = new TextDecoder("utf-8");
      let checkedRoot = false;
      const read = (text: string | undefined) => {
        try {
          if (text === undefined) reader.end();
          else reader.write(text);
        } catch (error) {
          if (error instanceof XmlReadError) throw new CalDavError(error.kind, `${what}: ${error.message}`);
          throw error;
        }
        if (!checkedRoot && reader.root) {
          checkedRoot = true;
          if (reader.root.ns !== DAV || reader.root.name !== "multistatus")
            throw new CalDavError(
              options.discovery ? "not-caldav" : "malformed",
              `${what}: the answer is <${reader.root.name}>, not a WebDAV multistatus`,
            );
        }
        return reader.take();
      };
      for (;;) {
        const chunk = await exchange.next();
        const items = read(chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode());
        if (!chunk) items.push(...read(undefined));
        for (const element of items) {
          if (element.ns === DAV && element.name === "sync-token")
            yield { kind: "token", token: element.text.trim() };
          else if (element.ns === DAV && element.name === "response") {
            const response = toResponse(element, url, what);
            // The caller may write to these URLs with the account's password: never another host.
            if (options.members && new URL(response.href).origin !== url.origin)
              throw new CalDavError(
                "malformed",
                `${what}: the server lists a member on another host (${shown(response.href)})`,
              );
            yield { kind: "response", response };
          }
        }
        if (!chunk) return;
      }
    } finally {
      exchange.dispose();
    }
  }

  /** Throws the error an unexpected status means; drops the body. */
  private async expect(exchange: Exchange, what: string, ok: number[]): Promise<void> {
    const status = exchange.status;
    if (ok.includes(status)) return;
    exchange.dispose();
    if (status === 401) throw unauthorized(what);
    if (status === 403)
      throw new CalDavError("forbidden", `${what}: the server forbids this to the user (403)`, status);
    if (status === 404) throw new CalDavError("not-found", `${what}: nothing there (404)`, status);
    throw new CalDavError("http", `${what}: the server answered ${status}${reason(status)}`, status);
  }

  private send(
    method: string,
    url: URL,
    options: {
      depth?: string;
      body?: string;
      contentType?: string;
      accept?: string;
      ifMatch?: string;
      ifNoneMatch?: string;
    },
  ): Promise<Exchange> {
    const what = `${method} ${shown(url)}`;
    const body = options.body === undefined ? undefined : Buffer.from(options.body, "utf8");
    const headers: Record<string, string> = {
      authorization: this.authorization,
      "user-agent": this.userAgent,
    };
    if (options.depth !== undefined) headers.depth = options.depth;
    if (body) {
      headers["content-type"] = options.contentType ?? "application/xml; charset=utf-8";
      headers["content-length"] = String(body.length);
    }
    if (options.accept) headers.accept = options.accept;
    if (options.ifMatch) headers["if-match"] = options.ifMatch;
    if (options.ifNoneMatch) headers["if-none-match"] = options.ifNoneMatch;
    const https = url.protocol === "https:";
    const budget = new WaitBudget(this.timeoutMs);
    return new Promise<Exchange>((resolve, reject) => {
      let settled = false;
      const request = (https ? httpsRequest : httpRequest)({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        agent: https ? this.agents.https : this.agents.http,
      });
      budget.run(() => {
        if (settled) return;
        settled = true;
        request.destroy();
        reject(new CalDavError("timeout", `${what}: no answer from the server within ${this.timeoutMs} ms`));
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        budget.pause();
        if (settled) return;
        settled = true;
        reject(networkError(what, url, error));
      });
      request.on("response", (response) => {
        budget.pause();
        if (settled) {
          response.destroy();
          return;
        }
        settled = true;
        resolve(new Exchange(url, response, request, budget, what, this.timeoutMs));
      });
      request.end(body);
    });
  }
}

/** The iteration of a sync-collection; `syncToken` is the new token once it has run to its end. */
export class SyncCollection implements AsyncIterable<SyncChange> {
  private token: string | undefined;
  private started = false;

  constructor(
    private readonly client: CalDavClient,
    private readonly url: URL,
    private readonly from: string | null,
    private readonly limit: number | undefined,
  ) {}

  get syncToken(): string {
    if (this.token === undefined) throw new Error("the sync-collection has not been read to its end");
    return this.token;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SyncChange> {
    if (this.started) throw new Error("a sync-collection is read once");
    this.started = true;
    let from = this.from;
    for (;;) {
      const page = this.client.syncPage(this.url, from, this.limit);
      let result: IteratorResult<SyncChange, { token: string | undefined; truncated: boolean }>;
      try {
        result = await page.next();
        while (!result.done) {
          yield result.value;
          result = await page.next();
        }
      } finally {
        // A caller that stops early: the page's answer is dropped (its connection with it).
        await page.return({ token: undefined, truncated: false });
      }
      const { token, truncated } = result.value;
      const what = `REPORT ${shown(this.url)}`;
      if (!token) throw new CalDavError("malformed", `${what}: the sync-collection answer has no sync-token`);
      if (!truncated) {
        this.token = token;
        return;
      }
      if (token === from)
        throw new CalDavError(
          "malformed",
          `${what}: the server truncated its answer without moving its sync-token`,
        );
      from = token;
    }
  }
}

// Helpers -------------------------------------------------------------------------------------

/** Calendars whose supported-report-set came with the listing (the rest are asked one by one). */
const reportSetKnown = new WeakSet<DiscoveredCalendar>();

function toCalendar(response: DavResponse): DiscoveredCalendar {
  const componentSet = prop(response, P.componentSet);
  const components = childrenNamed(componentSet, CALDAV, "comp")
    .map((comp) => comp.attributes.name?.toUpperCase())
    .filter((name): name is string => Boolean(name));
  const calendar: DiscoveredCalendar = {
    url: response.href,
    displayName: textOf(prop(response, P.displayname)),
    components: componentSet ? components : [...ALL_COMPONENTS],
    ctag: textOf(prop(response, P.getctag)),
    syncToken: textOf(prop(response, P.syncToken)),
    supportsSyncCollection: supportsSync(response),
  };
  if (prop(response, P.supportedReportSet)) reportSetKnown.add(calendar);
  return calendar;
}

function isCalendar(response: DavResponse): boolean {
  return childNamed(prop(response, P.resourcetype), CALDAV, "calendar") !== undefined;
}

function supportsSync(response: DavResponse): boolean {
  return childrenNamed(prop(response, P.supportedReportSet), DAV, "supported-report").some((supported) =>
    childNamed(childNamed(supported, DAV, "report"), DAV, "sync-collection"),
  );
}

function toResponse(element: XmlElement, base: URL, what: string): DavResponse {
  const href = childNamed(element, DAV, "href")?.text.trim();
  if (!href) throw new CalDavError("malformed", `${what}: a response of the multistatus has no href`);
  let absolute: string;
  try {
    absolute = new URL(href, base).href;
  } catch {
    throw new CalDavError("malformed", `${what}: a response's href is not a URL`);
  }
  const own = childNamed(element, DAV, "status");
  const props = new Map<string, XmlElement>();
  for (const propstat of childrenNamed(element, DAV, "propstat")) {
    const status = statusOf(childNamed(propstat, DAV, "status")?.text ?? "");
    if (!isOk(status)) continue;
    for (const found of childNamed(propstat, DAV, "prop")?.children ?? [])
      props.set(key(found.ns, found.name), found);
  }
  return { href: absolute, status: own ? statusOf(own.text) : undefined, props };
}

const isOk = (status: number) => status >= 200 && status < 300;

function textOf(element: XmlElement | undefined): string | null {
  const text = element?.text.trim();
  return text ? text : null;
}

/** The first DAV:href inside a property, resolved against `base`. */
function hrefIn(element: XmlElement | undefined, base: URL): string | undefined {
  const href = childNamed(element, DAV, "href")?.text.trim();
  if (!href) return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

function unauthorized(what: string): CalDavError {
  return new CalDavError("unauthorized", `${what}: the server refused the username or password (401)`, 401);
}

function networkError(what: string, url: URL, error: NodeJS.ErrnoException): CalDavError {
  const host = url.host;
  const why: Record<string, string> = {
    ECONNREFUSED: `nothing listens at ${host} (connection refused)`,
    ENOTFOUND: `the host ${url.hostname} is not known (DNS)`,
    EAI_AGAIN: `the host ${url.hostname} could not be looked up (DNS)`,
    ECONNRESET: `${host} reset the connection`,
    EPIPE: `${host} closed the connection`,
    EHOSTUNREACH: `${host} cannot be reached`,
    ENETUNREACH: `${host} cannot be reached (no route)`,
    ETIMEDOUT: `${host} did not accept the connection`,
  };
  const text =
    why[error.code ?? ""] ?? (error.code ? `${error.code} talking to ${host}` : `cannot talk to ${host}`);
  return new CalDavError("network", `${what}: ${text}`);
}

function reason(status: number): string {
  const reasons: Record<number, string> = {
    400: " (bad request)",
    405: " (method not allowed)",
    409: " (conflict)",
    412: " (precondition failed)",
    413: " (too large)",
    415: " (unsupported media type)",
    500: " (server error)",
    502: " (bad gateway)",
    503: " (unavailable)",
    504: " (gateway timeout)",
    507: " (insufficient storage)",
  };
  return reasons[status] ?? "";
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CalDavError("not-caldav", `${JSON.stringify(text.slice(0, 200))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CalDavError("not-caldav", `${shown(url)} is not an http(s) URL`);
  url.username = "";
  url.password = "";
  url.hash = "";
  return url;
}

/** `YYYYMMDDTHHMMSSZ`, RFC 4791's time-range form. */
function icalUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}/, "")
    .replaceAll("-", "")
    .replaceAll(":", "");
}

/** The same resource, a collection's trailing slash or not. */
const sameUrl = (a: string, b: string) =>
  normalizeObjectUrl(a).replace(/\/$/, "") === normalizeObjectUrl(b).replace(/\/$/, "");

// URLs ----------------------------------------------------------------------------------------

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * One form of a URL for comparisons (RFC 3986 §6.2.2): scheme and host lower-cased, default port
 * dropped, no userinfo nor fragment, dot segments resolved, percent-encoding normalised (an
 * unreserved character decoded, `%7e` → `~`; the rest upper-case hex). No trailing slash added.
 */
export function normalizeObjectUrl(text: string): string {
  const url = new URL(text);
  url.username = "";
  url.password = "";
  url.hash = "";
  url.pathname = url.pathname.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  return url.href;
}

/**
 * One form of a calendar collection's URL, for comparing a stored `externalId` with user input
 * or a server's href: normalizeObjectUrl's, with the trailing slash of a collection. Throws a
 * TypeError for text that is not an http(s) URL.
 */
export function normalizeCalendarUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new TypeError(`not a URL: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`not an http(s) URL: ${url.protocol}`);
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  return normalizeObjectUrl(url.href);
}
