// Both apps' `openapi-sync.ts`: build the app with its defaults on a client that never
// connects, render its document, and write it to openapi/<service>.json, or with --check
// only compare and exit 1 on a difference (the drift tests do the same).
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "@app/db";
import { createPrisma } from "@app/db";

interface DocumentedApp {
  ready(): PromiseLike<unknown>;
  close(): PromiseLike<unknown>;
  swagger(): unknown;
}

/**
 * The document as committed. Needs no database: the client connects on its first query, and
 * none is made (a listener that tries, such as the redirect cache's, retries until closed).
 * `build` must use the config's defaults, not the environment: the document must not depend
 * on where it was generated.
 */
export async function generateDocument<App extends DocumentedApp>(
  build: (prisma: PrismaClient) => Promise<App>,
  render: (document: unknown) => string,
  /** Which of the app's documents (an app may serve more than one). */
  pick: (app: App) => unknown = (app) => app.swagger(),
): Promise<string> {
  const prisma = createPrisma("postgresql://openapi-sync@127.0.0.1:1/never-connected", { poolMax: 1 });
  const app = await build(prisma);
  try {
    await app.ready();
    return render(pick(app));
  } finally {
    await app.close();
    await prisma.$disconnect();
  }
}

/** Runs the sync when `moduleUrl` is the script node was started with (`pnpm openapi:generate`). */
export function runOpenApiSync(moduleUrl: string, file: string, generate: () => Promise<string>): void {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  const sync = async () => {
    const generated = await generate();
    if (process.argv.includes("--check")) {
      const committed = await readFile(file, "utf8").catch(() => "");
      if (committed !== generated) {
        process.stderr.write(`${file} is out of date; run: pnpm openapi:generate\n`);
        process.exitCode = 1;
      }
      return;
    }
    await writeFile(file, generated);
    process.stdout.write(`wrote ${file}\n`);
  };
  sync().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
