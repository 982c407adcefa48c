// What the browser tests share: Debian's Chromium (`apt-get install -y chromium`; .ci/run
// installs it when it can), the folder their screenshots go to, and a service on a real port.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
/** Screenshots for people to look at; CI keeps the folder. */
export const ARTIFACTS = fileURLToPath(new URL("../.ci/artifacts", import.meta.url));

/** Says once, for `file`, that its tests are skipped on this machine (none when Chromium is there). */
export function warnWithoutChromium(file: string): void {
  if (!hasChromium)
    console.warn(`${file}: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
}

/** A headless Chromium, with the artifacts folder made for its screenshots. */
export async function launchChromium(): Promise<Browser> {
  await mkdir(ARTIFACTS, { recursive: true });
  // Playwright waits 30 s by default for a launch, a page or a selector: a loaded machine gets
  // two minutes (each test still has its own outer limit).
  return chromium.launch({ executablePath: CHROMIUM, timeout: 120_000 });
}

/** Starts `app` listening on a free port of 127.0.0.1 and returns its origin. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
