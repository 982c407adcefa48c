// The slot engine's rules, table by table: pure inputs, no database, no clock.
import { describe, expect, it } from "vitest";
import {
  computeSlots,
  computeTeamSlots,
  type ExistingBooking,
  freeRanges,
  type HostInput,
  hostsFreeAt,
  type ScheduleInput,
  type SlotRules,
} from "../src/slots/slot-engine.ts";

const rules = (overrides: Partial<SlotRules> = {}): SlotRules => ({
  length: 30,
  minimumBookingNotice: 0,
  beforeEventBuffer: 0,
  afterEventBuffer: 0,
  periodType: "UNLIMITED",
  ...overrides,
});
const h = (hours: number, minutes = 0) => hours * 60 + minutes;
const weekdays = (timeZone: string, start = h(9), end = h(12)): ScheduleInput => ({
  timeZone,
  rules: [{ days: [1, 2, 3, 4, 5], start, end }],
});
const booking = (start: string, end: string, extra: Partial<ExistingBooking> = {}): ExistingBooking => ({
  start: new Date(start),
  end: new Date(end),
  uid: "b1",
  beforeBuffer: 0,
  afterBuffer: 0,
  sameEventType: false,
  attendees: 1,
  ...extra,
});
const times = (slots: { time: Date }[]) => slots.map((s) => s.time.toISOString());
const window = (from: string, to: string, now = "2020-01-01T00:00:00Z", timeZone?: string) => ({
  from: new Date(from),
  to: new Date(to),
  now: new Date(now),
  timeZone,
});

describe("weekly hours in the schedule's zone", () => {
  it.each([
    // Monday 2026-01-05, Berlin is UTC+1 in winter: 09:00-12:00 local = 08:00-11:00Z.
    [
      "Europe/Berlin, winter",
      "Europe/Berlin",
      "2026-01-05",
      ["08:00", "08:30", "09:00", "09:30", "10:00", "10:30"],
    ],
    // Monday 2026-07-06, UTC+2 in summer.
    [
      "Europe/Berlin, summer",
      "Europe/Berlin",
      "2026-07-06",
      ["07:00", "07:30", "08:00", "08:30", "09:00", "09:30"],
    ],
    [
      "America/New_York, winter",
      "America/New_York",
      "2026-01-05",
      ["14:00", "14:30", "15:00", "15:30", "16:00", "16:30"],
    ],
    ["UTC", "UTC", "2026-01-05", ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30"]],
  ])("%s", (_label, zone, day, expected) => {
    const slots = computeSlots(rules(), weekdays(zone), [], window(`${day}T00:00:00Z`, `${day}T23:59:59Z`));
    expect(times(slots)).toEqual(expected.map((t) => `${day}T${t}:00.000Z`));
  });

  it("has no slots on a weekend day", () => {
    expect(
      computeSlots(rules(), weekdays("UTC"), [], window("2026-01-03T00:00:00Z", "2026-01-04T23:59:59Z")),
    ).toEqual([]);
  });
});

describe("across DST changes", () => {
  it.each([
    // Europe: clocks go forward on Sunday 2026-03-29; Monday 03-30 09:00 CEST = 07:00Z, Friday 03-27 09:00 CET = 08:00Z.
    ["Berlin, before spring forward", "Europe/Berlin", "2026-03-27", "08:00"],
    ["Berlin, after spring forward", "Europe/Berlin", "2026-03-30", "07:00"],
    // US: forward on Sunday 2026-03-08.
    ["New York, before", "America/New_York", "2026-03-06", "14:00"],
    ["New York, after", "America/New_York", "2026-03-09", "13:00"],
    // Back on Sunday 2026-11-01.
    ["New York, after fall back", "America/New_York", "2026-11-02", "14:00"],
  ])("%s", (_label, zone, day, first) => {
    const slots = computeSlots(rules(), weekdays(zone), [], window(`${day}T00:00:00Z`, `${day}T23:59:59Z`));
    expect(times(slots)[0]).toBe(`${day}T${first}:00.000Z`);
    expect(slots).toHaveLength(6);
  });

  it("keeps a rule that spans the night of the change the right length", () => {
    const schedule: ScheduleInput = {
      timeZone: "Europe/Berlin",
      rules: [{ days: [0], start: h(1), end: h(4) }],
    };
    // Sunday 2026-03-29, 01:00-04:00 local is only two real hours (02:00-03:00 does not exist).
    const slots = computeSlots(
      rules({ length: 60 }),
      schedule,
      [],
      window("2026-03-28T12:00:00Z", "2026-03-29T12:00:00Z"),
    );
    expect(times(slots)).toEqual(["2026-03-29T00:00:00.000Z", "2026-03-29T01:00:00.000Z"]);
  });
});

describe("date overrides", () => {
  const day = "2026-01-05";
  const all = window(`${day}T00:00:00Z`, `${day}T23:59:59Z`);
  it("replace the weekly hours of their date", () => {
    const schedule: ScheduleInput = {
      timeZone: "UTC",
      rules: [...weekdays("UTC").rules, { days: [], start: h(14), end: h(15), date: day }],
    };
    expect(times(computeSlots(rules(), schedule, [], all))).toEqual([
      `${day}T14:00:00.000Z`,
      `${day}T14:30:00.000Z`,
    ]);
  });
  it("block the whole date when they start where they end", () => {
    const schedule: ScheduleInput = {
      timeZone: "UTC",
      rules: [...weekdays("UTC").rules, { days: [], start: 0, end: 0, date: day }],
    };
    expect(computeSlots(rules(), schedule, [], all)).toEqual([]);
  });
  it("open a day the weekly rules leave closed", () => {
    const schedule: ScheduleInput = {
      timeZone: "UTC",
      rules: [...weekdays("UTC").rules, { days: [], start: h(10), end: h(11), date: "2026-01-03" }],
    };
    const slots = computeSlots(rules(), schedule, [], window("2026-01-03T00:00:00Z", "2026-01-03T23:59:59Z"));
    expect(times(slots)).toEqual(["2026-01-03T10:00:00.000Z", "2026-01-03T10:30:00.000Z"]);
  });
});

describe("length, interval and the grid", () => {
  const day = window("2026-01-05T00:00:00Z", "2026-01-05T23:59:59Z");
  it.each([
    ["60 minutes", { length: 60 }, ["09:00", "10:00", "11:00"]],
    ["45 minutes, aligned to 15", { length: 45 }, ["09:00", "09:45", "10:30", "11:15"]],
    ["30 minutes every 60", { length: 30, slotInterval: 60 }, ["09:00", "10:00", "11:00"]],
    ["60 minutes every 30", { length: 60, slotInterval: 30 }, ["09:00", "09:30", "10:00", "10:30", "11:00"]],
  ])("%s", (_label, overrides, expected) => {
    const slots = computeSlots(rules(overrides), weekdays("UTC"), [], day);
    expect(times(slots)).toEqual(expected.map((t) => `2026-01-05T${t}:00.000Z`));
  });

  it("rounds a range that starts off the grid up to it", () => {
    const schedule = weekdays("UTC", h(9, 10), h(11));
    expect(times(computeSlots(rules(), schedule, [], day))).toEqual([
      "2026-01-05T09:30:00.000Z",
      "2026-01-05T10:00:00.000Z",
      "2026-01-05T10:30:00.000Z",
    ]);
  });
});

describe("existing bookings and buffers", () => {
  const day = window("2026-01-05T00:00:00Z", "2026-01-05T23:59:59Z");
  it("removes the slots a booking overlaps", () => {
    const slots = computeSlots(
      rules(),
      weekdays("UTC"),
      [booking("2026-01-05T10:00:00Z", "2026-01-05T10:30:00Z")],
      day,
    );
    expect(times(slots)).not.toContain("2026-01-05T10:00:00.000Z");
    expect(times(slots)).toContain("2026-01-05T09:30:00.000Z");
    expect(times(slots)).toContain("2026-01-05T10:30:00.000Z");
  });
  it("keeps both events' buffers clear", () => {
    const existing = booking("2026-01-05T10:00:00Z", "2026-01-05T10:30:00Z", { afterBuffer: 15 });
    const slots = computeSlots(rules({ beforeEventBuffer: 15 }), weekdays("UTC"), [existing], day);
    // 10:30 is inside its 15-minute after-buffer plus our 15-minute before-buffer.
    expect(times(slots)).toEqual([
      "2026-01-05T09:00:00.000Z",
      "2026-01-05T09:30:00.000Z",
      "2026-01-05T11:00:00.000Z",
      "2026-01-05T11:30:00.000Z",
    ]);
  });
  it("this event type's after-buffer keeps a slot off a following booking", () => {
    const existing = booking("2026-01-05T10:00:00Z", "2026-01-05T10:30:00Z");
    const slots = computeSlots(rules({ afterEventBuffer: 30 }), weekdays("UTC"), [existing], day);
    expect(times(slots)).not.toContain("2026-01-05T09:30:00.000Z");
    expect(times(slots)).toContain("2026-01-05T09:00:00.000Z");
  });
  it("a seated booking with seats left keeps its slot, with the seats taken", () => {
    const seated = booking("2026-01-05T10:00:00Z", "2026-01-05T10:30:00Z", {
      sameEventType: true,
      attendees: 2,
      uid: "seat",
    });
    const slots = computeSlots(rules({ seatsPerTimeSlot: 3 }), weekdays("UTC"), [seated], day);
    expect(slots.find((s) => s.time.toISOString() === "2026-01-05T10:00:00.000Z")).toEqual({
      time: new Date("2026-01-05T10:00:00Z"),
      attendees: 2,
      bookingUid: "seat",
    });
  });
  it("a full seated booking takes its slot", () => {
    const full = booking("2026-01-05T10:00:00Z", "2026-01-05T10:30:00Z", {
      sameEventType: true,
      attendees: 3,
    });
    const slots = computeSlots(rules({ seatsPerTimeSlot: 3 }), weekdays("UTC"), [full], day);
    expect(times(slots)).not.toContain("2026-01-05T10:00:00.000Z");
  });
});

describe("free time", () => {
  const MIN = 60_000;
  it("is every minute of the working hours that no busy range covers, whatever the busy ranges", () => {
    const schedule: ScheduleInput = {
      timeZone: "Europe/Berlin",
      rules: [
        { days: [1, 2, 3, 4, 5], start: h(9), end: h(12) },
        { days: [1, 3], start: h(13), end: h(17, 30) },
      ],
    };
    const from = Date.parse("2024-03-25T00:00:00Z");
    const to = from + 7 * 24 * 60 * MIN;
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      // Overlapping, touching and out-of-order busy ranges, some past the week's ends.
      const busy: [number, number][] = Array.from({ length: random(30) }, () => {
        const start = from - 60 * MIN + random(9 * 24 * 60) * MIN;
        return [start, start + (1 + random(300)) * MIN];
      });
      const free = freeRanges(schedule, busy, from, to);
      const working = freeRanges(schedule, [], from, to);
      for (let i = 1; i < free.length; i++) expect(free[i]![0]).toBeGreaterThan(free[i - 1]![1]);
      for (let t = from - 24 * 60 * MIN; t < to + 24 * 60 * MIN; t += 5 * MIN) {
        const inside = (ranges: [number, number][]) => ranges.some(([s, e]) => s <= t && t < e);
        expect(inside(free), new Date(t).toISOString()).toBe(inside(working) && !inside(busy));
      }
    }
  });
});

describe("notice and periods", () => {
  it("drops slots inside the minimum notice", () => {
    const slots = computeSlots(
      rules({ minimumBookingNotice: 120 }),
      weekdays("UTC"),
      [],
      window("2026-01-05T00:00:00Z", "2026-01-05T23:59:59Z", "2026-01-05T08:45:00Z"),
    );
    expect(times(slots)[0]).toBe("2026-01-05T11:00:00.000Z");
  });
  it("drops slots in the past", () => {
    const slots = computeSlots(
      rules(),
      weekdays("UTC"),
      [],
      window("2026-01-05T00:00:00Z", "2026-01-05T23:59:59Z", "2026-01-05T10:10:00Z"),
    );
    expect(times(slots)[0]).toBe("2026-01-05T10:30:00.000Z");
  });
  it("ROLLING: calendar days after today", () => {
    const slots = computeSlots(
      rules({ periodType: "ROLLING", periodDays: 2, periodCountCalendarDays: true }),
      weekdays("UTC"),
      [],
      window("2026-01-05T00:00:00Z", "2026-01-10T00:00:00Z", "2026-01-05T00:00:00Z"),
    );
    expect(new Set(times(slots).map((t) => t.slice(0, 10)))).toEqual(
      new Set(["2026-01-05", "2026-01-06", "2026-01-07"]),
    );
  });
  it("ROLLING: business days skip the weekend", () => {
    const slots = computeSlots(
      rules({ periodType: "ROLLING", periodDays: 2, periodCountCalendarDays: false }),
      weekdays("UTC"),
      [],
      window("2026-01-09T00:00:00Z", "2026-01-16T00:00:00Z", "2026-01-09T00:00:00Z"),
    );
    // Friday, then Monday and Tuesday.
    expect(new Set(times(slots).map((t) => t.slice(0, 10)))).toEqual(
      new Set(["2026-01-09", "2026-01-12", "2026-01-13"]),
    );
  });
  it("ROLLING: business days counted by whole weeks end where counting day by day ends, from every weekday", () => {
    const everyDay: ScheduleInput = {
      timeZone: "UTC",
      rules: [{ days: [0, 1, 2, 3, 4, 5, 6], start: h(9), end: h(10) }],
    };
    const DAY = 86_400_000;
    // Sunday 2026-01-04 to Saturday 2026-01-10 as today, 0 to 12 business days.
    for (let weekday = 0; weekday < 7; weekday++) {
      const today = Date.parse("2026-01-04T00:00:00Z") + weekday * DAY;
      for (let days = 0; days <= 12; days++) {
        let last = today;
        for (let counted = 0; counted < days; ) {
          last += DAY;
          if (![0, 6].includes(new Date(last).getUTCDay())) counted++;
        }
        const slots = computeSlots(
          rules({ periodType: "ROLLING", periodDays: days, periodCountCalendarDays: false }),
          everyDay,
          [],
          window(
            new Date(today).toISOString(),
            new Date(today + 30 * DAY).toISOString(),
            new Date(today).toISOString(),
          ),
        );
        expect(times(slots).at(-1)?.slice(0, 10), `${weekday} +${days}`).toBe(
          new Date(last).toISOString().slice(0, 10),
        );
      }
    }
  });
  it("ROLLING: a period of 2^31-1 days, calendar or business, allows every date (it overflowed Date, or counted for hours)", () => {
    for (const periodCountCalendarDays of [true, false]) {
      const slots = computeSlots(
        rules({ periodType: "ROLLING", periodDays: 2_147_483_647, periodCountCalendarDays }),
        weekdays("UTC"),
        [],
        window("9999-12-27T00:00:00Z", "9999-12-31T23:59:59Z", "2026-01-05T00:00:00Z"),
      );
      // Monday 27 to Friday 31 December 9999, six slots each.
      expect(slots, String(periodCountCalendarDays)).toHaveLength(30);
    }
  });
  it("RANGE: only between the period's dates", () => {
    const slots = computeSlots(
      rules({
        periodType: "RANGE",
        periodStartDate: new Date("2026-01-06T00:00:00Z"),
        periodEndDate: new Date("2026-01-07T00:00:00Z"),
      }),
      weekdays("UTC"),
      [],
      window("2026-01-05T00:00:00Z", "2026-01-10T00:00:00Z"),
    );
    expect(new Set(times(slots).map((t) => t.slice(0, 10)))).toEqual(new Set(["2026-01-06", "2026-01-07"]));
  });
  it("ROLLING_WINDOW: the first N bookable days from today", () => {
    const slots = computeSlots(
      rules({ periodType: "ROLLING_WINDOW", periodDays: 3 }),
      weekdays("UTC"),
      [],
      window("2026-01-08T00:00:00Z", "2026-01-20T00:00:00Z", "2026-01-08T00:00:00Z"),
    );
    // Thursday, Friday, Monday: three days that have slots.
    expect(new Set(times(slots).map((t) => t.slice(0, 10)))).toEqual(
      new Set(["2026-01-08", "2026-01-09", "2026-01-12"]),
    );
  });
  // v1's bound (cal.com packages/lib/constants.ts ROLLING_WINDOW_PERIOD_MAX_DAYS_TO_CHECK = 30 + 31,
  // read by isOutOfBounds.tsx getRollingWindowEndDate): a window's dates are looked for on 61
  // dates from today, calendar dates or, with periodCountCalendarDays false, business dates.
  // Every day from today to the range was computed instead, however far the range lay.
  it("ROLLING_WINDOW: its dates are looked for on 61 dates from today (v1's bound), calendar or business", () => {
    const dates = (periodCountCalendarDays: boolean, from: string, to: string, schedule = weekdays("UTC")) =>
      new Set(
        times(
          computeSlots(
            rules({ periodType: "ROLLING_WINDOW", periodDays: 90, periodCountCalendarDays }),
            schedule,
            [],
            window(from, to, "2026-01-08T00:00:00Z"),
          ),
        ).map((t) => t.slice(0, 10)),
      );
    // From Thursday 8 January 2026, the 61st calendar date is Monday 9 March; the 61st business
    // date Thursday 2 April. Fewer than 90 dates with slots lie before either.
    expect(dates(true, "2026-03-05T00:00:00Z", "2026-03-15T00:00:00Z")).toEqual(
      new Set(["2026-03-05", "2026-03-06", "2026-03-09"]),
    );
    expect(dates(true, "2026-03-30T00:00:00Z", "2026-04-06T00:00:00Z")).toEqual(new Set());
    expect(dates(false, "2026-03-30T00:00:00Z", "2026-04-06T00:00:00Z")).toEqual(
      new Set(["2026-03-30", "2026-03-31", "2026-04-01", "2026-04-02"]),
    );
    // A schedule whose only hours are a date two years away: no date to count before the bound.
    const later: ScheduleInput = {
      timeZone: "UTC",
      rules: [{ days: [], start: h(9), end: h(10), date: "2028-01-05" }],
    };
    expect(dates(true, "2028-01-05T00:00:00Z", "2028-01-06T00:00:00Z", later)).toEqual(new Set());
  });
  // The bound is the test's timeout: year 2100 took 16 s, year 9999 overflowed a Set (a 500).
  it("ROLLING_WINDOW: a range in year 2100 or 9999 has no slots, computed from the bound only", {
    timeout: 5_000,
  }, () => {
    for (const [from, to] of [
      ["2100-03-01T00:00:00Z", "2100-03-31T00:00:00Z"],
      ["9999-12-01T00:00:00Z", "9999-12-31T23:59:59Z"],
    ] as const) {
      const slotRules = rules({ periodType: "ROLLING_WINDOW", periodDays: 2_147_483_647 });
      const booker = window(from, to, "2026-01-08T00:00:00Z");
      expect(computeSlots(slotRules, weekdays("UTC"), [], booker), from).toEqual([]);
      const team = [true, false].map((fixed) => ({ schedule: weekdays("UTC"), bookings: [], fixed }));
      expect(computeTeamSlots(slotRules, team, booker), from).toEqual([]);
      // Whether a host is free at a start (a Monday, a Wednesday at 09:00) does not depend on the period.
      expect(hostsFreeAt(slotRules, team, new Date(from.replace("T00", "T09")), booker), from).toEqual([
        true,
        true,
      ]);
    }
  });
});

// Team event types: cal.com packages/lib/getAggregatedAvailability.ts (fixed hosts intersected,
// round-robin hosts each on their own, clipped to the fixed ones) over per-host availability
// (packages/lib/getUserAvailability.ts: each host's schedule in its own zone, their bookings).
describe("team event types (v1's getAggregatedAvailability)", () => {
  const day = "2026-01-05";
  const monday = window(`${day}T00:00:00Z`, `${day}T23:59:59Z`);
  const host = (fixed: boolean, schedule: ScheduleInput, bookings: ExistingBooking[] = []): HostInput => ({
    schedule,
    bookings,
    fixed,
  });
  const at = (list: string[]) => list.map((t) => `${day}T${t}:00.000Z`);

  it.each([
    [
      "COLLECTIVE: the hosts' common hours",
      [host(true, weekdays("UTC", h(9), h(12))), host(true, weekdays("UTC", h(10), h(13)))],
      at(["10:00", "10:30", "11:00", "11:30"]),
    ],
    [
      "COLLECTIVE: one host's booking takes the slot from the team",
      [
        host(true, weekdays("UTC", h(9), h(11))),
        host(true, weekdays("UTC", h(9), h(11)), [booking(`${day}T09:30:00Z`, `${day}T10:00:00Z`)]),
      ],
      at(["09:00", "10:00", "10:30"]),
    ],
    [
      "COLLECTIVE: one host's booking keeps its own buffer clear for the team",
      [
        host(true, weekdays("UTC", h(9), h(11))),
        host(true, weekdays("UTC", h(9), h(11)), [
          booking(`${day}T09:30:00Z`, `${day}T10:00:00Z`, { afterBuffer: 30 }),
        ]),
      ],
      at(["09:00", "10:30"]),
    ],
    [
      "ROUND_ROBIN: any host's hours (union)",
      [host(false, weekdays("UTC", h(9), h(10))), host(false, weekdays("UTC", h(11), h(12)))],
      at(["09:00", "09:30", "11:00", "11:30"]),
    ],
    [
      "ROUND_ROBIN: a slot booked for one host stays while another is free",
      [
        host(false, weekdays("UTC", h(9), h(10)), [booking(`${day}T09:00:00Z`, `${day}T09:30:00Z`)]),
        host(false, weekdays("UTC", h(9), h(10))),
      ],
      at(["09:00", "09:30"]),
    ],
    [
      "ROUND_ROBIN: a start every host is booked at is gone",
      [
        host(false, weekdays("UTC", h(9), h(10)), [booking(`${day}T09:00:00Z`, `${day}T09:30:00Z`)]),
        host(false, weekdays("UTC", h(9), h(10)), [booking(`${day}T09:00:00Z`, `${day}T09:30:00Z`)]),
      ],
      at(["09:30"]),
    ],
    [
      "ROUND_ROBIN with a fixed host: the fixed host's hours, and one round-robin host's",
      [
        host(true, weekdays("UTC", h(10), h(12))),
        host(false, weekdays("UTC", h(9), h(11))),
        host(false, weekdays("UTC", h(11), h(13))),
      ],
      at(["10:00", "10:30", "11:00", "11:30"]),
    ],
    [
      "ROUND_ROBIN with a fixed host who is booked all day: no slots (v1 fell back to the others)",
      [
        host(true, weekdays("UTC", h(9), h(12)), [booking(`${day}T09:00:00Z`, `${day}T12:00:00Z`)]),
        host(false, weekdays("UTC", h(9), h(12))),
      ],
      [],
    ],
    [
      "a host without working hours (a locked user) leaves a COLLECTIVE event no slots",
      [host(true, weekdays("UTC", h(9), h(12))), host(true, { timeZone: "UTC", rules: [] })],
      [],
    ],
    [
      "a host without working hours leaves the other round-robin hosts' slots",
      [host(false, weekdays("UTC", h(9), h(10))), host(false, { timeZone: "UTC", rules: [] })],
      at(["09:00", "09:30"]),
    ],
    ["no hosts: no slots", [], []],
  ])("%s", (_label, hosts, expected) => {
    expect(times(computeTeamSlots(rules(), hosts, monday))).toEqual(expected);
  });

  it("ROUND_ROBIN: a slot must fit one host, not two half-free hosts together (v1's intersect keeps ranges apart)", () => {
    const hosts = [
      host(false, weekdays("UTC", h(9), h(9, 45))),
      host(false, weekdays("UTC", h(9, 30), h(10, 15))),
    ];
    expect(computeTeamSlots(rules({ length: 60, slotInterval: 15 }), hosts, monday)).toEqual([]);
  });

  it("each host works in their own zone: Berlin and New York share 14:00-16:00Z on a winter Monday", () => {
    const hosts = [
      host(true, weekdays("Europe/Berlin", h(9), h(17))),
      host(true, weekdays("America/New_York", h(9), h(17))),
    ];
    expect(times(computeTeamSlots(rules(), hosts, monday))).toEqual(at(["14:00", "14:30", "15:00", "15:30"]));
  });

  it("the grid follows the event's zone: whole hours in Kolkata are half past in UTC", () => {
    const hosts = [host(true, weekdays("UTC", h(9), h(12)))];
    const slots = computeTeamSlots(rules({ length: 60 }), hosts, {
      ...monday,
      eventTimeZone: "Asia/Kolkata",
    });
    expect(times(slots)).toEqual(at(["09:30", "10:30"]));
  });

  // The US moves its clocks on 2026-03-08 and 2026-11-01, Europe on 2026-03-29 and 2026-10-25:
  // between those dates Berlin and New York are 5 hours apart instead of 6.
  it.each([
    ["both on winter time", "2026-03-06", ["14:00", "15:30", 4], ["08:00", "21:30", 28]],
    ["New York on summer time, Berlin not yet", "2026-03-09", ["13:00", "15:30", 6], ["08:00", "20:30", 26]],
    ["both on summer time", "2026-03-30", ["13:00", "14:30", 4], ["07:00", "20:30", 28]],
    [
      "Berlin back on winter time, New York not yet",
      "2026-10-26",
      ["13:00", "15:30", 6],
      ["08:00", "20:30", 26],
    ],
    ["both back on winter time", "2026-11-02", ["14:00", "15:30", 4], ["08:00", "21:30", 28]],
  ] as const)(
    "DST in two zones, %s (%s): COLLECTIVE and ROUND_ROBIN",
    (_label, date, collective, roundRobin) => {
      const hosts = (fixed: boolean) => [
        host(fixed, weekdays("Europe/Berlin", h(9), h(17))),
        host(fixed, weekdays("America/New_York", h(9), h(17))),
      ];
      const span = window(`${date}T00:00:00Z`, `${date}T23:59:59Z`);
      for (const [fixed, [first, last, count]] of [
        [true, collective],
        [false, roundRobin],
      ] as const) {
        const slots = times(computeTeamSlots(rules(), hosts(fixed), span));
        expect(slots[0], `fixed=${fixed}`).toBe(`${date}T${first}:00.000Z`);
        expect(slots.at(-1), `fixed=${fixed}`).toBe(`${date}T${last}:00.000Z`);
        expect(slots, `fixed=${fixed}`).toHaveLength(count);
      }
    },
  );

  it("hostsFreeAt: which hosts alone could hold the slot (v1's ensureAvailableUsers)", () => {
    const hosts = [
      host(false, weekdays("UTC", h(9), h(12))),
      host(false, weekdays("UTC", h(9), h(12)), [booking(`${day}T10:00:00Z`, `${day}T10:30:00Z`)]),
      host(false, weekdays("UTC", h(9), h(12)), [
        booking(`${day}T10:30:00Z`, `${day}T11:00:00Z`, { beforeBuffer: 15 }),
      ]),
      host(false, weekdays("UTC", h(10, 15), h(12))),
      host(false, weekdays("Asia/Tokyo", h(9), h(17))),
    ];
    const start = new Date(`${day}T10:00:00Z`);
    expect(
      hostsFreeAt(rules(), hosts, start, { from: start, to: start, now: new Date("2020-01-01") }),
    ).toEqual([true, false, false, false, false]);
  });
});
