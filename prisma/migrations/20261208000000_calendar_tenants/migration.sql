-- Hosted mode's connected calendars (docs/adr/0259): the tenants whose own database holds
-- connected calendar accounts, for the instances' periodic visit (their calendars' sync, their
-- bookings' calendar writes). A new table only: an expand step.
-- CreateTable
CREATE TABLE "hosting"."tenant_calendars" (
    "tenant_id" UUID NOT NULL,
    "sync_at" TIMESTAMPTZ(3) NOT NULL,
    "writes_due_at" TIMESTAMPTZ(3),
    "marked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tenant_calendars_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateIndex
CREATE INDEX "tenant_calendars_sync_at_idx" ON "hosting"."tenant_calendars"("sync_at");

-- CreateIndex
CREATE INDEX "tenant_calendars_writes_due_at_idx" ON "hosting"."tenant_calendars"("writes_due_at");
