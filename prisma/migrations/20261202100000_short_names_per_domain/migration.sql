-- contract step: the previous release inserts shorts with ON CONFLICT ("name"), which needs this
-- index; once no instance runs it, a name is unique per domain only (shorts_domain_id_name_key,
-- added by 20261202000000_short_domains), and a.example/x and b.example/x can both exist.
DROP INDEX "shortener"."shorts_name_key";
