// The event-type list runs one prepared SQL statement (event-types-list.ts) in place of the
// generic Prisma query: for every caller and filter it must answer exactly what Prisma would.
import { describe, expect, it } from "vitest";
import { listEventTypes } from "../src/resources/event-types-list.ts";
import { setupApp } from "./helpers.ts";
import { makeSchedule, makeTeam, newUser, resource, unique } from "./resource-fixtures.ts";

const t = setupApp();
const eventTypes = resource("event-types");

async function viaPrisma(filter: Parameters<typeof listEventTypes>[1]) {
  const where = {
    AND: [
      filter.viewer === null ? {} : eventTypes.visibleTo(filter.viewer),
      filter.userIds ? eventTypes.ownedBy(filter.userIds) : {},
      eventTypes.listWhere(filter.query),
    ],
  };
  return eventTypes.delegate(t.prisma).findMany({
    where,
    select: eventTypes.select,
    orderBy: { id: "asc" },
    skip: filter.skip,
    take: filter.take,
  });
}

describe("event-type list on one prepared statement", () => {
  it("answers what the generic Prisma list answers, for every caller, filter and page", async () => {
    const { prisma } = t;
    const [owner, member, outsider, invited] = await Promise.all([
      newUser(prisma),
      newUser(prisma),
      newUser(prisma),
      newUser(prisma),
    ]);
    const team = await makeTeam(prisma, owner.user.id);
    await prisma.membership.createMany({
      data: [
        { teamId: team.id, userId: member.user.id, role: "MEMBER", accepted: true },
        { teamId: team.id, userId: invited.user.id, role: "MEMBER", accepted: false },
      ],
    });
    const schedule = await makeSchedule(prisma, owner.user.id);
    // Every column set, JSON included, and timestamps with milliseconds (read back in UTC).
    const full = await prisma.eventType.create({
      data: {
        userId: owner.user.id,
        title: "Full",
        slug: unique("full"),
        length: 45,
        description: 'ümlaut "quoted"',
        locations: [{ type: "link", link: "https://example.com/x" }],
        metadata: { nested: { list: [1, "two", null] } },
        recurringEvent: { freq: 2, count: 3, interval: 1 },
        periodType: "RANGE",
        periodStartDate: new Date("2026-01-02T03:04:05.678Z"),
        periodEndDate: new Date("2026-12-31T23:59:59.999Z"),
        periodDays: 7,
        periodCountCalendarDays: true,
        schedulingType: "COLLECTIVE",
        scheduleId: schedule.id,
        price: 1500,
        currency: "eur",
        hosts: { create: { userId: owner.user.id, isFixed: true, scheduleId: schedule.id } },
        customInputs: {
          create: [
            { label: "B", type: "TEXT", required: false, options: [{ label: "x", type: "text" }] },
            { label: "A", type: "BOOL", required: true },
          ],
        },
      },
    });
    await prisma.eventType.create({
      data: { teamId: team.id, title: "Team", slug: unique("team"), length: 30 },
    });
    for (let i = 0; i < 3; i++) {
      await prisma.eventType.create({
        data: { userId: outsider.user.id, title: "O", slug: unique("o"), length: 15 },
      });
    }

    const viewers = [null, owner.user.id, member.user.id, outsider.user.id, invited.user.id];
    const userIdFilters = [undefined, [owner.user.id], [member.user.id, outsider.user.id], [999_999]];
    const slugFilters = [undefined, [full.slug], ["none"]];
    const pages = [
      { skip: 0, take: 100 },
      { skip: 1, take: 2 },
      { skip: 50, take: 10 },
    ];
    let compared = 0;
    for (const viewer of viewers) {
      for (const userIds of userIdFilters) {
        for (const slug of slugFilters) {
          for (const page of pages) {
            const filter = { viewer, userIds, query: slug ? { slug } : {}, ...page };
            expect(await listEventTypes(prisma, filter), JSON.stringify(filter)).toEqual(
              await viaPrisma(filter),
            );
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(180);
    const [fullRow] = await listEventTypes(prisma, {
      viewer: null,
      userIds: undefined,
      query: { slug: [full.slug] },
      skip: 0,
      take: 1,
    });
    expect(fullRow?.periodStartDate).toEqual(new Date("2026-01-02T03:04:05.678Z"));
    const inputs = (fullRow?.customInputs ?? []) as { label: string }[];
    expect(inputs.map((input) => input.label)).toEqual(["B", "A"]);
  });
});
