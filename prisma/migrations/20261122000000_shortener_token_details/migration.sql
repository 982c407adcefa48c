-- What `token:list` shows of a token besides its id and creation time (never the secret).
ALTER TABLE "shortener"."tokens"
  ADD COLUMN "note" VARCHAR(255),
  ADD COLUMN "last_used_at" TIMESTAMPTZ(3);
