-- Booking e-mails (docs/adr/0222): an outbox written in the booking's transaction, and each
-- booking's calendar event (UID, SEQUENCE). New tables only: an expand step.
-- CreateEnum
CREATE TYPE "scheduling"."MailStatus" AS ENUM ('PENDING', 'SENT', 'DEAD');

-- CreateTable
CREATE TABLE "scheduling"."mail_outbox" (
    "id" UUID NOT NULL,
    "booking_uid" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text_body" TEXT NOT NULL,
    "html_body" TEXT NOT NULL,
    "ics" TEXT,
    "status" "scheduling"."MailStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "message_id" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."booking_invites" (
    "booking_id" INTEGER NOT NULL,
    "ical_uid" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "booking_invites_pkey" PRIMARY KEY ("booking_id")
);

-- CreateIndex
CREATE INDEX "mail_outbox_status_next_attempt_at_idx" ON "scheduling"."mail_outbox"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "mail_outbox_booking_uid_idx" ON "scheduling"."mail_outbox"("booking_uid");

-- Every instance's sender LISTENs on this channel: an insert wakes them at commit (one
-- notification per transaction, whatever its rows). Not in the Prisma schema (no triggers there).
CREATE FUNCTION "scheduling"."notify_mail_outbox"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('scheduling_mail', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "mail_outbox_notify"
AFTER INSERT ON "scheduling"."mail_outbox"
FOR EACH STATEMENT EXECUTE FUNCTION "scheduling"."notify_mail_outbox"();
