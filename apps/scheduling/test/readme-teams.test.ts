// The README's team event types example, replayed as written on the demo data of `db:seed`:
// each curl of its sh block, in order, with the placeholders it names (<id>, <team id>,
// <alice>, <bob>) filled in, and each answer compared with what the README shows under it.
// Its dates (January 2027) move by whole 52-week years when they are past, so weekdays and
// UTC offsets stay.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seedDemoData } from "../src/seed.ts";
import { setupApp } from "./helpers.ts";

const t = setupApp();

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const intro = readme.indexOf("Team event types work as in v1.");
const block = readme.slice(readme.indexOf("```sh\n", intro) + 6, readme.indexOf("```\n", intro + 1));

const YEAR = 364 * 86_400_000;
const years = Math.max(0, Math.ceil((Date.now() + 7 * 86_400_000 - Date.parse("2027-01-04")) / YEAR));
const shift = (text: string) =>
  text.replace(/2027-01-0\d/g, (date) =>
    new Date(Date.parse(date) + years * YEAR).toISOString().slice(0, 10),
  );

interface Step {
  method: "GET" | "POST";
  url: string;
  body?: unknown;
  /** The comment lines right under the command: what the README says it answers. */
  shown: string[];
}

/** The block's curl commands (continuation lines joined), each with the comments under it. */
function steps(fill: (text: string) => string): Step[] {
  const found: Step[] = [];
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("curl ")) continue;
    let command = lines[i]!;
    // A -d '…' body runs over the lines until its closing quote.
    while ((command.match(/'/g)?.length ?? 0) % 2 === 1) command += `\n${lines[++i]}`;
    const shown: string[] = [];
    while (lines[i + 1]?.startsWith("# ")) shown.push(lines[++i]!.slice(2));
    const url = command.match(/"\$S([^"]+)"/)![1]!;
    const body = command.match(/ -d '([\s\S]*?)'/)?.[1];
    found.push({
      method: command.includes("-X POST") ? "POST" : "GET",
      url: fill(shift(url)),
      ...(body ? { body: JSON.parse(fill(shift(body))) } : {}),
      shown: shown.map(shift),
    });
  }
  return found;
}

describe("the README's team event types example", () => {
  it("answers as shown on the demo data: team slots, a COLLECTIVE booking and its 409, a ROUND_ROBIN host by priority, a dynamic group", async () => {
    const seeded = await seedDemoData(t.prisma, { prefix: "cal_" });
    const key = (email: string) => seeded.find((user) => user.email === email)!;
    const alice = key("alice@example.com");
    const bob = key("bob@example.com");
    const teamSync = await t.prisma.eventType.findFirstOrThrow({ where: { slug: "team-sync" } });
    const fill = (text: string) =>
      text
        .replaceAll("$ALICE", alice.apiKey)
        .replaceAll("<id>", String(teamSync.id))
        .replaceAll("<team id>", String(teamSync.teamId))
        .replaceAll("<alice>", String(alice.id))
        .replaceAll("<bob>", String(bob.id));
    const send = (step: Step) =>
      t.app.inject({
        method: step.method,
        url: step.url,
        ...(step.body ? { payload: step.body as object } : {}),
      });
    const [teamSlots, eventTypes, collective, roundRobin, groupSlots, groupBooking, ...rest] = steps(fill);
    expect(rest).toEqual([]);

    // The team's slots: exactly the two shown.
    const slots = await send(teamSlots!);
    expect(slots.statusCode, slots.body).toBe(200);
    expect(slots.json()).toEqual(JSON.parse(teamSlots!.shown[0]!));

    // The event type list finds team-sync by its slug.
    const listed = await send(eventTypes!);
    expect(listed.json().event_types.map((e: { id: number }) => e.id)).toEqual([teamSync.id]);

    // The COLLECTIVE booking: alice organizes, the booker and bob attend; the same start is 409.
    const booked = await send(collective!);
    expect(booked.statusCode, booked.body).toBe(Number(collective!.shown[0]!.slice(0, 3)));
    expect(booked.json()).toMatchObject({
      userId: alice.id,
      title: "Team sync between Demo Team and Bea Booker",
      luckyUsers: [],
    });
    expect(booked.json().attendees.map((a: { email: string }) => a.email)).toEqual([
      "bea@example.com",
      "bob@example.com",
    ]);
    const again = await send(collective!);
    const refusal = collective!.shown.at(-1)!.match(/again: (\d{3}) (\{.*\})/)!;
    expect(again.statusCode).toBe(Number(refusal[1]));
    expect(again.json()).toEqual(JSON.parse(refusal[2]!));

    // The ROUND_ROBIN event type; its bookings go to bob (priority 3) while he is free.
    const created = await send(roundRobin!);
    expect(created.statusCode, created.body).toBe(201);
    const salesCall = created.json().event_type.id as number;
    const day = shift("2027-01-04");
    const book = (start: string, email: string) =>
      t.app.inject({
        method: "POST",
        url: `/v1/bookings?apiKey=${alice.apiKey}`,
        payload: {
          eventTypeId: salesCall,
          start: `${day}T${start}:00Z`,
          timeZone: "Europe/Berlin",
          language: "en",
          metadata: {},
          responses: { name: "Bea Booker", email },
        },
      });
    const toBob = await book("15:00", "rr1@example.com");
    expect(toBob.statusCode, toBob.body).toBe(201);
    expect(toBob.json().luckyUsers).toEqual([bob.id]);
    // Bob is taken at 15:00 now: the same start goes to alice; then nobody is free.
    const toAlice = await book("15:00", "rr2@example.com");
    expect(toAlice.json().luckyUsers).toEqual([alice.id]);
    const nobody = await book("15:00", "rr3@example.com");
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json()).toEqual({ message: "round_robin_host_unavailable_for_booking" });

    // The dynamic group, after the bookings above (as the README's note says): its slots, then
    // the booking with eventTypeId 0. The round-robin bookings at 15:00 made that hour busy for
    // both, so the shown slots come back only once they are cancelled.
    await t.prisma.booking.updateMany({
      where: { eventTypeId: salesCall },
      data: { status: "CANCELLED" },
    });
    const group = await send(groupSlots!);
    expect(group.statusCode, group.body).toBe(200);
    expect(group.json()).toEqual(JSON.parse(groupSlots!.shown[0]!.split("   ")[0]!));
    const grouped = await send(groupBooking!);
    expect(grouped.statusCode, grouped.body).toBe(Number(groupBooking!.shown[0]!.slice(0, 3)));
    expect(grouped.json()).toMatchObject({
      userId: alice.id,
      eventTypeId: null,
      dynamicGroupSlugRef: "alice+bob",
    });
    expect(grouped.json().attendees.map((a: { email: string }) => a.email)).toEqual([
      "bea@example.com",
      "bob@example.com",
    ]);
  });
});
