// Bookings as cal.com's v1 had them (../shared/reference/calcom-v1-bookings.md §2-§5): v1's
// create body (modern `responses` or the legacy name/email/customInputs), its list filters,
// its read shape, its strict edit body, and its cancel parameters.
import { z } from "zod";
import {
  baseQuery,
  dateTime,
  email,
  INT4_MAX,
  jsonValue,
  label,
  listQuery,
  repeatable,
  rowId,
  SLUG_RULE,
  STORABLE_RULE,
  slug,
  TIME_ZONE_RULE,
  text,
  timeZone,
} from "./common.ts";

export const BookingStatus = z.enum(["ACCEPTED", "PENDING", "CANCELLED", "REJECTED"]);

/** v1 read a start without an offset in the server's zone (UTC): `2025-04-21T20:28:00` is 20:28Z. */
const bookingInstant = () =>
  z.iso
    .datetime({ offset: true, local: true })
    .transform((value) => new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`))
    .refine(
      (date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999,
      "must fall in the years 1 to 9999",
    )
    .describe("ISO 8601 date-time; without an offset it is UTC, as on v1's hosted service");

const DATE_STRING = "Any date JavaScript's Date.parse reads (ISO 8601 recommended), in the years 1 to 9999";

const dateString = (name: string) =>
  z
    .string()
    .min(1, `${name}: Invalid ISO Date`)
    .refine((value) => !Number.isNaN(Date.parse(value)), `${name}: Invalid ISO Date`)
    .transform((value) => new Date(value))
    .refine(
      (date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999,
      "must fall in the years 1 to 9999",
    );

/** What GET returns of a booking (v1's schemaBookingReadPublic): no location, references or secrets. */
export const Booking = z
  .object({
    id: z.int(),
    userId: z.int().nullable().describe("The organizer"),
    description: z.string().nullable(),
    eventTypeId: z.int().nullable(),
    uid: z.string(),
    title: z.string(),
    startTime: z.date(),
    endTime: z.date(),
    attendees: z.array(
      z.object({
        id: z.int(),
        email: z.string(),
        name: z.string(),
        timeZone: z.string(),
        locale: z.string().nullable(),
      }),
    ),
    user: z
      .object({
        email: z.string(),
        name: z.string().nullable(),
        timeZone: z.string(),
        locale: z.string().nullable(),
      })
      .nullable()
      .describe("The organizer"),
    payment: z.array(
      z.object({
        id: z.int(),
        success: z.boolean(),
        paymentOption: z.enum(["ON_BOOKING", "HOLD"]).nullable(),
      }),
    ),
    metadata: z.unknown().nullable(),
    status: BookingStatus,
    responses: z
      .unknown()
      .nullable()
      .describe("The booker's answers; null for bookings made with legacy fields"),
    fromReschedule: z.string().nullable(),
    cancelledBy: z.string().nullable(),
    rescheduledBy: z.string().nullable(),
    createdAt: z.date(),
  })
  .meta({ id: "Booking", description: "A booked meeting, as v1 returned it" });

/** A booking as GET returns it: with `expand=team`, also its event type and that type's team. */
export const BookingExpanded = Booking.extend({
  eventType: z
    .object({
      title: z.string(),
      slug: z.string(),
      team: z.object({ name: z.string(), slug: z.string().nullable() }).nullable(),
    })
    .nullable()
    .optional()
    .describe("Only with `expand=team`"),
}).meta({ id: "BookingExpanded" });

const location = z.union([
  text().max(1_000),
  z.strictObject({ value: text().max(1_000), optionValue: text().max(1_000).optional() }),
]);

const boundedJson = jsonValue();

/** v1's `responses`: name and email, and whatever custom booking fields the event type asks. */
const Responses = z
  .looseObject({
    name: z.union([label(), z.object({ firstName: label(), lastName: text().max(255).optional() })]),
    email: email(),
    location: location.optional(),
    notes: text().max(10_000).optional(),
    guests: z.array(email()).max(50).optional(),
  })
  // Custom booking fields are stored as they come (jsonb): bounded like free-form JSON, storable.
  .superRefine((value, ctx) => {
    const checked = boundedJson.safeParse(value);
    const problem = checked.success
      ? JSON.stringify(value).length > 20_000 && "responses: at most 20,000 characters of JSON"
      : checked.error.issues[0]!.message;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const BookingCreateBody = z
  .strictObject({
    eventTypeId: z
      .unknown()
      .refine((value) => typeof value === "number", "Bad request, eventTypeId must be a number")
      .pipe(z.int().min(0).max(INT4_MAX))
      // v1's own message for a non-number needs `unknown` first; the document says what passes.
      .meta({ type: "integer", minimum: 0, maximum: INT4_MAX })
      .describe(
        "The event type to book (any user's: a booking page is public, as in v1); 0 with `eventTypeSlug` and " +
          "`user` books a dynamic group of two or more users, as in v1",
      ),
    eventTypeSlug: slug()
      .optional()
      .describe(`With eventTypeId 0: the dynamic group event's slug (kept on the booking); ${SLUG_RULE}`),
    user: z
      .union([text().min(1).max(1_000), z.array(text().min(1).max(255)).min(1).max(50)])
      .optional()
      .describe(
        'With eventTypeId 0: the group\'s usernames, as a list or joined by "+" (`alice+bob`), as v1 took them',
      ),
    start: bookingInstant().describe("Start instant"),
    end: bookingInstant()
      .optional()
      .describe("Default: start + the event type's length; otherwise it must match it"),
    timeZone: timeZone().describe(`The booker's zone: ${TIME_ZONE_RULE}`),
    language: text().min(1).max(35).describe("The booker's language (the attendee's locale)"),
    metadata: z
      .record(text().max(255), text().max(1_000))
      .default({})
      .describe(`String values only, as in v1: keys at most 255 characters, values 1,000; ${STORABLE_RULE}`),
    responses: Responses.optional().describe(
      "Modern shape: `{name, email, location?, notes?, guests?, ...}`; at most 20,000 characters of JSON, " +
        `${STORABLE_RULE} anywhere`,
    ),
    // v1's legacy shape (Pipedream's create-booking sends it): top-level name/email + customInputs.
    name: text().max(255).optional(),
    email: email().optional(),
    guests: z.array(email()).max(50).optional(),
    notes: text().max(10_000).optional(),
    location: text().max(1_000).optional(),
    smsReminderNumber: text().max(50).nullable().optional(),
    rescheduleReason: text().max(1_000).optional(),
    customInputs: z
      .array(z.strictObject({ label: text().max(255), value: z.union([text().max(10_000), z.boolean()]) }))
      .max(50)
      .optional(),
    title: label()
      .optional()
      .describe(
        'Default: "<event type> between <host> and <booker>" in the organizer\'s language (German for a `de` ' +
          'locale: "<event type> zwischen <host> und <booker>"), as v1 stored it; each e-mail says it in its recipient\'s',
      ),
    description: text().max(10_000).nullable().optional(),
    rescheduleUid: text()
      .min(1)
      .max(255)
      .optional()
      .describe(
        "Reschedule: the uid of the booking this one replaces. It becomes CANCELLED (`rescheduled: true`) in " +
          "the same transaction, its slot does not block the new one, and the new booking's `fromReschedule` " +
          "names it. 404 when unknown; 400 when it is cancelled, already rescheduled or over",
      ),
    rescheduledBy: email().optional().describe("Reschedule: who moved it (stored on the original)"),
    recurringEventId: text()
      .min(1)
      .max(255)
      .optional()
      .describe(
        "Recurring series: an id the client chooses (a UUID), the same for every booking of the series; each " +
          "POST books one of them, as in v1",
      ),
    recurringCount: z
      .int()
      .min(1)
      .max(INT4_MAX)
      .optional()
      .describe(
        "Recurring series: how many bookings it has. With `recurringEventId` on a recurring event type it must " +
          "not exceed the event type's `recurringEvent.count` (400 `Invalid recurringCount`); otherwise ignored, " +
          "as in v1",
      ),
    noEmail: z
      .boolean()
      .optional()
      .describe(
        "true: no confirmation, request or rescheduled e-mail for this booking (as v1); the server sends " +
          "booking e-mails only when it has an SMTP server (SMTP_URL)",
      ),
  })
  // The booker is named one of two ways, never both (booking-operations.ts `booker`, v1's
  // rule): `responses`, with none of the legacy fields set; or the legacy name and email
  // without `responses`. v1 tests the legacy fields for truth, so an empty string or a null
  // is none: each `not` branch below is a field that counts as set.
  .meta({
    id: "BookingCreate",
    oneOf: [
      {
        required: ["responses"],
        not: {
          anyOf: [
            ...(["name", "notes", "location", "rescheduleReason", "smsReminderNumber"] as const).map(
              (field) => ({ required: [field], properties: { [field]: { type: "string", minLength: 1 } } }),
            ),
            { required: ["email"] },
            { required: ["guests"] },
            { required: ["customInputs"] },
          ],
        },
      },
      {
        not: { required: ["responses"] },
        // The server takes an empty legacy name as none (v1's `!body.name`).
        required: ["name", "email"],
        properties: { name: { minLength: 1 } },
      },
    ],
  });

export const BookingListQuery = listQuery({
  attendeeEmail: repeatable(email())
    .optional()
    .describe("Bookings with an attendee of this e-mail (repeatable)"),
  dateFrom: dateString("dateFrom").optional().describe(`startTime >= dateFrom. ${DATE_STRING}`),
  dateTo: dateString("dateTo").optional().describe(`endTime <= dateTo. ${DATE_STRING}`),
  status: z.enum(["upcoming"]).optional().describe("`upcoming`: startTime >= now"),
  sortBy: z.enum(["createdAt", "updatedAt"]).optional(),
  order: z.enum(["asc", "desc"]).default("asc"),
  expand: repeatable(z.enum(["team"]))
    .optional()
    .describe("`team` adds eventType {title, slug, team}"),
});

export const BookingReadQuery = z.strictObject({
  ...baseQuery,
  expand: repeatable(z.enum(["team"]))
    .optional()
    .describe("`team` adds eventType {title, slug, team}"),
});

const endsAfterStart = (body: { startTime?: Date; endTime?: Date }) =>
  !body.startTime || !body.endTime || body.endTime > body.startTime;

/**
 * v1's strict edit body: no side effects beyond the columns (no availability check), except that
 * a PENDING booking set ACCEPTED or REJECTED sends v1's confirm handler's e-mails (docs/adr/0238).
 */
export const BookingEditBody = z
  .strictObject({
    title: label().optional(),
    description: text().max(10_000).nullable().optional(),
    startTime: dateTime().optional(),
    endTime: dateTime().optional(),
    status: BookingStatus.optional().describe(
      "A PENDING booking set ACCEPTED is confirmed: with e-mail on, the organizer and attendees get the " +
        "scheduled e-mails with the invite; set REJECTED, the attendees get the declined e-mail. Any other " +
        "change sends nothing",
    ),
    rejectionReason: text()
      .max(1_000)
      .optional()
      .describe(
        "The reason a declined e-mail gives, when this body moves a PENDING booking to REJECTED; not stored " +
          "(v1's confirm handler took it as `reason`)",
      ),
    eventTypeId: rowId().nullable().optional(),
    userId: rowId().optional().describe("Admins only: change the organizer"),
    cancelledBy: email().optional(),
    rescheduledBy: email().optional(),
  })
  .refine(endsAfterStart, { message: "must be after startTime", path: ["endTime"] })
  .meta({ id: "BookingEdit" });

export const BookingCancelQuery = z.strictObject({
  ...baseQuery,
  cancellationReason: text().max(1_000).optional().describe('Why (default "Not Provided")'),
  allRemainingBookings: z
    .string()
    .max(10)
    .optional()
    .describe(
      "`true` (exactly): on a booking of a recurring series, cancel every booking of the series that has not " +
        "started yet, in one statement (past ones stay); any other value: this booking only, as in v1",
    ),
  cancelledBy: email().optional(),
});

export const BookingCancelBody = z
  .strictObject({ cancellationReason: text().max(1_000).optional(), cancelledBy: email().optional() })
  .nullish();

export const BookingCancelled = z
  .object({
    success: z.literal(true),
    message: z.string(),
    onlyRemovedAttendee: z.boolean(),
    bookingId: z.int(),
    bookingUid: z.string(),
  })
  .meta({ id: "BookingCancelled" });

/** What POST returns: the booking itself, flat (no envelope), as v1 did. */
export const BookingCreated = z
  .looseObject({
    id: z.int(),
    uid: z.string(),
    userId: z.int().nullable(),
    eventTypeId: z.int().nullable(),
    title: z.string(),
    startTime: z.date(),
    endTime: z.date(),
    status: BookingStatus,
    creationSource: z.string().nullable(),
    user: z.object({
      email: z.null(),
      name: z.string().nullable(),
      timeZone: z.string(),
      username: z.string().nullable(),
    }),
    attendees: z.array(z.looseObject({ id: z.int(), email: z.string(), name: z.string() })),
    payment: z.array(z.unknown()),
    references: z.array(z.unknown()),
    fromReschedule: z.string().nullable().describe("Reschedule: the uid of the booking this one replaced"),
    recurringEventId: z.string().nullable().describe("The series this booking belongs to"),
    paymentRequired: z.boolean(),
    isDryRun: z.boolean(),
    luckyUsers: z
      .array(z.int())
      .optional()
      .describe("Team event types only: the round-robin host chosen (none for COLLECTIVE)"),
  })
  .meta({ id: "BookingCreated" });
