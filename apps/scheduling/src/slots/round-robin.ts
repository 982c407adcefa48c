// Which free round-robin host gets a booking: v1's getLuckyUser (cal.com
// packages/lib/server/getLuckyUser.ts), without routing forms, out-of-office calibration or
// attribute weights, which this API has none of. Pure: the booking history is an input, so the
// rule is tested with plain tables (test/round-robin.test.ts).

/** v1's default priority ("medium", of 0-4) and weight of a host row without one. */
export const DEFAULT_PRIORITY = 2;
export const DEFAULT_WEIGHT = 100;

export interface RoundRobinHost {
  id: number;
  priority: number | null;
  weight: number | null;
  /**
   * Their latest accepted booking of this event type (as organizer or attendee):
   * [createdAt in ms, booking id]; null when they have none (v1: the epoch).
   */
  lastBooked: readonly [number, number] | null;
  /** Their accepted bookings of this event type created this month (UTC). */
  bookingsThisMonth: number;
}

export interface RoundRobinContext {
  /** v1's isRRWeightsEnabled. */
  weightsEnabled: boolean;
  /** The weights of every round-robin host of the event type, free or not. */
  allWeights: (number | null)[];
  /** Accepted bookings of this event type created this month (UTC). */
  bookingsThisMonth: number;
}

const weightOf = (weight: number | null) => weight ?? DEFAULT_WEIGHT;

/** The hosts for whom `score` is highest. */
function best<T>(hosts: T[], score: (host: T) => number): T[] {
  const top = Math.max(...hosts.map(score));
  return hosts.filter((host) => score(host) === top);
}

/**
 * v1's order: with weights on, the hosts furthest below their share of this month's bookings
 * (then the heaviest); then the highest priority; then the least recently booked. Ties keep
 * the order given (the caller's: by user id), so the choice is deterministic.
 */
export function pickRoundRobinHost<T extends RoundRobinHost>(free: T[], context: RoundRobinContext): T {
  if (free.length === 0) throw new Error("pickRoundRobinHost needs at least one free host");
  let candidates = free;
  if (context.weightsEnabled && candidates.length > 1) {
    const totalWeight = context.allWeights.reduce<number>((sum, weight) => sum + weightOf(weight), 0);
    // Shortfall = total × weight / totalWeight − own; scaled by totalWeight to stay in integers.
    candidates = best(
      candidates,
      (host) => context.bookingsThisMonth * weightOf(host.weight) - host.bookingsThisMonth * totalWeight,
    );
    candidates = best(candidates, (host) => weightOf(host.weight));
  }
  candidates = best(candidates, (host) => host.priority ?? DEFAULT_PRIORITY);
  const last = (host: T) => host.lastBooked ?? [0, 0];
  return candidates.reduce((chosen, host) => {
    const [at, id] = last(host);
    const [chosenAt, chosenId] = last(chosen);
    return at < chosenAt || (at === chosenAt && id < chosenId) ? host : chosen;
  });
}
