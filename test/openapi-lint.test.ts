// A second, independent check of both committed documents: Redocly CLI's recommended rules
// (redocly.yaml says which are off and docs/adr/0092 why). Runs the CLI as `pnpm openapi:lint` does.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REDOCLY = path.join(ROOT, "node_modules/.bin/redocly");

function redocly(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // Not a TTY and NO_COLOR: no update check, no colours in the output a failure prints.
    const env = { ...process.env, NO_COLOR: "1", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" };
    execFile(REDOCLY, ["lint", "--format=stylish", ...args], { cwd: ROOT, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe("pnpm openapi:lint (Redocly CLI)", () => {
  it("finds no error in openapi/shortener.json, openapi/shortener-rest.json or openapi/scheduling.json", async () => {
    const { code, output } = await redocly([]);
    expect(output).toContain("openapi/shortener.json");
    expect(output).toContain("openapi/shortener-rest.json");
    expect(output).toContain("openapi/scheduling.json");
    expect(code, output).toBe(0);
  });

  it("fails on an error, so the test above would too", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
    try {
      const document = JSON.parse(await readFile(path.join(ROOT, "openapi/shortener.json"), "utf8"));
      // `nullable` without a `type` means nothing in OpenAPI 3.0.3: an error in the recommended rules.
      document.components.schemas.Short.properties.url = { nullable: true, anyOf: [{ type: "string" }] };
      const broken = path.join(dir, "broken.json");
      await writeFile(broken, JSON.stringify(document));
      const { code, output } = await redocly([broken]);
      expect(output).toMatch(/nullable-type-sibling/);
      expect(code).not.toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
