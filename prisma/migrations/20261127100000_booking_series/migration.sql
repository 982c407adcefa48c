-- v1's reschedule, recurring-series and dynamic-group columns on bookings (calcom-v1-bookings.md
-- §2.5, §5.3): `rescheduled` marks an original that a reschedule cancelled (it cannot be
-- rescheduled again), `recurringEventId` groups the bookings of one series, and a dynamic group
-- booking (no event type) keeps the slug and the users it was booked with. The index serves
-- cancelling a series' remaining bookings (`allRemainingBookings=true`) from its id and the time.
ALTER TABLE "scheduling"."bookings"
  ADD COLUMN "rescheduled" BOOLEAN,
  ADD COLUMN "recurringEventId" TEXT,
  ADD COLUMN "dynamicEventSlugRef" TEXT,
  ADD COLUMN "dynamicGroupSlugRef" TEXT;

CREATE INDEX "bookings_recurringEventId_startTime_idx" ON "scheduling"."bookings"("recurringEventId", "startTime");
