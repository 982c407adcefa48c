-- The legacy partition of short_logs (the table as it was before 20261125010000_visit_partitions)
-- kept two identical unique indexes: the one built before ATTACH PARTITION was meant to become the
-- partition's primary key, but a primary key can only adopt a constraint's index, so ATTACH built
-- a second one (short_logs_legacy_pkey1). Every visit stored in that partition (all of them until
-- the first monthly partition begins) paid for both. Drop the one no constraint uses.
DO $$
BEGIN
  IF EXISTS (
    SELECT FROM pg_class i
    JOIN pg_namespace n ON n.oid = i.relnamespace
    WHERE n.nspname = 'shortener' AND i.relname = 'short_logs_legacy_pkey' AND i.relkind = 'i'
      AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.oid)
  ) THEN
    DROP INDEX "shortener"."short_logs_legacy_pkey";
  END IF;
END $$;
