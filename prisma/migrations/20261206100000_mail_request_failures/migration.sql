-- A mail request that cannot be rendered is kept and marked, with why (docs/adr/0241): senders
-- skip it, so it cannot hold back newer requests; `mail:dead` lists it and `mail:resend` puts it
-- back. Two nullable columns: an expand step (the previous release's senders ignore them).
-- AlterTable
ALTER TABLE "scheduling"."mail_requests" ADD COLUMN "failed_at" TIMESTAMPTZ(3),
ADD COLUMN "last_error" TEXT;
