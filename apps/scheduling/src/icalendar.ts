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
