// VISIT_IP: what a visit row keeps of the visitor's address. The country and the visitor hash
// are derived from the full address first, whatever is kept.
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { timeArray } from "../src/visits/array-literals.ts";
import { anonymizeIp, countryOf, referrerHostOf, VisitEnricher } from "../src/visits/visit-enrichment.ts";
import { newUser, postShort, setupShortener } from "./helpers.ts";

const ctx = setupShortener({ VISIT_IP: "anonymized" });

async function visitFrom(app: typeof ctx.app, ip: string) {
  const user = await newUser(ctx.prisma);
  const short = (await postShort(ctx.app, user, { url: "https://example.com/" })).json();
  expect(
    (await app.inject({ url: `/${short.name}`, remoteAddress: ip, headers: { "user-agent": "Mozilla/5.0" } }))
      .statusCode,
  ).toBe(302);
  return ctx.prisma.shortLog.findFirstOrThrow({ where: { shortId: short.id } });
}

describe("VISIT_IP", () => {
  it("anonymized keeps the IPv4 /24 and the IPv6 /48; the country comes from the full address", async () => {
    const v4 = await visitFrom(ctx.app, "81.2.69.160");
    expect([v4.ipAddress, v4.country]).toEqual(["81.2.69.0", "GB"]);
    const v6 = await visitFrom(ctx.app, "2a00:1450:4001:80b::200e");
    expect([v6.ipAddress, v6.country]).toEqual(["2a00:1450:4001::", "IE"]);
    expect(v4.visitor).not.toBeNull();
  });

  it("none keeps no address at all, and still counts the visitor and the country", async () => {
    const app = await buildApp({ config: { ...ctx.config, VISIT_IP: "none" }, prisma: ctx.prisma });
    try {
      const row = await visitFrom(app, "8.8.8.8");
      expect([row.ipAddress, row.country]).toEqual(["", "US"]);
      expect(row.visitor).not.toBeNull();
    } finally {
      await app.close();
    }
  });

  it("refuses any other value at start", async () => {
    const { loadConfig } = await import("../src/config.ts");
    expect(() => loadConfig({ VISIT_IP: "partial" })).toThrow(/VISIT_IP.*full, anonymized, none.*partial/s);
  });
});

describe("the enrichment's pure parts", () => {
  it.each([
    ["192.168.1.77", "192.168.1.0"],
    ["::ffff:10.1.2.3", "10.1.2.0"],
    ["2001:db8::1", "2001:db8:0::"],
    ["2001:0db8:85a3:0000:0000:8a2e:0370:7334", "2001:db8:85a3::"],
    ["::1", "0:0:0::"],
    ["not an ip", ""],
  ])("anonymizes %s as %s", (ip, network) => {
    expect(anonymizeIp(ip)).toBe(network);
  });

  it("finds countries for IPv4 and IPv6, none for private or bad addresses", () => {
    expect(countryOf("8.8.8.8")).toBe("US");
    expect(countryOf("2a00:1450:4001:80b::200e")).toBe("IE");
    expect(countryOf("10.0.0.1")).toBe("");
    expect(countryOf("garbage")).toBe("");
    // How a dual-stack listener (HOST=::) sees every IPv4 client: "" before.
    expect(countryOf("::ffff:8.8.8.8")).toBe("US");
    expect(countryOf("::FFFF:81.2.69.160")).toBe("GB");
  });

  it("hashes the visitor as it always did: the first 8 bytes of SHA-256(salt, address, newline, agent), signed", () => {
    // Instances of two versions share a day's salt during a rolling deploy: the same visitor must
    // get the same value from both, or the day counts it twice.
    const enricher = new VisitEnricher("full");
    const salt = randomBytes(32);
    const agents = ["Mozilla/5.0", "", "Ünïcödé 🚀 agent", "x".repeat(1024), "😀".repeat(512)];
    for (const [ipAddress, userAgent] of agents.flatMap((agent) => [
      ["203.0.113.7", agent],
      ["2001:db8::1", agent],
    ]) as [string, string][]) {
      const expected = createHash("sha256")
        .update(salt)
        .update(ipAddress)
        .update("\n")
        .update(userAgent)
        .digest()
        .readBigInt64BE(0)
        .toString();
      expect(enricher.enrich({ ipAddress, userAgent, referer: "" }, salt).visitor).toBe(expected);
      // Again from the enricher's memo of the day's hashes: the same value.
      expect(enricher.enrich({ ipAddress, userAgent, referer: "" }, salt).visitor).toBe(expected);
    }
  });

  it("hashes a visitor anew under the next day's salt (the memo of hashes is the salt's)", () => {
    const enricher = new VisitEnricher("full");
    const visit = { ipAddress: "203.0.113.7", userAgent: "Mozilla/5.0", referer: "" };
    const [today, tomorrow] = [randomBytes(32), randomBytes(32)];
    const first = enricher.enrich(visit, today).visitor;
    const next = enricher.enrich(visit, tomorrow).visitor;
    expect(next).not.toBe(first);
    expect(next).toBe(
      createHash("sha256")
        .update(tomorrow)
        .update("203.0.113.7\nMozilla/5.0")
        .digest()
        .readBigInt64BE(0)
        .toString(),
    );
    // A late visit of the day before (just after midnight) is hashed under its own salt again.
    expect(enricher.enrich(visit, today).visitor).toBe(first);
  });

  it("writes a batch's times as the UTC milliseconds they are, each distinct time once", () => {
    const times = [0, 0, 1, 1, 1, 86_400_000, 0].map((ms) => new Date(Date.UTC(2026, 10, 28) + ms));
    expect(timeArray(times)).toBe(`{${times.map((time) => time.toISOString()).join(",")}}`);
    expect(timeArray([])).toBe("{}");
  });

  it("takes the referrer's host in lower case, nothing from a non-URL", () => {
    expect(referrerHostOf("https://WWW.Example.com:8443/path?q")).toBe("www.example.com");
    expect(referrerHostOf("android-app://com.google.android.gm/")).toBe("com.google.android.gm");
    expect(referrerHostOf("not a url")).toBe("");
    expect(referrerHostOf("")).toBe("");
  });
});
