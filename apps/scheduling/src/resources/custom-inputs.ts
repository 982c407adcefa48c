import {
  CustomInput,
  CustomInputCreateBody,
  CustomInputEditBody,
  CustomInputListQuery,
} from "@app/schemas/scheduling";
import { authorizeEventTypeChangeById, eventTypes, eventTypesOwnedBy } from "./event-types.ts";
import { integerId } from "./ids.ts";
import { ALL_OPERATIONS, defineResource } from "./resource.ts";

export const customInputs = defineResource({
  path: "custom-inputs",
  model: "EventTypeCustomInput",
  name: "Custom input",
  keys: { singular: "event_type_custom_input", plural: "event_type_custom_inputs" },
  operations: ALL_OPERATIONS,
  id: integerId,
  schemas: {
    public: CustomInput,
    create: CustomInputCreateBody,
    edit: CustomInputEditBody,
    list: CustomInputListQuery,
  },
  jsonColumns: ["options"],
  ownedBy: (userIds) => ({ eventType: eventTypesOwnedBy(userIds) }),
  references: [{ field: "eventTypeId", resource: eventTypes, need: "change" }],
  // A team member sees a team event type's inputs; changing them takes what changing it takes.
  authorize: (ctx, input) => authorizeEventTypeChangeById(ctx, input.eventTypeId),
});
