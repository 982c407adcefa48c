// Management commands: `pnpm -s shortener <command> ...` (`--help` lists them). The shared
// runner (@app/server/cli) parses, opens the database once the flags are valid, and exits 0, 1
// or 2 (a CredentialError is the command failing: exit 1, its message on stderr). This file
// only parses flags and prints: users and tokens are credentials.ts's, domains domains/domain-registry.ts's.
import { fileURLToPath } from "node:url";
import { DomainHost, StatsQuery, TargetUrl } from "@app/schemas/shortener";
import { type Command, CommandError, flag, runCliProcess, table, UsageError, when } from "@app/server/cli";
import { z } from "zod";
import { loadConfig, type ShortenerConfig } from "./config.ts";
import { createToken, createUser, listTokens, listUsers, revokeToken, UserExists } from "./credentials.ts";
import { DEFAULT_DOMAIN, hostOf } from "./default-domain.ts";
import {
  addDomain,
  assignDomain,
  type DomainListing,
  listDomains,
  removeDomain,
  setDomainRedirects,
  unassignDomain,
} from "./domains/domain-registry.ts";
import { DomainsService } from "./domains/domains.service.ts";
import { BadRequest } from "./errors.ts";
import { readExport } from "./imports/export-formats.ts";
import { Importer } from "./imports/importer.ts";
import { IMPORT_SOURCES } from "./imports/source-link.ts";
import { reservedNames } from "./reserved-names.ts";
import { scryptHasher } from "./shorts/password-hash.ts";
import { ShortsService } from "./shorts/shorts.service.ts";
import { orphanVisitsByDomain } from "./stats/orphan-stats.ts";
import { statsRange } from "./stats/stats.service.ts";
import { VisitLog } from "./visits/visit-log.ts";
import { VisitMaintenance } from "./visits/visit-maintenance.ts";

// Checked here for a usage error (exit 2); an e-mail address is credentials.ts's to refuse (exit 1).
const nonEmpty = (name: string) => z.string().min(1, `--${name} must not be empty`);
const note = z.string().max(255, "--note must be at most 255 characters");
const tokenId = z.uuid("--id must be a token id from token:list");
const domainFlag = { type: "string", description: "The domain's host name, e.g. links.example.com" } as const;
const userFlag = { type: "string", description: "A user's e-mail address" } as const;
const redirectFlags = {
  "root-url": { type: "string", description: 'Where GET / on the domain redirects ("" removes it)' },
  "not-found-url": {
    type: "string",
    description: 'Where a name no short of the domain has redirects ("" removes it)',
  },
} as const;
/** A redirect flag: a URL, "" to remove it (null), absent to keep it (undefined). */
const redirectUrl = (values: Record<string, string | boolean | undefined>, name: string) =>
  values[name] === "" ? null : flag(TargetUrl, values, name);

/** The first few of a top list, as `value (visits)`. */
const firstOf = (values: { value: string; visits: number }[], most = 5) =>
  values
    .slice(0, most)
    .map((v) => `${v.value === "" ? '""' : v.value} (${v.visits})`)
    .join(", ");
const importSource = z.enum(IMPORT_SOURCES, { error: `--from must be one of ${IMPORT_SOURCES.join(", ")}` });

const TOOL = "pnpm -s shortener";

const domainLine = (d: DomainListing) =>
  `${d.host}: ${d.users.length === 0 ? "open to every user" : `assigned to ${d.users.join(", ")}`}`;

const commands: Record<string, Command<ShortenerConfig>> = {
  "user:create": {
    summary: "Create a user and its first bearer token (shown once)",
    usage: "--email <e-mail> [--json]",
    options: { email: { type: "string", description: "The user's e-mail address (their username)" } },
    prepare(values) {
      const email = flag(nonEmpty("email"), values, "email", true);
      return async (prisma) => {
        const user = await createUser(prisma, email).catch((error: unknown) => {
          // Run twice (the README's tour again): what the person wants is most likely a token.
          if (error instanceof UserExists) {
            throw new CommandError(
              `${error.message} (a further token for it: ${TOOL} token:create --email ${email})`,
            );
          }
          throw error;
        });
        return {
          json: user,
          text: `created user ${user.username} (id ${user.id}); bearer token, shown only now: ${user.token}`,
        };
      };
    },
  },
  "user:list": {
    summary: "List the users, oldest first",
    usage: "[--json]",
    options: {},
    prepare() {
      return async (prisma) => {
        const users = await listUsers(prisma);
        return {
          json: users,
          text: table(
            ["ID", "USERNAME", "CREATED", "TOKENS", "SHORTS"],
            users.map((u) => [u.id, u.username, when(u.createdAt), u.tokens, u.shorts]),
          ),
        };
      };
    },
  },
  "token:create": {
    summary: "Give a user a further bearer token (shown once)",
    usage: "--email <e-mail> [--note <text>] [--json]",
    options: {
      email: { type: "string", description: "The user's e-mail address" },
      note: { type: "string", description: "What the token is for (at most 255 characters)" },
    },
    prepare(values) {
      const email = flag(nonEmpty("email"), values, "email", true);
      const text = flag(note, values, "note") ?? null;
      return async (prisma) => {
        const { id, token } = await createToken(prisma, email, text);
        return { json: { id, token }, text: `new bearer token ${id}, shown only now: ${token}` };
      };
    },
  },
  "token:list": {
    summary: "List tokens (id, note, created, last used), never the secret",
    usage: "[--email <e-mail>] [--json]",
    options: { email: { type: "string", description: "Only this user's tokens" } },
    prepare(values) {
      const email = flag(nonEmpty("email"), values, "email");
      return async (prisma) => {
        const tokens = await listTokens(prisma, email);
        return {
          json: tokens,
          text: table(
            ["ID", "USERNAME", "NOTE", "CREATED", "LAST USED"],
            tokens.map((t) => [t.id, t.username, t.note, when(t.createdAt), when(t.lastUsedAt)]),
          ),
        };
      };
    },
  },
  "token:revoke": {
    summary: "Revoke a token at once, by its id (from token:list) or by the token itself",
    usage: "(--id <id> | --token <token>) [--json]",
    options: {
      id: { type: "string", description: "The token's id, as token:list shows it" },
      token: { type: "string", description: "The token itself" },
    },
    prepare(values) {
      if ((values.id === undefined) === (values.token === undefined))
        throw new UsageError("give exactly one of --id and --token");
      const id = flag(tokenId, values, "id");
      const token = flag(nonEmpty("token"), values, "token");
      return async (prisma) => {
        await revokeToken(prisma, id !== undefined ? { id } : { token: token! });
        return { json: { revoked: true }, text: "token revoked" };
      };
    },
  },
  "domain:add": {
    summary: "Register a domain shorts can live on (open to every user, or assigned to --user only)",
    usage: "--domain <host> [--user <e-mail>] [--root-url <url>] [--not-found-url <url>] [--json]",
    options: { domain: domainFlag, user: userFlag, ...redirectFlags },
    prepare(values) {
      const host = flag(DomainHost, values, "domain", true);
      const user = flag(nonEmpty("user"), values, "user");
      const rootUrl = flag(TargetUrl, values, "root-url");
      const notFoundUrl = flag(TargetUrl, values, "not-found-url");
      return async (prisma, config) => {
        const domain = await addDomain(prisma, hostOf(config.SHORT_BASE_URL), host, {
          user,
          rootUrl,
          notFoundUrl,
        });
        return { json: domain, text: `added domain ${domainLine(domain)}` };
      };
    },
  },
  "domain:list": {
    summary: "List the domains (the default first), their users and their number of shorts",
    usage: "[--json]",
    options: {},
    prepare() {
      return async (prisma, config) => {
        const domains = await listDomains(prisma, hostOf(config.SHORT_BASE_URL));
        return {
          json: domains,
          text: table(
            ["HOST", "USERS", "SHORTS", "ROOT URL", "NOT FOUND URL"],
            domains.map((d) => [
              d.isDefault ? `${d.host} (default)` : d.host,
              d.users.length === 0 ? "(every user)" : d.users.join(","),
              d.shorts,
              d.rootUrl,
              d.notFoundUrl,
            ]),
          ),
        };
      };
    },
  },
  "domain:remove": {
    summary: "Remove a domain that has no shorts",
    usage: "--domain <host> [--json]",
    options: { domain: domainFlag },
    prepare(values) {
      const host = flag(DomainHost, values, "domain", true);
      return async (prisma, config) => {
        await removeDomain(prisma, hostOf(config.SHORT_BASE_URL), host);
        return { json: { removed: true }, text: `removed domain ${host}` };
      };
    },
  },
  "domain:assign": {
    summary: "Let a user use a domain (once assigned to anyone, a domain is theirs only)",
    usage: "--domain <host> --user <e-mail> [--json]",
    options: { domain: domainFlag, user: userFlag },
    prepare(values) {
      const host = flag(DomainHost, values, "domain", true);
      const user = flag(nonEmpty("user"), values, "user", true);
      return async (prisma, config) => {
        await assignDomain(prisma, hostOf(config.SHORT_BASE_URL), host, user);
        return { json: { assigned: true }, text: `${host} assigned to ${user}` };
      };
    },
  },
  "domain:unassign": {
    summary: "Take a user off a domain (their shorts stay); the last one only with --open",
    usage: "--domain <host> --user <e-mail> [--open] [--json]",
    options: {
      domain: domainFlag,
      user: userFlag,
      open: { type: "boolean", description: "Take off the last user, opening the domain to every user" },
    },
    prepare(values) {
      const host = flag(DomainHost, values, "domain", true);
      const user = flag(nonEmpty("user"), values, "user", true);
      const open = values.open === true;
      return async (prisma, config) => {
        const result = await unassignDomain(prisma, hostOf(config.SHORT_BASE_URL), host, user, { open });
        return {
          json: result,
          text: `${user} taken off ${host}${result.open ? `; ${host} is now open to every user` : ""}`,
        };
      };
    },
  },
  "domain:set": {
    summary: 'Set where a domain\'s root (GET /) and unknown names redirect ("" removes one)',
    usage: "--domain <host> [--root-url <url>] [--not-found-url <url>] [--json]",
    options: { domain: domainFlag, ...redirectFlags },
    prepare(values) {
      const host = flag(DomainHost, values, "domain", true);
      const rootUrl = redirectUrl(values, "root-url");
      const notFoundUrl = redirectUrl(values, "not-found-url");
      if (rootUrl === undefined && notFoundUrl === undefined)
        throw new UsageError("give --root-url, --not-found-url or both");
      return async (prisma, config) => {
        const domain = await setDomainRedirects(prisma, hostOf(config.SHORT_BASE_URL), host, {
          rootUrl,
          notFoundUrl,
        });
        const shown = (url: string | null) => url ?? "404";
        return {
          json: domain,
          text: `${host}: / -> ${shown(domain.rootUrl)}, unknown names -> ${shown(domain.notFoundUrl)}`,
        };
      };
    },
  },
  "orphan-visits": {
    summary: "Requests that reached no short (unknown names, roots, unknown hosts), per domain",
    usage: "[--domain <host>] [--from <date-time>] [--to <date-time>] [--json]",
    options: {
      domain: {
        type: "string",
        description: "Only this domain (default: every domain and the unknown hosts)",
      },
      from: { type: "string", description: "Start, ISO 8601 (default: 30 days before --to)" },
      to: { type: "string", description: "End, ISO 8601 (default: now)" },
    },
    prepare(values) {
      const host = flag(DomainHost, values, "domain");
      const from = flag(StatsQuery.shape.from.unwrap(), values, "from");
      const to = flag(StatsQuery.shape.to.unwrap(), values, "to");
      let range: ReturnType<typeof statsRange>;
      try {
        range = statsRange({ from, to, interval: "day", timezone: "UTC" });
      } catch (error) {
        throw error instanceof BadRequest ? new UsageError(error.message) : error;
      }
      return async (prisma, config) => {
        const found = await orphanVisitsByDomain(prisma, hostOf(config.SHORT_BASE_URL), range, host);
        if (found === null) throw new CommandError(`no domain ${host} (domain:list shows them)`);
        return {
          json: found,
          text: table(
            ["DOMAIN", "VISITS", "HUMANS", "UNKNOWN NAMES", "ROOT", "UNKNOWN HOST", "MOST ASKED FOR"],
            found.map((d) => [
              d.domain ?? "(unknown hosts)",
              d.totals.visits,
              d.totals.humans,
              d.kinds.unknownName,
              d.kinds.root,
              d.kinds.unknownHost,
              firstOf(d.domain === null ? d.hosts : d.names),
            ]),
          ),
        };
      };
    },
  },
  import: {
    summary:
      "Import links (and their visits) from another shortener's export; the same file twice changes nothing",
    usage: `<file> --from ${IMPORT_SOURCES.join("|")} --user <e-mail> [--domain <host>] [--json]`,
    arguments: 1,
    options: {
      from: {
        type: "string",
        description: `The export's tool: ${IMPORT_SOURCES.join(", ")} (docs/shortener.md)`,
      },
      user: { type: "string", description: "The e-mail address of the user who will own the shorts" },
      domain: { type: "string", description: "The domain the shorts go on (default: the default domain)" },
    },
    prepare(values, [file]) {
      const source = flag(importSource, values, "from", true);
      const email = flag(nonEmpty("user"), values, "user", true);
      const host = flag(DomainHost, values, "domain");
      return async (prisma, config, io) => {
        const user = await prisma.shortenerUser.findUnique({
          where: { email: email.trim().toLowerCase() },
          select: { id: true },
        });
        if (!user) throw new CommandError(`no user with e-mail ${email}`);
        const domain =
          host === undefined
            ? DEFAULT_DOMAIN
            : await new DomainsService(prisma, config.SHORT_BASE_URL).usable(user.id, host);
        const lines = await readExport(file!, source).catch((error: NodeJS.ErrnoException) => {
          throw new CommandError(
            error.code === "ENOENT" ? `no file ${file}` : `cannot read ${file}: ${error.message}`,
          );
        });
        const shorts = new ShortsService(prisma, {
          shortBaseUrl: config.SHORT_BASE_URL,
          reservedNames: reservedNames(config.SHORTENER_API_PREFIX),
          passwords: scryptHasher(),
        });
        const visitLog = new VisitLog(prisma, { ipMode: config.VISIT_IP });
        const problems: { place: string; reason: string }[] = [];
        const importer = new Importer(
          {
            prisma,
            shorts,
            visitLog,
            maintenance: new VisitMaintenance(prisma, { retentionDays: config.VISIT_RETENTION_DAYS }),
            retentionDays: config.VISIT_RETENTION_DAYS,
          },
          { userId: user.id, domain, source },
          {
            problem(place, reason) {
              problems.push({ place, reason });
              io.status?.("");
              io.stderr(`${place}: ${reason}`);
            },
            progress: (lines) => io.status?.(`${lines} lines read`),
          },
        );
        const summary = await importer
          .run(lines)
          .catch((error: Error) => {
            // A file that is not the export it should be (not JSON, no url column…): one line.
            throw new CommandError(`${file}: ${error.message}`);
          })
          .finally(async () => {
            io.status?.("");
            // Written, and their sums folded in (docs/adr/0234).
            await visitLog.stop();
          });
        const { created, skipped, failed, visits, historyVisits } = summary;
        return {
          json: { ...summary, problems },
          text:
            `created ${created}, skipped ${skipped}, failed ${failed}` +
            `; visits imported ${visits}, added to imported history ${historyVisits}`,
        };
      };
    },
  },
};

export const shortenerCli = {
  tool: TOOL,
  commands,
  loadConfig,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runCliProcess(shortenerCli);
}
