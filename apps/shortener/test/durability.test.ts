// The database's connections are killed during a burst of visits: every 302 sent has its
// row, and a visit that could not be stored is answered 5xx, never 302.
import type { AddressInfo } from "node:net";
import { adminQuery } from "@app/testing/database";
import { expect, inject, it } from "vitest";
import { newUser, setupShortener, visit } from "./helpers.ts";

const ctx = setupShortener();

it("stores a row for every 302 while pg_terminate_backend kills the pool mid-burst", async () => {
  const user = await newUser(ctx.prisma);
  const short = await ctx.prisma.short.create({
    data: { userId: user.id, name: "burst", url: "https://example.com/" },
  });
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = ctx.app.server.address() as AddressInfo;
  const database = new URL(ctx.db.url).pathname.slice(1);

  const statuses: number[] = [];
  const deadline = Date.now() + 2_500;
  const worker = async () => {
    while (Date.now() < deadline) statuses.push(await visit(port, "/burst"));
  };
  const killer = (async () => {
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 400));
      await adminQuery(
        inject("databaseServerUrl"),
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`,
      );
    }
  })();
  await Promise.all([...Array.from({ length: 16 }, worker), killer]);

  const answered302 = statuses.filter((s) => s === 302).length;
  expect(answered302).toBeGreaterThan(0);
  // Anything else is a server error the client may retry, never a silent loss.
  expect(statuses.every((s) => s === 302 || (s >= 500 && s < 600))).toBe(true);
  expect(await ctx.prisma.shortLog.count({ where: { shortId: short.id } })).toBe(answered302);
});
