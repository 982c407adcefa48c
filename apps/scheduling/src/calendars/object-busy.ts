// One stored calendar object's busy time, as the sync keeps it: its intervals in the sync's
// window cut into pieces, and its text when a later sync must expand it again. Pure, and free of
// the database: the sync's thread (caldav-worker.ts) runs it.
import { busyIntervals } from "./busy-times.ts";

/** Busy intervals are stored in pieces of at most this: a read looks back this far (busy.ts). */
export const BUSY_PIECE_MS = 7 * 24 * 3_600_000;

/** An object as the sync stores it. */
export interface ExpandedObject {
  href: string;
  etag: string;
  /** Busy pieces, [start, end) in ms since the epoch. */
  pieces: [number, number][];
  /** Its text, kept when it must be expanded again (recurring, or read on the host's clocks). */
  keep: string | null;
  /** Read in part or not at all (logged by the sync). */
  warning?: string;
  /** Over the largest object read: stored without busy time (logged by the sync). */
  tooLarge?: true;
}

/** Busy intervals of one object, in pieces of at most BUSY_PIECE_MS. */
function pieces(intervals: { start: Date; end: Date }[]): [number, number][] {
  const out: [number, number][] = [];
  for (const { start, end } of intervals) {
    for (let at = start.getTime(); at < end.getTime(); at += BUSY_PIECE_MS) {
      out.push([at, Math.min(at + BUSY_PIECE_MS, end.getTime())]);
    }
  }
  return out;
}

/** What an object stores: its busy pieces in the window, and its text when it must be expanded again. */
export function expandObject(
  data: string,
  window: { from: Date; to: Date },
  timeZone: string,
): { pieces: [number, number][]; keep: string | null; warning?: string } {
  const result = busyIntervals(data, { from: window.from, to: window.to, hostTimeZone: timeZone });
  if (result.kind === "invalid")
    return { pieces: [], keep: null, warning: `does not parse: ${result.reason}` };
  const intervals = [...result.intervals];
  // A rule cut short by a bound goes on past it: what it was not expanded to is busy (fail
  // closed). An event that could not be read at all is skipped, with its warning.
  const limited = result.warnings.some((w) => w.code === "occurrence-limit" || w.code === "step-limit");
  if (limited && result.confirmedUntil < window.to)
    intervals.push({ start: result.confirmedUntil, end: window.to, uid: "" });
  const { summary } = result;
  return {
    pieces: pieces(intervals),
    keep: summary.recurs || summary.followsHostZone ? data : null,
    ...(result.warnings.length > 0 ? { warning: result.warnings.map((w) => w.message).join("; ") } : {}),
  };
}
