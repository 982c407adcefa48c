-- Team event types as v1 booked them: round-robin weights switched on per event type (the
-- hosts' `priority` and `weight` columns exist already), and an index for the round-robin
-- rule's "latest booking of this event type" and "bookings this month" queries, which also
-- serves every lookup the single-column index it replaces served.
ALTER TABLE "scheduling"."event_types"
  ADD COLUMN "isRRWeightsEnabled" BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX "bookings_eventTypeId_createdAt_idx" ON "scheduling"."bookings"("eventTypeId", "createdAt");
DROP INDEX "scheduling"."bookings_eventTypeId_idx";
