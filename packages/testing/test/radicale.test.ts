// The calendar tests' harness: a Radicale of the file's own, fixtures written over HTTP and
// straight to its folder, and the HTTP fault proxy in front of it.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpFaultProxy, startHttpFaultProxy } from "../src/http-fault-proxy.ts";
import { type Radicale, radicaleMissing, startRadicale } from "../src/radicale.ts";

const missing = radicaleMissing();
if (missing) console.warn(`packages/testing/test/radicale.test.ts skipped: ${missing}`);

const event = (uid: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260301T000000Z\r\nDTSTART:20260302T090000Z\r\nDTEND:20260302T100000Z\r\nSUMMARY:${uid}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

const propfind = (radicale: Radicale, url: string, user = "alice") =>
  fetch(url, {
    method: "PROPFIND",
    headers: { authorization: radicale.authorization(user), depth: "1" },
  });

describe.skipIf(missing)("Radicale harness", () => {
  let radicale: Radicale;
  let proxy: HttpFaultProxy;
  beforeAll(async () => {
    radicale = await startRadicale({ users: { alice: "secret", bob: "hunter2" } });
    proxy = await startHttpFaultProxy(radicale.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await radicale?.stop();
  });

  it("serves plain htpasswd users: a right password is let in, a wrong one is 401, another user's calendar 403", async () => {
    const url = await radicale.mkcalendar("alice", "work");
    expect(url).toBe(`${radicale.url}alice/work/`);
    expect((await propfind(radicale, url)).status).toBe(207);
    const wrong = await fetch(url, {
      method: "PROPFIND",
      headers: { authorization: `Basic ${Buffer.from("alice:nope").toString("base64")}` },
    });
    expect(wrong.status).toBe(401);
    expect((await propfind(radicale, url, "bob")).status).toBe(403);
  });

  it("lists objects put over HTTP and written straight to its folder, and forgets removed ones", async () => {
    await radicale.mkcalendar("alice", "mixed");
    const etag = await radicale.putEvent("alice", "mixed", "over-http.ics", event("over-http"));
    expect(etag).toMatch(/^".+"$/);
    const written = radicale.writeObjects(
      "alice",
      "mixed",
      Array.from({ length: 50 }, (_, i) => ({ name: `bulk-${i}.ics`, ics: event(`bulk-${i}`) })),
    );
    expect(written).toBe(50);
    const listing = async () =>
      (await (await propfind(radicale, radicale.calendarUrl("alice", "mixed"))).text()).match(
        /\.ics<\/href>/g,
      )?.length;
    expect(await listing()).toBe(51);
    // Served from the item cache writeObjects filled: byte for byte as written (Radicale's own
    // parse would re-serialise it, DTSTAMP after DTEND), with Radicale's ETag of that text.
    const got = await fetch(`${radicale.calendarUrl("alice", "mixed")}bulk-7.ics`, {
      headers: { authorization: radicale.authorization("alice") },
    });
    expect(await got.text()).toBe(event("bulk-7"));
    expect(got.headers.get("etag")).toBe(`"${createHash("sha256").update(event("bulk-7")).digest("hex")}"`);
    radicale.removeObjects("alice", "mixed", ["bulk-0.ics", "bulk-1.ics"]);
    expect(await listing()).toBe(49);
    // A calendar made on disk only is a calendar too, with the props writeObjects gave it.
    radicale.writeObjects("alice", "on-disk", [{ name: "a.ics", ics: event("a") }], {
      displayName: "On disk",
    });
    const props = await (await propfind(radicale, radicale.calendarUrl("alice", "on-disk"))).text();
    expect(props).toContain("On disk");
    expect(props).toContain('name="VEVENT"');
  });

  it("the fault proxy forwards, answers a status, stalls, cuts a body, and refuses, switchable at run time", async () => {
    const url = proxy.via(radicale.calendarUrl("alice", "work"));
    expect((await propfind(radicale, url)).status).toBe(207);

    proxy.set({ kind: "status", status: 503 });
    expect((await propfind(radicale, url)).status).toBe(503);

    // The next request still goes through, the one after is cut mid-body.
    proxy.set({ kind: "cut", afterBytes: 40 }, { after: 1 });
    expect((await propfind(radicale, url)).status).toBe(207);
    const cut = await propfind(radicale, url);
    expect(cut.status).toBe(207);
    await expect(cut.text()).rejects.toThrow();

    proxy.set({ kind: "stall" });
    const stalled = await fetch(url, { method: "PROPFIND", signal: AbortSignal.timeout(300) }).catch(
      (error: Error) => error.name,
    );
    expect(stalled).toBe("TimeoutError");

    proxy.set({ kind: "forward" });
    await proxy.down();
    await expect(propfind(radicale, url)).rejects.toThrow();
    await proxy.up();
    expect((await propfind(radicale, url)).status).toBe(207);
    expect(proxy.requests.map((request) => request.fault)).toEqual([
      "forward",
      "status",
      "forward",
      "cut",
      "stall",
      "forward",
    ]);
  });
});
