-- The id of each orphan visit flush stored (issue 49; docs/adr/0288): a flush whose commit's
-- answer was lost (the leader died, or its connection was cut, after the commit) is sent again
-- with the same id, finds its row and adds none of its counts twice. The id is a UUIDv7: time
-- first, so the rows an hour old are pruned from the start of the key (visit-maintenance.ts).
-- An expand step: a new table the previous release neither reads nor writes.
CREATE TABLE "shortener"."orphan_visit_batches" (
    "id" UUID NOT NULL,

    CONSTRAINT "orphan_visit_batches_pkey" PRIMARY KEY ("id")
);
