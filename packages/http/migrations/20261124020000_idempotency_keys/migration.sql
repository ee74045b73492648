-- Idempotency-Key records of @msg/http (src/idempotency). Applied into each service's own schema
-- (search_path), beside the service's tables: a key is scoped to account + method + path.

-- CreateTable
CREATE TABLE "idempotency_key" (
    "scope" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    -- Who holds the key while the first request runs; completing or releasing needs it.
    "claim" UUID NOT NULL,
    -- sha256 of the request body bytes as received; NULL while a streamed body is still read.
    "fingerprint" TEXT,
    "body_bytes" BIGINT,
    -- NULL while the first request is in flight; then the stored answer.
    "status" INTEGER,
    "headers" JSONB,
    "body" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- An in-flight claim older than this was abandoned (its process died) and may be taken over.
    "locked_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("scope", "method", "path", "key")
);

-- CreateIndex: the periodic purge deletes the oldest first.
CREATE INDEX "idempotency_key_created_at_idx" ON "idempotency_key"("created_at");
