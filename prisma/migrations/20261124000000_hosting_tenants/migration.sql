-- Hosted mode's tenant registry (docs/decisions.md, "Hosted mode"). Read in the default
-- database; tenant databases run the same migrations and keep the table empty.
-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "hosting";

-- CreateTable
CREATE TABLE "hosting"."tenants" (
    "id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "license_key_hash" CHAR(64) NOT NULL,
    "database_url_encrypted" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabled_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_name_key" ON "hosting"."tenants"("name");

-- CreateIndex
CREATE UNIQUE INDEX "tenants_license_key_hash_key" ON "hosting"."tenants"("license_key_hash");

-- Every instance of the API LISTENs on this channel and forgets a tenant as soon as its row
-- changes (disabled, key rotated) or is deleted, whoever changed it: the notification is sent
-- at commit. Not part of the Prisma schema (Prisma has no triggers); the runner applies it.
CREATE FUNCTION "hosting"."notify_tenant_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('scheduling_tenant_changed', OLD."id"::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER "tenants_notify_changed"
AFTER UPDATE OR DELETE ON "hosting"."tenants"
FOR EACH ROW EXECUTE FUNCTION "hosting"."notify_tenant_changed"();
