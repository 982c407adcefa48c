-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "scheduling";

-- Team slugs are unique regardless of case.
CREATE EXTENSION IF NOT EXISTS "citext";

-- CreateEnum
CREATE TYPE "scheduling"."UserPermissionRole" AS ENUM ('USER', 'ADMIN');

-- CreateEnum
CREATE TYPE "scheduling"."MembershipRole" AS ENUM ('MEMBER', 'ADMIN', 'OWNER');

-- CreateEnum
CREATE TYPE "scheduling"."EventTypeCustomInputType" AS ENUM ('TEXT', 'TEXTLONG', 'NUMBER', 'BOOL', 'RADIO', 'PHONE');

-- CreateEnum
CREATE TYPE "scheduling"."SchedulingType" AS ENUM ('ROUND_ROBIN', 'COLLECTIVE', 'MANAGED');

-- CreateEnum
CREATE TYPE "scheduling"."PeriodType" AS ENUM ('UNLIMITED', 'ROLLING', 'ROLLING_WINDOW', 'RANGE');

-- CreateEnum
CREATE TYPE "scheduling"."PaymentOption" AS ENUM ('ON_BOOKING', 'HOLD');

-- CreateEnum
CREATE TYPE "scheduling"."BookingStatus" AS ENUM ('CANCELLED', 'ACCEPTED', 'REJECTED', 'PENDING');

-- CreateTable
CREATE TABLE "scheduling"."users" (
    "id" SERIAL NOT NULL,
    "username" TEXT,
    "name" TEXT,
    "email" TEXT NOT NULL,
    "emailVerified" TIMESTAMP(3),
    "bio" TEXT,
    "avatarUrl" TEXT,
    "timeZone" TEXT NOT NULL DEFAULT 'Europe/London',
    "weekStart" TEXT NOT NULL DEFAULT 'Sunday',
    "startTime" INTEGER NOT NULL DEFAULT 0,
    "endTime" INTEGER NOT NULL DEFAULT 1440,
    "bufferTime" INTEGER NOT NULL DEFAULT 0,
    "hideBranding" BOOLEAN NOT NULL DEFAULT false,
    "theme" TEXT,
    "appTheme" TEXT,
    "createdDate" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "defaultScheduleId" INTEGER,
    "locale" TEXT,
    "timeFormat" INTEGER DEFAULT 12,
    "brandColor" TEXT,
    "darkBrandColor" TEXT,
    "allowDynamicBooking" BOOLEAN DEFAULT true,
    "verified" BOOLEAN DEFAULT false,
    "invitedTo" INTEGER,
    "role" "scheduling"."UserPermissionRole" NOT NULL DEFAULT 'USER',
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "passwordHash" TEXT,
    "twoFactorSecret" TEXT,
    "twoFactorEnabled" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."api_keys" (
    "id" UUID NOT NULL,
    "userId" INTEGER,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "hashedKey" TEXT NOT NULL,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."teams" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "slug" CITEXT,
    "logoUrl" TEXT,
    "bio" TEXT,
    "hideBranding" BOOLEAN NOT NULL DEFAULT false,
    "hideTeamProfileLink" BOOLEAN NOT NULL DEFAULT false,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "hideBookATeamMember" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "metadata" JSONB,
    "theme" TEXT,
    "brandColor" TEXT,
    "darkBrandColor" TEXT,
    "timeFormat" INTEGER,
    "timeZone" TEXT NOT NULL DEFAULT 'Europe/London',
    "weekStart" TEXT NOT NULL DEFAULT 'Sunday',

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."memberships" (
    "id" SERIAL NOT NULL,
    "teamId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "accepted" BOOLEAN NOT NULL DEFAULT false,
    "role" "scheduling"."MembershipRole" NOT NULL DEFAULT 'MEMBER',
    "disableImpersonation" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."event_types" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "locations" JSONB,
    "length" INTEGER NOT NULL,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "userId" INTEGER,
    "teamId" INTEGER,
    "eventName" TEXT,
    "parentId" INTEGER,
    "bookingFields" JSONB,
    "timeZone" TEXT,
    "periodType" "scheduling"."PeriodType" NOT NULL DEFAULT 'UNLIMITED',
    "periodStartDate" TIMESTAMP(3),
    "periodEndDate" TIMESTAMP(3),
    "periodDays" INTEGER,
    "periodCountCalendarDays" BOOLEAN,
    "requiresConfirmation" BOOLEAN NOT NULL DEFAULT false,
    "recurringEvent" JSONB,
    "disableGuests" BOOLEAN NOT NULL DEFAULT false,
    "hideCalendarNotes" BOOLEAN NOT NULL DEFAULT false,
    "minimumBookingNotice" INTEGER NOT NULL DEFAULT 120,
    "beforeEventBuffer" INTEGER NOT NULL DEFAULT 0,
    "afterEventBuffer" INTEGER NOT NULL DEFAULT 0,
    "seatsPerTimeSlot" INTEGER,
    "seatsShowAttendees" BOOLEAN DEFAULT false,
    "seatsShowAvailabilityCount" BOOLEAN DEFAULT true,
    "schedulingType" "scheduling"."SchedulingType",
    "scheduleId" INTEGER,
    "price" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "slotInterval" INTEGER,
    "metadata" JSONB,
    "successRedirectUrl" TEXT,
    "bookingLimits" JSONB,
    "durationLimits" JSONB,
    "onlyShowFirstAvailableSlot" BOOLEAN NOT NULL DEFAULT false,
    "assignAllTeamMembers" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "event_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."event_type_hosts" (
    "userId" INTEGER NOT NULL,
    "eventTypeId" INTEGER NOT NULL,
    "isFixed" BOOLEAN NOT NULL DEFAULT false,
    "priority" INTEGER,
    "weight" INTEGER,
    "scheduleId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_type_hosts_pkey" PRIMARY KEY ("userId","eventTypeId")
);

-- CreateTable
CREATE TABLE "scheduling"."event_type_custom_inputs" (
    "id" SERIAL NOT NULL,
    "eventTypeId" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "type" "scheduling"."EventTypeCustomInputType" NOT NULL,
    "options" JSONB,
    "required" BOOLEAN NOT NULL,
    "placeholder" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "event_type_custom_inputs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."schedules" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "timeZone" TEXT,

    CONSTRAINT "schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."availabilities" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER,
    "eventTypeId" INTEGER,
    "days" INTEGER[],
    "startTime" TIME(6) NOT NULL,
    "endTime" TIME(6) NOT NULL,
    "date" DATE,
    "scheduleId" INTEGER,

    CONSTRAINT "availabilities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."bookings" (
    "id" SERIAL NOT NULL,
    "uid" TEXT NOT NULL,
    "userId" INTEGER,
    "eventTypeId" INTEGER,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "startTime" TIMESTAMP(3) NOT NULL,
    "endTime" TIMESTAMP(3) NOT NULL,
    "location" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3),
    "status" "scheduling"."BookingStatus" NOT NULL DEFAULT 'ACCEPTED',
    "paid" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB,

    CONSTRAINT "bookings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."attendees" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "phoneNumber" TEXT,
    "locale" TEXT DEFAULT 'en',
    "bookingId" INTEGER,
    "noShow" BOOLEAN DEFAULT false,

    CONSTRAINT "attendees_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."booking_references" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "meetingId" TEXT,
    "thirdPartyRecurringEventId" TEXT,
    "meetingPassword" TEXT,
    "meetingUrl" TEXT,
    "bookingId" INTEGER,
    "externalCalendarId" TEXT,
    "deleted" BOOLEAN,
    "credentialId" INTEGER,

    CONSTRAINT "booking_references_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."event_references" (
    "id" SERIAL NOT NULL,
    "bookingId" INTEGER NOT NULL,
    "dailyurl" TEXT NOT NULL,
    "dailytoken" TEXT NOT NULL,

    CONSTRAINT "event_references_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."payments" (
    "id" SERIAL NOT NULL,
    "uid" TEXT NOT NULL,
    "appId" TEXT,
    "bookingId" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "fee" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "refunded" BOOLEAN NOT NULL,
    "data" JSONB NOT NULL,
    "externalId" TEXT NOT NULL,
    "paymentOption" "scheduling"."PaymentOption" DEFAULT 'ON_BOOKING',

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."selected_calendars" (
    "id" UUID NOT NULL,
    "userId" INTEGER NOT NULL,
    "integration" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "credentialId" INTEGER,
    "createdAt" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3),
    "error" TEXT,
    "lastErrorAt" TIMESTAMP(3),

    CONSTRAINT "selected_calendars_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduling"."destination_calendars" (
    "id" SERIAL NOT NULL,
    "integration" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "primaryEmail" TEXT,
    "userId" INTEGER,
    "eventTypeId" INTEGER,
    "credentialId" INTEGER,
    "createdAt" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "destination_calendars_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "scheduling"."users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "scheduling"."users"("email");

-- CreateIndex
CREATE INDEX "users_defaultScheduleId_idx" ON "scheduling"."users"("defaultScheduleId");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hashedKey_key" ON "scheduling"."api_keys"("hashedKey");

-- CreateIndex
CREATE INDEX "api_keys_userId_idx" ON "scheduling"."api_keys"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "teams_slug_key" ON "scheduling"."teams"("slug");

-- CreateIndex
CREATE INDEX "memberships_teamId_idx" ON "scheduling"."memberships"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "memberships_userId_teamId_key" ON "scheduling"."memberships"("userId", "teamId");

-- CreateIndex
CREATE INDEX "event_types_parentId_idx" ON "scheduling"."event_types"("parentId");

-- CreateIndex
CREATE INDEX "event_types_scheduleId_idx" ON "scheduling"."event_types"("scheduleId");

-- CreateIndex
CREATE UNIQUE INDEX "event_types_userId_slug_key" ON "scheduling"."event_types"("userId", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "event_types_teamId_slug_key" ON "scheduling"."event_types"("teamId", "slug");

-- CreateIndex
CREATE INDEX "event_type_hosts_eventTypeId_idx" ON "scheduling"."event_type_hosts"("eventTypeId");

-- CreateIndex
CREATE INDEX "event_type_hosts_scheduleId_idx" ON "scheduling"."event_type_hosts"("scheduleId");

-- CreateIndex
CREATE INDEX "event_type_custom_inputs_eventTypeId_idx" ON "scheduling"."event_type_custom_inputs"("eventTypeId");

-- CreateIndex
CREATE INDEX "schedules_userId_idx" ON "scheduling"."schedules"("userId");

-- CreateIndex
CREATE INDEX "availabilities_userId_idx" ON "scheduling"."availabilities"("userId");

-- CreateIndex
CREATE INDEX "availabilities_eventTypeId_idx" ON "scheduling"."availabilities"("eventTypeId");

-- CreateIndex
CREATE INDEX "availabilities_scheduleId_idx" ON "scheduling"."availabilities"("scheduleId");

-- CreateIndex
CREATE UNIQUE INDEX "bookings_uid_key" ON "scheduling"."bookings"("uid");

-- CreateIndex
CREATE INDEX "bookings_userId_idx" ON "scheduling"."bookings"("userId");

-- CreateIndex
CREATE INDEX "bookings_eventTypeId_idx" ON "scheduling"."bookings"("eventTypeId");

-- CreateIndex
CREATE INDEX "attendees_email_idx" ON "scheduling"."attendees"("email");

-- CreateIndex
CREATE INDEX "attendees_bookingId_idx" ON "scheduling"."attendees"("bookingId");

-- CreateIndex
CREATE INDEX "booking_references_bookingId_idx" ON "scheduling"."booking_references"("bookingId");

-- CreateIndex
CREATE UNIQUE INDEX "event_references_bookingId_key" ON "scheduling"."event_references"("bookingId");

-- CreateIndex
CREATE UNIQUE INDEX "payments_uid_key" ON "scheduling"."payments"("uid");

-- CreateIndex
CREATE UNIQUE INDEX "payments_externalId_key" ON "scheduling"."payments"("externalId");

-- CreateIndex
CREATE INDEX "payments_bookingId_idx" ON "scheduling"."payments"("bookingId");

-- CreateIndex
CREATE UNIQUE INDEX "selected_calendars_userId_integration_externalId_key" ON "scheduling"."selected_calendars"("userId", "integration", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "destination_calendars_userId_key" ON "scheduling"."destination_calendars"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "destination_calendars_eventTypeId_key" ON "scheduling"."destination_calendars"("eventTypeId");

-- AddForeignKey
ALTER TABLE "scheduling"."users" ADD CONSTRAINT "users_defaultScheduleId_fkey" FOREIGN KEY ("defaultScheduleId") REFERENCES "scheduling"."schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."api_keys" ADD CONSTRAINT "api_keys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."memberships" ADD CONSTRAINT "memberships_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "scheduling"."teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."memberships" ADD CONSTRAINT "memberships_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_types" ADD CONSTRAINT "event_types_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_types" ADD CONSTRAINT "event_types_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "scheduling"."teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_types" ADD CONSTRAINT "event_types_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "scheduling"."event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_types" ADD CONSTRAINT "event_types_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "scheduling"."schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_type_hosts" ADD CONSTRAINT "event_type_hosts_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_type_hosts" ADD CONSTRAINT "event_type_hosts_eventTypeId_fkey" FOREIGN KEY ("eventTypeId") REFERENCES "scheduling"."event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_type_hosts" ADD CONSTRAINT "event_type_hosts_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "scheduling"."schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_type_custom_inputs" ADD CONSTRAINT "event_type_custom_inputs_eventTypeId_fkey" FOREIGN KEY ("eventTypeId") REFERENCES "scheduling"."event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."schedules" ADD CONSTRAINT "schedules_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."availabilities" ADD CONSTRAINT "availabilities_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."availabilities" ADD CONSTRAINT "availabilities_eventTypeId_fkey" FOREIGN KEY ("eventTypeId") REFERENCES "scheduling"."event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."availabilities" ADD CONSTRAINT "availabilities_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "scheduling"."schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."bookings" ADD CONSTRAINT "bookings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."bookings" ADD CONSTRAINT "bookings_eventTypeId_fkey" FOREIGN KEY ("eventTypeId") REFERENCES "scheduling"."event_types"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."attendees" ADD CONSTRAINT "attendees_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "scheduling"."bookings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."booking_references" ADD CONSTRAINT "booking_references_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "scheduling"."bookings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."event_references" ADD CONSTRAINT "event_references_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "scheduling"."bookings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."payments" ADD CONSTRAINT "payments_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "scheduling"."bookings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."selected_calendars" ADD CONSTRAINT "selected_calendars_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."destination_calendars" ADD CONSTRAINT "destination_calendars_userId_fkey" FOREIGN KEY ("userId") REFERENCES "scheduling"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduling"."destination_calendars" ADD CONSTRAINT "destination_calendars_eventTypeId_fkey" FOREIGN KEY ("eventTypeId") REFERENCES "scheduling"."event_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;
