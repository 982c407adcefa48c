// Where POST /bookings' Idempotency-Keys are kept: scheduling.idempotency_keys, per user. The
// mechanism is both services' (@app/server/idempotency, docs/adr/0148).
import { IdempotencyKeys } from "@app/server/idempotency";

export const idempotencyKeys = new IdempotencyKeys({
  table: `"scheduling"."idempotency_keys"`,
  columns: {
    user: `"userId"`,
    key: `"key"`,
    requestHash: `"requestHash"`,
    status: `"status"`,
    response: `"response"`,
    createdAt: `"createdAt"`,
  },
  userType: "integer",
});
