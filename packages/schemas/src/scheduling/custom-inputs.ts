import { z } from "zod";
import { label, listQuery, rowId, text } from "./common.ts";

export const CustomInputType = z.enum(["TEXT", "TEXTLONG", "NUMBER", "BOOL", "RADIO", "PHONE"]);

const option = z.strictObject({ label: label(), type: label() });

export const CustomInput = z
  .object({
    id: z.int(),
    eventTypeId: z.int(),
    label: z.string(),
    type: CustomInputType,
    options: z.array(z.object({ label: z.string(), type: z.string() })).nullable(),
    required: z.boolean(),
    placeholder: z.string(),
  })
  .meta({ id: "EventTypeCustomInput", description: "A question asked when booking an event type" });

export const CustomInputCreateBody = z
  .strictObject({
    eventTypeId: rowId().describe("One of your event types"),
    label: label(),
    type: CustomInputType,
    options: z.array(option).max(100).nullable().optional().describe("The choices of a RADIO input"),
    required: z.boolean().default(false),
    placeholder: text().max(255).default(""),
  })
  .meta({ id: "EventTypeCustomInputCreate" });

export const CustomInputEditBody = z
  .strictObject({
    label: label().optional(),
    type: CustomInputType.optional(),
    options: z.array(option).max(100).nullable().optional(),
    required: z.boolean().optional(),
    placeholder: text().max(255).optional(),
  })
  .meta({ id: "EventTypeCustomInputEdit" });

export const CustomInputListQuery = listQuery({});
