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
  // Every command of the CLI's own table, so a new one is covered without touching this test.
  it("--help and help list every command; each command's --help prints its usage: stdout, exit 0", async () => {
    const names = Object.keys(schedulingCli.commands);
    for (const listing of [await cli("--help"), await cli("help")]) {
      expect(listing).toMatchObject({ code: 0, stderr: "" });
      for (const name of names) expect(listing.stdout).toContain(`  ${name} `);
    }
    for (const name of names) {
      for (const args of [
        [name, "--help"],
        [name, "-h"],
        ["help", name],
      ]) {
        const help = await cli(...args);
        expect(help, args.join(" ")).toMatchObject({ code: 0, stderr: "" });
        expect(help.stdout).toMatch(new RegExp(`^Usage: pnpm -s scheduling ${name} `));
        expect(help.stdout).toContain("--json");
      }
    }
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

describe("errors under --json", () => {
  it("user:create for an existing e-mail names apikey:create, as text and as one JSON document on stderr", async () => {
    await createUser(t.prisma, { email: "again@example.com" });
    const again = await cli("user:create", "--email", "again@example.com", "--json");
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(JSON.parse(again.stderr)).toEqual({
      error:
        "A user with e-mail again@example.com already exists " +
        "(a further API key for it: pnpm -s scheduling apikey:create --email again@example.com)",
    });
    const text = await cli("user:create", "--email", "again@example.com");
    expect(text).toMatchObject({ code: 1, stdout: "" });
    expect(text.stderr).toContain("pnpm -s scheduling apikey:create --email again@example.com");
    // And the command it names does what it says.
    expect((await cli("apikey:create", "--email", "again@example.com", "--json")).code).toBe(0);
  });

  // Every failure under --json: {"error"}, plus "usage" for a bad invocation (exit 2); stdout empty.
  it.concurrent.each([
    [["nope", "--json"], 2],
    [["--json"], 2],
    [["user:create", "--json"], 2],
    [["user:create", "--email", "not-an-address", "--json"], 2],
    [["user:create", "--email", "a@example.com", "--colour", "red", "--json"], 2],
    [["apikey:revoke", "--json"], 2],
    [["apikey:create", "--email", "nobody@example.com", "--json"], 1],
    [["apikey:revoke", "--key", "cal_nope", "--json"], 1],
    [["mail:resend", "--id", "0190d4e0-0000-7000-8000-000000000000", "--json"], 1],
    [["tenant:disable", "--name", "Nobody", "--json"], 1],
  ])("%j is one JSON document on stderr, exit %i", async (args, code) => {
    const result = await cli(...args);
    expect(result).toMatchObject({ code, stdout: "" });
    expect(JSON.parse(result.stderr)).toEqual({
      error: expect.any(String),
      ...(code === 2 ? { usage: expect.stringMatching(/^pnpm -s scheduling /) } : {}),
    });
  });

  it("as a process too: the failure's document on stderr, nothing on stdout", async () => {
    const result = await run(process.execPath, [
      "apps/scheduling/dist/cli.js",
      "apikey:create",
      "--email",
      "nobody@example.com",
      "--json",
    ]);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(JSON.parse(result.stderr)).toEqual({ error: "No user with e-mail nobody@example.com" });
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
