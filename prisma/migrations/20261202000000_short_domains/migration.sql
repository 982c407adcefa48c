-- Domains (issue 39 item 1, docs/adr/0219-0221): the hosts shorts live on, which users may use
-- each, and each domain's redirects for its root and for unknown names. An expand step: the
-- previous release reads none of it, and its inserts land on the default domain (the column's
-- default), where they always were.

-- The row with the nil id and no host is the default domain: whichever host SHORT_BASE_URL
-- names, so changing the base URL never means rewriting a row.
CREATE TABLE "shortener"."domains" (
    "id" UUID NOT NULL,
    "host" VARCHAR(253),
    "root_url" VARCHAR(2048),
    "not_found_url" VARCHAR(2048),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domains_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "domains_host_key" ON "shortener"."domains"("host");
INSERT INTO "shortener"."domains" ("id") VALUES ('00000000-0000-0000-0000-000000000000');

-- A domain with users assigned is theirs only; one with none is open to every user (0220).
CREATE TABLE "shortener"."domain_users" (
    "domain_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,

    CONSTRAINT "domain_users_pkey" PRIMARY KEY ("domain_id", "user_id")
);
CREATE INDEX "domain_users_user_id_idx" ON "shortener"."domain_users"("user_id");
ALTER TABLE "shortener"."domain_users" ADD CONSTRAINT "domain_users_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "shortener"."domains"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "shortener"."domain_users" ADD CONSTRAINT "domain_users_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "shortener"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A constant default: no row is rewritten. RESTRICT: a domain with shorts cannot go (the CLI
-- says how many first).
ALTER TABLE "shortener"."shorts" ADD COLUMN "domain_id" UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE "shortener"."shorts" ADD CONSTRAINT "shorts_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "shortener"."domains"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A name is unique per domain. The global index on "name" stays until the contract step
-- (next migration): the previous release inserts with ON CONFLICT ("name"), which needs it, so
-- until then a name is still unique across domains. Built in this migration's transaction: it
-- holds off writes to shorts for as long as the build takes (about a second per million shorts).
CREATE UNIQUE INDEX "shorts_domain_id_name_key" ON "shortener"."shorts"("domain_id", "name");

-- The redirect's cache key of a short: its name on the default domain (as before domains, so
-- the previous release and this one hear each other's changes), "<domain id>/<name>" elsewhere.
CREATE FUNCTION "shortener"."short_cache_key"("domain_id" UUID, "name" TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN "domain_id" = '00000000-0000-0000-0000-000000000000' THEN "name"
                ELSE "domain_id"::text || '/' || "name" END
$$;

-- A move to another domain is a change the redirect must follow, like a new name. The old
-- key is notified; for a short off the default domain its bare name too, which is the key the
-- previous release cached it under while names were still unique across domains.
CREATE OR REPLACE FUNCTION "shortener"."notify_short_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('shortener_short_deleted', "shortener"."short_cache_key"(OLD."domain_id", OLD."name"));
    IF OLD."domain_id" <> '00000000-0000-0000-0000-000000000000' THEN
        PERFORM pg_notify('shortener_short_deleted', OLD."name");
    END IF;
    RETURN NULL;
END;
$$;

DROP TRIGGER "shorts_notify_changed" ON "shortener"."shorts";
CREATE TRIGGER "shorts_notify_changed"
AFTER UPDATE OF "domain_id", "name", "url", "valid_from", "valid_until", "max_visits", "expired_url", "password_hash"
ON "shortener"."shorts"
FOR EACH ROW
WHEN (OLD."domain_id" IS DISTINCT FROM NEW."domain_id" OR OLD."name" IS DISTINCT FROM NEW."name"
   OR OLD."url" IS DISTINCT FROM NEW."url"
   OR OLD."valid_from" IS DISTINCT FROM NEW."valid_from" OR OLD."valid_until" IS DISTINCT FROM NEW."valid_until"
   OR OLD."max_visits" IS DISTINCT FROM NEW."max_visits" OR OLD."expired_url" IS DISTINCT FROM NEW."expired_url"
   OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash")
EXECUTE FUNCTION "shortener"."notify_short_changed"();

-- Every instance keeps the domains in memory for the redirect: any change to them (the CLI's,
-- from another process) drops that copy everywhere at commit. On the redirect cache's channel,
-- so that one listening connection hears both; "*domains" is no short's key (an instance of the
-- previous release drops nothing for it).
CREATE FUNCTION "shortener"."notify_domains_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('shortener_short_deleted', '*domains');
    RETURN NULL;
END;
$$;
CREATE TRIGGER "domains_notify_changed"
AFTER INSERT OR UPDATE OR DELETE ON "shortener"."domains"
FOR EACH STATEMENT EXECUTE FUNCTION "shortener"."notify_domains_changed"();
