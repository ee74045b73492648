-- CreateTable
CREATE TABLE "batch"."batch" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "external_batch_id" TEXT,
    "status" TEXT NOT NULL,
    "sender_id" TEXT NOT NULL,
    "message_template" TEXT NOT NULL,
    "validity_minutes" INTEGER,
    "delivery_report" BOOLEAN NOT NULL DEFAULT false,
    "dry_run" BOOLEAN NOT NULL DEFAULT false,
    "callback_url" TEXT,
    "callback_token" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "scheduled_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "total_messages" INTEGER NOT NULL,
    "submitted_messages" INTEGER NOT NULL DEFAULT 0,
    "failed_messages" INTEGER NOT NULL DEFAULT 0,
    "total_parts" INTEGER NOT NULL DEFAULT 0,
    "expanded_through" INTEGER NOT NULL DEFAULT 0,
    "next_chunk_at" TIMESTAMPTZ(3),
    "last_change_seq" BIGINT NOT NULL DEFAULT 0,
    "notified_change_seq" BIGINT NOT NULL DEFAULT 0,
    "progress_at" TIMESTAMPTZ(3),
    "final_event_queued" BOOLEAN NOT NULL DEFAULT false,
    "purge_after" TIMESTAMPTZ(3),

    CONSTRAINT "batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batch"."message" (
    "batch_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "phone_number" TEXT NOT NULL,
    "external_message_id" TEXT,
    "fields" JSONB,
    "text" TEXT,
    "parts" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "transaction_id" UUID,
    "change_seq" BIGINT,
    "submitted_at" TIMESTAMPTZ(3),

    CONSTRAINT "message_pkey" PRIMARY KEY ("batch_id","seq")
);

-- CreateIndex
CREATE INDEX "batch_account_id_created_at_idx" ON "batch"."batch"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "batch_status_scheduled_at_idx" ON "batch"."batch"("status", "scheduled_at");

-- CreateIndex
CREATE INDEX "batch_purge_after_idx" ON "batch"."batch"("purge_after");

-- CreateIndex
CREATE UNIQUE INDEX "message_transaction_id_key" ON "batch"."message"("transaction_id");

-- CreateIndex
CREATE INDEX "message_batch_id_change_seq_idx" ON "batch"."message"("batch_id", "change_seq");
