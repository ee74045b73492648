-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "smsc_connector";

-- CreateTable
-- One row per outbound message the connector finished submitting (or that the SMSC refused).
-- Its presence is what makes a redelivered sms.outbound.v1 event a no-op.
CREATE TABLE "smsc_connector"."submission" (
    "message_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "parts" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "smsc_message_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "bind" TEXT,
    "error" JSONB,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- Set once the final status (from receipts) was published, so it is published once.
    "final_state" TEXT,

    CONSTRAINT "submission_pkey" PRIMARY KEY ("message_id"),
    CONSTRAINT "submission_state_check" CHECK ("state" IN ('submitted', 'failed'))
);

-- CreateTable
-- Each accepted part, found again by the receipt's (bind, SMSC message id).
CREATE TABLE "smsc_connector"."submitted_part" (
    "bind" TEXT NOT NULL,
    "smsc_message_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "part_no" INTEGER NOT NULL,
    "final_state" TEXT,
    "receipt_stat" TEXT,
    "receipt_err" TEXT,

    CONSTRAINT "submitted_part_pkey" PRIMARY KEY ("bind","smsc_message_id"),
    CONSTRAINT "submitted_part_final_state_check" CHECK ("final_state" IN ('delivered', 'failed', 'expired'))
);

-- CreateIndex
CREATE INDEX "submitted_part_message_idx" ON "smsc_connector"."submitted_part"("message_id");

-- CreateTable
-- A receipt that overtook the commit of its submission; applied right after that commit.
CREATE TABLE "smsc_connector"."orphan_receipt" (
    "bind" TEXT NOT NULL,
    "smsc_message_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "stat" TEXT,
    "err" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orphan_receipt_pkey" PRIMARY KEY ("bind","smsc_message_id")
);

-- CreateTable
-- Parts of a concatenated mobile-originated SMS until every part arrived.
CREATE TABLE "smsc_connector"."inbound_part" (
    "source_addr" TEXT NOT NULL,
    "ref" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "destination_addr" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "smsc_message_id" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_part_pkey" PRIMARY KEY ("source_addr","ref","seq")
);
