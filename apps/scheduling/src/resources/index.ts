import type { FastifyPluginAsync } from "fastify";

/** Every /api/v1 resource route. The app registers this inside its apiKey-authenticated scope. */
export const resourceRoutes: FastifyPluginAsync = async () => {};
