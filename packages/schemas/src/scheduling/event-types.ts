import { z } from "zod";
import {
  baseQuery,
  count,
  dateTime,
  httpUrl,
  jsonObject,
  jsonValue,
  label,
  listQuery,
  MAX_TAKE,
  pagination,
  repeatable,
  rowId,
  SLUG_RULE,
  slug,
  text,
  timeZone,
} from "./common.ts";
import { CustomInput } from "./custom-inputs.ts";

export const PeriodType = z.enum(["UNLIMITED", "ROLLING", "ROLLING_WINDOW", "RANGE"]);
export const SchedulingType = z.enum(["ROUND_ROBIN", "COLLECTIVE", "MANAGED"]);

const limits = z
  .strictObject({ PER_DAY: count(), PER_WEEK: count(), PER_MONTH: count(), PER_YEAR: count() })
  .partial();

const host = z.strictObject({
  userId: rowId().describe("The owner, or an accepted member of the event type's team"),
  isFixed: z
    .boolean()
    .default(false)
    .describe("ROUND_ROBIN: must be free and joins every booking (every COLLECTIVE host does)"),
  scheduleId: rowId().nullable().optional().describe("One of that host's schedules"),
  priority: z
    .int()
    .min(0)
    .max(4)
    .nullable()
    .optional()
    .describe("ROUND_ROBIN: 0 lowest ... 4 highest (null: 2); the highest free ones are chosen first"),
  weight: z
    .int()
    .min(0)
    .max(10_000)
    .nullable()
    .optional()
    .describe("ROUND_ROBIN with isRRWeightsEnabled: the host's share of bookings (null: 100)"),
});

export const EventType = z
  .object({
    id: z.int(),
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    length: z.int().describe("Minutes"),
    hidden: z.boolean(),
    position: z.int(),
    userId: z.int().nullable().describe("The owner; null for a team event type"),
    teamId: z.int().nullable(),
    scheduleId: z.int().nullable(),
    parentId: z.int().nullable(),
    eventName: z.string().nullable(),
    timeZone: z.string().nullable(),
    periodType: PeriodType,
    periodStartDate: z.date().nullable(),
    periodEndDate: z.date().nullable(),
    periodDays: z.int().nullable(),
    periodCountCalendarDays: z.boolean().nullable(),
    requiresConfirmation: z.boolean(),
    recurringEvent: z.unknown(),
    disableGuests: z.boolean(),
    hideCalendarNotes: z.boolean(),
    minimumBookingNotice: z.int(),
    beforeEventBuffer: z.int(),
    afterEventBuffer: z.int(),
    seatsPerTimeSlot: z.int().nullable(),
    seatsShowAttendees: z.boolean().nullable(),
    seatsShowAvailabilityCount: z.boolean().nullable(),
    schedulingType: SchedulingType.nullable(),
    price: z.int(),
    currency: z.string(),
    slotInterval: z.int().nullable(),
    successRedirectUrl: z.string().nullable(),
    locations: z.unknown(),
    metadata: z.unknown(),
    bookingFields: z.unknown(),
    bookingLimits: z.unknown(),
    durationLimits: z.unknown(),
    onlyShowFirstAvailableSlot: z.boolean(),
    assignAllTeamMembers: z.boolean(),
    isRRWeightsEnabled: z.boolean(),
    hosts: z.array(
      z.object({
        userId: z.int(),
        isFixed: z.boolean(),
        scheduleId: z.int().nullable(),
        priority: z.int().nullable(),
        weight: z.int().nullable(),
      }),
    ),
    customInputs: z.array(CustomInput),
  })
  .meta({ id: "EventType", description: "A bookable kind of meeting, personal or of a team" });

/** Everything an owner may set on create and change on edit. */
const settings = {
  title: label(),
  slug: slug().describe(`Unique among the owner's (or the team's) event types; ${SLUG_RULE}`),
  length: z.int().min(1).max(1440).describe("Minutes"),
  description: text().max(10_000).nullable(),
  hidden: z.boolean(),
  position: z.int32(),
  eventName: text().max(1024).nullable(),
  timeZone: timeZone().nullable(),
  periodType: PeriodType,
  periodStartDate: dateTime().nullable(),
  periodEndDate: dateTime().nullable(),
  periodDays: count().nullable(),
  periodCountCalendarDays: z.boolean().nullable(),
  requiresConfirmation: z.boolean(),
  recurringEvent: z
    .strictObject({
      dtstart: dateTime().optional(),
      interval: z.int().min(1).max(1000),
      count: z.int().min(1).max(1000),
      freq: z.int().min(0).max(6).describe("0 YEARLY ... 6 SECONDLY (RFC 5545 order)"),
      until: dateTime().optional(),
      tzid: timeZone().optional(),
    })
    .nullable(),
  disableGuests: z.boolean(),
  hideCalendarNotes: z.boolean(),
  minimumBookingNotice: count().describe("Minutes"),
  beforeEventBuffer: count().describe("Minutes"),
  afterEventBuffer: count().describe("Minutes"),
  seatsPerTimeSlot: z.int().min(1).max(1000).nullable(),
  seatsShowAttendees: z.boolean().nullable(),
  seatsShowAvailabilityCount: z.boolean().nullable(),
  schedulingType: SchedulingType.nullable(),
  scheduleId: rowId().nullable().describe("One of the owner's schedules"),
  price: count(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code"),
  slotInterval: z.int().min(1).max(1440).nullable(),
  successRedirectUrl: z.union([httpUrl(), z.literal("")]).nullable(),
  locations: z
    .array(
      z.looseObject({
        type: label(),
        link: httpUrl().optional().describe("http(s) only: booking pages and clients open it"),
      }),
    )
    .max(50)
    .superRefine((list, ctx) => {
      const checked = jsonValue().safeParse(list);
      if (!checked.success) ctx.addIssue({ code: "custom", message: checked.error.issues[0]!.message });
    })
    .nullable(),
  metadata: jsonObject().nullable(),
  bookingFields: z.array(jsonObject()).max(100).nullable(),
  bookingLimits: limits.nullable(),
  durationLimits: limits.nullable(),
  onlyShowFirstAvailableSlot: z.boolean(),
  assignAllTeamMembers: z.boolean(),
  isRRWeightsEnabled: z
    .boolean()
    .describe("ROUND_ROBIN: choose among free hosts by their weights first (v1's weighted round robin)"),
  hosts: z
    .array(host)
    .max(100)
    .refine((list) => new Set(list.map((h) => h.userId)).size === list.length, "must not repeat a userId")
    .describe("Each userId at most once. Given on edit, replaces the hosts; absent, keeps them"),
};

const { title, slug: slugField, length, ...optionalSettings } = settings;

export const EventTypeCreateBody = z
  .strictObject({
    title,
    slug: slugField,
    length,
    ...z.object(optionalSettings).partial().shape,
    teamId: rowId().optional().describe("Makes it a team event type; needs OWNER or ADMIN of the team"),
    userId: rowId().optional().describe("Admins only: the user the event type is for"),
  })
  .refine((body) => body.teamId === undefined || body.userId === undefined, {
    message: "give either userId or teamId, not both",
    path: ["teamId"],
  })
  .meta({ id: "EventTypeCreate" });

export const EventTypeEditBody = z.strictObject(settings).partial().meta({ id: "EventTypeEdit" });

export const EventTypeListQuery = listQuery({
  slug: repeatable(text()).optional().describe("Repeatable: only these slugs"),
});

/** GET /teams/{id}/event-types: one page of a team's event types (v1 took no other key). */
export const TeamEventTypesQuery = z.strictObject({ ...baseQuery, ...pagination(MAX_TAKE) });
