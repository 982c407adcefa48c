// The one LISTEN/NOTIFY cache (the redirect's targets and the tenant directory are built on it),
// against a real PostgreSQL reached through a TCP proxy that can take the server away.
import { createTestDatabase, startTcpProxy, type TcpProxy, type TestDatabase } from "@app/testing/database";
import { SOON } from "@app/testing/timing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ChangeNotifiedCache, createPrisma, NotificationListener, type PrismaClient } from "../src/index.ts";

const CHANNEL = "test_cache_changed";

let db: TestDatabase;
let proxy: TcpProxy;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  const url = new URL(db.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  prisma = createPrisma(proxy.via(db.url), { poolMax: 1 });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await proxy?.close();
  await db?.drop();
});

/** Sends a notification on the channel from a connection of its own (not through the proxy). */
async function notify(payload: string) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]);
  await client.end();
}

describe("ChangeNotifiedCache", () => {
  it("drops what a notification names; ignores a read that a notification overtook", async () => {
    const cache = new ChangeNotifiedCache<number>(prisma, {
      channel: CHANNEL,
      ttlMs: 60_000,
      maxEntries: 10,
    });
    await cache.start();
    try {
      expect(cache.isListening).toBe(true);
      cache.set("a", 1);
      cache.set("b", 2);
      expect(cache.get("a")).toBe(1);
      await notify("a");
      await vi.waitFor(() => expect(cache.get("a")).toBeUndefined(), SOON);
      expect(cache.get("b")).toBe(2);

      const readAt = cache.generation();
      await notify("zzz");
      await vi.waitFor(() => expect(cache.generation()).toBeGreaterThan(readAt), SOON);
      cache.set("c", 3, readAt);
      expect(cache.get("c")).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });

  it("keeps at most maxEntries (oldest out) and lets an entry expire after ttlMs", async () => {
    const cache = new ChangeNotifiedCache<number>(prisma, { channel: CHANNEL, ttlMs: 1_000, maxEntries: 2 });
    await cache.start();
    // The clock is the test's: a busy machine pausing this process cannot expire an entry early.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      cache.set("a", 1);
      cache.set("b", 2);
      cache.set("c", 3);
      expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
      vi.setSystemTime(Date.now() + 999);
      expect(cache.get("b")).toBe(2);
      vi.setSystemTime(Date.now() + 1);
      expect(cache.get("b")).toBeUndefined();
    } finally {
      vi.useRealTimers();
      await cache.stop();
    }
  });

  it("a long outage (a hundred reconnection attempts) writes one warning and one recovery line, serves nothing meanwhile, and invalidates again after", async () => {
    const lines: string[] = [];
    const cache = new ChangeNotifiedCache<number>(prisma, {
      channel: CHANNEL,
      ttlMs: 60_000,
      maxEntries: 10,
      retryMs: 20,
      onOutage: () => lines.push("warning"),
      onRecovery: () => lines.push("recovered"),
    });
    // Each reconnection attempt is a call of its listener's start() (the retry timer's): counted here.
    const starts = vi.spyOn(NotificationListener.prototype, "start");
    const attemptsSoFar = () => starts.mock.calls.length;
    await cache.start();
    try {
      cache.set("a", 1);
      await proxy.down();
      await vi.waitFor(() => expect(cache.isListening).toBe(false), SOON);
      cache.set("b", 2);
      expect([cache.get("a"), cache.get("b")]).toEqual([undefined, undefined]);
      const before = attemptsSoFar();
      await vi.waitFor(() => expect(attemptsSoFar() - before).toBeGreaterThanOrEqual(100), {
        timeout: 60_000,
      });
      expect(lines).toEqual(["warning"]);
      await proxy.up();
      await vi.waitFor(() => expect(cache.isListening).toBe(true), SOON);
      expect(lines).toEqual(["warning", "recovered"]);

      cache.set("c", 3);
      expect(cache.get("c")).toBe(3);
      await notify("c");
      await vi.waitFor(() => expect(cache.get("c")).toBeUndefined(), SOON);
    } finally {
      starts.mockRestore();
      await cache.stop();
      await proxy.up().catch(() => {});
    }
  });
});
