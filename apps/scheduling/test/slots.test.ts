// GET /slots through the app: v1's response shape, its ways of naming the event type, and
// refusals of bad or hostile queries.
import { describe, expect, it } from "vitest";
import { at, futureMonday, giveSchedule, makeHost, makeTeamEvent } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

async function slots(apiKey: string, query: string) {
  return t.app.inject({ url: withKey(`/v1/slots?${query}`, apiKey) });
}

describe("GET /slots", () => {
  it("answers v1's shape: UTC times with ms without timeZone, zoned times with an offset with it", async () => {
    const host = await createUser(t.prisma, { username: `slots_${Date.now()}` });
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    const day = monday.toISOString().slice(0, 10);
    const range = `startTime=${monday.toISOString()}&endTime=${at(monday, 60).toISOString()}`;

    const utc = await slots(host.apiKey, `eventTypeId=${eventType.id}&${range}`);
    expect(utc.statusCode, utc.body).toBe(200);
    expect(utc.json()).toEqual({
      slots: {
        [day]: [
          { time: `${day}T09:00:00.000Z` },
          { time: `${day}T09:30:00.000Z` },
          { time: `${day}T10:00:00.000Z` },
        ],
      },
    });

    const berlin = await slots(host.apiKey, `eventTypeId=${eventType.id}&${range}&timeZone=Europe/Berlin`);
    const [first] = Object.values(berlin.json().slots as Record<string, { time: string }[]>)[0]!;
    expect(first!.time).toMatch(new RegExp(`^${day}T1[01]:00:00\\+0[12]:00$`));

    // Another user's key may read them too (a booking page is public), by username + slug as well.
    const other = await createUser(t.prisma);
    const bySlug = await slots(
      other.apiKey,
      `usernameList=${host.user.username}&eventTypeSlug=${eventType.slug}&${range}`,
    );
    expect(bySlug.json()).toEqual(utc.json());
    // The bare path answers as well.
    expect(
      (
        await t.app.inject({ url: withKey(`/slots?eventTypeId=${eventType.id}&${range}`, host.apiKey) })
      ).json(),
    ).toEqual(utc.json());
  });

  it("drops a booked slot and answers 404 for an unknown event type", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const monday = futureMonday();
    await t.prisma.booking.create({
      data: {
        uid: `s-${Date.now()}`,
        userId: host.user.id,
        eventTypeId: eventType.id,
        title: "x",
        startTime: at(monday, 30),
        endTime: at(monday, 60),
      },
    });
    const range = `startTime=${monday.toISOString()}&endTime=${at(monday, 60).toISOString()}`;
    const times = Object.values(
      (await slots(host.apiKey, `eventTypeId=${eventType.id}&${range}`)).json().slots,
    ).flat();
    expect(times).toEqual([{ time: monday.toISOString() }, { time: at(monday, 60).toISOString() }]);
    const missing = await slots(host.apiKey, `eventTypeId=2000000000&${range}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: "NOT_FOUND" });
  });

  it.each([
    ["no event type", "startTime=2030-01-01&endTime=2030-01-02", "usernameList/eventTypeSlug"],
    ["no startTime", "eventTypeId=1&endTime=2030-01-02", "startTime"],
    ["a bad date", "eventTypeId=1&startTime=tomorrow&endTime=2030-01-02", "startTime"],
    [
      "end before start",
      "eventTypeId=1&startTime=2030-01-02&endTime=2030-01-01",
      "endTime must be after startTime",
    ],
    ["a range over 93 days", "eventTypeId=1&startTime=2030-01-01&endTime=2030-06-01", "at most 93 days"],
    [
      "a bad time zone",
      "eventTypeId=1&startTime=2030-01-01&endTime=2030-01-02&timeZone=Mars/Base",
      "timeZone",
    ],
    ["a non-numeric id", "eventTypeId=abc&startTime=2030-01-01&endTime=2030-01-02", "eventTypeId"],
    ["a huge id", "eventTypeId=99999999999&startTime=2030-01-01&endTime=2030-01-02", "eventTypeId"],
    ["a NUL", "usernameList=a%00b&eventTypeSlug=x&startTime=2030-01-01&endTime=2030-01-02", "usernameList"],
    ["an unknown key", "eventTypeId=1&startTime=2030-01-01&endTime=2030-01-02&debug=true", "debug"],
  ])("refuses %s with 400", async (_label, query, message) => {
    const { apiKey } = await createUser(t.prisma);
    const response = await slots(apiKey, query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
  });

  // The bound is the test's timeout: the day loop used to run on past year 9999 without end.
  it("answers a range, and a booking, at the last day of year 9999", { timeout: 20_000 }, async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const answer = await slots(
      host.apiKey,
      `eventTypeId=${eventType.id}&startTime=9999-12-29&endTime=9999-12-30T15:00:00Z`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    // A booking there checks the same days.
    const booked = await t.app.inject({
      method: "POST",
      url: withKey("/v1/bookings", host.apiKey),
      payload: {
        eventTypeId: eventType.id,
        start: "9999-12-30T15:00:00Z",
        timeZone: "UTC",
        language: "en",
        metadata: {},
        responses: { name: "Late", email: "late@example.com" },
      },
    });
    expect(booked.statusCode, booked.body).toBeLessThan(500);
  });

  // A ROLLING_WINDOW counts its dates with slots from today, on at most 61 dates (v1's bound,
  // cal.com ROLLING_WINDOW_PERIOD_MAX_DAYS_TO_CHECK): a range past them has no slots. Every day
  // from today to the range was computed (year 2100: 16 s of CPU from any apiKey; year 9999: a
  // 500, "Set maximum size exceeded"). The bound is the test's timeout.
  it("ROLLING_WINDOW: a range in year 2100 or 9999 has no slots, and a booking there is a 4xx, personal or team", {
    timeout: 15_000,
  }, async () => {
    const host = await createUser(t.prisma);
    const personal = await makeHost(t.prisma, host.user.id);
    const colleague = await createUser(t.prisma);
    await giveSchedule(t.prisma, colleague.user.id);
    const { eventType: team } = await makeTeamEvent(t.prisma, "COLLECTIVE", [
      { userId: host.user.id },
      { userId: colleague.user.id },
    ]);
    for (const eventType of [personal, team]) {
      await t.prisma.eventType.update({
        where: { id: eventType.id },
        data: { periodType: "ROLLING_WINDOW", periodDays: 10 },
      });
      // Mondays at 09:00 UTC, inside the hosts' hours.
      for (const day of ["2100-03-01", "9999-12-06"]) {
        const answer = await slots(
          host.apiKey,
          `eventTypeId=${eventType.id}&startTime=${day}T00:00:00Z&endTime=${day}T23:59:59Z`,
        );
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toEqual({ slots: {} });
        const booked = await t.app.inject({
          method: "POST",
          url: withKey("/v1/bookings", host.apiKey),
          payload: {
            eventTypeId: eventType.id,
            start: `${day}T09:00:00Z`,
            timeZone: "UTC",
            language: "en",
            metadata: {},
            responses: { name: "Far", email: "far@example.com" },
          },
        });
        expect(booked.statusCode, `${eventType.id} ${day} ${booked.body}`).toBe(400);
        expect(booked.json()).toEqual({ message: "no_available_users_found_error" });
      }
    }
    expect(await t.prisma.booking.count({ where: { eventTypeId: { in: [personal.id, team.id] } } })).toBe(0);
  });

  // The bookings' query window is widened by a margin: at year 1 (or with buffers of
  // millennia) it reached year 0 or before, which PostgreSQL refuses, and the answer was a 500.
  it("answers a range in year 1, and an event type with buffers of millennia", async () => {
    const host = await createUser(t.prisma);
    const eventType = await makeHost(t.prisma, host.user.id);
    const first = await slots(
      host.apiKey,
      `eventTypeId=${eventType.id}&startTime=0001-01-01&endTime=0001-01-02`,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ slots: {} });

    await t.prisma.eventType.update({
      where: { id: eventType.id },
      data: { beforeEventBuffer: 2_147_483_647, afterEventBuffer: 2_147_483_647 },
    });
    const monday = futureMonday();
    const buffered = await slots(
      host.apiKey,
      `eventTypeId=${eventType.id}&startTime=${monday.toISOString()}&endTime=${at(monday, 60).toISOString()}`,
    );
    expect(buffered.statusCode, buffered.body).toBe(200);
    expect(Object.values(buffered.json().slots).flat()).toHaveLength(3);
  });

  it("needs an apiKey and offers only GET", async () => {
    expect((await t.app.inject({ url: "/v1/slots?eventTypeId=1" })).statusCode).toBe(401);
    const { apiKey } = await createUser(t.prisma);
    const post = await t.app.inject({ method: "POST", url: withKey("/v1/slots", apiKey) });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe("GET");
  });
});

describe("GET /me", () => {
  it("answers the caller's public user through every prefix, and 401 without a key", async () => {
    const { user, apiKey } = await createUser(t.prisma);
    for (const path of ["/v1/me", "/api/v1/me", "/me"]) {
      const response = await t.app.inject({ url: withKey(path, apiKey) });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: user.id, email: user.email, role: "USER" });
      expect(Object.keys(response.json().user)).not.toContain("passwordHash");
    }
    expect((await t.app.inject({ url: "/v1/me" })).statusCode).toBe(401);
    const { apiKey: key } = await createUser(t.prisma);
    expect((await t.app.inject({ method: "DELETE", url: withKey("/v1/me", key) })).statusCode).toBe(405);
  });
});

describe("bodiless requests with Content-Type: application/json", () => {
  it("are answered as if the header were absent (axios sends it on every call)", async () => {
    const { apiKey } = await createUser(t.prisma);
    for (const method of ["GET", "DELETE"] as const) {
      const response = await t.app.inject({
        method,
        url: withKey(method === "GET" ? "/v1/teams" : "/v1/teams/2000000000", apiKey),
        headers: { "content-type": "application/json" },
      });
      expect(response.statusCode, `${method} ${response.body}`).toBe(method === "GET" ? 200 : 404);
    }
  });
});

describe("numbers in queries", () => {
  it.each(["take=0x10", "page=1e2", "take=", "page=+2", "take=10.0"])(
    "refuses %s with 400",
    async (query) => {
      const { apiKey } = await createUser(t.prisma);
      const response = await t.app.inject({ url: withKey(`/v1/teams?${query}`, apiKey) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain("decimal digits");
    },
  );
});
