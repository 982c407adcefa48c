-- Calendar feed tokens (docs/adr/0229): one user's secret for GET /v1/bookings.ics, stored as
-- its SHA-256 only. A new table: an expand step.
-- CreateTable
CREATE TABLE "scheduling"."calendar_feed_tokens" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "hashed_token" TEXT NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "calendar_feed_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "calendar_feed_tokens_hashed_token_key" ON "scheduling"."calendar_feed_tokens"("hashed_token");

-- CreateIndex
CREATE INDEX "calendar_feed_tokens_user_id_idx" ON "scheduling"."calendar_feed_tokens"("user_id");

-- AddForeignKey
ALTER TABLE "scheduling"."calendar_feed_tokens" ADD CONSTRAINT "calendar_feed_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
