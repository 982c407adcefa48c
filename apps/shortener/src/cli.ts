// Management commands: `pnpm -s shortener <command> ...` (`--help` lists them). The shared
// runner (@app/server/cli) parses, opens the database once the flags are valid, and exits 0, 1
// or 2 (a CredentialError is the command failing: exit 1, its message on stderr). This file
// only parses flags and prints: users and tokens are credentials.ts's.
import { fileURLToPath } from "node:url";
import { type Command, flag, runCliProcess, table, UsageError, when } from "@app/server/cli";
import { z } from "zod";
import { loadConfig, type ShortenerConfig } from "./config.ts";
import { createToken, createUser, listTokens, listUsers, revokeToken } from "./credentials.ts";

// Checked here for a usage error (exit 2); an e-mail address is credentials.ts's to refuse (exit 1).
const nonEmpty = (name: string) => z.string().min(1, `--${name} must not be empty`);
const note = z.string().max(255, "--note must be at most 255 characters");
const tokenId = z.uuid("--id must be a token id from token:list");

const commands: Record<string, Command<ShortenerConfig>> = {
  "user:create": {
    summary: "Create a user and its first bearer token (shown once)",
    usage: "--email <e-mail> [--json]",
    options: { email: { type: "string", description: "The user's e-mail address (their username)" } },
    prepare(values) {
      const email = flag(nonEmpty("email"), values, "email", true);
      return async (prisma) => {
        const user = await createUser(prisma, email);
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
};

export const shortenerCli = {
  tool: "pnpm -s shortener",
  commands,
  loadConfig,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runCliProcess(shortenerCli);
}
