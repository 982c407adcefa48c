-- Each short's visits of all the days rolled up, per user (docs/adr/0187): with the hours after
-- the last day rolled up, a short's visits of all time, read as one row a short. An account's
-- top shorts take them as bounds, so a range's sums are read only for the shorts that can
-- rank; the list of shorts ordered by visits sums them instead of every daily row.
-- Invariant: "visits" = the sum of the short's visit_user_short_days rows through
-- visit_rollup.rolled_through (the roll-up and a late visit's batch add to both).

-- CreateTable
CREATE TABLE "shortener"."visit_user_short_totals" (
    "user_id" UUID NOT NULL,
    "short_id" UUID NOT NULL,
    "visits" BIGINT NOT NULL,
    "humans" BIGINT NOT NULL,

    CONSTRAINT "visit_user_short_totals_pkey" PRIMARY KEY ("user_id","short_id")
);

-- A short's daily rows in a range (the shorts that can rank in top shorts).
-- CreateIndex
CREATE INDEX "visit_user_short_days_user_id_short_id_day_idx" ON "shortener"."visit_user_short_days"("user_id", "short_id", "day");

-- Filled while no roll-up, batch or sweep can change the daily rows or the watermark: they
-- take these locks too (visit-rollup.ts) or conflict with them.
LOCK TABLE "shortener"."visit_user_short_days", "shortener"."visit_rollup" IN SHARE MODE;

INSERT INTO "shortener"."visit_user_short_totals" ("user_id", "short_id", "visits", "humans")
SELECT "user_id", "short_id", sum("visits"), sum("humans") FROM "shortener"."visit_user_short_days"
WHERE "day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup")
GROUP BY 1, 2;
