-- The hour each visitor of a day counts in (its first visit's), so that a batch storing an
-- earlier visit of that visitor after a later one (two instances at an hour's turn) moves it
-- to the earlier hour: "previous_hour" is set by that update only, for the statement's
-- RETURNING to say which hour it leaves (docs/adr/0203). Rows from before this migration have
-- no hour and keep the hour they were counted in; they live two days at most.

-- AlterTable
ALTER TABLE "shortener"."visit_day_visitors" ADD COLUMN "hour" TIMESTAMPTZ(3),
ADD COLUMN "previous_hour" TIMESTAMPTZ(3);
