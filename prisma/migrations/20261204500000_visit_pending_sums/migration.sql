-- A batch of today's visits stores its aggregates per short beside its rows, in the statement
-- that stores the rows, and a fold adds them to the aggregate tables after the redirects are
-- answered, deleting them in the same transaction (docs/adr/0234). A reader of the aggregates
-- folds what is pending first. Expand only: a release before this one never reads the table,
-- and its batches keep writing the aggregates themselves.

-- CreateTable
CREATE TABLE "shortener"."visit_pending_sums" (
    "short_id" UUID NOT NULL,
    "id" BIGSERIAL NOT NULL,
    "sums" JSON NOT NULL,

    CONSTRAINT "visit_pending_sums_pkey" PRIMARY KEY ("short_id","id")
);
