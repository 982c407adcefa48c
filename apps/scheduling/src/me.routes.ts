// GET /me: the caller's own user, as v1 answered it (`{"user": {...}}`), for clients that
// check who a key belongs to (Raycast's extension does on start).
import { ErrorResponse, itemQuery, USER_FIXED_FIELDS, User } from "@app/schemas/scheduling";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { NotFound } from "./errors.ts";
import { selectOf } from "./resources/resource.ts";

const select = selectOf(User, {}, USER_FIXED_FIELDS);

export async function meRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/me",
    {
      schema: {
        operationId: "getMe",
        summary: "The user the apiKey belongs to",
        tags: ["users"],
        security: [{ ApiKeyAuth: [] }],
        querystring: itemQuery,
        response: {
          200: z.object({ user: User }).describe("The caller"),
          400: ErrorResponse.describe("An unknown query key, or a repeated one"),
          401: ErrorResponse.describe("No apiKey, or one that is unknown or expired"),
          404: ErrorResponse.describe("The key's user was deleted within the last seconds (keys are cached)"),
          429: ErrorResponse.describe("Rate limit exceeded"),
        },
      },
    },
    async (request) => {
      // `select` names exactly the public shape's columns; the fixed fields complete it.
      const row = await request.db.user.findUnique({ where: { id: request.auth.userId }, select });
      if (!row) throw new NotFound("User not found");
      return { user: { ...row, ...USER_FIXED_FIELDS } as z.output<typeof User> };
    },
  );
}
