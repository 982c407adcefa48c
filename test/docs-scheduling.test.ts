// docs/scheduling.md runs as written (test/docs-runner.ts), on a fresh database.
import { afterAll, expect, it } from "vitest";
import { runDocument, type Services, startServices } from "./docs-runner.ts";

let services: Services | undefined;
afterAll(() => services?.close());

it("runs as written on a fresh database", async () => {
  services = await startServices();
  expect(await runDocument("docs/scheduling.md", services)).toBeGreaterThan(25);
});
