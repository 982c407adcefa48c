-- Orphan visits (issue 39 item 4, docs/adr/0227): requests for a name no short of the domain
-- has, for a domain's root, and for a Host that names no domain, counted per domain and UTC
-- hour; no row per request. An expand step: the previous release neither reads nor writes them.
-- Unknown hosts are one bucket under the domain id ffffffff-ffff-ffff-ffff-ffffffffffff (no
-- domain has it), so neither table has a foreign key: a domain's rows go with it
-- (domain-registry.ts removeDomain), and a flush skips a domain removed meanwhile.

-- The requests per kind ('name', 'root', 'host') and hour.
CREATE TABLE "shortener"."orphan_visit_hours" (
    "domain_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "kind" VARCHAR(8) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "orphan_visit_hours_pkey" PRIMARY KEY ("domain_id", "hour", "kind")
);

-- The same per value of each dimension (name, host, browser, os, device, country, referrer):
-- at most 100 values per domain, hour and dimension, the rest summed under "(other)".
CREATE TABLE "shortener"."orphan_visit_hour_values" (
    "domain_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "visits" INTEGER NOT NULL,
    "humans" INTEGER NOT NULL,

    CONSTRAINT "orphan_visit_hour_values_pkey" PRIMARY KEY ("domain_id", "hour", "dimension", "value")
);
