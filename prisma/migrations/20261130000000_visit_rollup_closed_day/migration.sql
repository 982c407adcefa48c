-- The last day closed to the batches of recent visits (docs/adr/0189). The roll-up closes a day
-- first, in a short transaction that waits for the batches in flight, and then rolls it up while
-- the batches of today's visits go on: a batch with a visit of a closed day is refused (SQLSTATE
-- VR001) and stored again by the statement that waits for the roll-up and writes daily rows.

-- AlterTable
ALTER TABLE "shortener"."visit_rollup" ADD COLUMN "closed_through" DATE;

UPDATE "shortener"."visit_rollup" SET "closed_through" = "rolled_through";

ALTER TABLE "shortener"."visit_rollup" ALTER COLUMN "closed_through" SET NOT NULL;

-- A day rolled up is closed too; the greater of the two keeps it so if one is set by hand.
CREATE OR REPLACE FUNCTION "shortener"."visits_not_rolled_up"("first_day" DATE) RETURNS BOOLEAN
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF "first_day" <= (SELECT greatest("rolled_through", "closed_through") FROM "shortener"."visit_rollup") THEN
    RAISE EXCEPTION 'a visit of %, a day closed to recent visits', "first_day" USING ERRCODE = 'VR001';
  END IF;
  RETURN true;
END $$;
