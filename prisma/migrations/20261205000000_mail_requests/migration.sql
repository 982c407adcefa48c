-- Booking e-mails written as one compact row per booking change (docs/adr/0236): the booking's
-- transaction stores what its messages say and to whom; a sender renders them into mail_outbox
-- rows (the shape every release sends) and deletes the request. A new table only: an expand step.
-- CreateTable
CREATE TABLE "scheduling"."mail_requests" (
    "id" UUID NOT NULL,
    "booking_uid" TEXT NOT NULL,
    "messages" INTEGER NOT NULL,
    "facts" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_requests_pkey" PRIMARY KEY ("id")
);

-- An insert wakes every sender at commit, on the outbox's channel (20261203000000_mail_outbox).
CREATE TRIGGER "mail_requests_notify"
AFTER INSERT ON "scheduling"."mail_requests"
FOR EACH STATEMENT EXECUTE FUNCTION "scheduling"."notify_mail_outbox"();
