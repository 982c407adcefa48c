-- Bookings as v1 had them: the booker's answers, why and by whom a booking was cancelled,
-- where it came from; and an index for the host's bookings by time (the slot engine's query).
ALTER TABLE "scheduling"."bookings"
  ADD COLUMN "responses" JSONB,
  ADD COLUMN "cancellationReason" TEXT,
  ADD COLUMN "cancelledBy" TEXT,
  ADD COLUMN "rescheduledBy" TEXT,
  ADD COLUMN "fromReschedule" TEXT,
  ADD COLUMN "creationSource" TEXT;

CREATE INDEX "bookings_userId_startTime_idx" ON "scheduling"."bookings"("userId", "startTime");
