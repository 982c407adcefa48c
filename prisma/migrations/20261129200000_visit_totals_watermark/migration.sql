-- The last day in the totals of every day rolled up (visit_user_short_totals, visit_value_totals,
-- visit_user_value_totals): a day is added to them in a step of its own after it is rolled up,
-- so that the batches of today's visits do not wait for those writes (docs/adr/0188). Readers
-- take the totals through "totals_through" and the hourly rows after it. The migrations that
-- made the totals filled them through "rolled_through".

-- AlterTable
ALTER TABLE "shortener"."visit_rollup" ADD COLUMN "totals_through" DATE;

UPDATE "shortener"."visit_rollup" SET "totals_through" = "rolled_through";

ALTER TABLE "shortener"."visit_rollup" ALTER COLUMN "totals_through" SET NOT NULL;
