import {
  FeedToken,
  FeedTokenCreateBody,
  FeedTokenCreated,
  FeedTokenListQuery,
} from "@app/schemas/scheduling";
import type { z } from "zod";
import { Forbidden, NotFound } from "../errors.ts";
import { feedPath, issueFeedToken } from "../feed/feed-tokens.ts";
import { integerId } from "./ids.ts";
import { type CustomOperation, defineResource } from "./resource.ts";

type CreateBody = z.output<typeof FeedTokenCreateBody>;

/** The create answers the token, once: the generic create has no place for a secret. */
const createFeedToken: CustomOperation = {
  summary: "Create a calendar feed token (shown once)",
  description:
    "The token opens `GET /v1/bookings.ics?feedToken=...`: your bookings as a calendar to subscribe to. It is " +
    "answered this once (`token`, and `path`, the feed's path with it) and stored only as a hash; it is no API " +
    "key and opens nothing else. Admins may make one for another user with `userId`.",
  body: FeedTokenCreateBody,
  status: 201,
  response: FeedTokenCreated,
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { body }) {
    const input = (body ?? {}) as CreateBody;
    let userId = ctx.auth.userId;
    if (input.userId !== undefined && input.userId !== userId) {
      if (!ctx.auth.isAdmin) throw new Forbidden("Only admins can act for another user (userId)");
      const user = await ctx.db.user.findUnique({ where: { id: input.userId }, select: { id: true } });
      if (!user) throw new NotFound(`User with id: ${input.userId} not found`);
      userId = user.id;
    }
    const { token, record } = await issueFeedToken(ctx.db, { userId, note: input.note ?? null });
    // Hosted mode's license key is not echoed back (a tenant-wide secret): the caller adds `&key=`.
    return {
      feed_token: record,
      token,
      path: feedPath(token),
      message: "Feed token created successfully",
    };
  },
};

/**
 * Calendar feed tokens (docs/adr/0229): each user's own, as their other rows; revoking is the
 * generic delete (the row goes, and the feed refuses the token at once: it is never cached).
 */
export const feedTokens = defineResource({
  path: "feed-tokens",
  description: "Secrets that open your calendar feed (GET /v1/bookings.ics), each revocable on its own",
  model: "CalendarFeedToken",
  name: "Feed token",
  keys: { singular: "feed_token", plural: "feed_tokens" },
  operations: ["list", "create", "read", "delete"],
  id: integerId,
  schemas: { public: FeedToken, list: FeedTokenListQuery },
  ownedBy: (userIds) => ({ userId: { in: userIds } }),
  custom: { create: createFeedToken },
});
