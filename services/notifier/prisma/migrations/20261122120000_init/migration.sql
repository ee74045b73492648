-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "notifier";

-- CreateTable
CREATE TABLE "notifier"."callback" (
    "callback_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    -- Origin of url (scheme://host:port): the unit of the per-target concurrency limit.
    "target" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "query" JSONB,
    "body" JSONB,
    "origin" JSONB NOT NULL,
    "give_up_at" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "callback_pkey" PRIMARY KEY ("callback_id"),
    CONSTRAINT "callback_method_check" CHECK ("method" IN ('GET', 'POST')),
    CONSTRAINT "callback_status_check" CHECK ("status" IN ('pending', 'delivered', 'dead'))
);

-- CreateIndex
-- The delivery loop only ever looks for pending rows that are due.
CREATE INDEX "callback_due_idx" ON "notifier"."callback"("next_attempt_at") WHERE "status" = 'pending';
