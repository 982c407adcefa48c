// What turning calendar objects into busy intervals costs (apps/scheduling calendars/busy-times.ts,
// issue 47), on a generated corpus shaped like a real calendar: one object per event as CalDAV
// servers store them, each with its VTIMEZONE (Apple's), a tenth of them recurring (weekly,
// weekday dailies, monthly "2nd Tuesday", yearly, some with EXDATEs and a moved override).
// Prints figures; asserts nothing about time (the tests hold the behaviour).
//   pnpm exec tsx --conditions=source scripts/bench-busy-times.ts [--quick]
import { busyIntervals, describeCalendarObject } from "@app/scheduling/calendars/busy-times";

const quick = process.argv.includes("--quick");

const VTIMEZONE = `BEGIN:VTIMEZONE
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

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
/** A Berlin wall time `days` after 2025-06-01 at `hour`, as DTSTART writes it. */
function stamp(days: number, hour: number, minute = 0) {
  const date = new Date(Date.UTC(2025, 5, 1 + days));
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(hour)}${pad(minute)}00`;
}

const RULES = [
  "RRULE:FREQ=WEEKLY;BYDAY=MO",
  "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH",
  "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",
  "RRULE:FREQ=MONTHLY;BYDAY=2TU",
  "RRULE:FREQ=YEARLY",
  "RRULE:FREQ=WEEKLY;UNTIL=20270101T000000Z",
  "RRULE:FREQ=DAILY;COUNT=30",
];

/** The n-th object of the corpus: a tenth recurring, the rest single events over two years. */
function object(n: number): string {
  const days = (n * 7919) % 730;
  const hour = 8 + (n % 10);
  const recurring = n % 10 === 0;
  const uid = `bench-${n}@example.com`;
  const master = [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20250601T000000Z",
    `DTSTART;TZID=Europe/Berlin:${stamp(days, hour)}`,
    `DTEND;TZID=Europe/Berlin:${stamp(days, hour, 45)}`,
    `SUMMARY:Event ${n}`,
    "DESCRIPTION:Agenda\\, notes and a link: https://meet.example.com/abc-defg-hij",
    "TRANSP:OPAQUE",
    ...(recurring ? [RULES[(n / 10) % RULES.length]!] : []),
    ...(recurring && n % 30 === 0 ? [`EXDATE;TZID=Europe/Berlin:${stamp(days + 14, hour)}`] : []),
    "END:VEVENT",
  ];
  const override =
    recurring && n % 50 === 0
      ? [
          "BEGIN:VEVENT",
          `UID:${uid}`,
          "DTSTAMP:20250601T000000Z",
          `RECURRENCE-ID;TZID=Europe/Berlin:${stamp(days + 7, hour)}`,
          `DTSTART;TZID=Europe/Berlin:${stamp(days + 8, hour)}`,
          `DTEND;TZID=Europe/Berlin:${stamp(days + 8, hour, 45)}`,
          "END:VEVENT",
        ]
      : [];
  return `${["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//macOS 15.3//EN", VTIMEZONE, ...master, ...override, "END:VCALENDAR"].join("\r\n")}\r\n`;
}

const window30 = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-31T00:00:00Z") };
const window365 = { from: new Date("2026-01-01T00:00:00Z"), to: new Date("2027-01-01T00:00:00Z") };

function run(label: string, objects: string[], window: { from: Date; to: Date }) {
  const rss = process.memoryUsage().rss;
  const started = performance.now();
  let intervals = 0;
  let warnings = 0;
  for (const text of objects) {
    const result = busyIntervals(text, { ...window, hostTimeZone: "Europe/Berlin" });
    if (result.kind !== "busy") throw new Error(`object did not parse: ${result.reason}`);
    intervals += result.intervals.length;
    warnings += result.warnings.length;
  }
  const ms = performance.now() - started;
  const grown = (process.memoryUsage().rss - rss) / 1e6;
  console.log(
    `${label.padEnd(52)} ${ms.toFixed(0).padStart(7)} ms  ${((ms * 1000) / objects.length).toFixed(0).padStart(5)} µs/object  ${String(intervals).padStart(7)} intervals  ${warnings} warnings  rss +${grown.toFixed(0)} MB`,
  );
}

function time(label: string, work: () => unknown) {
  const started = performance.now();
  work();
  console.log(`${label.padEnd(52)} ${(performance.now() - started).toFixed(0).padStart(7)} ms`);
}

const small = Array.from({ length: 2_000 }, (_, n) => object(n));
// Warm-up: the first objects pay for compiling the code and the VTIMEZONE's expansion.
run("warm-up (2,000 objects, 30 days)", small, window30);
run("2,000 events (200 recurring), 30-day window", small, window30);
run("2,000 events (200 recurring), 1-year window", small, window365);
time("2,000 events: describeCalendarObject", () => {
  for (const text of small) describeCalendarObject(text);
});
const recurringOnly = small.filter((_, n) => n % 10 === 0);
run("the 200 recurring alone, 1-year window", recurringOnly, window365);

if (!quick) {
  const large = Array.from({ length: 100_000 }, (_, n) => object(n));
  run("100,000 events (10,000 recurring), 30-day window", large, window30);
  run("100,000 events (10,000 recurring), 1-year window", large, window365);
}

const events = Array.from({ length: 34_000 }, (_, n) =>
  object(n)
    .match(/BEGIN:VEVENT[\s\S]*?END:VEVENT/g)!
    .join("\r\n"),
);
const big = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n${VTIMEZONE.split("\n").join("\r\n")}\r\n${events.join("\r\n")}\r\nEND:VCALENDAR\r\n`;
run(`one object of ${(big.length / 1e6).toFixed(1)} MB (34,000 VEVENTs), 1-year window`, [big], window365);

const since1970 = (rule: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:old\r\nDTSTART:19700101T090000Z\r\nDURATION:PT30M\r\n${rule}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
const in2031 = { from: new Date("2031-03-01T00:00:00Z"), to: new Date("2031-03-31T00:00:00Z") };
for (const rule of ["RRULE:FREQ=DAILY", "RRULE:FREQ=DAILY;BYMONTH=3,4", "RRULE:FREQ=MONTHLY;BYDAY=-1FR"])
  run(`${rule} since 1970, asked about March 2031`, [since1970(rule)], in2031);
run(
  "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 (never)",
  [since1970("RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30")],
  in2031,
);
