// A Radicale CalDAV server of a test file's own (Debian's python3-radicale 3.1.8, run with
// /usr/bin/python3: `python3` on these machines is a pyenv shim that cannot see Debian's
// modules). Plain htpasswd users, owner_only rights, no web UI, no auth delay, a free port and a
// temporary folder that stop() removes. Fixtures go in over HTTP (mkcalendar, putEvent) or,
// for bulk loads, straight into the storage folder (writeObjects), which Radicale reads afresh
// on every request.
//
// Two costs of Radicale 3.1.8 are taken away, both for throwaway data only: it fsyncs every
// file it writes (its `_filesystem_fsync` option cannot be set from a configuration file, so
// the launcher below replaces its fsync), and it parses each object with vobject the first
// time it reads it (5 to 40 ms per small event on these machines, 3 s per MB), to fill its item
// cache. writeObjects fills that cache itself, in Radicale's format, so 100,000 objects written
// straight to the folder are served in seconds, not in an hour.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freeTcpPort } from "./postgres-servers.ts";
import { SOON } from "./timing.ts";

const PYTHON = "/usr/bin/python3";
/** Runs Radicale's `python -m radicale` with fsync made a no-op (throwaway data). */
const LAUNCHER =
  "import radicale.pathutils as p; p.fsync = lambda fd: None; import runpy; runpy.run_module('radicale', run_name='__main__')";
/** What Radicale's item cache entries are keyed and bounded with (its CACHE_VERSION, its time bounds). */
const CACHE_FACTS =
  "import json; from radicale import storage; from radicale.item import filter as f; " +
  "print(json.dumps([storage.CACHE_VERSION.decode(), f.TIMESTAMP_MIN, f.TIMESTAMP_MAX]))";

/** Radicale's cache facts, asked once per process (a Python start costs a second on a loaded machine). */
let facts: { cacheVersion: string; timestampMin: number; timestampMax: number } | Error | undefined;
function radicaleFacts() {
  if (facts === undefined) {
    try {
      // From /: `python -c` puts the working directory first on its path (a stray json.py…).
      const [cacheVersion, timestampMin, timestampMax] = JSON.parse(
        execFileSync(PYTHON, ["-c", CACHE_FACTS], {
          cwd: "/",
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        }),
      ) as [string, number, number];
      facts = { cacheVersion, timestampMin, timestampMax };
    } catch (error) {
      facts = error as Error;
    }
  }
  return facts;
}

/** Why Radicale cannot start here (for a skip message), or undefined when it can. */
export function radicaleMissing(): string | undefined {
  return radicaleFacts() instanceof Error
    ? `${PYTHON} cannot import radicale (apt-get install -y python3-radicale)`
    : undefined;
}

export interface RadicaleObject {
  /** The file name, which is the object's href inside its calendar: `<uid>.ics`. */
  name: string;
  ics: string;
}

export interface Radicale {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  /** The storage root: `<folder>/<user>/<calendar>/<name>.ics`. */
  folder: string;
  users: Record<string, string>;
  /** `Basic …` for a user of `users`. */
  authorization(user: string): string;
  /** The collection URL of a user's calendar (with its trailing slash). */
  calendarUrl(user: string, calendar: string): string;
  /** MKCALENDAR over HTTP as `user` (components default to VEVENT); the calendar's URL. */
  mkcalendar(
    user: string,
    calendar: string,
    options?: { components?: string[]; displayName?: string },
  ): Promise<string>;
  /** PUT over HTTP as `user`, unconditionally; the new ETag. */
  putEvent(user: string, calendar: string, name: string, ics: string): Promise<string>;
  /**
   * Writes objects straight into the calendar's folder (made, VEVENT-only, when missing), each
   * through a temporary dot-file Radicale ignores and a rename, so a request running meanwhile
   * sees each object whole or not at all; and its item cache entry, so Radicale serves it as
   * written without parsing it (a time-range query still parses it, to test the range). For
   * loads HTTP would make slow (100,000 events). Returns how many were written.
   */
  writeObjects(
    user: string,
    calendar: string,
    objects: Iterable<RadicaleObject>,
    options?: { components?: string[]; displayName?: string },
  ): number;
  /** Removes objects from the calendar's folder, as another client's DELETE would. */
  removeObjects(user: string, calendar: string, names: string[]): void;
  /** What the server printed so far (its log, at info level). */
  logs(): string;
  stop(): Promise<void>;
}

const mkcalendarBody = (components: string[], displayName: string) =>
  `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
<D:displayname>${escapeXml(displayName)}</D:displayname>
<C:supported-calendar-component-set>${components.map((name) => `<C:comp name="${name}"/>`).join("")}</C:supported-calendar-component-set>
</D:prop></D:set></C:mkcalendar>`;

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * Starts Radicale on a free port of 127.0.0.1 and waits until it answers (polling, not
 * sleeping). Throws with its log when it exits first or does not answer within the shared
 * bound (`SOON`, several times over: a cold Python start on a loaded machine).
 */
export async function startRadicale({
  users = { alice: "secret" },
  loglevel = "info",
}: {
  users?: Record<string, string>;
  loglevel?: "debug" | "info" | "warning";
} = {}): Promise<Radicale> {
  const dir = mkdtempSync(path.join(tmpdir(), "radicale-"));
  const known = radicaleFacts();
  if (known instanceof Error) throw known;
  const { cacheVersion, timestampMin, timestampMax } = known;
  const storage = path.join(dir, "collections");
  const folder = path.join(storage, "collection-root");
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(dir, "users"),
    Object.entries(users)
      .map(([user, password]) => `${user}:${password}\n`)
      .join(""),
  );
  const port = await freeTcpPort();
  writeFileSync(
    path.join(dir, "config"),
    `[server]
hosts = 127.0.0.1:${port}
[auth]
type = htpasswd
htpasswd_filename = ${dir}/users
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = ${storage}
[web]
type = none
[logging]
level = ${loglevel}
mask_passwords = True
`,
  );
  let output = "";
  const child: ChildProcess = spawn(PYTHON, ["-c", LAUNCHER, "--config", path.join(dir, "config")], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    // Radicale reads no other configuration: --config replaces the default files.
    env: { ...process.env, RADICALE_CONFIG: path.join(dir, "config") },
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = `exited (${signal ?? code})`;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}/`;
  const fail = (why: string) => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    return new Error(`Radicale ${why}:\n${output}`);
  };
  // Ready when it answers HTTP at all (OPTIONS needs no user); the log line comes at the same time.
  const deadline = Date.now() + 6 * SOON.timeout;
  for (;;) {
    if (exited) throw fail(exited);
    if (Date.now() > deadline) throw fail("did not answer in time");
    const answered = await fetch(url, { method: "OPTIONS" }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, SOON.interval));
  }

  const authorization = (user: string) => {
    const password = users[user];
    if (password === undefined) throw new Error(`no Radicale user ${user}`);
    return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  };
  const calendarUrl = (user: string, calendar: string) =>
    new URL(`${encodeURIComponent(user)}/${encodeURIComponent(calendar)}/`, url).href;
  const calendarFolder = (user: string, calendar: string) => path.join(folder, user, calendar);
  const checked = async (response: Response, what: string, ok: number[]) => {
    if (!ok.includes(response.status))
      throw new Error(`Radicale answered ${what} with ${response.status}: ${await response.text()}`);
    return response;
  };

  return {
    url,
    port,
    folder,
    users,
    authorization,
    calendarUrl,
    async mkcalendar(user, calendar, { components = ["VEVENT"], displayName = calendar } = {}) {
      const target = calendarUrl(user, calendar);
      await checked(
        await fetch(target, {
          method: "MKCALENDAR",
          headers: { authorization: authorization(user), "content-type": "application/xml; charset=utf-8" },
          body: mkcalendarBody(components, displayName),
        }),
        `MKCALENDAR ${target}`,
        [201],
      );
      return target;
    },
    async putEvent(user, calendar, name, ics) {
      const target = new URL(encodeURIComponent(name), calendarUrl(user, calendar)).href;
      const response = await checked(
        await fetch(target, {
          method: "PUT",
          headers: { authorization: authorization(user), "content-type": "text/calendar; charset=utf-8" },
          body: ics,
        }),
        `PUT ${target}`,
        [201, 204],
      );
      return response.headers.get("etag") ?? "";
    },
    writeObjects(user, calendar, objects, { components = ["VEVENT"], displayName = calendar } = {}) {
      const target = calendarFolder(user, calendar);
      mkdirSync(target, { recursive: true });
      const props = path.join(target, ".Radicale.props");
      try {
        writeFileSync(
          props,
          JSON.stringify({
            "C:supported-calendar-component-set": components.join(","),
            "D:displayname": displayName,
            tag: "VCALENDAR",
          }),
          { flag: "wx" },
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const cacheFolder = path.join(target, ".Radicale.cache", "item");
      mkdirSync(cacheFolder, { recursive: true });
      let count = 0;
      for (const { name, ics } of objects) {
        if (name.startsWith(".") || name.includes("/")) throw new Error(`not an object name: ${name}`);
        const raw = Buffer.from(ics, "utf8");
        // The cache entry first: it is only used for a file whose bytes hash to its key.
        const entry = cacheEntry(raw, ics, cacheVersion, timestampMin, timestampMax);
        writeFileSync(path.join(cacheFolder, `.tmp-${name}`), entry);
        renameSync(path.join(cacheFolder, `.tmp-${name}`), path.join(cacheFolder, name));
        const temporary = path.join(target, `.tmp-${name}`);
        writeFileSync(temporary, raw);
        renameSync(temporary, path.join(target, name));
        count++;
      }
      return count;
    },
    removeObjects(user, calendar, names) {
      for (const name of names) unlinkSync(path.join(calendarFolder(user, calendar), name));
    },
    logs: () => output,
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), SOON.timeout);
        await exit;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One entry of Radicale 3.1.8's item cache (storage/multifilesystem/cache.py): the pickle of
 * (sha256(CACHE_VERSION + file bytes), uid, etag, text, name, component, start, end). The time
 * range is left unbounded (the cache only pre-filters time ranges with it; Radicale then tests
 * the object itself), the ETag is Radicale's: the quoted sha256 of the text.
 */
function cacheEntry(raw: Buffer, text: string, cacheVersion: string, start: number, end: number): Buffer {
  const unfolded = text.replace(/\r?\n[ \t]/g, "");
  const uid = /^UID:(.*?)\r?$/m.exec(unfolded)?.[1] ?? "";
  const component = [...unfolded.matchAll(/^BEGIN:(\w+)\r?$/gm)]
    .map((match) => match[1])
    .find((name) => name !== "VCALENDAR" && name !== "VTIMEZONE");
  const hash = createHash("sha256").update(cacheVersion).update(raw).digest("hex");
  const etag = `"${createHash("sha256").update(text).digest("hex")}"`;
  return pickleTuple([hash, uid, etag, text, "VCALENDAR", component ?? "", start, end]);
}

/** A pickle (protocol 2) of a tuple of strings and integers: what Python's pickle.load reads. */
function pickleTuple(values: (string | number)[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0x80, 2, 0x28])]; // PROTO 2, MARK
  for (const value of values) {
    if (typeof value === "string") {
      const bytes = Buffer.from(value, "utf8");
      const head = Buffer.alloc(5);
      head[0] = 0x58; // BINUNICODE
      head.writeUInt32LE(bytes.length, 1);
      parts.push(head, bytes);
    } else {
      // LONG1: a little-endian two's complement integer of 8 bytes.
      const bytes = Buffer.alloc(8);
      bytes.writeBigInt64LE(BigInt(value));
      parts.push(Buffer.from([0x8a, 8]), bytes);
    }
  }
  parts.push(Buffer.from([0x74, 0x2e])); // TUPLE, STOP
  return Buffer.concat(parts);
}
