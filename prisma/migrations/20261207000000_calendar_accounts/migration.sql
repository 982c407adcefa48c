-- CalDAV calendars (issue 47; docs/adr/0247, 0254, 0255): connected accounts with their login
-- sealed, their calendars and objects synchronised into busy times, and an outbox of bookings to
-- write into them. New tables only: an expand step.
-- CreateTable
CREATE TABLE "scheduling"."credentials" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."connected_calendars" (
    "id" SERIAL NOT NULL,
    "credential_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "display_name" TEXT,
    "supports_sync" BOOLEAN NOT NULL DEFAULT false,
    "sync_token" TEXT,
    "ctag" TEXT,
    "expanded_until" TIMESTAMPTZ(3),
    "synced_at" TIMESTAMPTZ(3),
    "next_sync_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_until" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connected_calendars_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."calendar_objects" (
    "calendar_id" INTEGER NOT NULL,
    "href" TEXT NOT NULL,
    "etag" TEXT NOT NULL,
    "recurring_data" TEXT,

    CONSTRAINT "calendar_objects_pkey" PRIMARY KEY ("calendar_id","href")
);

-- CreateTable
CREATE TABLE "scheduling"."calendar_busy" (
    "id" BIGSERIAL NOT NULL,
    "calendar_id" INTEGER NOT NULL,
    "href" TEXT NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "calendar_busy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."calendar_writes" (
    "id" UUID NOT NULL,
    "booking_id" INTEGER NOT NULL,
    "ical_uid" TEXT NOT NULL,
    "op" TEXT NOT NULL,
    "credential_id" INTEGER NOT NULL,
    "calendar_url" TEXT NOT NULL,
    "status" "scheduling"."MailStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "done_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_writes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "credentials_user_id_idx" ON "scheduling"."credentials"("user_id");

-- CreateIndex
CREATE INDEX "connected_calendars_user_id_idx" ON "scheduling"."connected_calendars"("user_id");

-- CreateIndex
CREATE INDEX "connected_calendars_next_sync_at_idx" ON "scheduling"."connected_calendars"("next_sync_at");

-- CreateIndex
CREATE UNIQUE INDEX "connected_calendars_credential_id_url_key" ON "scheduling"."connected_calendars"("credential_id", "url");

-- CreateIndex
CREATE INDEX "calendar_busy_calendar_id_starts_at_idx" ON "scheduling"."calendar_busy"("calendar_id", "starts_at");

-- CreateIndex
CREATE INDEX "calendar_busy_calendar_id_href_idx" ON "scheduling"."calendar_busy"("calendar_id", "href");

-- CreateIndex
CREATE INDEX "calendar_writes_status_next_attempt_at_idx" ON "scheduling"."calendar_writes"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "calendar_writes_ical_uid_idx" ON "scheduling"."calendar_writes"("ical_uid");

-- AddForeignKey
ALTER TABLE "scheduling"."credentials" ADD CONSTRAINT "credentials_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."connected_calendars" ADD CONSTRAINT "connected_calendars_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "scheduling"."credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."calendar_objects" ADD CONSTRAINT "calendar_objects_calendar_id_fkey" FOREIGN KEY ("calendar_id") REFERENCES "scheduling"."connected_calendars"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."calendar_busy" ADD CONSTRAINT "calendar_busy_calendar_id_href_fkey" FOREIGN KEY ("calendar_id", "href") REFERENCES "scheduling"."calendar_objects"("calendar_id", "href") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every instance's calendar writer LISTENs on this channel: an insert wakes them at commit. Not in
-- the Prisma schema (no triggers there).
CREATE FUNCTION "scheduling"."notify_calendar_writes"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('scheduling_calendar_writes', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "calendar_writes_notify"
AFTER INSERT ON "scheduling"."calendar_writes"
FOR EACH STATEMENT EXECUTE FUNCTION "scheduling"."notify_calendar_writes"();
