-- Integrations that retry and calendars of any integration (issue 19).

-- A POST /bookings request's Idempotency-Key, per caller: the SHA-256 of the body and the
-- answer given, replayed for 24 hours (docs/adr/0148). The row is inserted first in the
-- booking's own transaction, so a second request with the key waits on it and then replays;
-- `status` and `response` are set before that transaction commits.

-- CreateTable
CREATE TABLE "scheduling"."idempotency_keys" (
    "userId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" CHAR(64) NOT NULL,
    "status" INTEGER,
    "response" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("userId","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_createdAt_idx" ON "scheduling"."idempotency_keys"("createdAt");

-- AddForeignKey
ALTER TABLE "scheduling"."idempotency_keys" ADD CONSTRAINT "idempotency_keys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A selected calendar's API id `<userId>_<integration>_<externalId>`, stored and unique: any
-- integration may now hold `_`, so the id can no longer be split by a rule, and is looked up
-- whole instead; two rows of one user cannot share an id (docs/adr/0150).

-- AlterTable
ALTER TABLE "scheduling"."selected_calendars" ADD COLUMN "apiId" TEXT NOT NULL
    GENERATED ALWAYS AS (("userId")::text || '_' || "integration" || '_' || "externalId") STORED;

-- CreateIndex
CREATE UNIQUE INDEX "selected_calendars_apiId_key" ON "scheduling"."selected_calendars"("apiId");
