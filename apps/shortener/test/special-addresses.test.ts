// The special-purpose ranges of IANA's registries (RFC 6890 and its updates) have no country:
// each range's first and last address and one inside, its neighbours outside, and every form an
// IPv6 address is written in.
import { describe, expect, it } from "vitest";
import { isSpecialPurpose } from "../src/visits/special-addresses.ts";
import { countryOf } from "../src/visits/visit-enrichment.ts";

/** Each range: its first address, one inside, its last address. */
const IPV4: [string, string, string, string][] = [
  ["0.0.0.0/8 this network", "0.0.0.0", "0.1.2.3", "0.255.255.255"],
  ["10.0.0.0/8 private use", "10.0.0.0", "10.1.2.3", "10.255.255.255"],
  ["100.64.0.0/10 shared address space", "100.64.0.0", "100.100.1.1", "100.127.255.255"],
  ["127.0.0.0/8 loopback", "127.0.0.0", "127.0.0.1", "127.255.255.255"],
  ["169.254.0.0/16 link local", "169.254.0.0", "169.254.169.254", "169.254.255.255"],
  ["172.16.0.0/12 private use", "172.16.0.0", "172.16.5.4", "172.31.255.255"],
  ["192.0.0.0/24 IETF protocol assignments", "192.0.0.0", "192.0.0.170", "192.0.0.255"],
  ["192.0.2.0/24 TEST-NET-1", "192.0.2.0", "192.0.2.44", "192.0.2.255"],
  ["192.31.196.0/24 AS112-v4", "192.31.196.0", "192.31.196.1", "192.31.196.255"],
  ["192.52.193.0/24 AMT", "192.52.193.0", "192.52.193.1", "192.52.193.255"],
  ["192.88.99.0/24 6to4 relay anycast", "192.88.99.0", "192.88.99.1", "192.88.99.255"],
  ["192.168.0.0/16 private use", "192.168.0.0", "192.168.1.5", "192.168.255.255"],
  ["192.175.48.0/24 AS112 direct delegation", "192.175.48.0", "192.175.48.6", "192.175.48.255"],
  ["198.18.0.0/15 benchmarking", "198.18.0.0", "198.19.1.1", "198.19.255.255"],
  ["198.51.100.0/24 TEST-NET-2", "198.51.100.0", "198.51.100.7", "198.51.100.255"],
  ["203.0.113.0/24 TEST-NET-3", "203.0.113.0", "203.0.113.9", "203.0.113.255"],
  ["224.0.0.0/4 multicast", "224.0.0.0", "239.1.2.3", "239.255.255.255"],
  ["240.0.0.0/4 reserved", "240.0.0.0", "250.1.2.3", "255.255.255.254"],
  ["255.255.255.255/32 limited broadcast", "255.255.255.255", "255.255.255.255", "255.255.255.255"],
];

const IPV6: [string, string, string, string][] = [
  ["::/128 unspecified", "::", "0:0:0:0:0:0:0:0", "::"],
  ["::1/128 loopback", "::1", "0000:0000:0000:0000:0000:0000:0000:0001", "::1"],
  ["64:ff9b::/96 IPv4-IPv6 translation", "64:ff9b::", "64:ff9b::8.8.8.8", "64:ff9b::ffff:ffff"],
  [
    "64:ff9b:1::/48 local-use translation",
    "64:ff9b:1::",
    "64:ff9b:1::808:808",
    "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
  ],
  ["100::/64 discard-only", "100::", "100::1", "100::ffff:ffff:ffff:ffff"],
  ["100:0:0:1::/64 dummy prefix", "100:0:0:1::", "100:0:0:1::1", "100:0:0:1:ffff:ffff:ffff:ffff"],
  ["2001::/23 IETF protocol assignments", "2001::", "2001:2::1", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff"],
  [
    "2001::/32 Teredo",
    "2001::",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001::ffff:ffff:ffff:ffff:ffff:ffff",
  ],
  ["2001:1::1/128 PCP anycast", "2001:1::1", "2001:1::1", "2001:1::1"],
  ["2001:1::2/128 TURN anycast", "2001:1::2", "2001:1::2", "2001:1::2"],
  ["2001:1::3/128 DNS-SD SRP anycast", "2001:1::3", "2001:1::3", "2001:1::3"],
  ["2001:2::/48 benchmarking", "2001:2::", "2001:2:0:1::1", "2001:2:0:ffff:ffff:ffff:ffff:ffff"],
  ["2001:3::/32 AMT", "2001:3::", "2001:3::1", "2001:3:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:4:112::/48 AS112-v6", "2001:4:112::", "2001:4:112::1", "2001:4:112:ffff:ffff:ffff:ffff:ffff"],
  ["2001:10::/28 ORCHID", "2001:10::", "2001:10::1", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:20::/28 ORCHIDv2", "2001:20::", "2001:20::1", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:30::/28 drone DETs", "2001:30::", "2001:30::1", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2001:db8::/32 documentation", "2001:db8::", "2001:DB8::1", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["2002::/16 6to4", "2002::", "2002:c0a8:105::1", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  [
    "2620:4f:8000::/48 AS112 direct delegation",
    "2620:4f:8000::",
    "2620:4f:8000::1",
    "2620:4f:8000:ffff:ffff:ffff:ffff:ffff",
  ],
  ["3fff::/20 documentation", "3fff::", "3fff:123::1", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["5f00::/16 SRv6 SIDs", "5f00::", "5f00::1", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["fc00::/7 unique local", "fc00::", "fd12:3456:789a::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["fe80::/10 link local", "fe80::", "fe80::1%eth0", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["ff00::/8 multicast", "ff00::", "FF02::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  // Outside 2000::/3 IANA gives no space to the registries.
  [
    "::/8 reserved (IPv4-compatible, deprecated)",
    "::2",
    "::8.8.8.8",
    "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
  ],
  ["4000::/2 reserved", "4000::", "4000::1", "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  ["fec0::/10 site local (deprecated)", "fec0::", "fec0::1", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
];

/** ::ffff:0:0/96: each IPv4 address as the IPv4 rule says, however it is written. */
const MAPPED: [string, boolean][] = [
  ["::ffff:172.16.5.4", true],
  ["::FFFF:192.168.1.5", true],
  ["::ffff:ac10:504", true],
  ["0:0:0:0:0:ffff:c0a8:0105", true],
  ["::ffff:127.0.0.1", true],
  ["::ffff:0.0.0.0", true],
  ["::ffff:203.0.113.9", true],
  ["::ffff:255.255.255.255", true],
  ["::ffff:8.8.8.8", false],
  ["::ffff:808:808", false],
  ["::ffff:81.2.69.160", false],
];

/** Public addresses, each just outside a range above (or far from any). */
const ORDINARY = [
  "1.0.0.0",
  "8.8.8.8",
  "9.255.255.255",
  "11.0.0.0",
  "100.63.255.255",
  "100.128.0.0",
  "126.255.255.255",
  "128.0.0.0",
  "169.253.255.255",
  "169.255.0.0",
  "172.15.255.255",
  "172.32.0.0",
  "191.255.255.255",
  "192.0.1.0",
  "192.0.1.255",
  "192.0.3.0",
  "192.31.195.255",
  "192.31.197.0",
  "192.52.192.255",
  "192.52.194.0",
  "192.88.98.255",
  "192.88.100.0",
  "192.167.255.255",
  "192.169.0.0",
  "192.175.47.255",
  "192.175.49.0",
  "198.17.255.255",
  "198.20.0.0",
  "198.51.99.255",
  "198.51.101.0",
  "203.0.112.255",
  "203.0.114.0",
  "223.255.255.255",
  "2000::",
  "2001:200::",
  "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff",
  "2001:db9::",
  "2001:4860:4860::8888",
  "2003::",
  "2001:ffff::1",
  "2620:4f:7fff:ffff:ffff:ffff:ffff:ffff",
  "2620:4f:8001::",
  "2a00:1450:4001:80b::200e",
  "3000::1",
  "3ffe::1",
  "3fff:1000::",
  "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
];

describe("special-purpose addresses", () => {
  it.each([...IPV4, ...IPV6])(
    "%s: its first, an inner and its last address, none with a country",
    (_, ...addresses) => {
      for (const ip of addresses) {
        expect(isSpecialPurpose(ip), ip).toBe(true);
        expect(countryOf(ip), ip).toBe("");
      }
    },
  );

  it("::ffff:0:0/96 is an IPv4 address, however it is written", () => {
    for (const [ip, special] of MAPPED) expect(isSpecialPurpose(ip), ip).toBe(special);
    for (const [ip] of MAPPED.filter(([, special]) => special)) expect(countryOf(ip), ip).toBe("");
  });

  it("an address next to a range is not in it", () => {
    for (const ip of ORDINARY) expect(isSpecialPurpose(ip), ip).toBe(false);
  });

  it("a country from the database, none for an address outside every range it has, none for a string that is no address", () => {
    expect(countryOf("8.8.8.8")).toBe("US");
    expect(countryOf("::ffff:81.2.69.160")).toBe("GB");
    expect(countryOf("2a00:1450:4001:80b::200e")).toBe("IE");
    // Global unicast space IANA has given to no registry yet: the database has no range for it.
    expect(countryOf("3000::1")).toBe("");
    for (const text of ["", "garbage", "1.2.3", "256.1.1.1", "::ffff:1.2.3.4.5", "1:2:3:4:5:6:7:8:9"]) {
      expect(isSpecialPurpose(text), text).toBe(false);
      expect(countryOf(text), text).toBe("");
    }
  });
});
