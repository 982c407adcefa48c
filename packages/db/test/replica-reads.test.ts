// ReplicaReads without a replica, and the WAL position parser; the routing itself is tested on
// a real primary and replica in test/read-replica.test.ts.
import { describe, expect, inject, it } from "vitest";
import { createPrisma } from "../src/client.ts";
import { parseLsn, ReplicaReads } from "../src/replica-reads.ts";

describe("parseLsn", () => {
  it("reads PostgreSQL's hi/lo hex form as one 64-bit position, ordered as the WAL is", () => {
    expect(parseLsn("0/3000000")).toBe(0x3000000n);
    expect(parseLsn("16/B374D848")).toBe(0x16b374d848n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
  });
});

describe("ReplicaReads without a replica", () => {
  it("reads from the primary, starts no checks and counts the reads", async () => {
    const primary = createPrisma(inject("databaseServerUrl"), { poolMax: 1 });
    const reads = new ReplicaReads(primary, { maxLagMs: 1_000 });
    try {
      await reads.start();
      expect(reads.replica).toBeUndefined();
      expect(reads.client()).toBe(primary);
      reads.wrote();
      expect(await reads.read(async (db) => (db === primary ? "primary" : "other"))).toBe("primary");
      expect(reads.counts).toEqual({ replica: 0, primary: 1 });
    } finally {
      await reads.stop();
      await primary.$disconnect();
    }
  });
});
