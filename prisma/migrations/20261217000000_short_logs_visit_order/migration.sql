-- A short's visits in the order Shlink's visit lists page them (newest first, the id breaking
-- ties): GET /rest/v3/short-urls/{shortCode}/visits reads its page from the hour its first visit
-- is in (docs/adr/0283), where the key (short_id, id, created_at) made every page sort all of the
-- short's rows. Created on the partitioned table, so every partition has it and the months the
-- service creates ahead get it as they are created (as the key). Expand only: one more index
-- written per visit (docs/performance.md weighs it on the redirect).
CREATE INDEX "short_logs_short_id_created_at_id_idx" ON "shortener"."short_logs" ("short_id", "created_at" DESC, "id" DESC);
