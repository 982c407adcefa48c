-- Idempotency-Key on POST /api/shorts and /api/shorts/bulk (issue 20): per user, the SHA-256 of
-- the request and the answer given, replayed for 24 hours (docs/adr/0160). The row is inserted
-- first in the creation's own transaction, so a second request with the key waits on it and
-- then replays; `status` and `response` are set before that transaction commits. Each claim
-- deletes a few expired rows (the created_at index finds them).

-- CreateTable
CREATE TABLE "shortener"."idempotency_keys" (
    "user_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "status" INTEGER,
    "response" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "shortener"."idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "shortener"."idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "shortener"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
