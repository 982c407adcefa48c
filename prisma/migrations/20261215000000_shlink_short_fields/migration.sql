-- Shlink's short URL fields (issue 48; docs/adr/0268): forward_query (the visit's query string
-- appended to the target) and crawlable (GET /robots.txt lets crawlers reach the short), and per
-- visit the URL that was visited and the one it was sent to. An expand step: the new columns
-- have defaults (a constant default is catalog-only, no table rewrite) or are nullable, so the
-- previous release, which neither reads nor writes them, goes on as it was; short_logs is
-- partitioned, and a column added to the parent reaches every partition at once.
ALTER TABLE "shortener"."shorts" ADD COLUMN "forward_query" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "shortener"."shorts" ADD COLUMN "crawlable" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "shortener"."short_logs" ADD COLUMN "visited_url" VARCHAR(2048);
ALTER TABLE "shortener"."short_logs" ADD COLUMN "redirect_url" VARCHAR(2048);

-- The redirect caches forward_query with the target: an edit of it reaches every instance at
-- once. crawlable is read by robots.txt from the database, never cached by the redirect.
DROP TRIGGER "shorts_notify_changed" ON "shortener"."shorts";
CREATE TRIGGER "shorts_notify_changed"
AFTER UPDATE OF "domain_id", "name", "url", "valid_from", "valid_until", "max_visits", "expired_url", "password_hash",
  "redirect_rules", "forward_query"
ON "shortener"."shorts"
FOR EACH ROW
WHEN (OLD."domain_id" IS DISTINCT FROM NEW."domain_id" OR OLD."name" IS DISTINCT FROM NEW."name"
   OR OLD."url" IS DISTINCT FROM NEW."url"
   OR OLD."valid_from" IS DISTINCT FROM NEW."valid_from" OR OLD."valid_until" IS DISTINCT FROM NEW."valid_until"
   OR OLD."max_visits" IS DISTINCT FROM NEW."max_visits" OR OLD."expired_url" IS DISTINCT FROM NEW."expired_url"
   OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash"
   OR OLD."redirect_rules" IS DISTINCT FROM NEW."redirect_rules"
   OR OLD."forward_query" IS DISTINCT FROM NEW."forward_query")
EXECUTE FUNCTION "shortener"."notify_short_changed"();

