// Writes openapi/scheduling.json from the app's routes (`pnpm openapi:generate`; `--check` compares).
import { fileURLToPath } from "node:url";
import { generateDocument, runOpenApiSync } from "@app/server/openapi-sync";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { renderOpenApi } from "./openapi.ts";

export const OPENAPI_FILE = fileURLToPath(new URL("../../../openapi/scheduling.json", import.meta.url));

/** The document as committed, from the app built with its defaults. */
export const generateOpenApi = () =>
  generateDocument((prisma) => buildApp({ config: loadConfig({}), prisma }), renderOpenApi);

runOpenApiSync(import.meta.url, OPENAPI_FILE, generateOpenApi);
