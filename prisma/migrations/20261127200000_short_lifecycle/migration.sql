-- A short's lifecycle (issue 20): a validity window, a visit limit with the page shown once it is
-- over, and a password. All nullable with no default: adding them rewrites no row, and a short
-- without them redirects exactly as before.

-- AlterTable
ALTER TABLE "shortener"."shorts"
  ADD COLUMN "valid_from" TIMESTAMPTZ(3),
  ADD COLUMN "valid_until" TIMESTAMPTZ(3),
  ADD COLUMN "max_visits" INTEGER,
  -- Visits stored while max_visits is set, counted in the statement that stores each one (a
  -- visit is stored only if this stays within max_visits): the count and the rows never disagree.
  ADD COLUMN "counted_visits" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "expired_url" VARCHAR(2048),
  -- scrypt$<log2 N>$<r>$<p>$<salt>$<key>: the parameters travel with the hash, so they can be raised.
  ADD COLUMN "password_hash" VARCHAR(256);

-- Every field the redirect reads is now in its cache entry: an edit of any of them reaches every
-- instance's cache at commit, as a new target or name did. counted_visits is left out: it changes
-- with each visit of a limited short and the cache does not hold it.
DROP TRIGGER "shorts_notify_changed" ON "shortener"."shorts";
CREATE TRIGGER "shorts_notify_changed"
AFTER UPDATE OF "name", "url", "valid_from", "valid_until", "max_visits", "expired_url", "password_hash"
ON "shortener"."shorts"
FOR EACH ROW
WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."url" IS DISTINCT FROM NEW."url"
   OR OLD."valid_from" IS DISTINCT FROM NEW."valid_from" OR OLD."valid_until" IS DISTINCT FROM NEW."valid_until"
   OR OLD."max_visits" IS DISTINCT FROM NEW."max_visits" OR OLD."expired_url" IS DISTINCT FROM NEW."expired_url"
   OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash")
EXECUTE FUNCTION "shortener"."notify_short_changed"();
