// Which target a visit of a short with redirect rules goes to (docs/adr/0232): the first rule
// whose conditions all hold, else the short's url. Pure functions of the rules and what the
// request says of its visitor; each fact (user agent, country, languages) is worked out only
// when a condition asks for it, and once per visit.
import { BlockList } from "node:net";
import { ipv4Octets, parseIpPattern, type RedirectCondition, ruleInstant } from "@app/schemas/shortener";

/** A rule as stored (the API's RedirectRule, its url normalized). */
export interface StoredRule {
  url: string;
  conditions: RedirectCondition[];
}

/** A short's rules as the redirect holds them in its cache entry. */
export interface CompiledRules {
  rules: StoredRule[];
  /** Every language the rules name, lower case: what Accept-Language is read against. */
  languages: string[];
  /** Each ip-address condition's matcher, and each date condition's instant, made once per entry. */
  addresses: Map<RedirectCondition, (ip: string) => boolean>;
  instants: Map<RedirectCondition, number>;
}

/** What the redirect knows of the visitor; each asked for at most once per visit. */
export interface VisitorFacts {
  /** The user agent as the visit enrichment parses it. */
  agent(): VisitorAgent;
  /** The visitor's full address. */
  ip(): string;
  /** ISO 3166-1 alpha-2 of the full address, "" when unknown. */
  country(): string;
  acceptLanguage(): string | undefined;
  /** The values of a query parameter, in order ([] when absent). */
  query(param: string): readonly string[];
}

/**
 * Where the visit goes, and the rule that sent it: 1 is the first; null: the short's url;
 * undefined: the short has no rules (its visits are not counted by rule).
 */
export interface RuleChoice {
  url: string;
  rule?: number | null;
}

/** What the rules read of a user agent (visit-enrichment.ts's Agent). */
export interface VisitorAgent {
  os: string;
  browser: string;
  handheld: boolean;
  isBot: boolean;
}

/** The rules as stored (jsonb) made ready for the redirect; undefined when there are none. */
export function compileRules(stored: unknown): CompiledRules | undefined {
  if (!Array.isArray(stored) || stored.length === 0) return undefined;
  const rules = stored as StoredRule[];
  const languages = new Set<string>();
  const addresses = new Map<RedirectCondition, (ip: string) => boolean>();
  const instants = new Map<RedirectCondition, number>();
  for (const rule of rules) {
    for (const condition of rule.conditions) {
      if (condition.type === "language") languages.add(condition.value.toLowerCase());
      else if (condition.type === "ip-address") addresses.set(condition, addressMatcher(condition.value));
      else if (condition.type === "before-date" || condition.type === "after-date") {
        // Validated when stored; an unreadable one holds never.
        instants.set(condition, ruleInstant(condition.value) ?? Number.NaN);
      }
    }
  }
  return { rules, languages: [...languages], addresses, instants };
}

/** An address written as IPv4 inside IPv6 (::ffff:1.2.3.4), as a dual-stack socket gives it, as IPv4. */
const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * Whether a visitor's address matches an ip-address condition's value: the address itself, its
 * CIDR block, or (IPv4) its wildcard pattern, whose `*` octets match any (Shlink's rules).
 */
export function addressMatcher(value: string): (ip: string) => boolean {
  const pattern = parseIpPattern(value);
  if (!pattern) return () => false;
  if (pattern.kind === "wildcard") {
    return (ip) => {
      const octets = ipv4Octets(MAPPED_V4.exec(ip)?.[1] ?? ip);
      return (
        octets !== undefined && pattern.octets.every((octet, i) => octet === null || octet === octets[i])
      );
    };
  }
  const list = new BlockList();
  list.addSubnet(pattern.address, pattern.prefix, pattern.family);
  return (ip) => {
    const v4 = MAPPED_V4.exec(ip)?.[1];
    try {
      return v4 !== undefined ? list.check(v4, "ipv4") : list.check(ip, ip.includes(":") ? "ipv6" : "ipv4");
    } catch {
      // Not an address (a test's or a proxy's odd value): it matches nothing.
      return false;
    }
  };
}

/** ua-parser's browser names of each browser value (Shlink's). */
const BROWSERS: Record<string, string> = {
  Chrome: "chrome",
  "Mobile Chrome": "chrome",
  "Chrome Headless": "chrome",
  "Chrome WebView": "chrome",
  Chromium: "chrome",
  Firefox: "firefox",
  "Mobile Firefox": "firefox",
  Edge: "edge",
  Safari: "safari",
  "Mobile Safari": "safari",
  Opera: "opera",
  "Opera Mobi": "opera",
  "Opera Mini": "opera",
  "Opera Touch": "opera",
  "Opera GX": "opera",
  "Android Browser": "android_browser",
};

/** The browser value (REDIRECT_BROWSERS) of a user agent's browser name; "" for any other. */
export const browserOf = (name: string): string => BROWSERS[name] ?? "";

/**
 * ios: iOS or iPadOS (an iPhone, iPad or iPod user agent); android: Android; mobile: a phone or
 * a tablet of any system (ua-parser's type, or iOS or Android); desktop: none of these, and not
 * a bot.
 */
export function deviceMatches(
  device: Extract<RedirectCondition, { type: "device" }>["value"],
  agent: VisitorAgent,
): boolean {
  const ios = agent.os === "iOS";
  const android = agent.os === "Android";
  const mobile = agent.handheld || ios || android;
  const desktop = !mobile && !agent.isBot;
  switch (device) {
    case "ios":
      return ios;
    case "android":
      return android;
    case "mobile":
      return mobile;
    case "desktop":
      return desktop;
    // A desktop's system (Shlink's): never a phone or tablet, whatever its system says.
    case "windows":
      return desktop && agent.os === "Windows";
    case "macos":
      return desktop && (agent.os === "macOS" || agent.os === "Mac OS");
    case "chromeos":
      return desktop && (agent.os === "Chrome OS" || agent.os === "Chromium OS");
    case "linux":
      return desktop && LINUX.has(agent.os);
  }
}

/** ua-parser's names of Linux and its distributions (Android and Chrome OS are their own values). */
const LINUX = new Set([
  "Linux",
  "Ubuntu",
  "Debian",
  "Fedora",
  "Arch",
  "Mint",
  "Gentoo",
  "Kubuntu",
  "Xubuntu",
  "Lubuntu",
  "Mandriva",
  "Red Hat",
  "CentOS",
  "SUSE",
  "openSUSE",
  "Slackware",
  "Manjaro",
  "elementary OS",
  "Zenwalk",
]);

/** Entries read from one header at most: a real one names a handful. */
const MAX_LANGUAGE_ENTRIES = 50;
const LANGUAGE_RANGE = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The language ranges of an Accept-Language header (RFC 9110 §12.5.4), lower case, most wanted
 * first: by q-value, then in the header's order. Ranges with q=0 (not acceptable), `*` and
 * malformed entries are left out.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const entries: { range: string; q: number; at: number }[] = [];
  const parts = header.split(",", MAX_LANGUAGE_ENTRIES);
  for (let at = 0; at < parts.length; at++) {
    const [rawRange = "", ...parameters] = parts[at]!.split(";");
    const range = rawRange.trim().toLowerCase();
    if (!LANGUAGE_RANGE.test(range)) continue;
    let q = 1;
    for (const parameter of parameters) {
      const text = parameter.trim().toLowerCase();
      if (!text.startsWith("q=")) continue;
      const valid = QUALITY.exec(text);
      q = valid ? Number(valid[1]) : 0;
    }
    if (q > 0) entries.push({ range, q, at });
  }
  return entries.sort((a, b) => b.q - a.q || a.at - b.at).map((entry) => entry.range);
}

/** A rule's language (lower case) matches itself and its subtags: de matches de and de-CH. */
export function languageMatches(language: string, accepted: string): boolean {
  return accepted === language || (accepted.startsWith(language) && accepted[language.length] === "-");
}

/**
 * The visitor's language among those the rules name: the first accepted entry that one of them
 * matches (undefined when none does).
 */
export function preferredLanguage(
  accepted: readonly string[],
  languages: readonly string[],
): string | undefined {
  return accepted.find((entry) => languages.some((language) => languageMatches(language, entry)));
}

/** The first rule whose conditions all hold, else the default url. */
export function chooseTarget(
  defaultUrl: string,
  compiled: CompiledRules,
  visitor: VisitorFacts,
): { url: string; rule: number | null } {
  let agent: ReturnType<VisitorFacts["agent"]> | undefined;
  let country: string | undefined;
  let language: string | null | undefined;
  const holds = (condition: RedirectCondition): boolean => {
    switch (condition.type) {
      case "device":
        agent ??= visitor.agent();
        return deviceMatches(condition.value, agent);
      case "country":
        country ??= visitor.country();
        return country === condition.value;
      case "language":
        if (language === undefined) {
          language =
            preferredLanguage(acceptedLanguages(visitor.acceptLanguage()), compiled.languages) ?? null;
        }
        return language !== null && languageMatches(condition.value.toLowerCase(), language);
      case "query":
        return visitor.query(condition.param).includes(condition.value);
      case "any-value-query-param":
        return visitor.query(condition.param).length > 0;
      case "valueless-query-param":
        return visitor.query(condition.param).includes("");
      case "ip-address":
        return compiled.addresses.get(condition)?.(visitor.ip()) ?? false;
      case "before-date":
        return Date.now() < (compiled.instants.get(condition) ?? Number.NaN);
      case "after-date":
        return Date.now() > (compiled.instants.get(condition) ?? Number.NaN);
      case "browser":
        agent ??= visitor.agent();
        return browserOf(agent.browser) === condition.value;
    }
  };
  for (let i = 0; i < compiled.rules.length; i++) {
    const rule = compiled.rules[i]!;
    if (rule.conditions.every(holds)) return { url: rule.url, rule: i + 1 };
  }
  return { url: defaultUrl, rule: null };
}
