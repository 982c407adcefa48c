// The booking e-mails' words: one subject, plain text and HTML per kind and side (the organizer's
// side: the organizer and a team's other hosts; the attendees' side: the booker and guests), in
// the recipient's language (English, or German for a `de` locale) and time zone; and v1's default
// booking title (its event name), in each of those languages.

/** v1's e-mails this API sends (docs/adr/0223 lists which v1 template each follows). */
export type MailKind = "scheduled" | "request" | "awaiting" | "declined" | "cancelled" | "rescheduled";

export interface Recipient {
  name: string;
  email: string;
  timeZone: string;
  locale: string | null;
}

/** What v1's default booking title names (cal.com's `event_between_users`). */
export interface TitleParts {
  eventName: string;
  /** The team (a collective event, several hosts) or the organizer; null for an organizer without a name. */
  host: string | null;
  attendeeName: string;
}

export interface MessageFacts {
  kind: MailKind;
  title: string;
  /** The title's parts when it is the default one: each recipient reads it in their language. */
  titleParts?: TitleParts | undefined;
  description: string | null;
  location: string | null;
  start: Date;
  end: Date;
  /** A reschedule's previous time. */
  previous?: { start: Date; end: Date };
  /** A cancellation's reason, or a rejection's (docs/adr/0238). */
  reason?: string | null;
  /** A whole series' e-mail: how it repeats (docs/adr/0231). */
  recurrence?: { freq: number; interval: number; count: number } | undefined;
  organizer: { name: string; email: string };
  /** Everyone on the booking besides the organizer, in the booking's order. */
  attendees: { name: string; email: string }[];
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

export type Language = "en" | "de";

const WORDS = {
  en: {
    subject: {
      scheduled: { organizer: "New event: {title}", attendee: "Confirmed: {title}" },
      request: {
        organizer: "Awaiting your confirmation: {title}",
        attendee: "Awaiting your confirmation: {title}",
      },
      awaiting: { organizer: "Submitted: {title}", attendee: "Submitted, awaiting confirmation: {title}" },
      declined: { organizer: "Declined: {title}", attendee: "Declined: {title}" },
      cancelled: { organizer: "Cancelled: {title}", attendee: "Cancelled: {title}" },
      rescheduled: { organizer: "Rescheduled: {title}", attendee: "Rescheduled: {title}" },
    },
    lead: {
      scheduled: { organizer: "A new event has been scheduled.", attendee: "Your event has been scheduled." },
      request: {
        organizer: "A booking is waiting for your confirmation.",
        attendee: "A booking is waiting for your confirmation.",
      },
      awaiting: {
        organizer: "Your booking has been submitted.",
        attendee: "Your booking has been submitted. You will hear when the organizer confirms it.",
      },
      declined: {
        organizer: "This booking request has been declined.",
        attendee: "Your booking request has been declined.",
      },
      cancelled: { organizer: "This event has been cancelled.", attendee: "This event has been cancelled." },
      rescheduled: {
        organizer: "This event has been moved to a new time.",
        attendee: "Your event has been moved to a new time.",
      },
    },
    what: "What",
    when: "When",
    was: "Previously",
    who: "Who",
    where: "Where",
    notes: "Notes",
    reason: "Reason",
    repeats: "Repeats",
    units: [
      ["year", "years"],
      ["month", "months"],
      ["week", "weeks"],
      ["day", "days"],
      ["hour", "hours"],
      ["minute", "minutes"],
      ["second", "seconds"],
    ],
    every: (unit: string, interval: number, count: number) =>
      `${interval === 1 ? `Every ${unit}` : `Every ${interval} ${unit}`}, ${count} times`,
    organizer: "organizer",
    // cal.com's locales/en/common.json, event_between_users; an organizer without a name is
    // "the host" here (v1: "Nameless").
    eventBetween: "{eventName} between {host} and {attendeeName}",
    someHost: "the host",
  },
  de: {
    subject: {
      scheduled: { organizer: "Neuer Termin: {title}", attendee: "Bestätigt: {title}" },
      request: {
        organizer: "Wartet auf Ihre Bestätigung: {title}",
        attendee: "Wartet auf Ihre Bestätigung: {title}",
      },
      awaiting: {
        organizer: "Eingereicht: {title}",
        attendee: "Eingereicht, wartet auf Bestätigung: {title}",
      },
      declined: { organizer: "Abgelehnt: {title}", attendee: "Abgelehnt: {title}" },
      cancelled: { organizer: "Abgesagt: {title}", attendee: "Abgesagt: {title}" },
      rescheduled: { organizer: "Verschoben: {title}", attendee: "Verschoben: {title}" },
    },
    lead: {
      scheduled: { organizer: "Ein neuer Termin wurde gebucht.", attendee: "Ihr Termin wurde gebucht." },
      request: {
        organizer: "Eine Buchung wartet auf Ihre Bestätigung.",
        attendee: "Eine Buchung wartet auf Ihre Bestätigung.",
      },
      awaiting: {
        organizer: "Ihre Buchung wurde eingereicht.",
        attendee: "Ihre Buchung wurde eingereicht. Sie hören von uns, sobald der Organisator sie bestätigt.",
      },
      declined: {
        organizer: "Diese Buchungsanfrage wurde abgelehnt.",
        attendee: "Ihre Buchungsanfrage wurde abgelehnt.",
      },
      cancelled: { organizer: "Dieser Termin wurde abgesagt.", attendee: "Dieser Termin wurde abgesagt." },
      rescheduled: {
        organizer: "Dieser Termin wurde verschoben.",
        attendee: "Ihr Termin wurde verschoben.",
      },
    },
    what: "Was",
    when: "Wann",
    was: "Bisher",
    who: "Wer",
    where: "Wo",
    notes: "Notizen",
    reason: "Grund",
    repeats: "Wiederholung",
    units: [
      ["Jedes Jahr", "Jahre"],
      ["Jeden Monat", "Monate"],
      ["Jede Woche", "Wochen"],
      ["Jeden Tag", "Tage"],
      ["Jede Stunde", "Stunden"],
      ["Jede Minute", "Minuten"],
      ["Jede Sekunde", "Sekunden"],
    ],
    every: (unit: string, interval: number, count: number) =>
      `${interval === 1 ? unit : `Alle ${interval} ${unit}`}, ${count} Mal`,
    organizer: "Organisator",
    // cal.com's locales/de/common.json, event_between_users.
    eventBetween: "{eventName} zwischen {host} und {attendeeName}",
    someHost: "dem Gastgeber",
  },
} as const;

/** The language the e-mails speak for a locale: German for `de…`, else English. */
export const languageOf = (locale: string | null | undefined): Language =>
  locale?.toLowerCase().startsWith("de") ? "de" : "en";

const LANGUAGES = Object.keys(WORDS) as Language[];

/** v1's default booking title (getEventName without an event name template), in a language. */
export function defaultTitle(language: Language, parts: TitleParts): string {
  const words = WORDS[language];
  const values = { ...parts, host: parts.host ?? words.someHost };
  return words.eventBetween.replace(
    /\{(eventName|host|attendeeName)\}/g,
    (_, key: keyof TitleParts) => values[key],
  );
}

/**
 * The parts of a stored title that is the default one in a language the e-mails speak (a booking
 * stores it in its organizer's, v1's tOrganizer), or null for any other title (one the client
 * sent, or one whose event type was renamed since). `eventName`: the event type's title; null
 * when the booking has none (a dynamic group), then the title up to the first separator.
 */
export function titleParts(title: string, eventName: string | null, attendeeName: string): TitleParts | null {
  for (const language of LANGUAGES) {
    // Every language's template is "{eventName}<words>{host}<words>{attendeeName}".
    const [head, tail] = WORDS[language].eventBetween.split("{host}") as [string, string];
    const between = head.replace("{eventName}", "");
    const end = tail.replace("{attendeeName}", attendeeName);
    const name = eventName ?? title.slice(0, Math.max(0, title.indexOf(between, 1)));
    const start = name + between;
    if (name === "" || !title.startsWith(start) || !title.endsWith(end)) continue;
    if (title.length <= start.length + end.length) continue;
    const host = title.slice(start.length, title.length - end.length);
    const unnamed = LANGUAGES.some((other) => WORDS[other].someHost === host);
    return { eventName: name, host: unnamed ? null : host, attendeeName };
  }
  return null;
}

/**
 * Formatters by language and zone, made once: building an Intl.DateTimeFormat costs milliseconds
 * (measured: 13 ms a message with three built per message, inside the booking's transaction,
 * docs/performance.md), formatting with one costs microseconds. Bounded: zones are a fixed list.
 */
const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

function formattersOf(tag: string, timeZone: string) {
  const key = `${tag} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    made = {
      day: new Intl.DateTimeFormat(tag, {
        timeZone,
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
      }),
      time: new Intl.DateTimeFormat(tag, { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    };
    formatters.set(key, made);
  }
  return made;
}

/** "Monday, 7 December 2026, 10:00 – 10:30 (Europe/Berlin)", in the recipient's zone. */
export function formatSpan(start: Date, end: Date, timeZone: string, language: Language = "en"): string {
  const { day, time } = formattersOf(language === "de" ? "de-DE" : "en-GB", timeZone);
  return `${day.format(start)}, ${time.format(start)} – ${time.format(end)} (${timeZone})`;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const person = (p: { name: string; email: string }) => (p.name ? `${p.name} <${p.email}>` : p.email);

/** A recipient's time zone, or UTC when what is stored is not one Intl knows. */
const zoneOf = (timeZone: string): string => {
  try {
    formattersOf("en-GB", timeZone);
    return timeZone;
  } catch {
    return "UTC";
  }
};

/** "Every week, 4 times" / "Jede Woche, 4 Mal"; "Every 2 weeks, 4 times" / "Alle 2 Wochen, 4 Mal". */
function repeats(rule: { freq: number; interval: number; count: number }, language: Language): string {
  const words = WORDS[language];
  const [one, many] = words.units[rule.freq] ?? words.units[2];
  return words.every(rule.interval === 1 ? one : many, rule.interval, rule.count);
}

/** The booking's title as a recipient in `language` reads it: the default one in their language. */
export function titleIn(facts: Pick<MessageFacts, "title" | "titleParts">, language: Language): string {
  return facts.titleParts ? defaultTitle(language, facts.titleParts) : facts.title;
}

export function renderMessage(
  facts: MessageFacts,
  side: "organizer" | "attendee",
  to: Recipient,
): RenderedMessage {
  const language = languageOf(to.locale);
  const words = WORDS[language];
  const zone = zoneOf(to.timeZone);
  const when = formatSpan(facts.start, facts.end, zone, language);
  const title = titleIn(facts, language);
  const subject = `${words.subject[facts.kind][side].replace("{title}", title)} – ${when}`;
  const rows: [string, string][] = [
    [words.what, title],
    [words.when, when],
    ...(facts.previous
      ? [
          [words.was, formatSpan(facts.previous.start, facts.previous.end, zone, language)] as [
            string,
            string,
          ],
        ]
      : []),
    [
      words.who,
      [`${person(facts.organizer)} (${words.organizer})`, ...facts.attendees.map(person)].join("\n"),
    ],
    ...(facts.location ? [[words.where, facts.location] as [string, string]] : []),
    ...(facts.description ? [[words.notes, facts.description] as [string, string]] : []),
    ...(facts.recurrence ? [[words.repeats, repeats(facts.recurrence, language)] as [string, string]] : []),
    ...((facts.kind === "cancelled" || facts.kind === "declined") && facts.reason
      ? [[words.reason, facts.reason] as [string, string]]
      : []),
  ];
  const lead = words.lead[facts.kind][side];
  const text = `${lead}\n\n${rows.map(([label, value]) => `${label}:\n  ${value.replaceAll("\n", "\n  ")}`).join("\n")}\n`;
  const html =
    `<!doctype html><html lang="${language}"><body><p>${escapeHtml(lead)}</p><table>` +
    rows
      .map(
        ([label, value]) =>
          `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value).replaceAll("\n", "<br>")}</td></tr>`,
      )
      .join("") +
    "</table></body></html>";
  return { subject, text, html };
}
