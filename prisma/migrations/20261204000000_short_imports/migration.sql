-- Imports from other shorteners (issue 39 item 3, docs/adr/0224-0226). An expand step: new
-- columns with defaults and a new table; the previous release reads none of them, and its
-- inserts get the defaults (no title, no imported history, a visit that is not imported).

-- The title a link had at its source, shown as the short's `title`.
ALTER TABLE "shortener"."shorts" ADD COLUMN "title" VARCHAR(512);
-- Visits a source counted but could not give one by one (a Bitly, Kutt or YOURLS total, or
-- visits older than VISIT_RETENTION_DAYS): shown by the statistics as imported history, never
-- added to the visits (docs/adr/0225).
ALTER TABLE "shortener"."shorts" ADD COLUMN "imported_visits" BIGINT NOT NULL DEFAULT 0;
-- A visit stored by an import, at its original time (a constant default: no rewrite of the
-- partitions).
ALTER TABLE "shortener"."short_logs" ADD COLUMN "imported" BOOLEAN NOT NULL DEFAULT false;

-- What each import made, by the link's key at its source: a second run of the same file finds
-- its links here and creates nothing; visits_total is the source's total last added to
-- shorts.imported_visits, visits_through the time of the last visit taken one by one
-- (docs/adr/0224).
CREATE TABLE "shortener"."short_imports" (
    "user_id" UUID NOT NULL,
    "domain_id" UUID NOT NULL,
    "source" VARCHAR(16) NOT NULL,
    "source_key" VARCHAR(2200) NOT NULL,
    "short_id" UUID NOT NULL,
    "visits_total" BIGINT NOT NULL DEFAULT 0,
    "visits_through" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "short_imports_pkey" PRIMARY KEY ("user_id","domain_id","source","source_key")
);
CREATE INDEX "short_imports_short_id_idx" ON "shortener"."short_imports"("short_id");
ALTER TABLE "shortener"."short_imports" ADD CONSTRAINT "short_imports_user_id_fkey"
  FOREIGN KEY ("user_id") REFERENCES "shortener"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- A short deleted takes its record along: importing its link again creates it again.
ALTER TABLE "shortener"."short_imports" ADD CONSTRAINT "short_imports_short_id_fkey"
  FOREIGN KEY ("short_id") REFERENCES "shortener"."shorts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
