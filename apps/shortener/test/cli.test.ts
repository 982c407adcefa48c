import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { setupShortener } from "./helpers.ts";

const ctx = setupShortener();
const cliFile = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", cliFile, ...args], {
    env: { ...process.env, DATABASE_URL: ctx.db.url },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe("pnpm shortener", () => {
  it("user:create --json prints id, username and a token that works", async () => {
    const out = cli("user:create", "--email", "Cli.User@Example.com", "--json");
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
    const first = JSON.parse(cli("user:create", "--email", "two-tokens@example.com", "--json").stdout);
    const out = cli("token:create", "--email", "two-tokens@example.com", "--json");
    expect(out.code).toBe(0);
    const { token } = JSON.parse(out.stdout);
    expect(token).not.toBe(first.token);

    const revoke = cli("token:revoke", "--token", first.token);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toBe("token revoked");
    const status = async (t: string) =>
      (await ctx.app.inject({ url: "/api/me", headers: { authorization: `Bearer ${t}` } })).statusCode;
    expect(await status(first.token)).toBe(401);
    expect(await status(token)).toBe(200);
  });

  it("prints a readable line without --json", () => {
    const out = cli("user:create", "--email", "plain@example.com");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(
      /^created user plain@example.com \(id .+\); bearer token, shown only now: shr_/,
    );
  });

  const failures: [string, string[], RegExp][] = [
    ["no command", [], /missing command/],
    ["an unknown command", ["user:delete"], /unknown command/],
    ["a missing --email", ["user:create"], /missing --email/],
    ["an invalid e-mail", ["user:create", "--email", "not-an-email"], /not an e-mail/],
    ["a duplicate user", ["user:create", "--email", "plain@example.com"], /already exists/],
    ["an unknown user", ["token:create", "--email", "nobody@example.com"], /no user/],
    ["an unknown token", ["token:revoke", "--token", "shr_nope"], /no such token/],
    ["an unknown flag", ["user:create", "--mail", "x@example.com"], /Unknown option/],
  ];
  for (const [label, args, message] of failures) {
    it(`exits non-zero with a clear message for ${label}`, () => {
      const out = cli(...args);
      expect(out.code).not.toBe(0);
      expect(out.stderr).toMatch(message);
      expect(out.stdout).toBe("");
    });
  }

  it("stores no token in clear", async () => {
    const created = JSON.parse(cli("user:create", "--email", "hashed@example.com", "--json").stdout);
    const rows = await ctx.prisma.shortenerToken.findMany({ where: { userId: created.id } });
    expect(rows.map((r) => r.tokenHash)).not.toContain(created.token);
  });
});
