-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "sms";

-- CreateTable
CREATE TABLE "sms"."message" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "recipient" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "encoding" TEXT NOT NULL,
    "parts" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'accepted',
    "smsc_message_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "callback_url" TEXT,
    "error" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "submitted_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms"."outbox_event" (
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

-- CreateTable
CREATE TABLE "sms"."processed_event" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_event_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE INDEX "message_account_id_created_at_idx" ON "sms"."message"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_event_id_key" ON "sms"."outbox_event"("id");

-- CreateIndex
CREATE INDEX "outbox_event_unpublished_idx" ON "sms"."outbox_event"("seq") WHERE published_at IS NULL;
