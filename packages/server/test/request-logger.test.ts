// Each request's logger is made only when it writes (lazyRequestLogger): a route at `warn` that
// logs nothing makes no pino child, and the lines written carry the request's id and level rules
// as Fastify's own child would.
import { Writable } from "node:stream";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { lazyRequestLogger, requestId } from "../src/http.ts";

const lines: { level: number; msg: string; reqId?: string }[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  app = Fastify({
    logger: { level: "info", stream },
    genReqId: requestId,
    childLoggerFactory: lazyRequestLogger,
  });
  app.get("/quiet", { logLevel: "warn" }, async (request) => {
    request.log.info("not written: below the route's level");
    request.log.debug("not written either");
    return "ok";
  });
  app.get("/warns", { logLevel: "warn" }, async (request) => {
    request.log.info("not written");
    request.log.warn({ detail: 1 }, "written");
    return "ok";
  });
  app.get("/loud", async (request) => {
    request.log.info("an info line");
    request.log.child({ part: "inner" }).info("a child's line");
    return "ok";
  });
  await app.ready();
});
afterAll(() => app.close());

it("makes no child for a request that writes nothing at or above its level", async () => {
  const child = vi.spyOn(app.log, "child");
  lines.length = 0;
  const response = await app.inject({ url: "/quiet", headers: { "x-request-id": "quiet-1" } });
  expect(response.statusCode).toBe(200);
  expect(child).not.toHaveBeenCalled();
  expect(lines).toEqual([]);
  child.mockRestore();
});

it("writes a warning with the request's id, and only it, on a route at warn", async () => {
  lines.length = 0;
  await app.inject({ url: "/warns", headers: { "x-request-id": "warns-1" } });
  expect(lines.map(({ level, msg, reqId }) => ({ level, msg, reqId }))).toEqual([
    { level: 40, msg: "written", reqId: "warns-1" },
  ]);
});

it("writes the access lines, the route's lines and a child's, each with the request's id", async () => {
  lines.length = 0;
  await app.inject({ url: "/loud", headers: { "x-request-id": "loud-1" } });
  expect(lines.map((line) => line.msg)).toEqual([
    "incoming request",
    "an info line",
    "a child's line",
    "request completed",
  ]);
  for (const line of lines) expect(line.reqId).toBe("loud-1");
  expect(lines[2]).toMatchObject({ part: "inner" });
});
