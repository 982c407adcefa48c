// `pnpm sdk:generate`: the SDKs' types (packages/*-sdk/src/generated/schema.ts) from the committed
// OpenAPI documents (openapi/*.json), with openapi-typescript, and each SDK's copy of what both
// share (packages/sdk-common/src/result.ts → src/generated/result.ts: a published package stands
// alone). `--check` only compares and exits 1 on a difference; test/sdk-packages.test.ts
// regenerates into a temporary folder and compares.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Each SDK: the document it is generated from and the file it gets, relative to the repository. */
export const SDKS = [
  { document: "openapi/shortener.json", output: "packages/shortener-sdk/src/generated/schema.ts" },
  { document: "openapi/scheduling.json", output: "packages/scheduling-sdk/src/generated/schema.ts" },
] as const;

/** The code both SDKs share, and where each gets its copy. */
export const SHARED = {
  source: "packages/sdk-common/src/result.ts",
  outputs: [
    "packages/shortener-sdk/src/generated/result.ts",
    "packages/scheduling-sdk/src/generated/result.ts",
  ],
} as const;

/** An SDK's copy of the shared module: the source, under a line that says where it comes from. */
export async function sharedCopy(): Promise<string> {
  const source = await readFile(path.join(ROOT, SHARED.source), "utf8");
  return `// Generated from ${SHARED.source} by \`pnpm sdk:generate\`. Do not edit: change that file.\n${source}`;
}

/** The generated TypeScript for one document (reads only the document: no network, no clock). */
export async function generateSchemaTypes(document: string): Promise<string> {
  const ast = await openapiTS(pathToFileURL(path.join(ROOT, document)), {
    // Off: a property with a default is optional in what a client sends (`days` of an
    // availability); responses list every property they always carry in `required` anyway.
    defaultNonNullable: false,
    silent: true,
  });
  return [
    `// Generated from ${document} by \`pnpm sdk:generate\` (openapi-typescript). Do not edit:`,
    "// change the API, run `pnpm openapi:generate`, then `pnpm sdk:generate`.",
    "",
    astToString(ast),
  ].join("\n");
}

/** Writes every SDK's generated file under `root` (the repository by default); returns the paths written. */
export async function generateSdks(root = ROOT): Promise<string[]> {
  const written: string[] = [];
  for (const sdk of SDKS) {
    const file = path.join(root, sdk.output);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, await generateSchemaTypes(sdk.document));
    written.push(file);
  }
  for (const output of SHARED.outputs) {
    const file = path.join(root, output);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, await sharedCopy());
    written.push(file);
  }
  return written;
}

async function main() {
  if (process.argv.includes("--check")) {
    for (const sdk of SDKS) {
      const committed = await readFile(path.join(ROOT, sdk.output), "utf8").catch(() => "");
      if (committed !== (await generateSchemaTypes(sdk.document))) {
        process.stderr.write(`${sdk.output} is out of date; run: pnpm sdk:generate\n`);
        process.exitCode = 1;
      }
    }
    for (const output of SHARED.outputs) {
      if ((await readFile(path.join(ROOT, output), "utf8").catch(() => "")) !== (await sharedCopy())) {
        process.stderr.write(`${output} is out of date; run: pnpm sdk:generate\n`);
        process.exitCode = 1;
      }
    }
    return;
  }
  for (const file of await generateSdks()) process.stdout.write(`wrote ${path.relative(ROOT, file)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
