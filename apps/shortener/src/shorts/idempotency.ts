// Where the Idempotency-Keys of POST /api/shorts and /api/shorts/bulk are kept:
// shortener.idempotency_keys, per user. The mechanism is both services' (@app/server/idempotency,
// docs/adr/0160).
import { IdempotencyKeys } from "@app/server/idempotency";

export const idempotencyKeys = new IdempotencyKeys({
  table: `"shortener"."idempotency_keys"`,
  columns: {
    user: `"user_id"`,
    key: `"key"`,
    requestHash: `"request_hash"`,
    status: `"status"`,
    response: `"response"`,
    createdAt: `"created_at"`,
  },
  userType: "uuid",
});
