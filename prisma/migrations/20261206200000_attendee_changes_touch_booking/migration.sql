-- A booking's attendees are part of the booking as its readers see it: adding, changing or removing
-- one (a seat taken, an edit through /attendees) sets the booking's "updatedAt", as v1's seat join
-- did (a booking update with a nested create). The calendar feed's Last-Modified is the latest
-- "updatedAt" (docs/adr/0229): without this a client sending only If-Modified-Since got a 304 for
-- a changed feed. A booking row the same transaction wrote is left alone: a new booking's attendees
-- come with it (no second write of the row it just inserted), and an update sets its own. Not in
-- the Prisma schema (no triggers there). A new function and triggers only: an expand step.
CREATE FUNCTION "scheduling"."attendees_touch_booking"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        -- An attendee moved to another booking changes both.
        UPDATE "scheduling"."bookings" AS b SET "updatedAt" = clock_timestamp()
         WHERE b.id IN (SELECT "bookingId" FROM changed UNION SELECT "bookingId" FROM previous)
           AND b.xmin <> pg_current_xact_id()::xid;
    ELSE
        UPDATE "scheduling"."bookings" AS b SET "updatedAt" = clock_timestamp()
         WHERE b.id IN (SELECT "bookingId" FROM changed)
           AND b.xmin <> pg_current_xact_id()::xid;
    END IF;
    RETURN NULL;
END;
$$;

-- One statement-level trigger per event (a trigger with transition tables has one event).
CREATE TRIGGER "attendees_inserted_touch_booking"
AFTER INSERT ON "scheduling"."attendees"
REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION "scheduling"."attendees_touch_booking"();

CREATE TRIGGER "attendees_updated_touch_booking"
AFTER UPDATE ON "scheduling"."attendees"
REFERENCING OLD TABLE AS previous NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION "scheduling"."attendees_touch_booking"();

CREATE TRIGGER "attendees_deleted_touch_booking"
AFTER DELETE ON "scheduling"."attendees"
REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION "scheduling"."attendees_touch_booking"();
