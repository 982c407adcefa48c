-- Visit analytics (issue 18, first part): each visit row carries what the visit-log batch
-- derives from it (bot or human, browser, OS, device, country, referrer host, a salted daily
-- visitor hash), and hourly aggregates are kept by the same statement that stores each batch.
-- Constant defaults: adding the columns rewrites no row (PostgreSQL 11+).

-- AlterTable
ALTER TABLE "shortener"."short_logs"
    ADD COLUMN "is_bot" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "browser" VARCHAR(32) NOT NULL DEFAULT '',
    ADD COLUMN "os" VARCHAR(32) NOT NULL DEFAULT '',
    ADD COLUMN "device" VARCHAR(16) NOT NULL DEFAULT '',
    ADD COLUMN "country" VARCHAR(2) NOT NULL DEFAULT '',
    ADD COLUMN "referrer_host" VARCHAR(255) NOT NULL DEFAULT '',
    ADD COLUMN "visitor" BIGINT;

-- CreateTable
CREATE TABLE "shortener"."visit_hours" (
    "short_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "visit_hours_pkey" PRIMARY KEY ("short_id","hour")
);

-- CreateTable
CREATE TABLE "shortener"."visit_hour_values" (
    "short_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "visit_hour_values_pkey" PRIMARY KEY ("short_id","hour","dimension","value")
);

-- CreateTable
-- The same per UTC day: a year's top lists read 365 rows per value instead of 8,760.
CREATE TABLE "shortener"."visit_day_values" (
    "short_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "visit_day_values_pkey" PRIMARY KEY ("short_id","day","dimension","value")
);

-- CreateTable
-- The visitors of each short seen so far on a UTC day: a visitor's first visit of the day counts
-- once in visit_hours.visitors. Only today's and yesterday's rows are needed (the hash's salt
-- changes daily); the service deletes older ones.
CREATE TABLE "shortener"."visit_day_visitors" (
    "short_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "visitor" BIGINT NOT NULL,

    CONSTRAINT "visit_day_visitors_pkey" PRIMARY KEY ("short_id","day","visitor")
);

-- CreateTable
CREATE TABLE "shortener"."visitor_salts" (
    "day" DATE NOT NULL,
    "salt" BYTEA NOT NULL,

    CONSTRAINT "visitor_salts_pkey" PRIMARY KEY ("day")
);

-- No foreign keys to shorts: a deleted short's aggregates go in the background with its visits
-- (shorts.service.ts), so deleting a short never waits on them.

-- Visits stored before this migration enter the aggregates as they are: counted as human visits
-- with unknown browser, OS, device, country and referrer, and without a visitor hash (so not
-- among unique visitors): exactly what their rows say.
INSERT INTO "shortener"."visit_hours" ("short_id", "hour", "visits", "humans", "visitors")
SELECT "short_id", date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*), count(*), 0
FROM "shortener"."short_logs" GROUP BY 1, 2;

INSERT INTO "shortener"."visit_hour_values" ("short_id", "hour", "dimension", "value", "visits", "humans")
SELECT h."short_id", h."hour", d."dimension", '', h."visits", h."humans"
FROM "shortener"."visit_hours" h
CROSS JOIN (VALUES ('browser'), ('os'), ('device'), ('country'), ('referrer')) AS d("dimension");

INSERT INTO "shortener"."visit_day_values" ("short_id", "day", "dimension", "value", "visits", "humans")
SELECT "short_id", ("hour" AT TIME ZONE 'UTC')::date, "dimension", "value", sum("visits"), sum("humans")
FROM "shortener"."visit_hour_values" GROUP BY 1, 2, 3, 4;

-- Per-user aggregates: an account's statistics (GET /api/stats) read rows keyed by its user,
-- written by the same statement as the per-short ones, instead of summing every short's rows
-- (2.8 s for 10,000 shorts).

-- CreateTable
CREATE TABLE "shortener"."visit_user_hours" (
    "user_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "visit_user_hours_pkey" PRIMARY KEY ("user_id","hour")
);

-- CreateTable
CREATE TABLE "shortener"."visit_user_hour_values" (
    "user_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "visit_user_hour_values_pkey" PRIMARY KEY ("user_id","hour","dimension","value")
);

-- CreateTable
CREATE TABLE "shortener"."visit_user_day_values" (
    "user_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "visit_user_day_values_pkey" PRIMARY KEY ("user_id","day","dimension","value")
);

-- CreateTable
-- Each short's visits per hour and per UTC day again, keyed by its user first: an account's top
-- shorts read one index range (whole days, then the hours at the range's edges).
CREATE TABLE "shortener"."visit_user_short_hours" (
    "user_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "short_id" UUID NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "visit_user_short_hours_pkey" PRIMARY KEY ("user_id","hour","short_id")
);

-- CreateTable
CREATE TABLE "shortener"."visit_user_short_days" (
    "user_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "short_id" UUID NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "visit_user_short_days_pkey" PRIMARY KEY ("user_id","day","short_id")
);

-- The aggregates above, summed per user.
INSERT INTO "shortener"."visit_user_hours" ("user_id", "hour", "visits", "humans", "visitors")
SELECT s."user_id", h."hour", sum(h."visits"), sum(h."humans"), sum(h."visitors")
FROM "shortener"."visit_hours" h JOIN "shortener"."shorts" s ON s."id" = h."short_id" GROUP BY 1, 2;

INSERT INTO "shortener"."visit_user_hour_values" ("user_id", "hour", "dimension", "value", "visits", "humans")
SELECT s."user_id", v."hour", v."dimension", v."value", sum(v."visits"), sum(v."humans")
FROM "shortener"."visit_hour_values" v JOIN "shortener"."shorts" s ON s."id" = v."short_id" GROUP BY 1, 2, 3, 4;

INSERT INTO "shortener"."visit_user_day_values" ("user_id", "day", "dimension", "value", "visits", "humans")
SELECT s."user_id", v."day", v."dimension", v."value", sum(v."visits"), sum(v."humans")
FROM "shortener"."visit_day_values" v JOIN "shortener"."shorts" s ON s."id" = v."short_id" GROUP BY 1, 2, 3, 4;

INSERT INTO "shortener"."visit_user_short_hours" ("user_id", "hour", "short_id", "visits", "humans")
SELECT s."user_id", h."hour", h."short_id", h."visits", h."humans"
FROM "shortener"."visit_hours" h JOIN "shortener"."shorts" s ON s."id" = h."short_id";

INSERT INTO "shortener"."visit_user_short_days" ("user_id", "day", "short_id", "visits", "humans")
SELECT s."user_id", (h."hour" AT TIME ZONE 'UTC')::date, h."short_id", sum(h."visits"), sum(h."humans")
FROM "shortener"."visit_hours" h JOIN "shortener"."shorts" s ON s."id" = h."short_id" GROUP BY 1, 2, 3;
