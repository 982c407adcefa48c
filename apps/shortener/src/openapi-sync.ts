// Writes openapi/shortener.json and openapi/shortener-rest.json (Shlink's API, /rest/docs) from the
// app's routes (`pnpm openapi:generate`; `--check` compares).
import { fileURLToPath } from "node:url";
import { generateDocument, runOpenApiSync } from "@app/server/openapi-sync";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { renderOpenApi } from "./openapi.ts";

export const OPENAPI_FILE = fileURLToPath(new URL("../../../openapi/shortener.json", import.meta.url));
export const REST_OPENAPI_FILE = fileURLToPath(
  new URL("../../../openapi/shortener-rest.json", import.meta.url),
);

const build = (prisma: Parameters<typeof buildApp>[0]["prisma"]) =>
  buildApp({ config: loadConfig({}), prisma });

/** The document as committed, from the app built with its defaults. */
export const generateOpenApi = () => generateDocument(build, renderOpenApi);

/** Shlink's API's document (GET /rest/docs) as committed. */
export const generateRestOpenApi = () => generateDocument(build, renderOpenApi, (app) => app.restSwagger());

runOpenApiSync(import.meta.url, OPENAPI_FILE, generateOpenApi);
runOpenApiSync(import.meta.url, REST_OPENAPI_FILE, generateRestOpenApi);
