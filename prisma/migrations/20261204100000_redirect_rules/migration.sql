-- Redirect rules (docs/adr/0232): a short's ordered rules, and the rule each visit followed.
-- New nullable columns only: an expand step (the previous release writes neither, and reads
-- neither; its redirect follows the url, as it always did).
ALTER TABLE "shortener"."shorts" ADD COLUMN "redirect_rules" JSONB;
ALTER TABLE "shortener"."short_logs" ADD COLUMN "rule" SMALLINT;

-- The redirect caches the rules with the target: an edit of them reaches every instance at once.
DROP TRIGGER "shorts_notify_changed" ON "shortener"."shorts";
CREATE TRIGGER "shorts_notify_changed"
AFTER UPDATE OF "domain_id", "name", "url", "valid_from", "valid_until", "max_visits", "expired_url", "password_hash",
  "redirect_rules"
ON "shortener"."shorts"
FOR EACH ROW
WHEN (OLD."domain_id" IS DISTINCT FROM NEW."domain_id" OR OLD."name" IS DISTINCT FROM NEW."name"
   OR OLD."url" IS DISTINCT FROM NEW."url"
   OR OLD."valid_from" IS DISTINCT FROM NEW."valid_from" OR OLD."valid_until" IS DISTINCT FROM NEW."valid_until"
   OR OLD."max_visits" IS DISTINCT FROM NEW."max_visits" OR OLD."expired_url" IS DISTINCT FROM NEW."expired_url"
   OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash"
   OR OLD."redirect_rules" IS DISTINCT FROM NEW."redirect_rules")
EXECUTE FUNCTION "shortener"."notify_short_changed"();
