// API key authentication: one onRequest hook on the whole app, so every route needs a key
// unless its config says `public: true` (deny by default). The key comes from v1's `?apiKey=`,
// or from `Authorization: Bearer` or `x-api-key` (docs/adr/0149). It authenticates in the
// request's database, which the hosting plugin's hook (before this one) has set: the default
// one, or in hosted mode the tenant's. The calendar feed's route takes a feed token instead.
import { type PrismaClient, queryPrepared } from "@app/db";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { hashApiKey } from "./credentials.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { feedTokenUser } from "./feed/feed-tokens.ts";
import type { AuthContext } from "./types.ts";

export interface AuthOptions {
  /** APIKEY_PREFIX: the leading part of every key, not hashed. */
  prefix: string;
  /** How long a key found is trusted on this instance (AUTH_CACHE_MS; tests shorten it). */
  cacheMs: number;
}

// Writing lastUsedAt on every request would turn every read into a DB write.
const LAST_USED_RESOLUTION_MS = 60_000;
/**
 * A key found in the database is trusted for this long on this instance: a revoked key, or a
 * newly locked or deleted user, is refused by every instance at most this much later. Expiry
 * is checked on every request against the cached `expiresAt`, so it stays exact. Unknown keys
 * are never cached (a new key works at once; random keys cannot fill the memory).
 */
export const AUTH_CACHE_MS = 5_000;
const AUTH_CACHE_MAX = 10_000;
/**
 * A key still in use this far into its entry is read again in the background (docs/adr/0257):
 * the entry is renewed before it expires, so no request of a busy key waits for the read, and
 * the bound above is unchanged (the entry still expires at its time if the read has not come back).
 */
const REFRESH_AFTER = 0.5;

/**
 * The key and its user in one prepared statement on the driver, as the event-type list is read
 * (docs/adr/0075, 0257): the request's whole path then runs no Prisma query, whose first one
 * loads Prisma's query compiler and each of which compiles its query again.
 */
const FIND_KEY = {
  name: "auth-find-key",
  text: `SELECT k."id", k."expiresAt", k."lastUsedAt", u."id" AS "userId", u."role", u."locked"
    FROM "scheduling"."api_keys" k LEFT JOIN "scheduling"."users" u ON u."id" = k."userId"
    WHERE k."hashedKey" = $1`,
};
/** A key revoked meanwhile has no row to update: no error, nothing written. */
const RECORD_USE = {
  name: "auth-record-use",
  // An ISO string in UTC for the `timestamp(3)` column, as Prisma writes it, whatever the process's zone.
  text: `UPDATE "scheduling"."api_keys" SET "lastUsedAt" = $2::timestamp WHERE "id" = $1::uuid`,
};

/** The scheme of an Authorization header that carries an API key; any other scheme is not ours. */
const BEARER = /^bearer[ \t]+(.*)$/is;

/**
 * The API key a request carries: `?apiKey=`, `x-api-key` or `Authorization: Bearer`, each
 * counted when non-empty. The same key in several places is one key; two different ones are
 * refused rather than one picked, since the caller's intent is unclear.
 */
export function presentedApiKey(request: FastifyRequest): unknown {
  const { apiKey } = request.query as { apiKey?: unknown };
  const header = request.headers["x-api-key"];
  const bearer = BEARER.exec(request.headers.authorization ?? "")?.[1]?.trim();
  const found = [apiKey, header, bearer].filter((value) => value !== undefined && value !== "");
  if (found.length === 0) return undefined;
  // A repeated query parameter (an array) is not a key; `authenticate` refuses it as such.
  const distinct = new Set(found.map((value) => (typeof value === "string" ? value : JSON.stringify(value))));
  if (distinct.size > 1) {
    throw new Unauthorized(
      "Two different API keys in one request: send one, in apiKey, x-api-key or Authorization",
    );
  }
  return found[0];
}

interface KeyRow {
  id: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  user: { id: number; role: string; locked: boolean } | null;
}

interface FoundKey {
  id: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  userId: number | null;
  role: string | null;
  locked: boolean | null;
}

interface CachedKey {
  row: KeyRow;
  /** Trusted until then (ms since the epoch). */
  until: number;
  /** Read again in the background from then on, when used. */
  refreshFrom: number;
}

async function authPlugin(app: FastifyInstance, { prefix, cacheMs }: AuthOptions) {
  const lastUsedWritten = new Map<string, number>();
  const keys = new Map<string, CachedKey>();
  /** The read of each key in flight: requests that miss together wait for one read, not one each. */
  const reads = new Map<string, Promise<KeyRow | null>>();
  /** lastUsedAt writes and background reads, which the app's close waits for. */
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  function read(db: PrismaClient, cacheKey: string, hashedKey: string): Promise<KeyRow | null> {
    const inFlight = reads.get(cacheKey);
    if (inFlight) return inFlight;
    // What the read sees was true when it began: the entry's time counts from then.
    const startedAt = Date.now();
    const reading = queryPrepared<FoundKey>(db, FIND_KEY, [hashedKey])
      .then(([found]) => {
        if (!found) {
          keys.delete(cacheKey);
          return null;
        }
        const { userId, role, locked, ...key } = found;
        const row: KeyRow = {
          ...key,
          user: userId === null ? null : { id: userId, role: role!, locked: locked! },
        };
        if (!keys.has(cacheKey) && keys.size >= AUTH_CACHE_MAX) {
          keys.delete(keys.keys().next().value as string);
        }
        keys.set(cacheKey, {
          row,
          until: startedAt + cacheMs,
          refreshFrom: startedAt + cacheMs * REFRESH_AFTER,
        });
        return row;
      })
      .finally(() => reads.delete(cacheKey));
    reads.set(cacheKey, reading);
    return reading;
  }

  /** `scope`: "" for the default database, the tenant id for a tenant's (ids repeat across databases). */
  async function findKey(db: PrismaClient, scope: string, hashedKey: string): Promise<KeyRow | null> {
    const now = Date.now();
    const cacheKey = scope === "" ? hashedKey : `${scope}:${hashedKey}`;
    const cached = keys.get(cacheKey);
    if (cached && cached.until > now) {
      if (now >= cached.refreshFrom && !reads.has(cacheKey)) {
        // A failed read leaves the entry to expire; the request that then reads reports the error.
        track(read(db, cacheKey, hashedKey).catch(() => {}));
      }
      return cached.row;
    }
    return read(db, cacheKey, hashedKey);
  }

  function recordUse(db: PrismaClient, apiKeyId: string, storedLastUsedAt: Date | null, now: Date): void {
    // The stored value also counts: another instance, or this one before a restart, may have written it.
    const last = Math.max(lastUsedWritten.get(apiKeyId) ?? 0, storedLastUsedAt?.getTime() ?? 0);
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    lastUsedWritten.set(apiKeyId, now.getTime());
    // Fire and forget: the request does not wait for this write.
    track(
      queryPrepared(db, RECORD_USE, [apiKeyId, now.toISOString()]).catch((err: unknown) =>
        app.log.error({ err, apiKeyId }, "could not record API key use"),
      ),
    );
  }

  async function authenticate(db: PrismaClient, scope: string, apiKey: unknown): Promise<AuthContext> {
    if (apiKey === undefined || apiKey === "") throw new Unauthorized("No apiKey provided");
    // A repeated parameter is ambiguous; no key is valid that way.
    if (typeof apiKey !== "string") throw new Unauthorized("Your API key is not valid.");

    const key = await findKey(db, scope, hashApiKey(apiKey, prefix));
    if (!key) throw new Unauthorized("Your API key is not valid.");
    const now = new Date();
    // Expired at the exact instant (v1 truncated both sides to local midnight).
    if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) {
      throw new Unauthorized("This API key is expired.");
    }
    if (!key.user) throw new Unauthorized("No user found for this API key.");
    if (key.user.locked) throw new Forbidden("You are not authorized to perform this request.");

    recordUse(db, key.id, key.lastUsedAt, now);
    return { userId: key.user.id, isAdmin: key.user.role === "ADMIN", apiKeyId: key.id };
  }

  app.decorateRequest("auth", null as unknown as AuthContext);

  app.addHook("onRequest", async (request) => {
    // An unknown route has nothing to protect; it answers 404 with or without a key.
    if (request.routeOptions.config.public || request.is404) return;
    if (request.routeOptions.config.feedToken) {
      // The calendar feed: its own secret, never an API key. Missing, unknown, revoked or a
      // locked user's: one answer, which tells nothing of whether the token existed.
      const userId = await feedTokenUser(request.db, (request.query as { feedToken?: unknown }).feedToken);
      if (userId === null) throw new Unauthorized("No valid feed token");
      request.auth = { userId, isAdmin: false, apiKeyId: null };
      return;
    }
    request.auth = await authenticate(request.db, request.tenantId ?? "", presentedApiKey(request));
  });

  // Let in-flight lastUsedAt writes and key reads finish before the caller disconnects Prisma.
  app.addHook("onClose", async () => {
    await Promise.allSettled([...pending]);
  });
}

export default fp(authPlugin, {
  name: "auth",
  fastify: "5.x",
  dependencies: ["hosting"],
  decorators: { fastify: ["prisma"] },
});
