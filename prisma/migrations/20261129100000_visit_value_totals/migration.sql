-- Each short's and each account's visits per value of every day rolled up (docs/adr/0188): a
-- long range's top values are read as these totals less the days outside the range, when
-- those are fewer than the days inside (a year of a short a year old: one day's rows, not 365).
-- Invariant: a row = the sum of its visit_day_values (visit_user_day_values) rows through
-- visit_rollup.rolled_through (the roll-up and a late visit's batch add to both; the sweep of a
-- deleted short subtracts its rows from its user's, as it does for the daily ones).

-- CreateTable
CREATE TABLE "shortener"."visit_value_totals" (
    "short_id" UUID NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" BIGINT NOT NULL,
    "humans" BIGINT NOT NULL,

    CONSTRAINT "visit_value_totals_pkey" PRIMARY KEY ("short_id","dimension","value")
);

-- CreateTable
CREATE TABLE "shortener"."visit_user_value_totals" (
    "user_id" UUID NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" BIGINT NOT NULL,
    "humans" BIGINT NOT NULL,

    CONSTRAINT "visit_user_value_totals_pkey" PRIMARY KEY ("user_id","dimension","value")
);

-- Filled while no roll-up, batch or sweep can change the daily rows or the watermark.
LOCK TABLE "shortener"."visit_day_values", "shortener"."visit_user_day_values", "shortener"."visit_rollup"
  IN SHARE MODE;

INSERT INTO "shortener"."visit_value_totals" ("short_id", "dimension", "value", "visits", "humans")
SELECT "short_id", "dimension", "value", sum("visits"), sum("humans") FROM "shortener"."visit_day_values"
WHERE "day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup")
GROUP BY 1, 2, 3;

INSERT INTO "shortener"."visit_user_value_totals" ("user_id", "dimension", "value", "visits", "humans")
SELECT "user_id", "dimension", "value", sum("visits"), sum("humans") FROM "shortener"."visit_user_day_values"
WHERE "day" <= (SELECT "rolled_through" FROM "shortener"."visit_rollup")
GROUP BY 1, 2, 3;
