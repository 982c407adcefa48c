import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCliInProcess } from "@app/testing/cli";
import { SOON } from "@app/testing/timing";
import { describe, expect, it, vi } from "vitest";
import { schedulingCli } from "../src/cli.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

// A key in use is trusted for authCacheMs after it is revoked (AUTH_CACHE_MS in the service):
// short here, so the tests of what follows wait a moment, not the service's 5 s.
const AUTH_CACHE_MS = 250;
const t = setupApp(
  {},
  {
    authCacheMs: AUTH_CACHE_MS,
    routes: (app) => {
      app.get("/test/whoami", async (request) => request.auth);
    },
  },
);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root against this file's test database. */
function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: t.databaseUrl,
          DATABASE_DIRECT_URL: t.directUrl,
        },
        timeout: 110_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The CLI itself (what `pnpm scheduling` runs, minus pnpm's start-up). */
/** A command through the CLI's own runner, in this process (no child process per command). */
const cli = (...args: string[]) =>
  runCliInProcess(schedulingCli, args, { DATABASE_URL: t.databaseUrl, DATABASE_DIRECT_URL: t.directUrl });

const whoami = (apiKey: string) => t.app.inject({ url: withKey("/test/whoami", apiKey) });

describe("pnpm scheduling user:create", () => {
  it("creates a user whose printed key authenticates", async () => {
    // Through the documented entry point once: the root package.json script.
    const result = await run("pnpm", [
      "-s",
      "scheduling",
      "user:create",
      "--email",
      "cli-user@example.com",
      "--username",
      "cliuser",
      "--json",
    ]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const created = JSON.parse(result.stdout);
    expect(created).toEqual({
      id: expect.any(Number),
      email: "cli-user@example.com",
      username: "cliuser",
      role: "USER",
      apiKey: expect.stringMatching(/^cal_[0-9a-f]{32}$/),
    });
    const response = await whoami(created.apiKey);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: created.id, isAdmin: false });
  });

  it("creates an admin and prints a readable line without --json", async () => {
    const result = await cli("user:create", "--email", "cli-admin@example.com", "--admin");
    expect(result.code).toBe(0);
    const apiKey = result.stdout.match(/cal_[0-9a-f]{32}/)?.[0];
    expect(result.stdout).toContain("ADMIN");
    expect(apiKey).toBeDefined();
    expect((await whoami(apiKey!)).json()).toMatchObject({ isAdmin: true });
  });

  it("refuses a duplicate e-mail", async () => {
    await createUser(t.prisma, { email: "taken@example.com" });
    const result = await cli("user:create", "--email", "taken@example.com");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("A user with e-mail taken@example.com already exists");
    expect(result.stdout).toBe("");
  });
});

describe("pnpm scheduling apikey:create / apikey:revoke", () => {
  it("issues a further key with an expiry and a note", async () => {
    const { user } = await createUser(t.prisma, { email: "keys@example.com" });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const result = await cli(
      "apikey:create",
      "--email",
      "keys@example.com",
      "--expires-at",
      expiresAt,
      "--note",
      "ci",
      "--json",
    );
    expect(result.code).toBe(0);
    const issued = JSON.parse(result.stdout);
    expect(issued).toEqual({
      id: expect.any(String),
      apiKey: expect.stringMatching(/^cal_[0-9a-f]{32}$/),
      expiresAt,
    });
    expect((await whoami(issued.apiKey)).json()).toMatchObject({ userId: user.id });
    const stored = await t.prisma.apiKey.findMany({ where: { userId: user.id, note: "ci" } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.expiresAt?.toISOString()).toBe(expiresAt);
  });

  it("revokes a key, which then no longer authenticates", async () => {
    const { apiKey } = await createUser(t.prisma);
    expect((await whoami(apiKey)).statusCode).toBe(200);
    const result = await cli("apikey:revoke", "--key", apiKey);
    expect(result.code).toBe(0);
    // A key already in use is trusted for at most AUTH_CACHE_MS more (auth.ts).
    await vi.waitFor(
      async () => {
        const response = await whoami(apiKey);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: "Your API key is not valid." });
      },
      { timeout: AUTH_CACHE_MS + SOON.timeout, interval: 250 },
    );
  });

  it("fails on an unknown user or an unknown key", async () => {
    const [unknownUser, unknownKey] = await Promise.all([
      cli("apikey:create", "--email", "nobody@example.com"),
      cli("apikey:revoke", "--key", "cal_00000000000000000000000000000000"),
    ]);
    expect(unknownUser.code).not.toBe(0);
    expect(unknownUser.stderr).toContain("No user with e-mail nobody@example.com");
    expect(unknownKey.code).not.toBe(0);
    expect(unknownKey.stderr).toContain("No such API key");
  });
});

describe("help, lists and revoking by id", () => {
  it("--help lists the commands, and each command's --help its options: stdout, exit 0", async () => {
    const tool = await cli("--help");
    expect(tool.code).toBe(0);
    const names = ["user:create", "user:list", "apikey:create", "apikey:list", "apikey:revoke", "db:seed"];
    const helps = await Promise.all(names.map((name) => cli(name, "--help")));
    names.forEach((name, i) => {
      expect(tool.stdout).toContain(name);
      expect(helps[i]!.code).toBe(0);
      expect(helps[i]!.stdout).toMatch(new RegExp(`^Usage: pnpm -s scheduling ${name}`));
      expect(helps[i]!.stdout).toContain("--json");
    });
  });

  it("lists users and keys (id, note, created, last used, expiry) without any secret, and revokes by id", async () => {
    const { user, apiKey } = await createUser(t.prisma, { email: "list-keys@example.com" });
    const second = JSON.parse(
      (await cli("apikey:create", "--email", "list-keys@example.com", "--note", "laptop", "--json")).stdout,
    );
    expect((await whoami(apiKey)).statusCode).toBe(200);

    const users = JSON.parse((await cli("user:list", "--json")).stdout) as Record<string, unknown>[];
    expect(users).toContainEqual(
      expect.objectContaining({ id: user.id, email: "list-keys@example.com", role: "USER", locked: false }),
    );
    const listed = await cli("apikey:list", "--email", "list-keys@example.com", "--json");
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(keys).toHaveLength(2);
    expect(keys[1]).toEqual({
      id: second.id,
      userId: user.id,
      email: "list-keys@example.com",
      note: "laptop",
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: null,
    });
    const human = await cli("apikey:list");
    expect(human.stdout).toMatch(/^ID +EMAIL +NOTE +CREATED +LAST USED +EXPIRES/);
    const hashes = (await t.prisma.apiKey.findMany()).map((k) => k.hashedKey);
    for (const output of [listed.stdout, human.stdout, (await cli("user:list")).stdout]) {
      for (const secret of [apiKey, second.apiKey, ...hashes]) expect(output).not.toContain(secret);
    }

    const revoked = await cli("apikey:revoke", "--id", second.id);
    expect(revoked.code).toBe(0);
    expect((await whoami(second.apiKey)).statusCode).toBe(401);
    expect((await whoami(apiKey)).statusCode).toBe(200);
    const again = await cli("apikey:revoke", "--id", second.id);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split("\n").at(-1)).toBe("No such API key");
  });
});

describe("bad input", () => {
  it.concurrent.each([
    [["nope"], 'Unknown command "nope"'],
    [[], "Missing command"],
    [["user:create"], "--email is required"],
    [["user:create", "--email", "not-an-address"], "--email must be an e-mail address"],
    [
      ["user:create", "--email", `${"a".repeat(65)}@example.com`],
      "--email must be an e-mail address, of at most 64 characters before the @",
    ],
    [["user:create", "--email", "a@example.com", "--colour", "red"], "Unknown option '--colour'"],
    [["user:create", "--email"], "argument missing"],
    [["user:create", "--email", "a@example.com", "--username", "has space"], "--username must be"],
    [
      ["apikey:create", "--email", "a@example.com", "--expires-at", "tomorrow"],
      "--expires-at must be an ISO date-time",
    ],
    [
      ["apikey:create", "--email", "a@example.com", "--expires-at", "2001-01-01T00:00:00Z"],
      "must be in the future",
    ],
    [["apikey:revoke"], "give exactly one of --id and --key"],
    [["apikey:revoke", "--id", "not-a-uuid"], "--id must be a key id"],
  ])("%j exits 2 with the message and the usage on stderr", async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: pnpm -s scheduling");
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
  });
});
