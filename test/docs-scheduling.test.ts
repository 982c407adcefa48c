// docs/scheduling.md runs as written (test/docs-runner.ts), on a fresh database.
import { afterAll, expect, it } from "vitest";
import { runDocument, type Services, startServices } from "./docs-runner.ts";

let services: Services | undefined;
afterAll(() => services?.close());

// A bound for a hang, not a timing (as docs-shortener.test.ts): past 120 s with a second CI run on the machine.
it("runs as written on a fresh database", { timeout: 300_000 }, async () => {
  services = await startServices();
  expect(await runDocument("docs/scheduling.md", services)).toBeGreaterThan(25);
});
