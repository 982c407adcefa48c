// docs/scheduling.md runs as written (test/docs-runner.ts), on a fresh database, with a Radicale
// of its own for "Connecting calendars" (http://localhost:5232 in the document).
import { type Radicale, radicaleMissing, startRadicale } from "@app/testing/radicale";
import { afterAll, expect, it } from "vitest";
import { runDocument, type Services, startServices } from "./docs-runner.ts";

const missing = radicaleMissing();
if (missing) console.warn(`test/docs-scheduling.test.ts skipped: ${missing}`);

let services: Services | undefined;
let radicale: Radicale | undefined;
afterAll(async () => {
  await services?.close();
  await radicale?.stop();
});

// The key a reader puts in .env (openssl rand -hex 32): the service and the CLI both read it.
const CREDENTIALS_KEY = "5".repeat(64);

// A bound for a hang, not a timing (as docs-shortener.test.ts): past 120 s with a second CI run on the machine.
it.skipIf(missing)("runs as written on a fresh database", { timeout: 300_000 }, async () => {
  radicale = await startRadicale({ users: { you: "secret" } });
  services = await startServices({ schedulingEnv: { CREDENTIALS_KEY }, env: { CREDENTIALS_KEY } });
  services.extraOrigins = { "http://localhost:5232": radicale.url.replace(/\/$/, "") };
  expect(await runDocument("docs/scheduling.md", services)).toBeGreaterThan(25);
});
