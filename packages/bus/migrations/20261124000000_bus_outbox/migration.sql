-- The transactional outbox of @msg/bus, in the service's own schema: migrate() runs this with
-- search_path set to that schema, so the names are unqualified.
-- IF NOT EXISTS: databases that applied a service's first migration before the outbox moved here
-- already have these tables; for them this migration changes nothing.

-- CreateTable
CREATE TABLE IF NOT EXISTS "outbox_event" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "headers" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX IF NOT EXISTS "outbox_event_id_key" ON "outbox_event"("id");

-- CreateIndex
-- The relay only ever reads unpublished rows in order; published rows stay for audit.
CREATE INDEX IF NOT EXISTS "outbox_event_unpublished_idx" ON "outbox_event"("seq") WHERE "published_at" IS NULL;

-- CreateTable
-- Events this service's consumers have handled (claimEvent), for at-least-once dedupe.
CREATE TABLE IF NOT EXISTS "processed_event" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_event_pkey" PRIMARY KEY ("consumer","event_id")
);
