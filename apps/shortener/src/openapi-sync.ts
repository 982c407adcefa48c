// Writes openapi/shortener.json from the app's routes: `pnpm exec tsx apps/shortener/src/openapi-sync.ts`.
// With --check it only compares and exits 1 on a difference (the drift test does the same).
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createPrisma } from "@app/db";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { renderOpenApi } from "./openapi.ts";

export const OPENAPI_FILE = fileURLToPath(new URL("../../../openapi/shortener.json", import.meta.url));

/**
 * The document as committed. Needs no database: the client connects on its first query, and
 * none is made (the redirect cache's listener fails to connect and retries until closed).
 */
export async function generateOpenApi(): Promise<string> {
  const prisma = createPrisma("postgresql://openapi-sync@127.0.0.1:1/never-connected", { poolMax: 1 });
  // Defaults, not the environment: the document (its server URL, its API prefix) must not
  // depend on where it was generated.
  const app = await buildApp({ config: loadConfig({}), prisma });
  try {
    await app.ready();
    return renderOpenApi(app.swagger());
  } finally {
    await app.close();
    await prisma.$disconnect();
  }
}

async function main() {
  const generated = await generateOpenApi();
  if (process.argv.includes("--check")) {
    const committed = await readFile(OPENAPI_FILE, "utf8").catch(() => "");
    if (committed !== generated) {
      process.stderr.write(
        `${OPENAPI_FILE} is out of date; run: pnpm exec tsx apps/shortener/src/openapi-sync.ts\n`,
      );
      process.exitCode = 1;
    }
    return;
  }
  await writeFile(OPENAPI_FILE, generated);
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
