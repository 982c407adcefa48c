// The routes that need no apiKey, each saying so in its config (auth.ts denies the rest).
import { registerApiReference } from "@app/server/api-reference";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

export const WELCOME_MESSAGE = "Welcome to the scheduling API - docs are at /docs";

const welcomeSchema = z.object({ message: z.string() }).describe("Where to find the docs");

export async function publicRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const welcome = async () => ({ message: WELCOME_MESSAGE });

  routes.get(
    "/",
    {
      config: { public: true },
      schema: {
        operationId: "getWelcome",
        summary: "Welcome message pointing to the docs",
        tags: ["meta"],
        security: [],
        response: { 200: welcomeSchema },
      },
    },
    welcome,
  );

  // v1 answered its home page at /v1 too; the rewrite turns that into /api/v1.
  routes.get(
    "/api/v1",
    { config: { public: true }, schema: { hide: true, response: { 200: welcomeSchema } } },
    welcome,
  );

  routes.get(
    "/docs",
    {
      config: { public: true },
      schema: {
        operationId: "getOpenApiDocument",
        summary: "This OpenAPI 3.0.3 document",
        tags: ["meta"],
        security: [],
        response: { 200: z.looseObject({}).describe("The OpenAPI document") },
      },
    },
    async () => app.swagger() as unknown as Record<string, unknown>,
  );

  // The same document, human-readable; its page and assets are key-less too.
  await registerApiReference(app, { routeConfig: { public: true } });
}
