-- A calendar sync's listing (docs/adr/0282): the href and ETag (or the deletion) of each object a
-- sync-collection or calendar-query answer lists, written in chunks as the answer streams in and
-- compared with calendar_objects in SQL, so a sync's memory does not grow with the calendar. Rows
-- live as long as their sync run; a crashed run's are removed by a later sync of the calendar.
-- A new table only: an expand step.
-- CreateTable
CREATE TABLE "scheduling"."calendar_listings" (
    "run_id" UUID NOT NULL,
    "calendar_id" INTEGER NOT NULL,
    "href" TEXT NOT NULL,
    "etag" TEXT,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "to_fetch" BOOLEAN NOT NULL DEFAULT false,
    "listed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_listings_pkey" PRIMARY KEY ("run_id","href")
);

-- CreateIndex
CREATE INDEX "calendar_listings_calendar_id_idx" ON "scheduling"."calendar_listings"("calendar_id");

-- AddForeignKey
ALTER TABLE "scheduling"."calendar_listings" ADD CONSTRAINT "calendar_listings_calendar_id_fkey" FOREIGN KEY ("calendar_id") REFERENCES "scheduling"."connected_calendars"("id") ON DELETE CASCADE ON UPDATE CASCADE;
