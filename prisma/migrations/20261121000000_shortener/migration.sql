-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "shortener";

-- CreateTable
CREATE TABLE "shortener"."users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shortener"."tokens" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shortener"."shorts" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shorts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shortener"."short_logs" (
    "id" BIGSERIAL NOT NULL,
    "short_id" UUID NOT NULL,
    "ip_address" VARCHAR(64) NOT NULL,
    "user_agent" VARCHAR(1024) NOT NULL,
    "referer" VARCHAR(2048) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "short_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "shortener"."users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "tokens_token_hash_key" ON "shortener"."tokens"("token_hash");

-- CreateIndex
CREATE INDEX "tokens_user_id_idx" ON "shortener"."tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "shorts_name_key" ON "shortener"."shorts"("name");

-- CreateIndex
CREATE INDEX "shorts_user_id_created_at_idx" ON "shortener"."shorts"("user_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "short_logs_short_id_created_at_idx" ON "shortener"."short_logs"("short_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "shortener"."tokens" ADD CONSTRAINT "tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "shortener"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shortener"."shorts" ADD CONSTRAINT "shorts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "shortener"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shortener"."short_logs" ADD CONSTRAINT "short_logs_short_id_fkey" FOREIGN KEY ("short_id") REFERENCES "shortener"."shorts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
