import { Payment, PaymentListQuery } from "@app/schemas/scheduling";
import { integerId } from "./ids.ts";
import { defineResource } from "./resource.ts";

// Read-only, as in v1: payments are written by a payment provider, never through the API.
export const payments = defineResource({
  path: "payments",
  model: "Payment",
  name: "Payment",
  keys: { singular: "payment", plural: "payments" },
  operations: ["list", "read"],
  id: integerId,
  schemas: { public: Payment, list: PaymentListQuery },
  ownedBy: (userIds) => ({ booking: { userId: { in: userIds } } }),
});
