// The CalDAV client (src/calendars/caldav-client.ts) against a real Radicale 3.1.8 of the file's
// own: discovery from every URL a person may paste, conditional writes, RFC 6578 sync with edits
// by another client between syncs, calendar-query and multiget; and every way a server fails,
// through the HTTP fault proxy in front of it (401, 403, 5xx, a stall before or during the
// answer, a connection cut mid-answer, a refused port) or a small server of the test's own
// where Radicale cannot show it (a plain web site, malformed XML, a truncated sync, 10 MB).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { type HttpFaultProxy, startHttpFaultProxy } from "@app/testing/http-fault-proxy";
import { freeTcpPort } from "@app/testing/postgres-servers";
import { type Radicale, radicaleMissing, startRadicale } from "@app/testing/radicale";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CalDavClient,
  type CalDavClientOptions,
  CalDavError,
  normalizeCalendarUrl,
  type SyncChange,
} from "../src/calendars/caldav-client.ts";

const missing = radicaleMissing();
if (missing) console.warn(`apps/scheduling/test/caldav-client.test.ts skipped: ${missing}`);

const PASSWORD = "s3cret-Pa55";
const BOB_PASSWORD = "b0b-Pa55";

function event(uid: string, start = "20260302T090000Z", end = "20260302T100000Z", extra = "") {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//caldav-client test//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260301T000000Z",
    `DTSTART:${start}`,
    `DTEND:${end}`,
    `SUMMARY:Event ${uid}`,
    ...(extra ? [extra] : []),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

const todo = (uid: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:${uid}\r\nDTSTAMP:20260301T000000Z\r\nSUMMARY:Todo\r\nEND:VTODO\r\nEND:VCALENDAR\r\n`;

/** What a promise rejects with, as a CalDavError (fails the test otherwise). */
async function failure(promise: Promise<unknown>): Promise<CalDavError> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(CalDavError);
  const caldav = error as CalDavError;
  // A person reads it; the secret never shows.
  expect(caldav.message).not.toContain(PASSWORD);
  expect(caldav.message).not.toContain(Buffer.from(`alice:${PASSWORD}`).toString("base64"));
  return caldav;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const names = (items: { href: string }[]) => items.map((item) => item.href.split("/").at(-1)).sort();

describe.skipIf(missing)("CalDAV client against Radicale", () => {
  let radicale: Radicale;
  let proxy: HttpFaultProxy;
  let fake: Server;
  let fakeUrl: string;
  let work: string;
  const clients: CalDavClient[] = [];
  const client = (options: Partial<CalDavClientOptions> = {}) => {
    const made = new CalDavClient({ username: "alice", password: PASSWORD, timeoutMs: 10_000, ...options });
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    radicale = await startRadicale({ users: { alice: PASSWORD, bob: BOB_PASSWORD } });
    proxy = await startHttpFaultProxy(radicale.url);
    work = await radicale.mkcalendar("alice", "work", { displayName: "Work" });
    await radicale.mkcalendar("alice", "tasks", { components: ["VTODO"], displayName: "Tasks" });
    await radicale.mkcalendar("alice", "home", { components: ["VEVENT", "VTODO"], displayName: "Home" });
    await radicale.mkcalendar("bob", "private");
    fake = createServer(fakeServer);
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const made of clients) made.close();
    if (fake) {
      fake.closeAllConnections();
      await new Promise((resolve) => fake.close(resolve));
    }
    await proxy?.close();
    await radicale?.stop();
  });

  describe("discovery", () => {
    const expected = () => ({
      principalUrl: `${radicale.url}alice/`,
      homeUrl: `${radicale.url}alice/`,
    });

    it("from the server's root: the well-known redirect, the principal, the home and its calendars with what they hold", async () => {
      const found = await client().discover(radicale.url);
      expect(found).toMatchObject({ ...expected(), calendarUrl: null });
      const byName = Object.fromEntries(found.calendars.map((calendar) => [calendar.displayName, calendar]));
      expect(Object.keys(byName).sort()).toEqual(["Home", "Tasks", "Work"]);
      expect(byName.Work).toMatchObject({ url: work, components: ["VEVENT"], supportsSyncCollection: true });
      expect(byName.Tasks?.components).toEqual(["VTODO"]);
      expect(byName.Home?.components).toEqual(["VEVENT", "VTODO"]);
      for (const calendar of found.calendars) {
        expect(calendar.ctag).toMatch(/\S/);
        expect(calendar.syncToken).toMatch(/^http:\/\/radicale\.org\/ns\/sync\//);
      }
      // The well-known path was asked first, and Radicale's 301 followed.
      const traced = client();
      const via = proxy.requests.length;
      await traced.discover(proxy.url);
      expect(proxy.requests.slice(via).map((request) => `${request.method} ${request.path}`)).toEqual([
        "PROPFIND /.well-known/caldav",
        "PROPFIND /",
        "PROPFIND /alice/",
        "PROPFIND /alice/",
      ]);
    });

    it("from the well-known path, the principal, and a calendar's own URL (a person pasting it)", async () => {
      const fromWellKnown = await client().discover(`${radicale.url}.well-known/caldav`);
      expect(fromWellKnown).toMatchObject(expected());
      expect(fromWellKnown.calendars).toHaveLength(3);

      const fromPrincipal = await client().discover(`${radicale.url}alice/`);
      expect(fromPrincipal).toMatchObject(expected());
      expect(fromPrincipal.calendars).toHaveLength(3);

      // Without its trailing slash, as people paste it.
      const fromCalendar = await client().discover(work.replace(/\/$/, ""));
      expect(fromCalendar).toMatchObject({ ...expected(), calendarUrl: work });
      expect(fromCalendar.calendars.map((calendar) => calendar.url)).toContain(work);
    });

    it("a wrong password is unauthorized, another user's calendar forbidden, neither saying the secret", async () => {
      const wrong = await failure(client({ password: "wrong" }).discover(radicale.url));
      expect(wrong).toMatchObject({ kind: "unauthorized", status: 401 });
      expect(wrong.message).toMatch(/username or password/);
      const bobs = await failure(client().discover(radicale.calendarUrl("bob", "private")));
      expect(bobs).toMatchObject({ kind: "forbidden", status: 403 });
      expect(await failure(client().getCtag(radicale.calendarUrl("bob", "private")))).toMatchObject({
        kind: "forbidden",
      });
    });

    it("a plain web site, a refused port and a non-http URL are not CalDAV, said plainly", async () => {
      const site = await failure(client().discover(`${fakeUrl}/`));
      expect(site.kind).toBe("not-caldav");
      expect(site.message).toContain(fakeUrl);
      const page = await failure(client().discover(`${fakeUrl}/some/page.html`));
      expect(page.kind).toBe("not-caldav");

      const port = await freeTcpPort();
      const refused = await failure(client().discover(`http://127.0.0.1:${port}/`));
      expect(refused.kind).toBe("network");
      expect(refused.message).toContain("connection refused");

      expect((await failure(client().discover("ftp://example.com/cal/"))).kind).toBe("not-caldav");
      expect((await failure(client().discover("not a url"))).kind).toBe("not-caldav");
    });
  });

  describe("objects", () => {
    it("PUT creates with If-None-Match (201, then 412), updates only the version it names (a stale ETag is 412), DELETE likewise", async () => {
      const caldav = client();
      const url = `${work}put-1.ics`;
      const created = await caldav.putObject(url, event("put-1"), { ifNoneMatch: "*" });
      expect(created.status).toBe(201);
      expect(created.etag).toMatch(/^".+"$/);
      expect(await caldav.putObject(url, event("put-1"), { ifNoneMatch: "*" })).toEqual({
        status: 412,
        etag: null,
      });

      const read = await caldav.getObject(url);
      expect(read).toMatchObject({ status: 200, etag: created.etag });
      expect(read.status === 200 && read.data).toContain("UID:put-1");

      const updated = await caldav.putObject(url, event("put-1", "20260302T110000Z", "20260302T120000Z"), {
        ifMatch: created.etag ?? "",
      });
      expect(updated.status).toBe(201); // Radicale says 201 on an update too
      expect(updated.etag).not.toBe(created.etag);
      const stale = await caldav.putObject(url, event("put-1"), { ifMatch: created.etag ?? "" });
      expect(stale.status).toBe(412);

      expect(await caldav.deleteObject(url, { ifMatch: created.etag ?? "" })).toEqual({ status: 412 });
      expect(await caldav.deleteObject(url, { ifMatch: updated.etag ?? "" })).toEqual({ status: 200 });
      expect(await caldav.deleteObject(url)).toEqual({ status: 404 });
      expect(await caldav.getObject(url)).toEqual({ status: 404 });
    });

    it("a write refused by the server is a typed error with its status (same UID under another name: 409)", async () => {
      const caldav = client();
      await caldav.putObject(`${work}uid-a.ics`, event("same-uid"), { ifNoneMatch: "*" });
      const conflict = await failure(
        caldav.putObject(`${work}uid-b.ics`, event("same-uid"), { ifNoneMatch: "*" }),
      );
      expect(conflict).toMatchObject({ kind: "http", status: 409 });
      await caldav.deleteObject(`${work}uid-a.ics`);
    });
  });

  describe("reading a calendar", () => {
    let cal: string;
    beforeAll(async () => {
      cal = await radicale.mkcalendar("alice", "reading");
      radicale.writeObjects("alice", "reading", [
        { name: "march-2.ics", ics: event("march-2") },
        { name: "march-9.ics", ics: event("march-9", "20260309T090000Z", "20260309T100000Z") },
        { name: "april.ics", ics: event("april", "20260415T090000Z", "20260415T100000Z") },
        {
          name: "weekly.ics",
          ics: event("weekly", "20260105T080000Z", "20260105T083000Z", "RRULE:FREQ=WEEKLY;COUNT=10"),
        },
        { name: "a-todo.ics", ics: todo("a-todo") },
      ]);
    });

    it("listObjects: every event with its ETag, or those overlapping a time range (a weekly series by its occurrences)", async () => {
      const caldav = client();
      const everything = await all(caldav.listObjects(cal));
      expect(names(everything)).toEqual(["april.ics", "march-2.ics", "march-9.ics", "weekly.ics"]);
      for (const item of everything) {
        expect(item.href.startsWith(cal)).toBe(true);
        expect(item.etag).toMatch(/^".+"$/);
      }
      const firstWeek = await all(
        caldav.listObjects(cal, {
          timeRange: { start: new Date("2026-03-01T00:00:00Z"), end: new Date("2026-03-05T00:00:00Z") },
        }),
      );
      expect(names(firstWeek)).toEqual(["march-2.ics", "weekly.ics"]);
      const afterSeries = await all(
        caldav.listObjects(cal, {
          timeRange: { start: new Date("2026-04-10T00:00:00Z"), end: new Date("2026-06-01T00:00:00Z") },
        }),
      );
      expect(names(afterSeries)).toEqual(["april.ics"]);
    });

    it("multiget: data and ETag of each href asked, a missing one as its 404", async () => {
      const caldav = client();
      const listed = await all(caldav.listObjects(cal));
      const march2 = listed.find((item) => item.href.endsWith("/march-2.ics"));
      const got = await all(
        caldav.multiget(cal, [
          `${cal}march-2.ics`,
          new URL(`${cal}april.ics`).pathname, // a path is an href too
          `${cal}never-was.ics`,
        ]),
      );
      expect(got).toHaveLength(3);
      const byName = Object.fromEntries(got.map((item) => [item.href.split("/").at(-1), item]));
      expect(byName["march-2.ics"]).toMatchObject({ href: `${cal}march-2.ics`, etag: march2?.etag });
      expect((byName["march-2.ics"] as { data: string }).data).toContain("UID:march-2");
      expect((byName["april.ics"] as { data: string }).data).toContain("UID:april");
      expect(byName["never-was.ics"]).toEqual({ href: `${cal}never-was.ics`, status: 404 });
    });

    it("multiget of more hrefs than one request carries: sent in batches, every answer back", async () => {
      radicale.writeObjects(
        "alice",
        "many",
        Array.from({ length: 201 }, (_, i) => ({ name: `m-${i}.ics`, ics: event(`m-${i}`) })),
      );
      const caldav = client();
      const hrefs = Array.from(
        { length: 201 },
        (_, i) => `${radicale.calendarUrl("alice", "many")}m-${i}.ics`,
      );
      const before = proxy.requests.length;
      const got = await all(
        caldav.multiget(
          proxy.via(radicale.calendarUrl("alice", "many")),
          hrefs.map((href) => proxy.via(href)),
        ),
      );
      expect(got.filter((item) => "data" in item)).toHaveLength(201);
      expect(proxy.requests.slice(before).map((request) => request.method)).toEqual(["REPORT", "REPORT"]);
    });

    it("getCtag: the change tag and sync token move when the calendar changes", async () => {
      const caldav = client();
      const before = await caldav.getCtag(cal);
      expect(before.ctag).toMatch(/\S/);
      expect(before.syncToken).toMatch(/\S/);
      expect(await caldav.getCtag(cal)).toEqual(before);
      await radicale.putEvent("alice", "reading", "added.ics", event("added"));
      const after = await caldav.getCtag(cal);
      expect(after.ctag).not.toBe(before.ctag);
      expect(after.syncToken).not.toBe(before.syncToken);
      radicale.removeObjects("alice", "reading", ["added.ics"]);
    });

    it("a calendar deleted meanwhile is not-found, for every read", async () => {
      const caldav = client();
      const gone = radicale.calendarUrl("alice", "never-made");
      expect(await failure(caldav.getCtag(gone))).toMatchObject({ kind: "not-found", status: 404 });
      expect((await failure(all(caldav.listObjects(gone)))).kind).toBe("not-found");
      expect((await failure(all(caldav.syncCollection(gone, null)))).kind).toBe("not-found");
      expect((await failure(all(caldav.multiget(gone, [`${gone}x.ics`])))).kind).toBe("not-found");
    });
  });

  describe("sync-collection", () => {
    it("lists everything first, then only what another client changed, added and deleted; a token it does not know is a typed error", async () => {
      const cal = await radicale.mkcalendar("alice", "synced");
      radicale.writeObjects(
        "alice",
        "synced",
        ["a", "b", "c"].map((uid) => ({ name: `${uid}.ics`, ics: event(uid) })),
      );
      const caldav = client();
      const first = caldav.syncCollection(cal, null);
      const initial = await all(first);
      expect(names(initial)).toEqual(["a.ics", "b.ics", "c.ics"]);
      expect(initial.every((change) => !("deleted" in change) && /^".+"$/.test(change.etag ?? ""))).toBe(
        true,
      );
      const token = first.syncToken;
      expect(token).toMatch(/\S/);

      // Another client: an edit over HTTP, a deletion and an addition straight in the folder.
      await radicale.putEvent("alice", "synced", "a.ics", event("a", "20260303T090000Z", "20260303T100000Z"));
      radicale.removeObjects("alice", "synced", ["b.ics"]);
      radicale.writeObjects("alice", "synced", [{ name: "d.ics", ics: event("d") }]);

      const second = caldav.syncCollection(cal, token);
      const changes: SyncChange[] = await all(second);
      const byName = Object.fromEntries(changes.map((change) => [change.href.split("/").at(-1), change]));
      expect(Object.keys(byName).sort()).toEqual(["a.ics", "b.ics", "d.ics"]);
      expect(byName["b.ics"]).toEqual({ href: `${cal}b.ics`, deleted: true });
      expect(byName["a.ics"]).toMatchObject({ href: `${cal}a.ics`, etag: expect.stringMatching(/^".+"$/) });
      expect(second.syncToken).not.toBe(token);

      // Nothing since: nothing listed, the same token back.
      const third = caldav.syncCollection(cal, second.syncToken);
      expect(await all(third)).toEqual([]);
      expect(third.syncToken).toBe(second.syncToken);

      const unknown = await failure(
        all(caldav.syncCollection(cal, `http://radicale.org/ns/sync/${"0".repeat(64)}`)),
      );
      expect(unknown).toMatchObject({ kind: "invalid-sync-token", status: 403 });
      expect((await failure(all(caldav.syncCollection(cal, "garbage")))).kind).toBe("invalid-sync-token");
      // The token is only there once the changes were read to their end.
      expect(() => caldav.syncCollection(cal, null).syncToken).toThrow();
    });

    it("a truncated answer (507 on the collection, DAV:limit) is continued from the token it gave", async () => {
      const sync = client().syncCollection(`${fakeUrl}/paged/`, null, { limit: 2 });
      const changes = await all(sync);
      expect(changes).toEqual([
        { href: `${fakeUrl}/paged/1.ics`, etag: '"e1"' },
        { href: `${fakeUrl}/paged/2.ics`, etag: '"e2"' },
        { href: `${fakeUrl}/paged/3.ics`, deleted: true },
      ]);
      expect(sync.syncToken).toBe("token-2");
      expect(pagedRequests).toEqual([
        { token: "", limit: "2" },
        { token: "token-1", limit: "2" },
      ]);
    });
  });

  describe("a server that fails", () => {
    it("5xx and a 401 from in front of the server: typed errors with the status", async () => {
      const caldav = client();
      const cal = proxy.via(work);
      for (const status of [500, 503]) {
        proxy.set({ kind: "status", status });
        const error = await failure(all(caldav.syncCollection(cal, null)));
        expect(error).toMatchObject({ kind: "http", status });
        expect(error.message).toContain(`${status}`);
        expect((await failure(caldav.discover(proxy.url))).status).toBe(status);
      }
      proxy.set({ kind: "status", status: 401 });
      expect((await failure(caldav.getCtag(cal))).kind).toBe("unauthorized");
      proxy.set({ kind: "forward" });
      expect((await caldav.getCtag(cal)).ctag).toMatch(/\S/);
    });

    it("a server that accepts and never answers, or stalls mid-answer, is a timeout within timeoutMs", async () => {
      const caldav = client({ timeoutMs: 300 });
      const cal = proxy.via(work);
      proxy.set({ kind: "stall" });
      const stalled = await failure(caldav.getCtag(cal));
      expect(stalled.kind).toBe("timeout");
      expect(stalled.message).toContain("300 ms");
      await radicale.putEvent("alice", "work", "stall.ics", event("stall"));
      proxy.set({ kind: "stall-body", afterBytes: 60 });
      expect((await failure(all(caldav.listObjects(cal)))).kind).toBe("timeout");
      expect((await failure(caldav.getObject(`${cal}stall.ics`))).kind).toBe("timeout");
      proxy.set({ kind: "forward" });
    });

    it("a connection closed mid-answer is a network error, and the next request goes through", async () => {
      const caldav = client();
      const cal = proxy.via(work);
      await caldav.putObject(`${work}cut.ics`, event("cut"));
      proxy.set({ kind: "cut", afterBytes: 150 });
      const cut = await failure(all(caldav.multiget(cal, [`${cal}cut.ics`])));
      expect(cut.kind).toBe("network");
      expect(cut.message).toMatch(/closed|failed/);
      proxy.set({ kind: "forward" });
      expect(await all(caldav.multiget(cal, [`${cal}cut.ics`]))).toHaveLength(1);
      // The sync engine's case: the server goes away between the requests of one sync.
      proxy.set({ kind: "cut", afterBytes: 10 }, { after: 1 });
      const sync = await all(caldav.syncCollection(cal, null));
      expect(
        (
          await failure(
            all(
              caldav.multiget(
                cal,
                sync.map((change) => change.href),
              ),
            ),
          )
        ).kind,
      ).toBe("network");
      proxy.set({ kind: "forward" });
    });

    it("an answer that is not well-formed XML, or not a multistatus, is malformed", async () => {
      const caldav = client();
      const broken = await failure(all(caldav.listObjects(`${fakeUrl}/malformed/`)));
      expect(broken.kind).toBe("malformed");
      expect((await failure(all(caldav.listObjects(`${fakeUrl}/not-multistatus/`)))).kind).toBe("malformed");
      expect((await failure(all(caldav.listObjects(`${fakeUrl}/doctype/`)))).kind).toBe("malformed");
      // A member on another host would have the account's password sent there by a later write.
      const foreign = await failure(all(caldav.syncCollection(`${fakeUrl}/foreign/`, null)));
      expect(foreign.kind).toBe("malformed");
      expect(foreign.message).toContain("another host");
    });
  });

  describe("objects over maxObjectBytes", () => {
    it("in Radicale: multiget yields it tooLarge without its data, the others whole; GET fails too-large", async () => {
      const cal = await radicale.mkcalendar("alice", "big");
      // 300 KB: Radicale 3.1.8 takes about 3 s to parse each MB of an object, so 10 MB is served by the test's own server below.
      const description = `DESCRIPTION:${"x".repeat(300 * 1024)}`;
      radicale.writeObjects("alice", "big", [
        { name: "big.ics", ics: event("big", undefined, undefined, description) },
        { name: "small.ics", ics: event("small") },
      ]);
      const caldav = client({ maxObjectBytes: 64 * 1024 });
      const got = await all(caldav.multiget(cal, [`${cal}big.ics`, `${cal}small.ics`]));
      got.sort((a, b) => a.href.localeCompare(b.href));
      expect(got).toEqual([
        { href: `${cal}big.ics`, etag: expect.stringMatching(/^".+"$/), tooLarge: true },
        {
          href: `${cal}small.ics`,
          etag: expect.stringMatching(/^".+"$/),
          data: expect.stringContaining("UID:small"),
        },
      ]);
      expect(await failure(caldav.getObject(`${cal}big.ics`))).toMatchObject({ kind: "too-large" });
    });

    it("10 MB of calendar-data go through a client whose heap could not hold them, as tooLarge", async () => {
      // The built client (the global setup builds dist/) in a worker with a small heap: a client
      // that kept the object, in saxes' buffer or its own, dies of it.
      const built = path.resolve(import.meta.dirname, "../dist/calendars/caldav-client.js");
      const run = (maxObjectBytes: number) =>
        new Promise<unknown>((resolve, reject) => {
          const worker = new Worker(
            `const { workerData, parentPort } = require("node:worker_threads");
            import(workerData.built).then(async ({ CalDavClient }) => {
              const client = new CalDavClient({ username: "alice", password: "x", maxObjectBytes: workerData.maxObjectBytes });
              const items = [];
              for await (const item of client.multiget(workerData.url, ["big.ics", "after.ics"]))
                items.push("data" in item ? { href: item.href, length: item.data.length } : item);
              client.close();
              parentPort.postMessage(items);
            }, (error) => parentPort.postMessage({ error: String(error) }));`,
            {
              eval: true,
              workerData: { built: `file://${built}`, url: `${fakeUrl}/big/`, maxObjectBytes },
              resourceLimits: { maxOldGenerationSizeMb: 12, maxYoungGenerationSizeMb: 4 },
            },
          );
          worker.once("message", (message) => {
            void worker.terminate();
            resolve(message);
          });
          worker.once("error", reject);
        });
      expect(await run(1 << 20)).toEqual([
        { href: `${fakeUrl}/big/big.ics`, etag: '"big"', tooLarge: true },
        { href: `${fakeUrl}/big/after.ics`, length: 5 },
      ]);
      // The same heap, told to keep 20 MB objects: it cannot (the bound is what saves it).
      await expect(run(20 << 20)).rejects.toThrow(/memory/i);
    });
  });
});

// Needs no server: it runs without Radicale too.
it("normalizeCalendarUrl: one form for a stored externalId and what a person types", () => {
  const cases: [string, string][] = [
    ["http://127.0.0.1:5232/alice/work/", "http://127.0.0.1:5232/alice/work/"],
    ["http://127.0.0.1:5232/alice/work", "http://127.0.0.1:5232/alice/work/"],
    ["HTTP://Example.COM:80/Alice/Work", "http://example.com/Alice/Work/"],
    ["https://example.com:443/dav/cal/", "https://example.com/dav/cal/"],
    ["https://example.com:8443/dav/cal/", "https://example.com:8443/dav/cal/"],
    ["https://example.com/%7ealice/%63al/", "https://example.com/~alice/cal/"],
    ["https://example.com/a%2fb/%c3%a9t%C3%A9/", "https://example.com/a%2Fb/%C3%A9t%C3%A9/"],
    ["https://example.com/été/", "https://example.com/%C3%A9t%C3%A9/"],
    ["https://user:pw@example.com/cal/#x", "https://example.com/cal/"],
    ["  https://example.com/a/./b/../cal  ", "https://example.com/a/cal/"],
    ["https://example.com", "https://example.com/"],
  ];
  for (const [input, expected] of cases) expect(normalizeCalendarUrl(input), input).toBe(expected);
  expect(normalizeCalendarUrl("https://example.com/%7Ealice/cal")).toBe(
    normalizeCalendarUrl("https://EXAMPLE.com:443/~alice/cal/"),
  );
  expect(() => normalizeCalendarUrl("example.com/cal")).toThrow(TypeError);
  expect(() => normalizeCalendarUrl("mailto:a@example.com")).toThrow(TypeError);
});

// The test's own server: what Radicale cannot be made to do. ------------------------------------

const pagedRequests: { token: string; limit: string }[] = [];
const BIG_BYTES = 10 * 1024 * 1024;

function fakeServer(request: IncomingMessage, response: ServerResponse) {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () => {
    const url = request.url ?? "/";
    const xml = (status: number, text: string) => {
      response.writeHead(status, { "content-type": "application/xml; charset=utf-8" });
      response.end(text);
    };
    if (url.startsWith("/paged/")) {
      const token = /<D:sync-token>([^<]*)<\/D:sync-token>/.exec(body)?.[1] ?? "";
      pagedRequests.push({ token, limit: /<D:nresults>(\d+)</.exec(body)?.[1] ?? "" });
      const response207 = (href: string, inner: string) =>
        `<D:response><D:href>${href}</D:href>${inner}</D:response>`;
      const etag = (value: string) =>
        `<D:propstat><D:prop><D:getetag>${value}</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`;
      if (token === "")
        return xml(
          207,
          `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">${response207("/paged/1.ics", etag('"e1"'))}${response207("/paged/2.ics", etag('"e2"'))}` +
            `${response207("/paged/", "<D:status>HTTP/1.1 507 Insufficient Storage</D:status><D:error><D:number-of-matches-within-limits/></D:error>")}` +
            "<D:sync-token>token-1</D:sync-token></D:multistatus>",
        );
      return xml(
        207,
        `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">${response207("/paged/3.ics", "<D:status>HTTP/1.1 404 Not Found</D:status>")}<D:sync-token>token-2</D:sync-token></D:multistatus>`,
      );
    }
    if (url.startsWith("/foreign/"))
      return xml(
        207,
        `<D:multistatus xmlns:D="DAV:"><D:response><D:href>http://elsewhere.example/x.ics</D:href><D:propstat><D:prop><D:getetag>"x"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response><D:sync-token>t</D:sync-token></D:multistatus>`,
      );
    if (url.startsWith("/malformed/"))
      return xml(
        207,
        `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/x</D:hre></D:response>`,
      );
    if (url.startsWith("/not-multistatus/"))
      return xml(207, `<?xml version="1.0"?><html><body>hello</body></html>`);
    if (url.startsWith("/doctype/"))
      return xml(
        207,
        `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><D:multistatus xmlns:D="DAV:"/>`,
      );
    if (url.startsWith("/big/")) {
      // A multistatus with 10 MB of calendar-data, written as the client reads it (backpressure).
      response.writeHead(207, { "content-type": "application/xml; charset=utf-8" });
      response.write(
        `<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:response><D:href>/big/big.ics</D:href><D:propstat><D:prop><D:getetag>"big"</D:getetag><C:calendar-data>`,
      );
      const piece = `BEGIN:VCALENDAR&#13;\nX-FILL:${"y".repeat(64 * 1024)}\n`;
      let sent = 0;
      const more = () => {
        while (sent < BIG_BYTES) {
          sent += piece.length;
          if (!response.write(piece)) return void response.once("drain", more);
        }
        response.end(
          `</C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>` +
            `<D:response><D:href>/big/after.ics</D:href><D:propstat><D:prop><D:getetag>"after"</D:getetag><C:calendar-data><![CDATA[small]]></C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>`,
        );
      };
      return more();
    }
    // Anything else: a plain web site, which answers every method with a page.
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body>A plain web site</body></html>");
  });
}
