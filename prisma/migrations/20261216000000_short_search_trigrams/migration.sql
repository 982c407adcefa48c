-- Shlink's GET /rest/v3/short-urls?searchTerm= (issue 48; docs/adr/0277): a search of a user's
-- shorts reads, through a trigram index, the shorts whose name, URL, title or tags contain the
-- term, instead of scanning every short of the user (an ILIKE per column cannot use a b-tree).
-- An expand step: an extension, a function and an index, nothing the previous release reads is
-- changed. pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- The text a search matches, in one expression an index can hold: name, URL, title and tags,
-- separated by spaces. Every column is there whole, so a term one of them contains is in it; the
-- query checks each column after the index (a term spanning two columns matches none of them).
-- IMMUTABLE: array_to_string of varchar[] is stable only because element types in general may
-- print differently with settings; varchar's output never does.
CREATE FUNCTION "shortener"."short_search_text"("name" VARCHAR, "url" VARCHAR, "title" VARCHAR, "tags" VARCHAR[])
RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT "name" || ' ' || "url" || ' ' || coalesce("title", '') || ' ' || coalesce(array_to_string("tags", ' '), '') $$;

-- Prisma's schema cannot describe an index on an expression: packages/db's schema test lists it
-- among the hand-written indexes it knows.
CREATE INDEX "shorts_search_idx" ON "shortener"."shorts"
  USING GIN ("shortener"."short_search_text"("name", "url", "title", "tags") gin_trgm_ops);
