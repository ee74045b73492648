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

-- CreateIndex
CREATE INDEX "message_account_id_created_at_idx" ON "sms"."message"("account_id", "created_at");
