-- AlterTable
-- When to stop waiting for receipts (submitted_at + validity + grace). Rows submitted before this
-- migration keep NULL and are never expired: whether they asked for a receipt was not stored.
ALTER TABLE "smsc_connector"."submission" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "submission_receipt_deadline_idx" ON "smsc_connector"."submission"("expires_at") WHERE state = 'submitted' AND final_state IS NULL;
