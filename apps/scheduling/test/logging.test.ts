import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { redactUrl } from "../src/logger.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});

const t = setupApp(
  {},
  {
    logger: { level: "trace", stream },
    routes: (app) => {
      app.get("/test/fail", async () => {
        throw new Error("boom");
      });
      // A route that logs its request's headers, as a debugging line might.
      app.get("/test/log-headers", async (request) => {
        request.log.info({ headers: request.headers }, "headers seen");
        request.log.info({ req: request, headers: request.headers }, "request seen");
        return { ok: true };
      });
    },
  },
);

describe("request logs", () => {
  it("redact the apiKey query value however it is spelled", () => {
    expect(redactUrl("/api/v1/users?apiKey=cal_abc&take=5")).toBe("/api/v1/users?apiKey=[redacted]&take=5");
    expect(redactUrl("/x?take=1&apikey=cal_abc")).toBe("/x?take=1&apikey=[redacted]");
    expect(redactUrl("/x?api%4Bey=cal_abc")).toBe("/x?api%4Bey=[redacted]");
    expect(redactUrl("/x?take=1")).toBe("/x?take=1");
    expect(redactUrl("/x?apiKey[]=cal_abc")).toBe("/x?apiKey[]=[redacted]");
    expect(redactUrl("/x?apiKey%5B%5D=cal_abc&APIKEY[0]=cal_d")).toBe(
      "/x?apiKey%5B%5D=[redacted]&APIKEY[0]=[redacted]",
    );
  });

  it("redact hosted mode's license key (`key`) the same way, and nothing that merely contains the word", () => {
    expect(redactUrl("/api/v1/me?apiKey=cal_a&key=lk_b")).toBe("/api/v1/me?apiKey=[redacted]&key=[redacted]");
    expect(redactUrl("/x?KEY[]=lk_b&k%65y=lk_c&key")).toBe(
      "/x?KEY[]=[redacted]&k%65y=[redacted]&key=[redacted]",
    );
    expect(redactUrl("/x?monkey=1&keys=2&eventTypeSlug=key")).toBe("/x?monkey=1&keys=2&eventTypeSlug=key");
  });

  it("redact a key after `;` too, and one hidden in another parameter's encoded value", () => {
    expect(redactUrl("/api/v1/me?x=1;apiKey=cal_abc")).toBe("/api/v1/me?x=1;apiKey=[redacted]");
    expect(redactUrl("/x?apiKey=cal_a;take=1&key=lk_b;y=2")).toBe(
      "/x?apiKey=[redacted];take=1&key=[redacted];y=2",
    );
    expect(redactUrl("/x?x=1%26apiKey%3Dcal_abc&take=2")).toBe("/x?x=[redacted]&take=2");
    expect(redactUrl("/x?x=1%3Bkey%3Dlk_b")).toBe("/x?x=[redacted]");
    expect(redactUrl("/x?q=monkey%3D1;take=1")).toBe("/x?q=monkey%3D1;take=1");
  });

  it("never contain the key, whatever the request did", async () => {
    const { apiKey } = await createUser(t.prisma);
    const secret = apiKey.slice("cal_".length);
    const requests = [
      withKey("/v1/nowhere", apiKey),
      withKey("/api/v1/nowhere", apiKey),
      withKey("/test/fail", apiKey),
      withKey("/docs", apiKey),
      withKey("/test/fail", `${apiKey}0`),
      `/v1/users?apiKey[]=${apiKey}`,
      `/api/v1/me?x=1;apiKey=${apiKey}`,
      `/api/v1/me?x=1%3BapiKey%3D${apiKey}`,
      `/api/v1/bookings/%zz?apiKey=${apiKey}`,
    ];
    const answers: string[] = [];
    for (const url of requests) answers.push((await t.app.inject({ url })).body);
    await t.app.inject({ url: "/test/fail", headers: { authorization: `Bearer ${apiKey}` } });

    const logged = lines.join("\n");
    // One access line per request, with the request and its status.
    const access = lines
      .filter((line) => line.includes('"request completed"'))
      .map((line) => JSON.parse(line));
    // (the malformed URL is refused by the router, before any hook runs: no access line)
    expect(access).toHaveLength(requests.length);
    expect(access[0]).toMatchObject({ req: { method: "GET" }, res: { statusCode: 404 } });
    expect(logged).not.toContain("incoming request");
    expect(logged).toContain("apiKey=[redacted]");
    expect(logged).toContain("boom");
    expect(logged).not.toContain(secret);
    // Nor do the answers: a malformed URL is not echoed back.
    for (const answer of answers) expect(answer).not.toContain(secret);
    expect(answers.at(-1)).toBe(JSON.stringify({ message: "Malformed URL" }));
  });

  it("never contain a key sent in Authorization or x-api-key, even where headers are logged", async () => {
    const { apiKey } = await createUser(t.prisma);
    const other = await createUser(t.prisma);
    const secrets = [apiKey, other.apiKey].map((key) => key.slice("cal_".length));
    const sent = [
      { authorization: `Bearer ${apiKey}` },
      { "x-api-key": apiKey },
      { authorization: `Bearer ${apiKey}`, "x-api-key": other.apiKey },
      { "x-api-key": `${apiKey}0` },
    ];
    const before = lines.length;
    const answers: string[] = [];
    for (const headers of sent) {
      for (const url of ["/test/log-headers", "/test/fail", "/api/v1/me", "/v1/nowhere"]) {
        answers.push((await t.app.inject({ url, headers })).body);
      }
    }
    const logged = lines.slice(before).join("\n");
    expect(logged).toContain('"headers seen"');
    expect(logged).toContain('"x-api-key":"[redacted]"');
    expect(logged).toContain('"authorization":"[redacted]"');
    for (const secret of secrets) {
      expect(logged).not.toContain(secret);
      for (const answer of answers) expect(answer).not.toContain(secret);
    }
  });
});
