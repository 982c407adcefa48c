-- The shorts of each stored visit batch, by the batch's id (issue 49; docs/adr/0279): a batch
-- whose commit's answer was lost (the leader died, or its connection was cut, after the commit)
-- is sent again with the same id, finds these rows and stores none of its visits twice. One row
-- per short of a batch, as visit_pending_sums has: the short id is in the key (a Citus
-- distribution column), the batch id leads it (a UUIDv7: time first, so the rows an hour old are
-- pruned from the start of the index, visit-maintenance.ts). An expand step: a new table the
-- previous release neither reads nor writes.
CREATE TABLE "shortener"."visit_batches" (
    "batch_id" UUID NOT NULL,
    "short_id" UUID NOT NULL,

    CONSTRAINT "visit_batches_pkey" PRIMARY KEY ("batch_id","short_id")
);
