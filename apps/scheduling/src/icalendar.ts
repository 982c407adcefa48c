// The one producer of iCalendar text (RFC 5545): the e-mailed invites (mail/invite.ts) and the
// calendar feed (feed/calendar-feed.ts) both write theirs here, with ical-generator.
import ical, { type ICalCalendarData } from "ical-generator";

const PRODUCT = { company: "app", product: "scheduling", language: "EN" } as const;

/**
 * The calendar as text: every content line ends with CRLF, the last one (END:VCALENDAR) too, and
 * none is longer than 75 octets (ical-generator folds them). RFC 5545 §3.1's grammar ends every
 * line with CRLF; ical-generator leaves the last one without, and strict clients refuse that.
 */
export function icalendarText(calendar: Omit<ICalCalendarData, "prodId">): string {
  return `${ical({ ...calendar, prodId: PRODUCT }).toString()}\r\n`;
}

/** A content line folded at 75 octets, as RFC 5545 §3.1 asks (continuations start with a space). */
function fold(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Never inside a UTF-8 sequence: back up to the start of a character.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74; // the leading space counts
  }
  return parts.join("\r\n ");
}

/**
 * A calendar object to store in someone's calendar (CalDAV): no METHOD (RFC 4791 §4.1 forbids it
 * in a stored object), and its organizer and attendees marked SCHEDULE-AGENT=CLIENT (RFC 6638
 * §7.1), so a scheduling server (Fastmail, Nextcloud, SOGo) sends no invitations of its own: the
 * booking's own e-mails do.
 */
export function storedCalendarObject(calendar: Omit<ICalCalendarData, "prodId" | "method">): string {
  const text = icalendarText(calendar);
  const unfolded = text.replace(/\r\n[ \t]/g, "").split("\r\n");
  return unfolded
    .map((line) =>
      /^(ORGANIZER|ATTENDEE)[;:]/.test(line)
        ? fold(line.replace(/^(ORGANIZER|ATTENDEE)/, "$1;SCHEDULE-AGENT=CLIENT"))
        : fold(line),
    )
    .join("\r\n");
}
