-- The visit table becomes partitioned by month of created_at (issue 18). The existing table is
-- kept whole, as the partition of everything before the first month this migration creates:
-- nothing is copied, so the table's size only sets how long its new key index takes to build
-- (visits arriving meanwhile wait for the migration's commit; none is lost). The service
-- creates the following months' partitions ahead (visit-partitions.ts) and drops those past
-- VISIT_RETENTION_DAYS.

-- A deleted short's visits go in the background (deleted_shorts), so no foreign key.
ALTER TABLE "shortener"."short_logs" DROP CONSTRAINT "short_logs_short_id_fkey";
ALTER TABLE "shortener"."short_logs" RENAME TO "short_logs_legacy";
ALTER TABLE "shortener"."short_logs_legacy" RENAME CONSTRAINT "short_logs_pkey" TO "short_logs_legacy_id_key";
DROP INDEX "shortener"."short_logs_short_id_created_at_idx";

-- CreateTable
CREATE TABLE "shortener"."short_logs" (
    "id" BIGINT NOT NULL DEFAULT nextval('"shortener"."short_logs_id_seq"'),
    "short_id" UUID NOT NULL,
    "ip_address" VARCHAR(64) NOT NULL,
    "user_agent" VARCHAR(1024) NOT NULL,
    "referer" VARCHAR(2048) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "is_bot" BOOLEAN NOT NULL DEFAULT false,
    "browser" VARCHAR(32) NOT NULL DEFAULT '',
    "os" VARCHAR(32) NOT NULL DEFAULT '',
    "device" VARCHAR(16) NOT NULL DEFAULT '',
    "country" VARCHAR(2) NOT NULL DEFAULT '',
    "referrer_host" VARCHAR(255) NOT NULL DEFAULT '',
    "visitor" BIGINT,

    -- The short id first (keyset paging by id within a short; Citus's distribution column),
    -- the partition key last (PostgreSQL requires it in every unique key).
    CONSTRAINT "short_logs_pkey" PRIMARY KEY ("short_id","id","created_at")
) PARTITION BY RANGE ("created_at");

ALTER SEQUENCE "shortener"."short_logs_id_seq" OWNED BY "shortener"."short_logs"."id";
ALTER TABLE "shortener"."short_logs_legacy" ALTER COLUMN "id" DROP DEFAULT;

-- CreateTable
CREATE TABLE "shortener"."deleted_shorts" (
    "short_id" UUID NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- Whose per-user aggregates lose the short's visits as they are swept.
    "user_id" UUID NOT NULL,

    CONSTRAINT "deleted_shorts_pkey" PRIMARY KEY ("short_id")
);

-- The old table as the partition before the next month (UTC), and the next two months.
DO $$
DECLARE
  boundary timestamptz := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  month timestamptz;
BEGIN
  CREATE UNIQUE INDEX "short_logs_legacy_pkey" ON "shortener"."short_logs_legacy" ("short_id", "id", "created_at");
  ALTER TABLE "shortener"."short_logs_legacy" DROP CONSTRAINT "short_logs_legacy_id_key";
  -- A valid check constraint lets ATTACH skip its own scan of the table.
  EXECUTE format('ALTER TABLE "shortener"."short_logs_legacy" ADD CONSTRAINT "short_logs_legacy_range" CHECK ("created_at" < %L)', boundary);
  EXECUTE format('ALTER TABLE "shortener"."short_logs" ATTACH PARTITION "shortener"."short_logs_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', boundary);
  ALTER TABLE "shortener"."short_logs_legacy" DROP CONSTRAINT "short_logs_legacy_range";
  FOR i IN 0..1 LOOP
    month := boundary + i * interval '1 month';
    EXECUTE format(
      'CREATE TABLE "shortener".%I PARTITION OF "shortener"."short_logs" FOR VALUES FROM (%L) TO (%L)',
      'short_logs_' || to_char(month AT TIME ZONE 'UTC', 'YYYYMM'), month, month + interval '1 month');
  END LOOP;
END $$;
