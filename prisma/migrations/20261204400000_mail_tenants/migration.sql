-- Hosted mode's booking e-mails (docs/adr/0230): the tenants whose own outbox may hold mail,
-- for the senders' periodic visit. A new table only: an expand step.
-- CreateTable
CREATE TABLE "hosting"."tenant_mail_due" (
    "tenant_id" UUID NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tenant_mail_due_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateIndex
CREATE INDEX "tenant_mail_due_due_at_idx" ON "hosting"."tenant_mail_due"("due_at");
