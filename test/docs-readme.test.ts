// README.md's tours run as written (test/docs-runner.ts): on a fresh database, and again after
// `pnpm -s db:seed` has added its demo data (no id of the tours is taken for granted).
import { execFileSync } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { repoRoot, runDocument, type Services, startServices } from "./docs-runner.ts";

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

// Bounds for a hang, not timings (as docs-shortener.test.ts).
it("runs on a fresh database", { timeout: 300_000 }, async () => {
  services = await startServices();
  expect(await runDocument("README.md", services)).toBeGreaterThan(10);
});

it("runs after pnpm -s db:seed", { timeout: 300_000 }, async () => {
  services = await startServices();
  execFileSync("pnpm", ["-s", "db:seed"], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: services.db.url },
    stdio: "ignore",
  });
  expect(await runDocument("README.md", services)).toBeGreaterThan(10);
});
