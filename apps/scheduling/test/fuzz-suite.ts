// Property-based fuzzing from the served OpenAPI document (issue 9 item 10): for every
// operation, fast-check sends valid, boundary and hostile requests as a normal user and as an
// admin on a seeded database. Properties: no 5xx, and a 4xx changes nothing (the change journal
// of the scheduling schema before and after). The conformance watcher the app helper installs
// checks every answer against the document. Fixed seed (FUZZ_SEED), FUZZ_RUNS cases per
// operation. Each direction is a test file of its own (fuzz-refused, fuzz-admitted), so two
// workers share the suite; this module is their one setup.
//
// The positive direction: what the document admits is not refused, except by the rules below,
// which the document cannot state (each says why; each is in the field's description).
import { secretScan } from "@app/testing/database";
import {
  type FuzzDirection,
  fuzzEveryOperation,
  type Operation,
  type UnstatableRule,
} from "@app/testing/fuzz";
import { beforeAll, inject } from "vitest";
import { seedDemoData } from "../src/seed.ts";
import { setupApp } from "./helpers.ts";

/** A 400 whose message matches `pattern`. */
const refusal = (pattern: RegExp) => (_operation: Operation, answer: { statusCode: number; body: string }) =>
  answer.statusCode === 400 && pattern.test(answer.body);

/** What the server checks that OpenAPI 3.0 cannot say; the positive fuzz accepts these refusals only. */
export const UNSTATABLE: UnstatableRule[] = [
  {
    rule: "the rows a request refers to exist, belong to the caller and are in a state that allows the change",
    reason: "existence, ownership and state depend on the stored data, not on the request",
    refuses: refusal(
      /refers to a missing record|is not one of user \d+'s|user \d+ is not (the owner|an accepted member)|has already been cancelled|Cancellation reason is required when you are the host|(cancelled|rescheduled|past)_bookings_cannot_be_rescheduled|seated booking cannot be rescheduled|recurring_event_seats_error|(Missing|Invalid) recurringCount|do not allow dynamic booking/,
    ),
  },
  {
    rule: "a booking starts in the future, at a free bookable time, and lasts its event type's length",
    reason: "it depends on the clock, the host's schedule and bookings and the event type's row",
    refuses: refusal(
      /Attempting to book a meeting in the past|Invalid event length|booking_time_out_of_bounds_error|no_available_users_found_error/,
    ),
  },
  {
    rule: "a range ends after it starts (endTime after startTime, dateTo after dateFrom); a slots or availability query spans at most 93 days",
    reason: "one field bounded by another: OpenAPI 3.0 cannot compare two fields",
    refuses: refusal(/must be after (startTime|dateFrom)|the range may span at most \d+ days/),
  },
  {
    rule: "dates fall in the years 1 to 9999 in UTC",
    reason:
      "the year is checked after the offset is applied (0001-01-01T00:30:00+01:00 is year 0); a pattern cannot apply offsets",
    refuses: refusal(/years 1 to 9999/),
  },
  {
    rule: "dateFrom and dateTo are dates JavaScript's Date.parse reads, as v1 read them",
    reason: "no format names Date.parse's grammar; the description says it",
    refuses: refusal(/(dateFrom|dateTo): Invalid ISO Date/),
  },
  {
    rule: "slots are asked for by eventTypeId, or by usernameList with eventTypeSlug (v1's rule)",
    reason: "a rule over several parameters: OpenAPI 3.0 cannot relate parameters",
    refuses: refusal(/You need to either pass an eventTypeId OR an usernameList\/eventTypeSlug combination/),
  },
  {
    rule: "availability is asked for by userId, username or teamId (v1's rule)",
    reason: "a rule over several parameters: OpenAPI 3.0 cannot relate parameters",
    refuses: refusal(/Either username or userId or teamId should be filled in/),
  },
  {
    rule: "an event type has userId or teamId, not both",
    reason:
      "a rule over two fields: OpenAPI 3.0 could say it only with `not`, which generated clients ignore",
    refuses: refusal(/give either userId or teamId, not both/),
  },
  {
    rule: "v1's legacy booking fields (guests, notes, smsReminderNumber, rescheduleReason) do not go with `responses`",
    reason: "a rule over several fields, as above (v1's own rule and message)",
    refuses: refusal(/Legacy Props: .* can't be used with `responses`/),
  },
  {
    rule: "eventTypeId 0 (v1's dynamic group) comes with eventTypeSlug and two or more usernames in user",
    reason: "a rule over several fields that depends on one field's value: OpenAPI 3.0 cannot say it",
    refuses: refusal(/eventTypeId 0 books a dynamic group/),
  },
  {
    rule: "an event type's hosts name each userId once",
    reason: "uniqueItems compares whole items; the document cannot make one key of an item unique",
    refuses: refusal(/must not repeat a userId/),
  },
  {
    rule: "free-form JSON has no `__proto__` key, nor a `constructor` key holding `prototype`, at any depth",
    reason:
      "the JSON parser refuses prototype poisoning before validation (as invalid JSON); OpenAPI 3.0 cannot forbid a key at every depth of a free-form value",
    refuses: refusal(/Body is not valid JSON/),
  },
  {
    rule: "a URL's host is one a browser opens (WHATWG URL parsing)",
    reason: "format uri is RFC 3986's syntax, which admits authorities such as `:mk` or an empty host",
    refuses: refusal(/Invalid URL/),
  },
];

/** The suite in `direction`: its app and seeded database, and a test per operation. */
export function fuzzScheduling(direction: FuzzDirection): void {
  const t = setupApp();
  const keys: Record<string, string> = {};
  let calendarId = "";

  beforeAll(async () => {
    for (const seeded of await seedDemoData(t.prisma, { prefix: "cal_" })) {
      secretScan.remember(seeded.apiKey);
      if (seeded.email === "admin@example.com") keys.admin = seeded.apiKey;
      if (seeded.email === "alice@example.com") keys.user = seeded.apiKey;
    }
    // Rows of the resources the demo data has none of, so ids hit something.
    const alice = await t.prisma.user.findUniqueOrThrow({ where: { email: "alice@example.com" } });
    const eventType = await t.prisma.eventType.findFirstOrThrow({ where: { userId: alice.id } });
    const calendar = await t.prisma.selectedCalendar.create({
      data: { userId: alice.id, integration: "google_calendar", externalId: "alice@example.com" },
    });
    calendarId = `${calendar.userId}_${calendar.integration}_${calendar.externalId}`;
    await t.prisma.destinationCalendar.create({
      data: { userId: alice.id, integration: "google_calendar", externalId: "alice@example.com" },
    });
    await t.prisma.eventTypeCustomInput.create({
      data: { eventTypeId: eventType.id, label: "Company", type: "TEXT", required: false },
    });
  });

  /** Ids of seeded rows (the database is fresh: every table's ids start at 1). */
  function knownIds(operation: Operation): string[] {
    if (operation.path.startsWith("/api/v1/memberships/")) return ["2_1", "3_1", "1_1", "2_2"];
    if (operation.path.startsWith("/api/v1/selected-calendars/"))
      return [encodeURIComponent(calendarId), "2_x_y"];
    return ["1", "2", "3", "4"];
  }

  fuzzEveryOperation(`fuzzing every operation of the scheduling document (${direction})`, {
    committedDocument: new URL("../../../openapi/scheduling.json", import.meta.url),
    target: () => ({ app: t.app, databaseUrl: t.databaseUrl }),
    schemas: ["scheduling"],
    requests: () => ({
      callers: ["user", "admin"],
      auth: (caller) => ({ query: { apiKey: keys[caller]! } }),
      knownIds,
    }),
    settings: inject("fuzz"),
    unstatable: UNSTATABLE,
    directions: [direction],
  });
}
