// What a visit row says about its visitor besides the raw headers: bot or human, browser, OS,
// device type, country, the referrer's host and a visitor hash. Computed in the visit-log
// batch (never on the response path); each part is an established package working on local
// data: isbot (Unlicense), ua-parser-js 1.x (MIT), and an IP-to-country database shipped in an
// npm package (@ip-location-db/geo-whois-asn-country-mmdb, CC0), read from disk once at start.
import { hash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { isIP } from "node:net";
import type { PrismaClient } from "@app/db";
import { isbot } from "isbot";
import { Reader } from "mmdb-lib";
import UAParser from "ua-parser-js";
import { isSpecialPurpose } from "./special-addresses.ts";

/** What VISIT_IP keeps of the visitor's address on the row. */
export type VisitIpMode = "full" | "anonymized" | "none";

export interface Enrichment {
  /** The address as VISIT_IP keeps it. */
  ipAddress: string;
  isBot: boolean;
  browser: string;
  os: string;
  device: string;
  country: string;
  referrerHost: string;
  /**
   * Decimal text of a signed 64-bit hash: the day's salt, the full IP and the user agent. An
   * imported visit's is its run's (VisitLog.importRun); null: the visit counts no visitor.
   */
  visitor: string | null;
}

/** What a user agent says, parsed once per distinct one (the redirect rules read it too). */
export interface Agent {
  isBot: boolean;
  browser: string;
  os: string;
  device: string;
  /** ua-parser's device type is mobile or tablet (kept for a bot too, whose device is "bot"). */
  handheld: boolean;
}

const require = createRequire(import.meta.url);
const COUNTRY_DATABASE = "@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb";
/** Distinct user agents remembered: real traffic repeats a few hundred of them. */
const AGENT_CACHE_SIZE = 5_000;
/** Distinct visitors (address and user agent) whose hash is remembered, under the day's salt. */
const VISITOR_CACHE_SIZE = 10_000;

/** The database's record: a country code only (not MaxMind's own record shape). */
type CountryRecord = { country_code?: string };

/** The country database, loaded once per process (8 MB, about 10 ms). */
let countries: Reader<never> | undefined;
function countryReader(): Reader<never> {
  countries ??= new Reader<never>(readFileSync(require.resolve(COUNTRY_DATABASE)));
  return countries;
}

/**
 * An IPv4-mapped IPv6 address (`::ffff:81.2.69.160`, how a dual-stack listener sees every IPv4
 * client) as the IPv4 address it is; any other address as it is.
 */
export function unmapped(ip: string): string {
  return ip.toLowerCase().startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/**
 * ISO 3166-1 alpha-2 of the address's registry country; "" for an unknown one (the database has
 * no range for it) and for one of a special-purpose range (private, documentation…), which the
 * database is not asked about: it names a country for some of them (special-addresses.ts).
 */
export function countryOf(ip: string): string {
  const family = isIP(ip);
  if (family === 0 || isSpecialPurpose(ip, family)) return "";
  try {
    const record = countryReader().get(unmapped(ip)) as CountryRecord | null;
    return record?.country_code?.slice(0, 2) ?? "";
  } catch {
    return "";
  }
}

/** IPv4 to its /24, IPv6 to its /48 (an IPv4-mapped IPv6 address as IPv4). */
export function anonymizeIp(ip: string): string {
  const mapped = unmapped(ip);
  if (isIP(mapped) === 4) return `${mapped.split(".").slice(0, 3).join(".")}.0`;
  if (isIP(mapped) === 6) {
    const [head = "", tail = ""] = mapped.split("::");
    const left = head === "" ? [] : head.split(":");
    const right = tail === "" ? [] : tail.split(":");
    const groups = mapped.includes("::")
      ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
      : left;
    return `${groups
      .slice(0, 3)
      .map((group) => group.replace(/^0+(?=.)/, ""))
      .join(":")}::`;
  }
  return "";
}

/** The host of a Referer header, lower case; "" when absent or not a URL. */
export function referrerHostOf(referer: string): string {
  if (referer === "") return "";
  try {
    return new URL(referer).hostname.toLowerCase().slice(0, 255);
  } catch {
    return "";
  }
}

const cut = (text: string | undefined, max: number) => (text ?? "").slice(0, max);

function parseAgent(userAgent: string): Agent {
  const bot = isbot(userAgent);
  const { browser, os, device } = new UAParser(userAgent).getResult();
  return {
    isBot: bot,
    browser: cut(browser.name, 32),
    os: cut(os.name, 32),
    // ua-parser leaves desktops untyped; an empty user agent says nothing.
    device: bot ? "bot" : cut(device.type ?? (userAgent === "" ? "" : "desktop"), 16),
    handheld: device.type === "mobile" || device.type === "tablet",
  };
}

/**
 * Deletes the salts of the days before yesterday (`today`: a UTC date, 2026-11-27). Yesterday's
 * is kept for visits stored just after midnight; older ones could only help to reverse a hash
 * (an IPv4 address space is small). Run with each day's first salt and by the hourly
 * maintenance, so an idle service forgets them too.
 */
export async function forgetOldSalts(prisma: PrismaClient, today: string): Promise<void> {
  await prisma.$executeRaw`DELETE FROM "shortener"."visitor_salts" WHERE "day" < ${today}::date - 1`;
}

/** One UTC day's salt: random, stored so every instance uses the same one. */
export class VisitorSalts {
  /** `start`: the day's first millisecond (UTC), so a visit's time is checked without formatting it. */
  private current: { day: string; start: number; salt: Buffer } | undefined;
  private loading: Promise<Buffer> | undefined;

  constructor(private readonly prisma: PrismaClient) {}

  /** Today's salt if it is in memory already (the visit log then needs no await). */
  cached(now = new Date()): Buffer | undefined {
    const current = this.current;
    if (current === undefined) return undefined;
    const offset = now.getTime() - current.start;
    return offset >= 0 && offset < DAY ? current.salt : undefined;
  }

  /** The salt of today (UTC), from memory after the first call of the day. */
  async today(now = new Date()): Promise<{ day: string; salt: Buffer }> {
    const day = now.toISOString().slice(0, 10);
    if (this.current?.day === day) return this.current;
    this.loading ??= this.load(day).finally(() => {
      this.loading = undefined;
    });
    const salt = await this.loading;
    this.current = { day, start: Date.parse(`${day}T00:00:00Z`), salt };
    return this.current;
  }

  private async load(day: string): Promise<Buffer> {
    const date = new Date(`${day}T00:00:00Z`);
    // The first instance to need the day's salt writes it; the others read that one.
    await this.prisma.$executeRaw`
      INSERT INTO "shortener"."visitor_salts" ("day", "salt") VALUES (${date}::date, ${randomBytes(32)})
      ON CONFLICT ("day") DO NOTHING`;
    await forgetOldSalts(this.prisma, day);
    const row = await this.prisma.visitorSalt.findUniqueOrThrow({ where: { day: date } });
    return Buffer.from(row.salt);
  }
}

/** A bounded memo: the oldest entry goes when it is full (visits repeat agents, IPs, referrers). */
class Memo<V> {
  private readonly entries = new Map<string, V>();
  constructor(
    private readonly size: number,
    private readonly compute: (key: string) => V,
  ) {}
  get(key: string): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = this.compute(key);
      if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, value);
    }
    return value;
  }
}

const DAY = 86_400_000;

/**
 * SHA-256 of the salt and `text` (the address, a newline and the user agent), as the first 8
 * bytes of the digest read as a signed 64-bit integer (decimal text). One call on one buffer: a
 * Hash object per visit with four updates cost three times as much.
 */
export function visitorHash(salt: Buffer, text: string): string {
  // UTF-8 takes at most 3 bytes per UTF-16 unit; the headers are cut to a few kB before this.
  const needed = salt.length + text.length * 3;
  if (scratch.length < needed) scratch = Buffer.allocUnsafe(needed);
  salt.copy(scratch, 0);
  const length = salt.length + scratch.write(text, salt.length);
  // The digest's first 8 bytes read as a signed big-endian integer: no hex text to parse back.
  return hash("sha256", scratch.subarray(0, length), "buffer").readBigInt64BE(0).toString();
}
/** Reused by every visit: hashing is synchronous, so no two visits use it at once. */
let scratch = Buffer.allocUnsafe(8192);

/** Derives a visit's stored fields; one per service, its memos shared by every batch. */
export class VisitEnricher {
  private readonly agents = new Memo(AGENT_CACHE_SIZE, parseAgent);
  private readonly countries = new Memo(50_000, countryOf);
  private readonly referrers = new Memo(10_000, referrerHostOf);
  /**
   * The visitor hashes under one salt (the day's), by address and user agent: a visitor's
   * visits of a day repeat them, and the hash was the visit's largest cost (docs/performance.md).
   */
  private visitors: { salt: Buffer; memo: Memo<string> } | undefined;

  constructor(private readonly ipMode: VisitIpMode) {
    countryReader();
  }

  /** The user agent parsed, from the memo the visits share (the redirect rules' device). */
  agentOf(userAgent: string): Agent {
    return this.agents.get(userAgent);
  }

  /** The full address's country, from the memo the visits share (the redirect rules' country). */
  countryOf(ipAddress: string): string {
    return this.countries.get(ipAddress);
  }

  enrich(visit: { ipAddress: string; userAgent: string; referer: string }, salt: Buffer): Enrichment {
    const enriched = this.describe(visit) as Enrichment;
    // Added to the object described, not spread into a new one: this runs for every visit.
    enriched.visitor = this.visitorOf(salt, visit.ipAddress, visit.userAgent);
    return enriched;
  }

  private visitorOf(salt: Buffer, ipAddress: string, userAgent: string): string {
    let visitors = this.visitors;
    if (visitors?.salt !== salt) {
      // A new day's salt: the hashes of the day before are never asked for again (nor kept).
      visitors = { salt, memo: new Memo(VISITOR_CACHE_SIZE, (text) => visitorHash(salt, text)) };
      this.visitors = visitors;
    }
    const text = `${ipAddress}\n${userAgent}`;
    return visitors.memo.get(text);
  }

  /** All but the visitor hash (orphan visits count no visitors, so need no salt). */
  describe(visit: { ipAddress: string; userAgent: string; referer: string }): Omit<Enrichment, "visitor"> {
    const agent = this.agents.get(visit.userAgent);
    return {
      ipAddress:
        this.ipMode === "full"
          ? visit.ipAddress
          : this.ipMode === "anonymized"
            ? anonymizeIp(visit.ipAddress)
            : "",
      isBot: agent.isBot,
      browser: agent.browser,
      os: agent.os,
      device: agent.device,
      // From the full address, before anonymizing.
      country: this.countries.get(visit.ipAddress),
      referrerHost: this.referrers.get(visit.referer),
    };
  }
}
