// The calendar invite a booking e-mail carries (RFC 5545, written by ../icalendar.ts): the
// booking's calendar UID (a reschedule keeps the original's, docs/adr/0223), a SEQUENCE that
// grows with every change, METHOD:REQUEST for a new or moved event, METHOD:CANCEL for a
// cancelled one.
import {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  type ICalEventData,
  ICalEventRepeatingFreq,
  ICalEventStatus,
} from "ical-generator";
import { icalendarText } from "../icalendar.ts";

/** v1's recurring event: rrule's Frequency (0 YEARLY … 6 SECONDLY), every `interval`, `count` times. */
export interface Recurrence {
  freq: number;
  interval: number;
  count: number;
}

const FREQUENCIES = [
  ICalEventRepeatingFreq.YEARLY,
  ICalEventRepeatingFreq.MONTHLY,
  ICalEventRepeatingFreq.WEEKLY,
  ICalEventRepeatingFreq.DAILY,
  ICalEventRepeatingFreq.HOURLY,
  ICalEventRepeatingFreq.MINUTELY,
  ICalEventRepeatingFreq.SECONDLY,
] as const;

export interface InvitePerson {
  name: string;
  email: string;
}

export interface InviteEvent {
  uid: string;
  sequence: number;
  method: "REQUEST" | "CANCEL";
  title: string;
  description: string | null;
  location: string | null;
  start: Date;
  end: Date;
  organizer: InvitePerson;
  /** Everyone else invited: the booker, their guests, a team's other hosts. */
  attendees: InvitePerson[];
  /** When the invite was written (DTSTAMP). */
  stamp: Date;
  /** A series' invite: its RRULE (docs/adr/0231). */
  repeat?: Recurrence | undefined;
  /** One occurrence of a series (RECURRENCE-ID): its original start. */
  occurrence?: Date | undefined;
}

export function inviteIcs(event: InviteEvent): string {
  const cancelled = event.method === "CANCEL";
  const calendarEvent: ICalEventData = {
    id: event.uid,
    sequence: event.sequence,
    stamp: event.stamp,
    start: event.start,
    end: event.end,
    summary: event.title,
    description: event.description,
    location: event.location,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    ...(event.repeat
      ? {
          repeating: {
            freq: FREQUENCIES[event.repeat.freq] ?? ICalEventRepeatingFreq.WEEKLY,
            interval: event.repeat.interval,
            count: event.repeat.count,
          },
        }
      : {}),
    ...(event.occurrence ? { recurrenceId: event.occurrence } : {}),
    organizer: { name: event.organizer.name || event.organizer.email, email: event.organizer.email },
    attendees: event.attendees.map((person) => ({
      name: person.name || person.email,
      email: person.email,
      role: ICalAttendeeRole.REQ,
      // A booking the attendee made is accepted by them; a cancelled one is declined for all.
      status: cancelled ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
    })),
  };
  return icalendarText({
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    events: [calendarEvent],
  });
}
