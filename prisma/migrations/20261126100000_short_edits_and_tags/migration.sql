-- Shorts can be edited and tagged (issue 20): a short's target and name change through
-- PATCH /api/shorts/{id}, and each short carries up to 10 lower-case tags.

-- AlterTable
-- A constant default: adding the column rewrites no row (PostgreSQL 11+).
ALTER TABLE "shortener"."shorts" ADD COLUMN "tags" VARCHAR(32)[] DEFAULT ARRAY[]::VARCHAR(32)[];

-- CreateIndex
-- GET /api/shorts?tag=: `tags @> ARRAY[tag]` is answered from this index (with the user's).
CREATE INDEX "shorts_tags_idx" ON "shortener"."shorts" USING GIN ("tags");

-- Every instance's redirect cache drops a short's name when its target or name changes, on the
-- channel deletions are notified on (so instances of the release before this one hear of edits
-- too), whoever wrote the change: the notification is sent at commit. Not part of the Prisma
-- schema (Prisma has no triggers); the runner applies it.
CREATE FUNCTION "shortener"."notify_short_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('shortener_short_deleted', OLD."name");
    RETURN NULL;
END;
$$;

CREATE TRIGGER "shorts_notify_changed"
AFTER UPDATE OF "name", "url" ON "shortener"."shorts"
FOR EACH ROW
WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."url" IS DISTINCT FROM NEW."url")
EXECUTE FUNCTION "shortener"."notify_short_changed"();
