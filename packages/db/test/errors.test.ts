// Which database errors are "unavailable" (a 503 the client may retry) rather than a bug (500).
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../src/errors.ts";

describe("isDatabaseUnavailable", () => {
  it("knows a pool that gave no connection in time, at any layer, and nothing else", () => {
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2024", message: "Timed out fetching a new connection" })).toBe(
      true,
    );
    // Prisma's interactive transaction waiting past maxWait for a connection.
    expect(
      isDatabaseUnavailable({
        code: "P2028",
        message: "Transaction API error: Unable to start a transaction in the given time.",
      }),
    ).toBe(true);
    expect(isDatabaseUnavailable({ cause: { code: "57P01" } })).toBe(true);
    // pg, asked to query on a connection that failed (seen when a Patroni leader steps down).
    expect(
      isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable")),
    ).toBe(true);
    // A write a standby refused: a failover's demoted leader, still routed to (no leader took it).
    expect(isDatabaseUnavailable({ cause: { code: "25006" } })).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error(
          "Invalid `tx.booking.create()` invocation: cannot execute INSERT in a read-only transaction",
        ),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable({ code: "25001", message: "active SQL transaction" })).toBe(false);
    // A transaction used after it ended is a bug: a 500.
    expect(isDatabaseUnavailable({ code: "P2028", message: "Transaction already closed" })).toBe(false);
    expect(isDatabaseUnavailable({ code: "23505", message: "duplicate key" })).toBe(false);
  });
});
