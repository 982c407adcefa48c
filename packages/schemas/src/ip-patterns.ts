// The ip-address condition of a redirect rule (Shlink's): a static address, a CIDR block, or an
// IPv4 wildcard pattern. Parsed here without node:net, so the schemas stay usable anywhere; the
// redirect compiles the parsed form once per cached short (apps/shortener/src/shorts/redirect-rules.ts).

export type IpPattern =
  | { kind: "cidr"; family: "ipv4" | "ipv6"; address: string; prefix: number }
  /** IPv4 octets, null where the pattern has `*`. */
  | { kind: "wildcard"; octets: (number | null)[] };

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A dotted IPv4 address's octets, or undefined. */
export function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => OCTET.test(part))) return undefined;
  return parts.map(Number);
}

/** The IPv6 address in its canonical text (as the URL parser writes it), or undefined. */
function ipv6Text(text: string): string | undefined {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(":")) return undefined;
  try {
    const host = new URL(`http://[${text}]/`).hostname;
    return host.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** `value` as an IpPattern, or undefined when it is none (an invalid address, prefix or wildcard). */
export function parseIpPattern(value: string): IpPattern | undefined {
  if (value.includes("*")) {
    const parts = value.split(".");
    if (parts.length !== 4) return undefined;
    const octets = parts.map((part) => (part === "*" ? null : OCTET.test(part) ? Number(part) : undefined));
    return octets.includes(undefined) ? undefined : { kind: "wildcard", octets: octets as (number | null)[] };
  }
  const slash = value.indexOf("/");
  const address = slash === -1 ? value : value.slice(0, slash);
  const prefixText = slash === -1 ? undefined : value.slice(slash + 1);
  if (prefixText !== undefined && !/^(?:0|[1-9]\d{0,2})$/.test(prefixText)) return undefined;
  if (ipv4Octets(address)) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    return prefix <= 32 ? { kind: "cidr", family: "ipv4", address, prefix } : undefined;
  }
  const v6 = ipv6Text(address);
  if (v6 === undefined) return undefined;
  const prefix = prefixText === undefined ? 128 : Number(prefixText);
  return prefix <= 128 ? { kind: "cidr", family: "ipv6", address: v6, prefix } : undefined;
}
