-- What the operator set per account (src/fallback): SMS fallback is beyond the specification and
-- off until enabled (`pnpm rcs fallback enable <account>`).
CREATE TABLE "rcs"."account_settings" (
    "account_id" TEXT NOT NULL,
    "sms_fallback" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_settings_pkey" PRIMARY KEY ("account_id")
);

-- The send's `sms_fallback` ({sender, text}) and `ttl`; `expires_at` is when the TTL sweeper
-- revokes the message if RBM has not delivered it (set only when there is a TTL or a fallback);
-- `sms_transaction_id` is the fallback SMS (set once: a redelivered trigger sends no second SMS);
-- `failure_reason` is the rcs.out.failed reason once failed.
ALTER TABLE "rcs"."messages" ADD COLUMN "sms_fallback" JSONB,
ADD COLUMN "ttl_seconds" INTEGER,
ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "sms_transaction_id" UUID,
ADD COLUMN "failure_reason" TEXT;

-- The sweeper's look-up of due messages, and the SMS status consumer's by SMS id.
CREATE INDEX "messages_expires_at_idx" ON "rcs"."messages"("expires_at");
CREATE UNIQUE INDEX "messages_sms_transaction_id_key" ON "rcs"."messages"("sms_transaction_id");
