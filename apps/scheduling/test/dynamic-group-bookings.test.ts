// Booking a dynamic group of users as v1 did (calcom-v1-bookings.md §2.2; cal.com
// packages/features/bookings/lib/handleNewBooking/getEventType.ts and loadUsers.ts, cited in the
// test names): `eventTypeId: 0` with `eventTypeSlug` and `user` books v1's default group event
// with every user as a host, where GET /slots?usernameList= offered it; refusals change nothing
// and parallel bookers of one start get it once (docs/adr/0170).
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { at, futureMonday, giveSchedule } from "./booking-helpers.ts";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();
let bookerKey: string;
beforeAll(async () => {
  bookerKey = (await createUser(t.prisma)).apiKey;
});

/** `count` users with a Monday-Friday 09:00-17:00 UTC schedule, in id order. */
async function people(count: number) {
  const users = [];
  for (let i = 0; i < count; i++) {
    const person = await createUser(t.prisma);
    await giveSchedule(t.prisma, person.user.id, { name: `Member ${i + 1}` });
    users.push(person.user);
  }
  return users.sort((a, b) => a.id - b.id);
}

function body(user: unknown, start: Date, extra: Record<string, unknown> = {}) {
  return {
    eventTypeId: 0,
    eventTypeSlug: "group",
    user,
    start: start.toISOString(),
    timeZone: "Europe/Berlin",
    language: "en",
    metadata: {},
    responses: { name: "Bea Booker", email: "bea@example.com" },
    ...extra,
  };
}

const post = (payload: object) =>
  t.app.inject({ method: "POST", url: withKey("/v1/bookings", bookerKey), payload });

async function groupSlots(usernames: string[], day: Date) {
  const list = usernames.map((u) => `usernameList=${u}`).join("&");
  const response = await t.app.inject({
    url: withKey(
      `/v1/slots?${list}&eventTypeSlug=group&startTime=${day.toISOString()}&endTime=${at(day, 24 * 60 - 1).toISOString()}`,
      bookerKey,
    ),
  });
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(response.json().slots as Record<string, { time: string }[]>)
    .flat()
    .map((slot) => slot.time);
}

describe("POST /bookings with eventTypeId 0 (getEventType.ts: getDefaultEvent)", () => {
  it("books every user of the group, the first organizing, where GET /slots?usernameList= offered it; then it is taken", async () => {
    const [a, b] = await people(2);
    const monday = futureMonday();
    const day = at(monday, -9 * 60);
    expect(await groupSlots([a!.username!, b!.username!], day)).toContain(at(monday, 60).toISOString());
    const response = await post(body(`${a!.username}+${b!.username}`, at(monday, 60)));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      userId: a!.id,
      eventTypeId: null,
      dynamicEventSlugRef: "group",
      dynamicGroupSlugRef: `${a!.username}+${b!.username}`,
      startTime: at(monday, 60).toISOString(),
      endTime: at(monday, 90).toISOString(),
      status: "ACCEPTED",
    });
    expect(response.json().attendees.map((x: { email: string }) => x.email)).toEqual([
      "bea@example.com",
      b!.email,
    ]);
    expect(await groupSlots([a!.username!, b!.username!], day)).not.toContain(at(monday, 60).toISOString());
    const again = await post(body([a!.username, b!.username], at(monday, 60)));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "fixed_hosts_unavailable_for_booking" });
  });

  it("takes `user` as a list too, and a member's own booking blocks the group", async () => {
    const [a, b, c] = await people(3);
    const monday = futureMonday();
    await t.prisma.booking.create({
      data: {
        uid: `busy-${Date.now()}`,
        userId: c!.id,
        title: "Busy",
        startTime: at(monday, 120),
        endTime: at(monday, 150),
      },
    });
    const list = [a!.username, b!.username, c!.username];
    expect((await post(body(list, at(monday, 120)))).statusCode).toBe(409);
    const ok = await post(body(list, at(monday, 180)));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().attendees).toHaveLength(3);
  });

  it("refuses, changing nothing: no slug or one user 400, an unknown username 404, a user who forbids dynamic booking v1's 400 (loadUsers.ts)", async () => {
    const [a, b] = await people(2);
    const locked = await createUser(t.prisma);
    await t.prisma.user.update({ where: { id: locked.user.id }, data: { allowDynamicBooking: false } });
    const start = at(futureMonday(), 240);
    const before = await t.prisma.booking.count();
    const noSlug = await post({ ...body(`${a!.username}+${b!.username}`, start), eventTypeSlug: undefined });
    expect(noSlug.statusCode).toBe(400);
    expect(noSlug.json().issues).toEqual([{ path: "eventTypeSlug", message: "Required with eventTypeId 0" }]);
    const alone = await post(body(a!.username, start));
    expect(alone.statusCode).toBe(400);
    expect(alone.json().issues).toEqual([
      { path: "user", message: "two or more usernames with eventTypeId 0" },
    ]);
    const unknown = await post(body(`${a!.username}+nobody-${Date.now()}`, start));
    expect(unknown.statusCode).toBe(404);
    const forbidden = await post(body(`${a!.username}+${locked.user.username}`, start));
    expect(forbidden.statusCode).toBe(400);
    expect(forbidden.json()).toEqual({
      message: "Some of the users in this group do not allow dynamic booking",
    });
    expect(await t.prisma.booking.count()).toBe(before);
  });

  it("six parallel bookers of one group start over HTTP: exactly one gets it", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" }).catch(() => {});
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const [a, b] = await people(2);
    const start = at(futureMonday(3), 60);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${base}${withKey("/v1/bookings", bookerKey)}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body(`${a!.username}+${b!.username}`, start)),
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(
      await t.prisma.booking.count({ where: { dynamicGroupSlugRef: `${a!.username}+${b!.username}` } }),
    ).toBe(1);
  });
});
