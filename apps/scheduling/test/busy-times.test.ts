// Calendar objects as real clients write them (cal.com, Apple Calendar, Google, Outlook/Exchange,
// Fastmail, Thunderbird) → busy intervals: one test per rule of calendars/busy-times.ts, and
// properties holding the rule engine to a naive one and to ical.js. Pure logic: no server.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusyOptions,
  type BusyTimes,
  busyIntervals,
  describeCalendarObject,
} from "../src/calendars/busy-times.ts";
import { addDays, type LocalDate, localParts, zonedInstant } from "../src/slots/time-zones.ts";

/** A fixture as a client sends it: CRLF line ends (lines starting with a space are folds). */
const ics = (text: string) => `${text.trim().split("\n").join("\r\n")}\r\n`;

const MARCH = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-04-01T00:00:00Z") };

function busy(text: string, options: Partial<BusyOptions> = {}): Extract<BusyTimes, { kind: "busy" }> {
  const result = busyIntervals(text, { ...MARCH, hostTimeZone: "Europe/Berlin", ...options });
  if (result.kind !== "busy") throw new Error(`expected busy times, got: ${result.reason}`);
  return result;
}

/** `start/end` of each interval, in UTC. */
const spans = (result: { intervals: { start: Date; end: Date }[] }) =>
  result.intervals.map(
    ({ start, end }) => `${start.toISOString().slice(0, 16)}/${end.toISOString().slice(0, 16)}`,
  );

const BERLIN_VTIMEZONE_APPLE = `BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
DTSTART:19810329T020000
TZNAME:MESZ
TZOFFSETTO:+0200
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
DTSTART:19961027T030000
TZNAME:MEZ
TZOFFSETTO:+0100
END:STANDARD
END:VTIMEZONE`;

const CALCOM = ics(`BEGIN:VCALENDAR
VERSION:2.0
CALSCALE:GREGORIAN
PRODID:adamgibbons/ics
X-PUBLISHED-TTL:PT1H
BEGIN:VEVENT
UID:7f8e4a0c-1c2b-4d7e-9a51-3b3c2d1e0f9a
SUMMARY:30 Min Meeting between Hope Host and Ada Attendee
DTSTAMP:20260301T101500Z
DTSTART:20260306T090000Z
DESCRIPTION:What: 30 Min Meeting between Hope Host and Ada Attendee\\nWhen: F
 riday\\, March 6\\, 2026 | 10:00 - 10:30 (Europe/Berlin)\\nWho:\\nHope Host -
  Organizer
LOCATION:integrations:daily
ORGANIZER;CN=Hope Host:mailto:hope@example.com
ATTENDEE;RSVP=TRUE;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Ada Attendee:mai
 lto:ada@example.com
DURATION:PT30M
STATUS:CONFIRMED
END:VEVENT
END:VCALENDAR`);

const APPLE_WEEKLY = ics(`BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Apple Inc.//macOS 15.3//EN
CALSCALE:GREGORIAN
${BERLIN_VTIMEZONE_APPLE}
BEGIN:VEVENT
CREATED:20260110T083012Z
UID:3C1B6A1E-5D0E-4B8A-9C53-0E4F2B8D7A61
DTEND;TZID=Europe/Berlin:20260112T100000
RRULE:FREQ=WEEKLY;INTERVAL=1
TRANSP:OPAQUE
X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC
SUMMARY:Team sync
LAST-MODIFIED:20260110T083045Z
DTSTAMP:20260110T083045Z
DTSTART;TZID=Europe/Berlin:20260112T090000
SEQUENCE:0
END:VEVENT
END:VCALENDAR`);

const OUTLOOK_VTIMEZONE = `BEGIN:VTIMEZONE
TZID:W. Europe Standard Time
BEGIN:STANDARD
DTSTART:16010101T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:16010101T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3
END:DAYLIGHT
END:VTIMEZONE`;

const OUTLOOK = ics(`BEGIN:VCALENDAR
METHOD:PUBLISH
PRODID:Microsoft Exchange Server 2010
VERSION:2.0
X-WR-CALNAME:Calendar
${OUTLOOK_VTIMEZONE}
BEGIN:VEVENT
DESCRIPTION:\\n
RRULE:FREQ=DAILY;UNTIL=20260403T073000Z;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR
UID:040000008200E00074C5B7101A82E008000000004A6E2B1C9D8FDB01000000000000000010
 000000C4E0F4
SUMMARY:Daily stand-up
DTSTART;TZID=W. Europe Standard Time:20260323T093000
DTEND;TZID=W. Europe Standard Time:20260323T094500
CLASS:PUBLIC
PRIORITY:5
DTSTAMP:20260320T120000Z
TRANSP:OPAQUE
STATUS:CONFIRMED
SEQUENCE:0
LOCATION:Microsoft Teams Meeting
X-MICROSOFT-CDO-APPT-SEQUENCE:0
X-MICROSOFT-CDO-BUSYSTATUS:BUSY
X-MICROSOFT-CDO-INTENDEDSTATUS:BUSY
X-MICROSOFT-CDO-ALLDAYEVENT:FALSE
X-MICROSOFT-CDO-IMPORTANCE:1
X-MICROSOFT-CDO-INSTTYPE:1
X-MICROSOFT-DISALLOW-COUNTER:FALSE
END:VEVENT
BEGIN:VEVENT
DESCRIPTION:\\n
UID:040000008200E00074C5B7101A82E00800000000B0F7A3C19D8FDB01000000000000000010
 000000D2A1B3
SUMMARY:Focus time
DTSTART;TZID=W. Europe Standard Time:20260325T140000
DTEND;TZID=W. Europe Standard Time:20260325T160000
CLASS:PUBLIC
PRIORITY:5
DTSTAMP:20260320T120000Z
TRANSP:TRANSPARENT
STATUS:CONFIRMED
SEQUENCE:0
X-MICROSOFT-CDO-BUSYSTATUS:FREE
X-MICROSOFT-CDO-INTENDEDSTATUS:FREE
X-MICROSOFT-CDO-ALLDAYEVENT:FALSE
END:VEVENT
END:VCALENDAR`);

const GOOGLE = ics(`BEGIN:VCALENDAR
PRODID:-//Google Inc//Google Calendar 70.9054//EN
VERSION:2.0
CALSCALE:GREGORIAN
METHOD:PUBLISH
X-WR-CALNAME:hope@example.com
X-WR-TIMEZONE:Europe/Berlin
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20260302T140000
DTEND;TZID=Europe/Berlin:20260302T150000
RRULE:FREQ=WEEKLY;BYDAY=MO
EXDATE;TZID=America/New_York:20260309T090000
DTSTAMP:20260301T120000Z
UID:1q2w3e4r5t6y7u8i9o0p@google.com
CREATED:20260201T100000Z
LAST-MODIFIED:20260301T110000Z
SEQUENCE:2
STATUS:CONFIRMED
SUMMARY:1:1 with Ada
TRANSP:OPAQUE
END:VEVENT
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20260319T110000
DTEND;TZID=Europe/Berlin:20260319T113000
DTSTAMP:20260301T120000Z
UID:1q2w3e4r5t6y7u8i9o0p@google.com
RECURRENCE-ID;TZID=Europe/Berlin:20260316T140000
CREATED:20260201T100000Z
LAST-MODIFIED:20260301T110500Z
SEQUENCE:3
STATUS:CONFIRMED
SUMMARY:1:1 with Ada (moved to Thursday)
TRANSP:OPAQUE
END:VEVENT
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20260323T140000
DTEND;TZID=Europe/Berlin:20260323T150000
DTSTAMP:20260301T120000Z
UID:1q2w3e4r5t6y7u8i9o0p@google.com
RECURRENCE-ID;TZID=Europe/Berlin:20260323T140000
CREATED:20260201T100000Z
LAST-MODIFIED:20260301T110600Z
SEQUENCE:3
STATUS:CANCELLED
SUMMARY:1:1 with Ada
TRANSP:OPAQUE
END:VEVENT
END:VCALENDAR`);

const FASTMAIL_ALL_DAY = ics(`BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Fastmail/2020.5/EN
BEGIN:VEVENT
DTEND;VALUE=DATE:20260313
DTSTAMP:20260301T090000Z
DTSTART;VALUE=DATE:20260311
SEQUENCE:0
SUMMARY:Offsite
TRANSP:OPAQUE
UID:b4d1e6a0-8c2f-4f33-9e0a-6f1f1a3c2b7d
END:VEVENT
END:VCALENDAR`);

const THUNDERBIRD = ics(`BEGIN:VCALENDAR
PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
VERSION:2.0
BEGIN:VTIMEZONE
TZID:Europe/Berlin
X-TZINFO:Europe/Berlin[2025b]
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
END:STANDARD
END:VTIMEZONE
BEGIN:VEVENT
CREATED:20260301T100000Z
LAST-MODIFIED:20260301T100000Z
DTSTAMP:20260301T100000Z
UID:5e0c3c4e-0d5c-4f0a-8d43-2a1b6a3c9f01
SUMMARY:Dentist
STATUS:TENTATIVE
DTSTART;TZID=Europe/Berlin:20260305T083000
DTEND;TZID=Europe/Berlin:20260305T093000
TRANSP:OPAQUE
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER;VALUE=DURATION:-PT15M
DESCRIPTION:Default Mozilla Description
END:VALARM
END:VEVENT
BEGIN:VEVENT
CREATED:20260301T100100Z
LAST-MODIFIED:20260301T100100Z
DTSTAMP:20260301T100100Z
UID:8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d
SUMMARY:Lunch
DTSTART;TZID=Europe/Berlin:20260305T120000
DTEND;TZID=Europe/Berlin:20260305T130000
TRANSP:TRANSPARENT
END:VEVENT
BEGIN:VEVENT
CREATED:20260301T100200Z
LAST-MODIFIED:20260301T100200Z
DTSTAMP:20260301T100200Z
UID:0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0
SUMMARY:Call with the bank
STATUS:CONFIRMED
DTSTART;TZID=Europe/Berlin:20260306T160000
DURATION:PT45M
END:VEVENT
BEGIN:VTODO
CREATED:20260301T100300Z
DTSTAMP:20260301T100300Z
UID:todo-1
SUMMARY:Buy milk
DUE:20260305T170000Z
END:VTODO
END:VCALENDAR`);

/** A bare VCALENDAR around some VEVENT lines (for rules no client fixture shows more plainly). */
const calendar = (...events: string[]) =>
  ics(
    `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//busy-times//EN\n${events
      .map((event) => `BEGIN:VEVENT\nDTSTAMP:20260301T000000Z\n${event.trim()}\nEND:VEVENT`)
      .join("\n")}\nEND:VCALENDAR`,
  );

describe("calendar objects as clients write them", () => {
  it("cal.com's own event (the ics package: UTC, DURATION, folded lines) blocks its half hour", () => {
    const result = busy(CALCOM);
    expect(spans(result)).toEqual(["2026-03-06T09:00/2026-03-06T09:30"]);
    expect(result.intervals[0]!.uid).toBe("7f8e4a0c-1c2b-4d7e-9a51-3b3c2d1e0f9a");
    expect(result.intervals[0]!.recurrenceId).toBeUndefined();
    expect(result.warnings).toEqual([]);
    expect(result.confirmedUntil).toEqual(MARCH.to);
  });

  it("every VEVENT of an object counts (Thunderbird's export: several events, a VTODO ignored); TENTATIVE and CONFIRMED block, TRANSPARENT does not", () => {
    const result = busy(THUNDERBIRD);
    expect(spans(result)).toEqual(["2026-03-05T07:30/2026-03-05T08:30", "2026-03-06T15:00/2026-03-06T15:45"]);
    expect(result.summary.uids).toEqual([
      "5e0c3c4e-0d5c-4f0a-8d43-2a1b6a3c9f01",
      "8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d",
      "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
    ]);
  });

  it("Outlook's Windows zone (W. Europe Standard Time, rules from 1601) places a weekday series across the March change; TRANSP counts, not X-MICROSOFT-CDO-BUSYSTATUS", () => {
    const result = busy(OUTLOOK);
    // 09:30 in Berlin: 08:30Z until the change on March 29, 07:30Z after; UNTIL is inclusive.
    expect(spans(result)).toEqual([
      "2026-03-23T08:30/2026-03-23T08:45",
      "2026-03-24T08:30/2026-03-24T08:45",
      "2026-03-25T08:30/2026-03-25T08:45",
      "2026-03-26T08:30/2026-03-26T08:45",
      "2026-03-27T08:30/2026-03-27T08:45",
      "2026-03-30T07:30/2026-03-30T07:45",
      "2026-03-31T07:30/2026-03-31T07:45",
    ]);
    const april = busy(OUTLOOK, {
      from: new Date("2026-04-01T00:00:00Z"),
      to: new Date("2026-04-10T00:00:00Z"),
    });
    expect(spans(april)).toEqual([
      "2026-04-01T07:30/2026-04-01T07:45",
      "2026-04-02T07:30/2026-04-02T07:45",
      "2026-04-03T07:30/2026-04-03T07:45",
    ]);
    // The focus time says FREE twice over (TRANSP and BUSYSTATUS); marked OPAQUE it blocks, whatever BUSYSTATUS says.
    expect(result.intervals.some(({ start }) => start.toISOString() === "2026-03-25T13:00:00.000Z")).toBe(
      false,
    );
    const opaque = busy(OUTLOOK.replace("TRANSP:TRANSPARENT", "TRANSP:OPAQUE"));
    expect(spans(opaque)).toContain("2026-03-25T13:00/2026-03-25T15:00");
  });

  it("Google's series: an EXDATE in another zone (New York) removes the Berlin instance at that instant, an override moves its instance to another day, a cancelled override frees its instance", () => {
    const result = busy(GOOGLE);
    expect(spans(result)).toEqual([
      "2026-03-02T13:00/2026-03-02T14:00",
      // March 9: EXDATE 09:00 New York (EDT since March 8) is 13:00Z, the Berlin instance.
      // March 16: moved to Thursday the 19th at 11:00, and only there (never both).
      "2026-03-19T10:00/2026-03-19T10:30",
      // March 23: cancelled. March 30: after Berlin's change.
      "2026-03-30T12:00/2026-03-30T13:00",
    ]);
    expect(result.intervals[1]!.recurrenceId).toBe("2026-03-16T13:00:00.000Z");
    expect(result.intervals[2]!.recurrenceId).toBe("2026-03-30T12:00:00.000Z");
  });

  it("a cancelled master frees the whole series, its overrides included", () => {
    const cancelled = GOOGLE.replace(
      "SEQUENCE:2\r\nSTATUS:CONFIRMED\r\nSUMMARY:1:1 with Ada\r\n",
      "SEQUENCE:2\r\nSTATUS:CANCELLED\r\nSUMMARY:1:1 with Ada\r\n",
    );
    expect(cancelled).not.toBe(GOOGLE);
    const result = busy(cancelled);
    expect(result.intervals).toEqual([]);
    expect(result.summary.span).toBeNull();
  });

  it("all-day events block the host's local day: UTC+13 (Tonga) and UTC−10 (Honolulu)", () => {
    expect(spans(busy(FASTMAIL_ALL_DAY, { hostTimeZone: "Pacific/Tongatapu" }))).toEqual([
      "2026-03-10T11:00/2026-03-12T11:00",
    ]);
    expect(spans(busy(FASTMAIL_ALL_DAY, { hostTimeZone: "Pacific/Honolulu" }))).toEqual([
      "2026-03-11T10:00/2026-03-13T10:00",
    ]);
    expect(busy(FASTMAIL_ALL_DAY).summary.followsHostZone).toBe(true);
  });
});

describe("times and zones", () => {
  it("a weekly 09:00 Europe/Berlin meeting stays 09:00 local across the March and October changes", () => {
    for (const [from, to] of [
      ["2026-03-16", "2026-04-07"],
      ["2026-10-12", "2026-11-03"],
    ] as const) {
      const result = busy(APPLE_WEEKLY, {
        from: new Date(`${from}T00:00:00Z`),
        to: new Date(`${to}T00:00:00Z`),
      });
      expect(result.intervals).toHaveLength(4);
      for (const { start, end } of result.intervals) {
        expect(localParts(start.getTime(), "Europe/Berlin")).toMatchObject({ hour: 9, minute: 0 });
        expect(end.getTime() - start.getTime()).toBe(3_600_000);
      }
    }
    expect(
      spans(
        busy(APPLE_WEEKLY, { from: new Date("2026-03-20T00:00:00Z"), to: new Date("2026-04-01T00:00:00Z") }),
      ),
    ).toEqual(["2026-03-23T08:00/2026-03-23T09:00", "2026-03-30T07:00/2026-03-30T08:00"]);
  });

  it("a reading the clocks skip is read with the offset before the gap, one they repeat is the first (RFC 5545 §3.3.5), with a VTIMEZONE or without", () => {
    for (const zone of ["", `${BERLIN_VTIMEZONE_APPLE}\n`]) {
      const text = ics(
        `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n${zone}BEGIN:VEVENT\nUID:gap\nDTSTART;TZID=Europe/Berlin:20260329T023000\nDURATION:PT1H\nEND:VEVENT\nBEGIN:VEVENT\nUID:overlap\nDTSTART;TZID=Europe/Berlin:20261025T023000\nDURATION:PT1H\nEND:VEVENT\nEND:VCALENDAR`,
      );
      const result = busy(text, { to: new Date("2026-11-01T00:00:00Z") });
      // 02:30 on March 29 does not exist: 03:30 CEST. 02:30 on October 25 is first CEST (00:30Z).
      expect(spans(result), zone ? "VTIMEZONE" : "IANA").toEqual([
        "2026-03-29T01:30/2026-03-29T02:30",
        "2026-10-25T00:30/2026-10-25T01:30",
      ]);
    }
  });

  it("the object's VTIMEZONE rules over the IANA zone of the same name, and a custom non-IANA one is used as written", () => {
    // A stale New York definition (DST from April's first Sunday, as before 2007).
    const stale = ics(`BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Old Client//EN
BEGIN:VTIMEZONE
TZID:America/New_York
BEGIN:STANDARD
DTSTART:19671029T020000
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19870405T020000
RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=4
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VTIMEZONE
TZID:Customized Time Zone
BEGIN:STANDARD
DTSTART:16010101T000000
TZOFFSETFROM:+0530
TZOFFSETTO:+0530
END:STANDARD
END:VTIMEZONE
BEGIN:VEVENT
UID:stale
DTSTART;TZID=America/New_York:20260320T100000
DTEND;TZID=America/New_York:20260320T110000
END:VEVENT
BEGIN:VEVENT
UID:custom
DTSTART;TZID="Customized Time Zone":20260310T100000
DTEND;TZID="Customized Time Zone":20260310T103000
END:VEVENT
END:VCALENDAR`);
    expect(spans(busy(stale))).toEqual([
      "2026-03-10T04:30/2026-03-10T05:00",
      "2026-03-20T15:00/2026-03-20T16:00",
    ]);
  });

  it("a TZID without its VTIMEZONE is resolved by name: IANA (also after Lightning's path prefix), a Windows name; an unknown one is read on the host's clocks with a warning", () => {
    const text = calendar(
      "UID:iana\nDTSTART;TZID=America/New_York:20260320T100000\nDURATION:PT1H",
      "UID:lightning\nDTSTART;TZID=/mozilla.org/20071231_1/Europe/London:20260320T100000\nDURATION:PT1H",
      "UID:windows\nDTSTART;TZID=Tokyo Standard Time:20260320T100000\nDURATION:PT1H",
      "UID:unknown\nDTSTART;TZID=Mars/Olympus_Mons:20260320T100000\nDURATION:PT1H",
    );
    const result = busy(text);
    const byUid = Object.fromEntries(
      result.intervals.map((interval) => [interval.uid, interval.start.toISOString()]),
    );
    expect(byUid).toEqual({
      iana: "2026-03-20T14:00:00.000Z",
      lightning: "2026-03-20T10:00:00.000Z",
      windows: "2026-03-20T01:00:00.000Z",
      unknown: "2026-03-20T09:00:00.000Z",
    });
    expect(result.warnings.map(({ code, uid }) => [code, uid])).toEqual([["unknown-time-zone", "unknown"]]);
  });

  it("UTC times are UTC; floating times are read on the host's clocks", () => {
    const text = calendar(
      "UID:utc\nDTSTART:20260320T100000Z\nDTEND:20260320T110000Z",
      "UID:floating\nDTSTART:20260320T100000\nDTEND:20260320T110000",
    );
    const at = (host: string) =>
      Object.fromEntries(
        busy(text, { hostTimeZone: host }).intervals.map((i) => [i.uid, i.start.toISOString()]),
      );
    expect(at("Europe/Berlin")).toEqual({
      utc: "2026-03-20T10:00:00.000Z",
      floating: "2026-03-20T09:00:00.000Z",
    });
    expect(at("America/New_York")).toEqual({
      utc: "2026-03-20T10:00:00.000Z",
      floating: "2026-03-20T14:00:00.000Z",
    });
  });
});

describe("how long an event lasts", () => {
  it("DTEND, DURATION (its days on the clocks: P1D across the March change is 23 hours), or neither: a DATE event lasts its day", () => {
    const result = busy(
      calendar(
        "UID:dtend\nDTSTART;TZID=Europe/Berlin:20260310T100000\nDTEND;TZID=Europe/Berlin:20260310T113000",
        "UID:duration\nDTSTART;TZID=Europe/Berlin:20260328T120000\nDURATION:P1D",
        "UID:date\nDTSTART;VALUE=DATE:20260315",
        // Some producers leave out VALUE=DATE: still a date.
        "UID:bare-date\nDTSTART:20260316",
      ),
    );
    expect(spans(result)).toEqual([
      "2026-03-10T09:00/2026-03-10T10:30",
      "2026-03-14T23:00/2026-03-15T23:00",
      "2026-03-15T23:00/2026-03-16T23:00",
      "2026-03-28T11:00/2026-03-29T10:00",
    ]);
  });

  it("a DATE-TIME event with neither DTEND nor DURATION lasts nothing and blocks nothing (RFC 5545 §3.6.1: it ends at its start)", () => {
    const result = busy(calendar("UID:reminder\nDTSTART:20260310T100000Z\nSUMMARY:Pay the rent"));
    expect(result.intervals).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it("DTEND before DTSTART is read as lasting nothing, with a warning", () => {
    const result = busy(calendar("UID:backwards\nDTSTART:20260310T100000Z\nDTEND:20260310T090000Z"));
    expect(result.intervals).toEqual([]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["end-before-start"]);
  });

  it("Apple's travel time blocks the time before the event", () => {
    const result = busy(
      calendar(
        "UID:travel\nDTSTART:20260310T100000Z\nDTEND:20260310T110000Z\nX-APPLE-TRAVEL-DURATION;VALUE=DURATION:PT30M",
      ),
    );
    expect(spans(result)).toEqual(["2026-03-10T09:30/2026-03-10T11:00"]);
  });

  it("an interval is returned when it overlaps [from, to), unclipped: a weekend-long instance that began before `from` counts", () => {
    const weekend = calendar(
      "UID:weekend\nDTSTART;TZID=Europe/Berlin:20260306T180000\nDTEND;TZID=Europe/Berlin:20260309T080000\nRRULE:FREQ=WEEKLY",
    );
    const result = busy(weekend, {
      from: new Date("2026-03-14T12:00:00Z"),
      to: new Date("2026-03-15T12:00:00Z"),
    });
    expect(spans(result)).toEqual(["2026-03-13T17:00/2026-03-16T07:00"]);
    // Touching the window's edges is not overlapping it.
    const touching = busy(weekend, {
      from: new Date("2026-03-16T07:00:00Z"),
      to: new Date("2026-03-20T17:00:00Z"),
    });
    expect(touching.intervals).toEqual([]);
  });
});

describe("recurrence", () => {
  it("RDATE of every type (DATE-TIME in a zone, PERIOD with a duration or an end) adds instances; EXDATE removes one of them", () => {
    const result = busy(
      calendar(`UID:rdates
DTSTART;TZID=Europe/Berlin:20260302T100000
DTEND;TZID=Europe/Berlin:20260302T110000
RDATE;TZID=Europe/Berlin:20260304T150000,20260305T150000
RDATE;VALUE=PERIOD:20260306T080000Z/PT3H
RDATE;VALUE=PERIOD:20260307T080000Z/20260307T083000Z
EXDATE:20260305T140000Z`),
    );
    expect(spans(result)).toEqual([
      "2026-03-02T09:00/2026-03-02T10:00",
      "2026-03-04T14:00/2026-03-04T15:00",
      "2026-03-06T08:00/2026-03-06T11:00",
      "2026-03-07T08:00/2026-03-07T08:30",
    ]);
    const allDay = busy(
      calendar(
        "UID:days\nDTSTART;VALUE=DATE:20260302\nRDATE;VALUE=DATE:20260309,20260316\nEXDATE;VALUE=DATE:20260316",
      ),
    );
    expect(spans(allDay)).toEqual(["2026-03-01T23:00/2026-03-02T23:00", "2026-03-08T23:00/2026-03-09T23:00"]);
    expect(allDay.intervals.map((interval) => interval.recurrenceId)).toEqual(["2026-03-02", "2026-03-09"]);
  });

  it("EXDATE as a DATE removes that day's instance of a timed series, and a UTC one its instant", () => {
    const result = busy(
      calendar(
        "UID:x\nDTSTART;TZID=Europe/Berlin:20260302T090000\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=4\nEXDATE;VALUE=DATE:20260303\nEXDATE:20260304T080000Z",
      ),
    );
    expect(spans(result)).toEqual(["2026-03-02T08:00/2026-03-02T09:00", "2026-03-05T08:00/2026-03-05T09:00"]);
  });

  it("COUNT counts DTSTART; UNTIL is inclusive, UTC as UTC, floating on the host's clocks, a DATE through its day", () => {
    expect(
      spans(busy(calendar("UID:count\nDTSTART:20260302T090000Z\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=3"))),
    ).toEqual([
      "2026-03-02T09:00/2026-03-02T10:00",
      "2026-03-03T09:00/2026-03-03T10:00",
      "2026-03-04T09:00/2026-03-04T10:00",
    ]);
    const floating = calendar(
      "UID:floating\nDTSTART:20260302T090000\nDURATION:PT1H\nRRULE:FREQ=DAILY;UNTIL=20260304T090000",
    );
    // In New York, 09:00 is 14:00Z: an UNTIL read as UTC would drop the 4th.
    expect(
      busy(floating, { hostTimeZone: "America/New_York" }).intervals.map((i) => i.start.toISOString()),
    ).toEqual(["2026-03-02T14:00:00.000Z", "2026-03-03T14:00:00.000Z", "2026-03-04T14:00:00.000Z"]);
    const byDate = calendar("UID:bydate\nDTSTART;VALUE=DATE:20260302\nRRULE:FREQ=DAILY;UNTIL=20260304");
    expect(busy(byDate).intervals.map((i) => i.recurrenceId)).toEqual([
      "2026-03-02",
      "2026-03-03",
      "2026-03-04",
    ]);
    const utcUntil = calendar(
      "UID:utc\nDTSTART;TZID=Europe/Berlin:20260302T090000\nDURATION:PT1H\nRRULE:FREQ=DAILY;UNTIL=20260304T075959Z",
    );
    expect(busy(utcUntil).intervals).toHaveLength(2);
  });

  it("RANGE=THISANDFUTURE moves and resizes that instance and every later one", () => {
    const result = busy(
      calendar(
        "UID:series\nDTSTART;TZID=Europe/Berlin:20260302T090000\nDTEND;TZID=Europe/Berlin:20260302T100000\nRRULE:FREQ=WEEKLY",
        "UID:series\nRECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260316T090000\nDTSTART;TZID=Europe/Berlin:20260316T110000\nDTEND;TZID=Europe/Berlin:20260316T113000",
      ),
    );
    expect(spans(result)).toEqual([
      "2026-03-02T08:00/2026-03-02T09:00",
      "2026-03-09T08:00/2026-03-09T09:00",
      "2026-03-16T10:00/2026-03-16T10:30",
      "2026-03-23T10:00/2026-03-23T10:30",
      "2026-03-30T09:00/2026-03-30T09:30",
    ]);
  });

  it("an override without its master (a server's expanded reply, an invitation to one instance) stands for itself", () => {
    const result = busy(
      calendar("UID:lone\nRECURRENCE-ID:20260310T090000Z\nDTSTART:20260310T100000Z\nDTEND:20260310T110000Z"),
    );
    expect(spans(result)).toEqual(["2026-03-10T10:00/2026-03-10T11:00"]);
    expect(result.intervals[0]!.recurrenceId).toBe("2026-03-10T09:00:00.000Z");
  });

  it("HOURLY and MINUTELY rules are expanded (bounded by the window), not skipped", () => {
    const hourly = calendar(
      "UID:hourly\nDTSTART:20200101T000000Z\nDURATION:PT10M\nRRULE:FREQ=HOURLY;INTERVAL=2",
    );
    const day = {
      from: new Date("2026-03-02T00:00:00Z"),
      to: new Date("2026-03-02T12:00:00Z"),
      hostTimeZone: "UTC",
    };
    expect(busy(hourly, day).intervals.map((i) => i.start.toISOString().slice(11, 16))).toEqual([
      "00:00",
      "02:00",
      "04:00",
      "06:00",
      "08:00",
      "10:00",
    ]);
    const minutely = calendar(
      "UID:minutely\nDTSTART:20260301T090000Z\nDURATION:PT5M\nRRULE:FREQ=MINUTELY;INTERVAL=15;BYHOUR=9,10",
    );
    expect(
      busy(minutely, { ...day, to: new Date("2026-03-03T00:00:00Z") }).intervals.map((i) =>
        i.start.toISOString().slice(11, 16),
      ),
    ).toEqual(["09:00", "09:15", "09:30", "09:45", "10:00", "10:15", "10:30", "10:45"]);
  });

  it("maxOccurrences bounds an expansion: a warning, and confirmedUntil says where the instances stop being known", () => {
    const everyMinute = calendar("UID:spam\nDTSTART:20260301T000000Z\nDURATION:PT1M\nRRULE:FREQ=MINUTELY");
    const result = busy(everyMinute, { maxOccurrences: 100, hostTimeZone: "UTC" });
    expect(result.warnings.map((warning) => warning.code)).toEqual(["occurrence-limit"]);
    expect(result.intervals.length).toBeLessThanOrEqual(101);
    expect(result.confirmedUntil.getTime()).toBeGreaterThan(MARCH.from.getTime());
    expect(result.confirmedUntil.getTime()).toBeLessThan(MARCH.from.getTime() + 3 * 3_600_000);
    expect(result.intervals.every(({ start }) => start < result.confirmedUntil)).toBe(true);
  });

  it("an object holding many series (an imported calendar) gets 100 instances per series by default; a spent budget warns once", () => {
    const series = Array.from(
      { length: 300 },
      (_, n) =>
        `UID:s${n}\nDTSTART:20260105T${String(8 + (n % 10)).padStart(2, "0")}0000Z\nDURATION:PT30M\nRRULE:FREQ=WEEKLY`,
    );
    const year = {
      from: new Date("2026-01-05T00:00:00Z"),
      to: new Date("2027-01-04T00:00:00Z"),
      hostTimeZone: "UTC",
    };
    const whole = busy(calendar(...series), year);
    expect(whole.warnings).toEqual([]);
    expect(whole.intervals).toHaveLength(300 * 52);
    const capped = busy(calendar(...series), { ...year, maxOccurrences: 10_000 });
    expect(capped.warnings.map((warning) => warning.code)).toEqual(["occurrence-limit"]);
    expect(capped.confirmedUntil.getTime()).toBeLessThan(year.to.getTime());
  });

  it("a recurrence without end queried 5 years out costs the window, not the years since DTSTART (both engines)", () => {
    const window = {
      from: new Date("2031-03-03T00:00:00Z"),
      to: new Date("2031-03-06T00:00:00Z"),
      hostTimeZone: "UTC",
    };
    // Walked from 1970, these would take 22,000 daily steps and 2,000 weeks: the limits are far below.
    const tight = { maxOccurrences: 10, maxRuleSteps: 300 };
    const daily = calendar(
      "UID:daily\nDTSTART:19700101T090000Z\nDURATION:PT30M\nRRULE:FREQ=DAILY;BYMONTH=1,2,3",
    );
    const weekly = calendar("UID:weekly\nDTSTART:19700105T090000Z\nDURATION:PT30M\nRRULE:FREQ=WEEKLY");
    const yearly = calendar(
      `UID:yearly\nDTSTART:16010304T090000Z\nDURATION:PT30M\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=1TU`,
    );
    expect(spans(busy(daily, { ...window, ...tight }))).toEqual([
      "2031-03-03T09:00/2031-03-03T09:30",
      "2031-03-04T09:00/2031-03-04T09:30",
      "2031-03-05T09:00/2031-03-05T09:30",
    ]);
    expect(spans(busy(weekly, { ...window, ...tight }))).toEqual(["2031-03-03T09:00/2031-03-03T09:30"]);
    expect(spans(busy(yearly, { ...window, ...tight }))).toEqual(["2031-03-04T09:00/2031-03-04T09:30"]);
    for (const text of [daily, weekly, yearly]) {
      const result = busy(text, { ...window, ...tight, ruleEngine: "ical.js" });
      expect(result.warnings).toEqual([]);
      expect(result.intervals.length).toBeGreaterThan(0);
    }
    // The same budget does stop a rule that cannot be started near the window (COUNT counts from 1970).
    const counted = calendar(
      "UID:counted\nDTSTART:19700101T090000Z\nDURATION:PT30M\nRRULE:FREQ=DAILY;BYMONTH=1,2,3;COUNT=100000",
    );
    const stopped = busy(counted, { ...window, ...tight });
    expect(stopped.warnings.map((warning) => warning.code)).toEqual(["step-limit"]);
    expect(stopped.confirmedUntil).toEqual(window.from);
  });

  it("a rule that can never match again (DAILY on February 30th) ends on the step budget, not in an endless loop", () => {
    const result = busy(
      calendar(
        "UID:never\nDTSTART:20260301T090000Z\nDURATION:PT1H\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      ),
      {
        maxRuleSteps: 2_000,
      },
    );
    expect(spans(result)).toEqual(["2026-03-01T09:00/2026-03-01T10:00"]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["step-limit"]);
    expect(result.confirmedUntil.getTime()).toBeLessThan(MARCH.to.getTime());
  });
});

describe("objects that are not what they should be", () => {
  it.each([
    ["text", "hello"],
    ["nothing", ""],
    [
      "a component that never ends",
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260301T090000Z\r\n",
    ],
    ["an RRULE of no frequency", calendar("UID:a\nDTSTART:20260301T090000Z\nRRULE:FREQ=SOMETIMES")],
    ["a vCard", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD\r\n"],
    ["binary", "\u0000\u0001\u0002PK\u0003\u0004"],
  ])("%s: a result saying it does not parse, never an exception", (_name, text) => {
    const result = busyIntervals(text, { ...MARCH, hostTimeZone: "Europe/Berlin" });
    expect(result.kind).toBe("invalid");
    expect(describeCalendarObject(text).kind).toBe("invalid");
  });

  it("a VEVENT without a readable DTSTART leaves the window unconfirmed; the object's other events still count", () => {
    const result = busy(
      calendar(
        "UID:broken\nDTSTART:2026-03-01 nine o'clock\nDURATION:PT1H",
        "UID:fine\nDTSTART:20260310T100000Z\nDURATION:PT1H",
      ),
    );
    expect(spans(result)).toEqual(["2026-03-10T10:00/2026-03-10T11:00"]);
    expect(result.warnings.map(({ code, uid }) => [code, uid])).toEqual([["unreadable-event", "broken"]]);
    expect(result.confirmedUntil).toEqual(MARCH.from);
  });

  it("a 10 MB object (20,000 events) is read whole", () => {
    const events = Array.from({ length: 20_000 }, (_, n) => {
      const day = String(1 + (n % 28)).padStart(2, "0");
      return `UID:bulk-${n}\nDTSTART;TZID=Europe/Berlin:202603${day}T${String(8 + (n % 10)).padStart(2, "0")}0000\nDURATION:PT30M\nSUMMARY:Bulk event ${n} ${"with a description long enough to make a realistic object ".repeat(8)}`;
    });
    const text = calendar(...events);
    expect(text.length).toBeGreaterThan(10_000_000);
    const result = busy(text);
    expect(result.intervals).toHaveLength(20_000);
    expect(result.summary.uids).toHaveLength(20_000);
  });
});

describe("what the sync keeps per object", () => {
  it("UIDs, whether it recurs, whether it follows the host's zone, and the span it can ever block", () => {
    const once = describeCalendarObject(CALCOM);
    expect(once).toMatchObject({
      kind: "summary",
      summary: {
        recurs: false,
        followsHostZone: false,
        span: { start: new Date("2026-03-06T09:00:00Z"), end: new Date("2026-03-06T09:30:00Z") },
      },
    });
    const forever = describeCalendarObject(GOOGLE);
    expect(forever).toMatchObject({
      kind: "summary",
      summary: {
        uids: ["1q2w3e4r5t6y7u8i9o0p@google.com"],
        recurs: true,
        span: { start: new Date("2026-03-02T13:00:00Z"), end: null },
      },
    });
    // An end by UNTIL or COUNT: every instance lies inside the span.
    const outlook = describeCalendarObject(OUTLOOK);
    if (outlook.kind !== "summary") throw new Error("expected a summary");
    expect(outlook.summary.span!.end!.getTime()).toBeGreaterThanOrEqual(
      new Date("2026-04-03T07:45:00Z").getTime(),
    );
    const counted = describeCalendarObject(
      calendar("UID:c\nDTSTART:20260302T090000Z\nDURATION:PT1H\nRRULE:FREQ=WEEKLY;COUNT=3"),
    );
    if (counted.kind !== "summary") throw new Error("expected a summary");
    expect(counted.summary.span!.end!.getTime()).toBeGreaterThanOrEqual(
      new Date("2026-03-16T10:00:00Z").getTime(),
    );
    expect(counted.summary.span!.end!.getTime()).toBeLessThan(new Date("2026-03-17T00:00:00Z").getTime());
    // Free time can never block: no span.
    const free = describeCalendarObject(
      calendar("UID:f\nDTSTART:20260302T090000Z\nDURATION:PT1H\nTRANSP:TRANSPARENT\nRRULE:FREQ=DAILY"),
    );
    expect(free).toMatchObject({ kind: "summary", summary: { span: null } });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties.

const WEEKDAY_NAMES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney"];
const EPOCH: LocalDate = { year: 2020, month: 1, day: 1 };
const weekdayOf = (date: LocalDate) => new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
const stamp = (date: LocalDate, minutes: number) =>
  `${date.year}${String(date.month).padStart(2, "0")}${String(date.day).padStart(2, "0")}T${String(Math.floor(minutes / 60)).padStart(2, "0")}${String(minutes % 60).padStart(2, "0")}00`;

const simpleRule = fc.record({
  freq: fc.constantFrom("DAILY", "WEEKLY"),
  interval: fc.integer({ min: 1, max: 4 }),
  byday: fc.subarray([0, 1, 2, 3, 4, 5, 6]),
  wkst: fc.integer({ min: 0, max: 6 }),
  end: fc.oneof(
    fc.constant(undefined),
    fc.record({ count: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ untilDays: fc.integer({ min: 0, max: 300 }), untilShift: fc.constantFrom(-30, 0, 30) }),
  ),
  startDays: fc.integer({ min: 0, max: 3000 }),
  // 04:00 to 23:45: clear of the hours any of ZONES skips or repeats, where the naive
  // conversion (the slot engine's) and RFC 5545's reading differ by design.
  minutes: fc.integer({ min: 16, max: 95 }).map((quarter) => quarter * 15),
  zone: fc.constantFrom(...ZONES),
  windowFrom: fc.integer({ min: -20, max: 400 }),
  windowDays: fc.integer({ min: 1, max: 60 }),
});
type SimpleRule = typeof simpleRule extends fc.Arbitrary<infer T> ? T : never;

function simpleCase(rule: SimpleRule) {
  const start = addDays(EPOCH, rule.startDays);
  const startInstant = zonedInstant(start, rule.minutes, rule.zone);
  const until =
    rule.end && "untilDays" in rule.end
      ? zonedInstant(addDays(start, rule.end.untilDays), rule.minutes, rule.zone) +
        rule.end.untilShift * 60_000
      : undefined;
  const parts = [`FREQ=${rule.freq}`, `INTERVAL=${rule.interval}`, `WKST=${WEEKDAY_NAMES[rule.wkst]}`];
  if (rule.byday.length > 0) parts.push(`BYDAY=${rule.byday.map((day) => WEEKDAY_NAMES[day]).join(",")}`);
  if (rule.end && "count" in rule.end) parts.push(`COUNT=${rule.end.count}`);
  if (until !== undefined)
    parts.push(`UNTIL=${new Date(until).toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`);
  const text = calendar(
    `UID:p\nDTSTART;TZID=${rule.zone}:${stamp(start, rule.minutes)}\nDURATION:PT1H\nRRULE:${parts.join(";")}`,
  );
  const from = zonedInstant(addDays(start, rule.windowFrom), 0, "UTC");
  const to = from + rule.windowDays * 86_400_000;
  return { text, start, startInstant, until, from, to };
}

/** The instances by walking every day from DTSTART, as the RFC words the rule. */
function naiveStarts(rule: SimpleRule, start: LocalDate, until: number | undefined, to: number): number[] {
  const starts: number[] = [];
  const weekStartOffset = (weekdayOf(start) - rule.wkst + 7) % 7;
  const days = new Set(rule.byday.length > 0 ? rule.byday : rule.freq === "WEEKLY" ? [weekdayOf(start)] : []);
  const count = rule.end && "count" in rule.end ? rule.end.count : Number.POSITIVE_INFINITY;
  for (let n = 0; starts.length < count; n++) {
    const date = addDays(start, n);
    const instant = zonedInstant(date, rule.minutes, rule.zone);
    // DTSTART is the first instance even past UNTIL: it is the event the client shows.
    if (instant >= to || (n > 0 && until !== undefined && instant > until)) break;
    const inPeriod =
      rule.freq === "DAILY"
        ? n % rule.interval === 0
        : Math.floor((n + weekStartOffset) / 7) % rule.interval === 0;
    if (n === 0 || (inPeriod && (days.size === 0 || days.has(weekdayOf(date))))) starts.push(instant);
  }
  return starts;
}

describe("the rule engine", () => {
  it("expands simple DAILY and WEEKLY rules as a naive day-by-day walk does", () => {
    fc.assert(
      fc.property(simpleRule, (rule) => {
        const { text, start, until, from, to } = simpleCase(rule);
        const expected = naiveStarts(rule, start, until, to).filter((instant) => instant + 3_600_000 > from);
        const result = busy(text, { from: new Date(from), to: new Date(to), hostTimeZone: "UTC" });
        expect(result.intervals.map((interval) => interval.start.getTime())).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it("its arithmetic engine yields what ical.js yields for the same simple rules", () => {
    fc.assert(
      fc.property(simpleRule, (rule) => {
        const { text, from, to } = simpleCase(rule);
        const window = { from: new Date(from), to: new Date(to), hostTimeZone: "UTC" };
        expect(spans(busy(text, window))).toEqual(spans(busy(text, { ...window, ruleEngine: "ical.js" })));
      }),
      { numRuns: 150 },
    );
  });

  it("ical.js started near the window yields what it yields walked from DTSTART, for any rule", () => {
    const byParts = fc.record(
      {
        BYMONTH: fc
          .subarray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], { minLength: 1, maxLength: 4 })
          .map((m) => m.join(",")),
        BYMONTHDAY: fc
          .subarray([1, 2, 13, 15, 28, 29, 30, 31, -1, -2], { minLength: 1, maxLength: 3 })
          .map((d) => d.join(",")),
        BYDAY: fc
          .subarray(["MO", "TU", "1MO", "2TU", "-1FR", "3WE", "SU", "SA"], { minLength: 1, maxLength: 3 })
          .map((d) => d.join(",")),
        BYSETPOS: fc.constantFrom("1", "-1", "2"),
        BYHOUR: fc.subarray([8, 12, 17], { minLength: 1 }).map((h) => h.join(",")),
      },
      { requiredKeys: [] },
    );
    const anyRule = fc.record({
      freq: fc.constantFrom("HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
      interval: fc.integer({ min: 1, max: 5 }),
      parts: byParts,
      startYear: fc.integer({ min: 1700, max: 2030 }),
      startDay: fc.integer({ min: 0, max: 364 }),
      windowYears: fc.integer({ min: 0, max: 450 }),
      windowDay: fc.integer({ min: 0, max: 364 }),
    });
    fc.assert(
      fc.property(anyRule, (rule) => {
        // Walking from DTSTART must stay cheap: short-period rules start close to the window.
        const span = { HOURLY: 0, DAILY: 2, WEEKLY: 10, MONTHLY: 120, YEARLY: 450 }[rule.freq]!;
        const startYear = rule.freq === "MONTHLY" ? Math.max(1900, rule.startYear) : rule.startYear;
        const start = addDays({ year: startYear, month: 1, day: 1 }, rule.startDay);
        const windowStart =
          rule.freq === "HOURLY"
            ? addDays(start, rule.windowDay % 30)
            : addDays(
                // MONTHLY past 2099 is walked from DTSTART anyway (no 400-year move within 120 years).
                {
                  year: Math.min(
                    startYear + Math.min(rule.windowYears, span),
                    rule.freq === "MONTHLY" ? 2098 : 9999,
                  ),
                  month: 1,
                  day: 1,
                },
                rule.windowDay,
              );
        const parts = Object.entries(rule.parts)
          .filter(([part]) => part !== "BYMONTHDAY" || !["WEEKLY"].includes(rule.freq))
          .filter(([part]) => part !== "BYSETPOS" || rule.freq === "MONTHLY" || rule.freq === "YEARLY")
          .map(([part, value]) => `${part}=${value}`);
        const text = calendar(
          `UID:any\nDTSTART:${stamp(start, 9 * 60)}Z\nDURATION:PT30M\nRRULE:${[`FREQ=${rule.freq}`, `INTERVAL=${rule.interval}`, ...parts].join(";")}`,
        );
        const from = zonedInstant(windowStart, 0, "UTC");
        const to = from + (rule.freq === "HOURLY" ? 3 : 90) * 86_400_000;
        const options = {
          hostTimeZone: "UTC",
          ruleEngine: "ical.js" as const,
          maxOccurrences: 1e6,
          maxRuleSteps: 30_000,
        };
        const near = busy(text, { ...options, from: new Date(from), to: new Date(to) });
        const walkedFrom = Math.min(from, zonedInstant(start, 0, "UTC") - 86_400_000);
        const walked = busy(text, { ...options, from: new Date(walkedFrom), to: new Date(to) });
        // Rules ical.js refuses (a BYDAY ordinal with BYMONTHDAY…) or that match too rarely to be
        // walked within the budget (a negative BYMONTHDAY in a DAILY rule) prove nothing here.
        fc.pre(walked.warnings.length === 0);
        expect(near.warnings).toEqual([]);
        const inWindow = walked.intervals.filter(({ end }) => end.getTime() > from);
        expect(spans(near)).toEqual(spans({ intervals: inWindow }));
      }),
      // A fixed seed: ical.js has quirks of its own (above) a random draw may find anew; this
      // property is about where it starts, not about ical.js.
      { numRuns: 15, seed: 20261128 },
    );
  });
});
