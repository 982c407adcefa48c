-- A short's public statistics page (issue 18): an unguessable link its owner creates and
-- revokes. Only the SHA-256 of the link's token is kept; one link per short.

-- CreateTable
CREATE TABLE "shortener"."stats_links" (
    "short_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stats_links_pkey" PRIMARY KEY ("short_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stats_links_token_hash_key" ON "shortener"."stats_links"("token_hash");

-- AddForeignKey
ALTER TABLE "shortener"."stats_links" ADD CONSTRAINT "stats_links_short_id_fkey" FOREIGN KEY ("short_id") REFERENCES "shortener"."shorts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
