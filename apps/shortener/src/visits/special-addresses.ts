// The special-purpose address ranges of IANA's registries (RFC 6890 and the RFCs that updated
// them): an address in one belongs to no country, whatever the IP-to-country database says of
// it. It says AU for 172.16.0.0/12, 192.168.0.0/16, 198.51.100.0/24 and 203.0.113.0/24 and JP
// for 2001:db8::/32 (the whois records of the registries that hold those blocks), so it is not
// asked about them (docs/adr/0242). Checked once per distinct address (the enricher's memo),
// on tables built here at load, without allocating.
import { isIP } from "node:net";

/** IANA's IPv4 Special-Purpose Address Registry, and multicast (RFC 5771). */
const IPV4_RANGES = [
  "0.0.0.0/8", // "this network" (RFC 791)
  "10.0.0.0/8", // private use (RFC 1918)
  "100.64.0.0/10", // shared address space: carrier-grade NAT (RFC 6598)
  "127.0.0.0/8", // loopback (RFC 1122)
  "169.254.0.0/16", // link local (RFC 3927)
  "172.16.0.0/12", // private use (RFC 1918)
  "192.0.0.0/24", // IETF protocol assignments: DS-Lite, PCP and TURN anycast, NAT64 discovery (RFC 6890)
  "192.0.2.0/24", // documentation, TEST-NET-1 (RFC 5737)
  "192.31.196.0/24", // AS112-v4 anycast (RFC 7535)
  "192.52.193.0/24", // AMT anycast (RFC 7450)
  "192.88.99.0/24", // the former 6to4 relay anycast (RFC 7526)
  "192.168.0.0/16", // private use (RFC 1918)
  "192.175.48.0/24", // direct delegation AS112 service (RFC 7534)
  "198.18.0.0/15", // benchmarking (RFC 2544)
  "198.51.100.0/24", // documentation, TEST-NET-2 (RFC 5737)
  "203.0.113.0/24", // documentation, TEST-NET-3 (RFC 5737)
  "224.0.0.0/4", // multicast (RFC 5771)
  "240.0.0.0/4", // reserved (RFC 1112), with the limited broadcast 255.255.255.255/32 (RFC 919)
];

/**
 * IANA's IPv6 Special-Purpose Address Registry, its ranges inside 2000::/3. Every address outside
 * 2000::/3 is special too (below): ::/128, ::1/128, 64:ff9b::/96 (RFC 6052), 64:ff9b:1::/48
 * (RFC 8215), 100::/64 (RFC 6666), 100:0:0:1::/64 (RFC 9780), 5f00::/16 (RFC 9602), fc00::/7
 * (RFC 4193), fe80::/10 (RFC 4291), ff00::/8 (multicast), and the rest IANA's IPv6 Address Space
 * registry reserves; ::ffff:0:0/96 is an IPv4 address, checked as one.
 */
const IPV6_RANGES = [
  // IETF protocol assignments (RFC 2928): Teredo 2001::/32, PCP, TURN and DNS-SD anycast
  // 2001:1::1-3, benchmarking 2001:2::/48, AMT 2001:3::/32, AS112-v6 2001:4:112::/48, ORCHID
  // 2001:10::/28, ORCHIDv2 2001:20::/28, drone DETs 2001:30::/28.
  "2001::/23",
  "2001:db8::/32", // documentation (RFC 3849)
  // 6to4 (RFC 3056): the IPv4 address inside is the 6to4 router's, and 6to4 is all but gone
  // (RFC 7526); the database has no country for it either.
  "2002::/16",
  "2620:4f:8000::/48", // direct delegation AS112 service (RFC 7534)
  "3fff::/20", // documentation (RFC 9637)
];

/** A valid dotted IPv4 address (from `from` to `to` in `text`) as an unsigned 32-bit number. */
function ipv4Number(text: string, from: number, to: number): number {
  let value = 0;
  let octet = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + c - 48;
  }
  return (value * 256 + octet) >>> 0;
}

/**
 * A valid IPv6 address's eight groups into `out`: "::" expanded, a dotted IPv4 tail as the last
 * two groups, a zone (%eth0) ignored.
 */
function readIpv6(text: string, out: Uint16Array): void {
  const zone = text.indexOf("%");
  const end = zone < 0 ? text.length : zone;
  let count = 0;
  let gap = -1;
  let group = 0;
  let digits = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      if (digits > 0) out[count++] = group;
      group = 0;
      digits = 0;
      if (text.charCodeAt(i + 1) === 58) {
        gap = count;
        i++;
      }
    } else if (c === 46) {
      // The digits read so far were the IPv4 tail's first octet: read it whole.
      const v4 = ipv4Number(text, i - digits, end);
      out[count++] = v4 >>> 16;
      out[count++] = v4 & 0xffff;
      digits = 0;
      break;
    } else {
      group = group * 16 + (c <= 57 ? c - 48 : (c | 32) - 87);
      digits++;
    }
  }
  if (digits > 0) out[count++] = group;
  if (gap >= 0) {
    const shift = 8 - count;
    for (let i = count - 1; i >= gap; i--) out[i + shift] = out[i]!;
    out.fill(0, gap, gap + shift);
  }
}

const IPV4_BASES = new Uint32Array(IPV4_RANGES.length);
const IPV4_MASKS = new Uint32Array(IPV4_RANGES.length);
IPV4_RANGES.forEach((range, i) => {
  const [address = "", length = ""] = range.split("/");
  const mask = Number(length) === 0 ? 0 : (0xffffffff << (32 - Number(length))) >>> 0;
  IPV4_MASKS[i] = mask;
  IPV4_BASES[i] = (ipv4Number(address, 0, address.length) & mask) >>> 0;
});

/** Each IPv6 range as eight masked groups, and its mask's eight groups. */
const IPV6_PREFIXES = new Uint16Array(IPV6_RANGES.length * 8);
const IPV6_MASKS = new Uint16Array(IPV6_RANGES.length * 8);
IPV6_RANGES.forEach((range, r) => {
  const [address = "", length = ""] = range.split("/");
  const groups = new Uint16Array(8);
  readIpv6(address, groups);
  for (let g = 0, bits = Number(length); g < 8; g++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : bits <= 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
    IPV6_MASKS[r * 8 + g] = mask;
    IPV6_PREFIXES[r * 8 + g] = groups[g]! & mask;
  }
});

function specialIpv4(address: number): boolean {
  for (let i = 0; i < IPV4_BASES.length; i++) {
    if ((address & IPV4_MASKS[i]!) >>> 0 === IPV4_BASES[i]) return true;
  }
  return false;
}

/** The groups of the IPv6 address being checked (checks run one at a time). */
const groups = new Uint16Array(8);

function specialIpv6(text: string): boolean {
  readIpv6(text, groups);
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0) {
    // ::ffff:0:0/96, an IPv4 address as a dual-stack listener or a proxy writes it.
    if (groups[5] === 0xffff) return specialIpv4(((groups[6]! << 16) | groups[7]!) >>> 0);
  }
  // Outside 2000::/3, the only space IANA gives to the registries: nothing has a country.
  if ((groups[0]! & 0xe000) !== 0x2000) return true;
  for (let r = 0; r < IPV6_RANGES.length; r++) {
    let inside = true;
    for (let g = 0; g < 8 && inside; g++) {
      inside = (groups[g]! & IPV6_MASKS[r * 8 + g]!) === IPV6_PREFIXES[r * 8 + g];
    }
    if (inside) return true;
  }
  return false;
}

/**
 * Whether `ip` is in a special-purpose range (private, loopback, link-local, documentation,
 * benchmarking, multicast, reserved…) and so has no country; false for a string that is no address.
 */
export function isSpecialPurpose(ip: string, family: number = isIP(ip)): boolean {
  if (family === 4) return specialIpv4(ipv4Number(ip, 0, ip.length));
  if (family === 6) return specialIpv6(ip);
  return false;
}
