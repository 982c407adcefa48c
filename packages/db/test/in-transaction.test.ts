// inTransaction: the one BEGIN … COMMIT / ROLLBACK around a pool connection (the visit
// roll-up, the partition upkeep and the deletion sweep run in it), on a real PostgreSQL.
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../src/index.ts";

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await pool.query("CREATE TABLE items (n int PRIMARY KEY)");
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const stored = async () =>
  (await pool.query<{ n: number }>("SELECT n FROM items ORDER BY n")).rows.map((r) => r.n);

describe("inTransaction", () => {
  it("commits what the work did and returns its value", async () => {
    const value = await inTransaction(pool, async (client) => {
      await client.query("INSERT INTO items VALUES (1), (2)");
      return "done";
    });
    expect(value).toBe("done");
    expect(await stored()).toEqual([1, 2]);
  });

  it("rolls all of it back when the work throws, passes the error on, and frees the connection", async () => {
    const failure = inTransaction(pool, async (client) => {
      await client.query("INSERT INTO items VALUES (3)");
      await client.query("INSERT INTO items VALUES (1)"); // a duplicate key
    });
    await expect(failure).rejects.toMatchObject({ code: "23505" });
    expect(await stored()).toEqual([1, 2]);
    // The pool's one connection is back, outside any transaction.
    expect(pool.idleCount).toBe(1);
    const { rows } = await pool.query<{ open: boolean }>(
      "SELECT now() <> statement_timestamp() AS open", // equal unless a transaction is open
    );
    expect(rows[0]!.open).toBe(false);
  });

  it("closes a connection whose ROLLBACK failed instead of handing it out again", async () => {
    const before = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const failure = inTransaction(pool, async (client) => {
      // The connection dies under the work: its ROLLBACK cannot be sent.
      await client.query("SELECT pg_terminate_backend(pg_backend_pid())").catch(() => {});
      throw new Error("the work failed");
    });
    await expect(failure).rejects.toThrow("the work failed");
    const after = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    expect(after).not.toBe(before);
  });
});
