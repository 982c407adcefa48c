// The CSV export streams: a short with 1,000,000 visits is exported whole over HTTP while the
// process's resident memory grows by at most 50 MB (rows are read from a cursor 1,000 at a time
// and written as the client takes them). The database's statement timeout is set to 2 s here:
// an export outlives it (a long export is one statement, which must not be cut).
import type { AddressInfo } from "node:net";
import { adminQuery } from "@app/testing/database";
import { expect, it } from "vitest";
import { newUser, setupShortener } from "./helpers.ts";

const ctx = setupShortener({}, { statementTimeoutMs: 2_000 });
const ROWS = 1_000_000;

it("exports 1,000,000 visits as CSV in constant memory", async () => {
  const user = await newUser(ctx.prisma);
  const short = await ctx.prisma.short.create({
    data: { userId: user.id, name: "exported", url: "https://example.com/" },
  });
  // Seeded on a connection of its own: the app's 2 s statement timeout would cut this insert.
  await adminQuery(
    ctx.db.url,
    `INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer", "created_at", "browser", "country")
     SELECT '${short.id}'::uuid, '203.0.113.' || (i % 250), 'Mozilla/5.0 (X11; Linux x86_64) agent ' || (i % 97),
       'https://referrer.example/page/' || i, now() - i * interval '1 second', 'Firefox', 'FR'
     FROM generate_series(1, ${ROWS}) AS i`,
  );
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = ctx.app.server.address() as AddressInfo;

  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const response = await fetch(`http://127.0.0.1:${port}/api/shorts/${short.id}/logs?format=csv`, {
    headers: user.headers,
  });
  expect(response.status).toBe(200);
  let lines = 0;
  let bytes = 0;
  let last = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    bytes += chunk.byteLength;
    const text = last + decoder.decode(chunk, { stream: true });
    const parts = text.split("\r\n");
    last = parts.pop()!;
    lines += parts.length;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const grewMb = (peak - before) / 1024 / 1024;
  console.log(
    `CSV export: ${lines} lines, ${(bytes / 1e6).toFixed(0)} MB sent, RSS grew ${grewMb.toFixed(1)} MB`,
  );
  expect(lines).toBe(ROWS + 1);
  expect(grewMb).toBeLessThanOrEqual(50);
}, 600_000);
