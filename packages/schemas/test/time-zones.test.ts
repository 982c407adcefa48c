// The shipped zone list is what the server computes with: every name in it works in this
// runtime's Intl (the slot engine's clock), and every zone this runtime calls canonical is in
// it, so a client sending `Intl.DateTimeFormat().resolvedOptions().timeZone` is never refused.
import { TIME_ZONES, timeZone } from "@app/schemas/scheduling";
import { describe, expect, it } from "vitest";

describe("the shipped time zone list", () => {
  it("holds only names this runtime's Intl can compute with", () => {
    const unknown = TIME_ZONES.filter((name) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: name });
        return false;
      } catch {
        return true;
      }
    });
    expect(unknown).toEqual([]);
  });

  it("holds every zone this runtime lists, and is sorted without repeats", () => {
    const listed = new Set<string>(TIME_ZONES);
    expect(Intl.supportedValuesOf("timeZone").filter((name) => !listed.has(name))).toEqual([]);
    expect([...TIME_ZONES]).toEqual([...listed].sort());
  });

  it("is exactly what the schema takes: listed names as written, nothing else", () => {
    for (const name of ["Europe/London", "UTC", "US/Eastern", "Asia/Calcutta", "Etc/GMT+5"]) {
      expect(timeZone().safeParse(name).success, name).toBe(true);
    }
    for (const name of ["europe/london", "utc", "+01:00", "UTC+1", "Mars/Olympus_Mons", "", "posix/UTC"]) {
      expect(timeZone().safeParse(name).success, name).toBe(false);
    }
  });
});
