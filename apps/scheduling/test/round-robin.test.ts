// v1's round-robin rule (cal.com packages/lib/server/getLuckyUser.ts), table by table: which
// free host a ROUND_ROBIN booking goes to. Pure inputs: the booking history is given.
import { describe, expect, it } from "vitest";
import { pickRoundRobinHost, type RoundRobinContext, type RoundRobinHost } from "../src/slots/round-robin.ts";

const host = (id: number, fields: Partial<RoundRobinHost> = {}): RoundRobinHost => ({
  id,
  priority: null,
  weight: null,
  lastBooked: null,
  bookingsThisMonth: 0,
  ...fields,
});
const plain: RoundRobinContext = { weightsEnabled: false, allWeights: [], bookingsThisMonth: 0 };
const pick = (free: RoundRobinHost[], context: RoundRobinContext = plain) =>
  pickRoundRobinHost(free, context).id;

describe("least recently booked (getLuckyUser.ts leastRecentlyBookedUser)", () => {
  it.each([
    ["the only free host, whatever else", [host(1, { lastBooked: [9, 9], priority: 0 })], 1],
    ["never booked before booked", [host(1, { lastBooked: [5, 1] }), host(2)], 2],
    ["the older latest booking", [host(1, { lastBooked: [20, 7] }), host(2, { lastBooked: [10, 8] })], 2],
    [
      "at the same instant, the earlier booking id",
      [host(1, { lastBooked: [10, 8] }), host(2, { lastBooked: [10, 7] })],
      2,
    ],
    ["nobody booked yet: the first in the order given (user id)", [host(3), host(5), host(4)], 3],
  ])("%s", (_label, free, expected) => {
    expect(pick(free)).toBe(expected);
  });
});

describe("priority (getLuckyUser.ts getUsersWithHighestPriority)", () => {
  it.each([
    [
      "the highest priority wins over the least recently booked",
      [host(1), host(2, { priority: 3, lastBooked: [9, 9] })],
      2,
    ],
    [
      "no priority counts as 2 (medium): above 1",
      [host(1, { priority: 1 }), host(2, { lastBooked: [9, 9] })],
      2,
    ],
    ["no priority counts as 2: below 3", [host(1, { lastBooked: [9, 9], priority: 3 }), host(2)], 1],
    [
      "equal priorities fall back to the least recently booked",
      [host(1, { priority: 4, lastBooked: [9, 9] }), host(2, { priority: 4, lastBooked: [5, 5] })],
      2,
    ],
  ])("%s", (_label, free, expected) => {
    expect(pick(free)).toBe(expected);
  });
});

describe("weights (getLuckyUser.ts filterUsersBasedOnWeights, when isRRWeightsEnabled)", () => {
  it.each([
    [
      // 10 bookings this month; A's share 2/3 = 6.67 (has 5: 1.67 short), B's 3.33 (has 3: 0.33 short).
      "the host furthest below their share of this month's bookings, even if booked more recently",
      [
        host(1, { weight: 200, bookingsThisMonth: 5, lastBooked: [9, 9] }),
        host(2, { weight: 100, bookingsThisMonth: 3 }),
      ],
      { weightsEnabled: true, allWeights: [200, 100], bookingsThisMonth: 10 },
      1,
    ],
    [
      "the same history with weights off: the least recently booked",
      [
        host(1, { weight: 200, bookingsThisMonth: 5, lastBooked: [9, 9] }),
        host(2, { weight: 100, bookingsThisMonth: 3 }),
      ],
      { weightsEnabled: false, allWeights: [200, 100], bookingsThisMonth: 10 },
      2,
    ],
    [
      "equally short: the heavier host",
      [host(1), host(2, { weight: 300, lastBooked: [9, 9] })],
      { weightsEnabled: true, allWeights: [null, 300], bookingsThisMonth: 0 },
      2,
    ],
    [
      "equally short and heavy: the priority, then the least recently booked",
      [host(1, { priority: 1 }), host(2, { lastBooked: [9, 9] }), host(3, { lastBooked: [4, 4] })],
      { weightsEnabled: true, allWeights: [null, null, null], bookingsThisMonth: 0 },
      3,
    ],
    [
      // A busy host's weight still counts: 4 bookings, total weight 400 → each 100-weight share is 1.
      "shares are of every round-robin host's weight, free or not",
      [host(1, { bookingsThisMonth: 1 }), host(2, { bookingsThisMonth: 0, lastBooked: [9, 9] })],
      { weightsEnabled: true, allWeights: [100, 100, 200], bookingsThisMonth: 4 },
      2,
    ],
    [
      "no weight counts as 100",
      [host(1, { weight: 100, bookingsThisMonth: 2 }), host(2, { bookingsThisMonth: 1, lastBooked: [9, 9] })],
      { weightsEnabled: true, allWeights: [100, null], bookingsThisMonth: 3 },
      2,
    ],
  ])("%s", (_label, free, context, expected) => {
    expect(pick(free, context)).toBe(expected);
  });

  it("a 300/100 split of 8 bookings, one after another, goes 6 to 2 in v1's order", () => {
    const counts = new Map([
      [1, 0],
      [2, 0],
    ]);
    const order: number[] = [];
    for (let n = 0; n < 8; n++) {
      const chosen = pick(
        [1, 2].map((id) => host(id, { weight: id === 1 ? 300 : 100, bookingsThisMonth: counts.get(id)! })),
        { weightsEnabled: true, allWeights: [300, 100], bookingsThisMonth: n },
      );
      counts.set(chosen, counts.get(chosen)! + 1);
      order.push(chosen);
    }
    expect(order).toEqual([1, 2, 1, 1, 1, 2, 1, 1]);
  });
});

it("refuses an empty list (the caller answers 409 before asking)", () => {
  expect(() => pickRoundRobinHost([], plain)).toThrow();
});
