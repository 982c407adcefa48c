// The suite-wide secret scan (testing.ts) is only worth something if it sees a leak.
import Fastify from "fastify";
import { expect, it } from "vitest";
import { secretScan } from "../src/database.ts";

it("reports a remembered key found in a log line or an answer, by its whole value or its random part", async () => {
  const key = "cal_0123456789abcdef0123456789abcdef";
  secretScan.remember(key);
  secretScan.logStream.write('{"msg":"clean"}\n');
  expect(secretScan.leaks()).toEqual([]);

  secretScan.logStream.write(`{"url":"/x?apiKey=${key}"}\n`);
  const app = Fastify();
  secretScan.watch(app);
  app.get("/echo", async (_request, reply) => reply.header("x-debug", key.slice(4)).send({ ok: true }));
  await app.inject({ url: "/echo" });
  await app.close();

  const leaks = secretScan.leaks();
  expect(leaks.some((leak) => leak.startsWith("log line"))).toBe(true);
  expect(leaks.some((leak) => leak.startsWith("answer"))).toBe(true);
  expect(leaks.join("\n")).not.toContain(key); // the report itself quotes only a prefix
});
