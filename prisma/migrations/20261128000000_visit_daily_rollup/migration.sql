-- The daily aggregates (visit_day_values, visit_user_day_values, visit_user_short_days) are
-- rolled up from the hourly ones once a UTC day is over, instead of being written by
-- every batch of visits (docs/adr/0185). Days up to "rolled_through" have their daily rows;
-- statistics read the hourly rows after it. Every day so far was written whole by the batches,
-- and the days after this one are read from the hourly rows (and rolled up again from them).

-- CreateTable
CREATE TABLE "shortener"."visit_rollup" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "rolled_through" DATE NOT NULL,

    CONSTRAINT "visit_rollup_pkey" PRIMARY KEY ("id"),
    -- One row.
    CONSTRAINT "visit_rollup_one_row" CHECK ("id")
);

INSERT INTO "shortener"."visit_rollup" ("rolled_through") VALUES ((now() AT TIME ZONE 'UTC')::date - 1);

-- The roll-up reads one day's hours of every short and user.
-- CreateIndex
CREATE INDEX "visit_hour_values_hour_idx" ON "shortener"."visit_hour_values"("hour");

-- CreateIndex
CREATE INDEX "visit_user_hour_values_hour_idx" ON "shortener"."visit_user_hour_values"("hour");

-- CreateIndex
CREATE INDEX "visit_user_short_hours_hour_idx" ON "shortener"."visit_user_short_hours"("hour");

-- A batch of recent visits is stored without the daily rows' writes; this refuses it (SQLSTATE
-- VR001, nothing stored) if one of its days was rolled up after all, and the batch is stored
-- again with them (visit-log.ts). Read in the statement's snapshot, as the watermark's readers do.
CREATE FUNCTION "shortener"."visits_not_rolled_up"("first_day" DATE) RETURNS BOOLEAN
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF "first_day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup") THEN
    RAISE EXCEPTION 'a visit of %, a day already rolled up', "first_day" USING ERRCODE = 'VR001';
  END IF;
  RETURN true;
END $$;
