import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCliInProcess } from "@app/testing/cli";
import { SOON } from "@app/testing/timing";
import { describe, expect, it, vi } from "vitest";
import { shortenerCli } from "../src/cli.ts";
import { setupShortener } from "./helpers.ts";

const ctx = setupShortener();
const cliFile = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** A command through the CLI's own runner, in this process, on this file's database. */
async function cli(...args: string[]) {
  const out = await runCliInProcess(shortenerCli, args, {
    DATABASE_URL: ctx.db.url,
    DATABASE_DIRECT_URL: ctx.db.directUrl,
  });
  return { code: out.code, stdout: out.stdout.trim(), stderr: out.stderr.trim() };
}

/** The same as a process, as `pnpm -s shortener` runs it (minus pnpm's own start-up). */
function cliProcess(...args: string[]) {
  const result = spawnSync(process.execPath, ["--enable-source-maps", cliFile, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: ctx.db.url,
      DATABASE_DIRECT_URL: ctx.db.directUrl,
    },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe("pnpm shortener as a process", () => {
  it("prints one JSON document on stdout, nothing on stderr, exit 0 (a migrated database)", async () => {
    const out = cliProcess("user:create", "--email", "process@example.com", "--json");
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const created = JSON.parse(out.stdout);
    const me = await ctx.app.inject({
      url: "/api/me",
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(me.json()).toMatchObject({ username: "process@example.com" });
  });

  it("under --json, a failure is one JSON document on stderr and nothing on stdout", () => {
    const failed = cliProcess("token:create", "--email", "nobody@example.com", "--json");
    expect(failed).toMatchObject({ code: 1, stdout: "" });
    expect(JSON.parse(failed.stderr)).toEqual({ error: "no user with e-mail nobody@example.com" });
  });

  it("exits 1 with one line on stderr when the command fails, 2 with the usage for a bad invocation", () => {
    const failed = cliProcess("token:create", "--email", "nobody@example.com");
    expect(failed).toMatchObject({ code: 1, stdout: "" });
    expect(failed.stderr.split("\n")).toHaveLength(1);
    const bad = cliProcess("user:create", "--mail", "x@example.com");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--mail'[\s\S]*Usage: pnpm -s shortener user:create/);
  });
});

describe("pnpm shortener", () => {
  it("user:create --json prints id, username and a token that works", async () => {
    const out = await cli("user:create", "--email", "Cli.User@Example.com", "--json");
    expect(out.code).toBe(0);
    const created = JSON.parse(out.stdout);
    expect(created).toEqual({
      id: expect.any(String),
      username: "cli.user@example.com",
      token: expect.any(String),
    });
    const me = await ctx.app.inject({
      url: "/api/me",
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(me.json()).toMatchObject({ id: created.id, username: "cli.user@example.com" });
  });

  it("token:create adds a token; token:revoke revokes exactly that one", async () => {
    const first = JSON.parse(
      (await cli("user:create", "--email", "two-tokens@example.com", "--json")).stdout,
    );
    const out = await cli("token:create", "--email", "two-tokens@example.com", "--json");
    expect(out.code).toBe(0);
    const { token } = JSON.parse(out.stdout);
    expect(token).not.toBe(first.token);

    const revoke = await cli("token:revoke", "--token", first.token);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toBe("token revoked");
    const status = async (t: string) =>
      (await ctx.app.inject({ url: "/api/me", headers: { authorization: `Bearer ${t}` } })).statusCode;
    expect(await status(first.token)).toBe(401);
    expect(await status(token)).toBe(200);
  });

  it("prints a readable line without --json", async () => {
    const out = await cli("user:create", "--email", "plain@example.com");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      /^created user plain@example.com \(id .+\); bearer token, shown only now: shr_/,
    );
  });

  // Exit 2: the invocation is wrong (usage follows on stderr). Exit 1: the command failed.
  const failures: [string, string[], number, RegExp][] = [
    ["no command", [], 2, /Missing command[\s\S]*Usage: pnpm -s shortener/],
    ["an unknown command", ["user:delete"], 2, /Unknown command "user:delete"[\s\S]*Usage:/],
    [
      "a missing --email",
      ["user:create"],
      2,
      /--email is required[\s\S]*Usage: pnpm -s shortener user:create/,
    ],
    ["an unknown flag", ["user:create", "--mail", "x@example.com"], 2, /Unknown option '--mail'/],
    [
      "both --id and --token",
      ["token:revoke", "--id", "x", "--token", "y"],
      2,
      /exactly one of --id and --token/,
    ],
    ["a malformed --id", ["token:revoke", "--id", "nope"], 2, /--id must be a token id/],
    ["an invalid e-mail", ["user:create", "--email", "not-an-email"], 1, /not an e-mail/],
    [
      "an e-mail past RFC 5321's 64 characters before the @",
      ["user:create", "--email", `${"a".repeat(65)}@example.com`],
      1,
      /not an e-mail/,
    ],
    ["a duplicate user", ["user:create", "--email", "plain@example.com"], 1, /already exists/],
    ["an unknown user", ["token:create", "--email", "nobody@example.com"], 1, /no user/],
    ["an unknown token", ["token:revoke", "--token", "shr_nope"], 1, /no such token/],
  ];
  for (const [label, args, code, message] of failures) {
    it(`exits ${code} with a clear message for ${label}`, async () => {
      const out = await cli(...args);
      expect(out.code).toBe(code);
      expect(out.stderr).toMatch(message);
      expect(out.stdout).toBe("");
    });
  }

  it("user:create for an existing e-mail names token:create, as text and under --json (one JSON document on stderr)", async () => {
    expect((await cli("user:create", "--email", "twice@example.com", "--json")).code).toBe(0);
    const again = await cli("user:create", "--email", "twice@example.com", "--json");
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(JSON.parse(again.stderr)).toEqual({
      error:
        "a user with e-mail twice@example.com already exists " +
        "(a further token for it: pnpm -s shortener token:create --email twice@example.com)",
    });
    const text = await cli("user:create", "--email", "twice@example.com");
    expect(text).toMatchObject({ code: 1, stdout: "" });
    expect(text.stderr).toContain("pnpm -s shortener token:create --email twice@example.com");
    // And the command it names does what it says.
    expect((await cli("token:create", "--email", "twice@example.com", "--json")).code).toBe(0);
  });

  // Under --json, every failure is one JSON document on stderr: {"error"}, plus "usage" for a
  // bad invocation (exit 2); stdout stays empty.
  const jsonFailures: [string, string[], number][] = [
    ["an unknown command", ["user:delete", "--json"], 2],
    ["no command", ["--json"], 2],
    ["a missing --email", ["user:create", "--json"], 2],
    ["an unknown flag", ["user:create", "--mail", "x@example.com", "--json"], 2],
    ["a flag without its value", ["user:create", "--json", "--email"], 2],
    ["a malformed --id", ["token:revoke", "--id", "nope", "--json"], 2],
    ["import without its file", ["import", "--from", "csv", "--user", "x@example.com", "--json"], 2],
    ["an unknown user", ["token:create", "--email", "nobody@example.com", "--json"], 1],
    ["an unknown token", ["token:revoke", "--token", "shr_nope", "--json"], 1],
    ["an unknown domain", ["domain:remove", "--domain", "nowhere.example.com", "--json"], 1],
  ];
  for (const [label, args, code] of jsonFailures) {
    it(`under --json, ${label} is one JSON document on stderr, exit ${code}`, async () => {
      const out = await cli(...args);
      expect(out).toMatchObject({ code, stdout: "" });
      const document = JSON.parse(out.stderr);
      expect(document).toEqual({
        error: expect.any(String),
        ...(code === 2 ? { usage: expect.stringMatching(/^pnpm -s shortener /) } : {}),
      });
    });
  }

  // Every command of the CLI's own table, so a new one is covered without touching this test.
  it("--help and help list every command; each command's --help (even one that wants an argument) prints its usage: stdout, exit 0", async () => {
    const names = Object.keys(shortenerCli.commands);
    expect(names).toContain("import");
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
        expect(help.stdout).toMatch(new RegExp(`^Usage: pnpm -s shortener ${name} `));
        expect(help.stdout).toContain("--json");
      }
    }
    // Asked for, the usage wins over what else is wrong on the line.
    expect(await cli("token:revoke", "--id", "x", "--token", "y", "--help")).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: pnpm -s shortener token:revoke /),
    });
    expect(await cli("help", "user:delete")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^Unknown command "user:delete"/),
    });
  });

  it("lists users and tokens (id, note, created, last used) without any secret, and revokes by id", async () => {
    const created = JSON.parse((await cli("user:create", "--email", "lister@example.com", "--json")).stdout);
    const second = JSON.parse(
      (await cli("token:create", "--email", "lister@example.com", "--note", "laptop", "--json")).stdout,
    );
    expect(second).toEqual({ id: expect.any(String), token: expect.stringMatching(/^shr_/) });
    // The first token is used once: its lastUsedAt is written off the request path.
    await ctx.app.inject({ url: "/api/me", headers: { authorization: `Bearer ${created.token}` } });
    await vi.waitFor(async () => {
      const row = await ctx.prisma.shortenerToken.findFirst({ where: { userId: created.id, note: null } });
      expect(row?.lastUsedAt).not.toBeNull();
    }, SOON);

    const users = await cli("user:list", "--json");
    expect(users.code).toBe(0);
    expect(JSON.parse(users.stdout)).toContainEqual({
      id: created.id,
      username: "lister@example.com",
      createdAt: expect.any(String),
      tokens: 2,
      shorts: 0,
    });
    const listed = await cli("token:list", "--email", "lister@example.com", "--json");
    const tokens = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toEqual({
      id: second.id,
      username: "lister@example.com",
      note: "laptop",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    expect(tokens[0]!.lastUsedAt).toEqual(expect.any(String));
    const human = await cli("token:list");
    expect(human.stdout).toMatch(/^ID +USERNAME +NOTE +CREATED +LAST USED/);
    expect(human.stdout).toContain("laptop");
    const hashes = (await ctx.prisma.shortenerToken.findMany()).map((t) => t.tokenHash);
    for (const output of [users.stdout, listed.stdout, human.stdout, (await cli("user:list")).stdout]) {
      for (const secret of [created.token, second.token, ...hashes]) expect(output).not.toContain(secret);
    }

    const revoked = await cli("token:revoke", "--id", second.id, "--json");
    expect(revoked).toMatchObject({ code: 0, stdout: '{"revoked":true}' });
    const status = async (t: string) =>
      (await ctx.app.inject({ url: "/api/me", headers: { authorization: `Bearer ${t}` } })).statusCode;
    expect(await status(second.token)).toBe(401);
    expect(await status(created.token)).toBe(200);
  });

  it("stores no token in clear", async () => {
    const created = JSON.parse((await cli("user:create", "--email", "hashed@example.com", "--json")).stdout);
    const rows = await ctx.prisma.shortenerToken.findMany({ where: { userId: created.id } });
    expect(rows.map((r) => r.tokenHash)).not.toContain(created.token);
  });
});
