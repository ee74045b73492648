-- The account that created a webhook: its deliveries are signed by the notifier (Standard Webhooks)
-- with that account's callback signing secret, beside the webhook's own X-Webhook-Signature.
-- AlterTable
ALTER TABLE "rcs"."webhooks" ADD COLUMN     "account_id" TEXT;

-- Webhooks made before the creator was kept: the first account allowed to manage the agent (the
-- only one, on agents with one account) stands for it.
UPDATE "rcs"."webhooks" w SET "account_id" = (
  SELECT min(aa."account_id") FROM "rcs"."agent_accounts" aa WHERE aa."agent_id" = w."agent_id"
) WHERE w."account_id" IS NULL;
